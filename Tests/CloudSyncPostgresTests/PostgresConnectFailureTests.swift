@testable import CloudSyncPostgres
import Glibc
import Testing

@Suite("PostgresConnection: failing to connect is a typed, one-line error")
struct PostgresConnectFailureTests {
    /// A TCP port on 127.0.0.1 nothing listens on: bound by the kernel's choice, then closed.
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(fd, raw, length)
                _ = getsockname(fd, raw, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aWrongPasswordIsAnAuthenticationFailure() throws {
        var url = try TestServer.url()
        url.password = "certainly-not-the-password"
        do {
            _ = try PostgresConnection(url)
            Issue.record("connected with a wrong password")
        } catch {
            guard case .authenticationFailed(let user, let reason) = error else {
                Issue.record("\(error) is not authenticationFailed")
                return
            }
            #expect(user == url.user)
            #expect(reason.contains("password authentication failed"), "\(reason)")
            #expect(!error.description.contains("\n") && !error.description.contains("certainly-not"))
        }
    }

    @Test func noPasswordIsAnAuthenticationFailureToo() throws {
        var url = try TestServer.url()
        url.password = nil
        do {
            _ = try PostgresConnection(url)
            Issue.record("connected without a password")
        } catch {
            guard case .authenticationFailed = error else {
                Issue.record("\(error) is not authenticationFailed")
                return
            }
        }
    }

    @Test func anUnknownRoleIsAnAuthenticationFailure() throws {
        var url = try TestServer.url()
        url.user = TestServer.uniqueName("nobody")
        do {
            _ = try PostgresConnection(url)
            Issue.record("connected as an unknown role")
        } catch {
            guard case .authenticationFailed = error else {
                Issue.record("\(error) is not authenticationFailed")
                return
            }
        }
    }

    @Test func aMissingDatabaseIsNamed() throws {
        var url = try TestServer.url()
        let name = TestServer.uniqueName("absent")
        url.database = name
        #expect(throws: PostgresError.databaseMissing(name)) { _ = try PostgresConnection(url) }
    }

    @Test func aClosedPortIsUnreachable() throws {
        let port = Self.closedPort()
        let url = try PostgresURL("postgres://u:pw@127.0.0.1:\(port)/d?connect_timeout=5")
        do {
            _ = try PostgresConnection(url)
            Issue.record("connected to a closed port")
        } catch {
            guard case .unreachable(let endpoint, let reason) = error else {
                Issue.record("\(error) is not unreachable")
                return
            }
            #expect(endpoint == "127.0.0.1:\(port)")
            #expect(reason.contains("Connection refused"), "\(reason)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func anUnknownHostIsUnreachable() throws {
        let url = try PostgresURL("postgres://u:pw@no-such-host.invalid/d?connect_timeout=5")
        do {
            _ = try PostgresConnection(url)
            Issue.record("connected to an unknown host")
        } catch {
            guard case .unreachable = error else {
                Issue.record("\(error) is not unreachable")
                return
            }
        }
    }

    @Test func classifyingLibpqMessages() {
        let url = PostgresURL(user: "u", host: "h", port: 1, database: "d")
        #expect(PostgresError.connecting("""
            connection to server at "h" (10.0.0.1), port 1 failed: timeout expired

            """, url: url) == .unreachable(endpoint: "h:1", reason: "timeout expired"))
        #expect(PostgresError.connecting("""
            connection to server at "localhost" (::1), port 1 failed: Connection refused
            \tIs the server running on that host and accepting TCP/IP connections?
            connection to server at "localhost" (127.0.0.1), port 1 failed: FATAL:  password authentication failed for user "u"

            """, url: url) == .authenticationFailed(user: "u", reason: "password authentication failed for user \"u\""))
        #expect(PostgresError.connecting("""
            connection to server at "h", port 1 failed: FATAL:  sorry, too many clients already

            """, url: url) == .connectionFailed("sorry, too many clients already"))
        #expect(PostgresError.connecting("""
            connection to server at "h", port 1 failed: FATAL:  database "d" does not exist
            """, url: url) == .databaseMissing("d"))
    }
}
