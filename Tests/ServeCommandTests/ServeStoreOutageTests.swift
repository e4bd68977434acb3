import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A store that cannot be reached is no verdict on a token (issue 25, item 3): `serve` over a
/// PostgreSQL that went away answers 503 TRY_AGAIN_LATER with `retryAfter`, never 401, and the
/// client retries and exits 75; when the database is back, the same token works.
@Suite("cloudsync serve: the store goes away (end to end)")
struct ServeStoreOutageTests {
    /// A TCP forwarder from a local port to PostgreSQL (Python's standard library), so the test
    /// can take the database away from `serve` (SIGKILL: every connection drops, new ones are
    /// refused) and bring it back on the same port.
    static let forwarder = #"""
import os, socket, sys, threading
port, target_host, target_port, port_file = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", port))
server.listen(64)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.getsockname()[1]) + "\n")
os.rename(port_file + ".tmp", port_file)
def pump(source, sink):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    for s in (source, sink):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
while True:
    client, _ = server.accept()
    try:
        upstream = socket.create_connection((target_host, target_port))
    except OSError:
        client.close()
        continue
    threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
    threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
"""#

    /// The `host:port` of a `postgres://user:password@host:port/db?…` URL, and the URL with
    /// another `host:port` put in its place.
    static func hostPort(of url: String) -> (hostPort: String, replacing: (String) -> String) {
        let afterAt = url.firstIndex(of: "@").map { url[url.index(after: $0)...] } ?? url.dropFirst("postgres://".count)
        let end = afterAt.firstIndex(of: "/") ?? afterAt.endIndex
        let hostPort = String(afterAt[..<end])
        return (hostPort, { String(url[..<afterAt.startIndex]) + $0 + String(url[end...]) })
    }

    /// Starts the forwarder on `port` (0: any) to `target` (`host:port`); returns it and the port it listens on.
    static func startForwarder(_ folder: TemporaryDirectory, port: Int, to target: String) throws -> (RunningProcess, Int) {
        let portFile = folder.file("forwarder-\(port).port")
        let runner = BinaryRunner(home: folder.path, executable: "/usr/bin/python3")
        let parts = target.split(separator: ":")
        let process = runner.start(["-c", forwarder, String(port), String(parts.first ?? "127.0.0.1"), String(parts.last ?? "5432"), portFile])
        guard BackgroundProcess.waitForText("\n", in: portFile, seconds: 10), let bound = Int(trimmed(BackgroundProcess.read(portFile))) else {
            process.kill()
            throw CloudError(.networkUnavailable, "the forwarder did not start")
        }
        return (process, bound)
    }

    @Test func aTokenIsAnsweredTryAgainLaterWhileTheStoreIsAwayAndWorksWhenItIsBack() throws {
        let direct = try ServeStatelessNodesTests.freshPostgresCloud()
        let folder = TemporaryDirectory("store-outage")
        let (target, replacing) = Self.hostPort(of: direct)
        let (first, port) = try Self.startForwarder(folder, port: 0, to: target)
        let fixture = try ServeFixture(cloud: replacing("127.0.0.1:\(port)"))
        let (_, client) = fixture.client("outage")
        #expect(client.run(["zone", "create", "Notes"], device: "a").status == 0)
        first.kill()
        first.wait()
        let raw = ProcessSpawner.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(fixture.token)", "-w", "\n%{http_code}",
                                                       fixture.url + "/database/1/iCloud.com.example.App/development/private/zones/list"],
                                     environment: [:])
        #expect(raw.stdout.hasSuffix("\n503"), "\(raw.stdout)")
        #expect(raw.stdout.contains("\"TRY_AGAIN_LATER\""), "\(raw.stdout)")
        #expect(raw.stdout.contains("\"retryAfter\":1"), "\(raw.stdout)")
        let away = client.run(["zone", "list"], device: "a")
        #expect(away.status == 75, "\(away.status) \(away.stderr)")
        #expect(!away.stderr.contains("authentication"), "\(away.stderr)")
        let (second, _) = try Self.startForwarder(folder, port: port, to: target)
        defer { second.kill(); second.wait() }
        let back = client.run(["zone", "list", "--json"], device: "a")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("Notes"), "\(back.stdout)")
        #expect(fixture.stop() == 0)
    }
}
