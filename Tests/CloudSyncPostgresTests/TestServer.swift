import CloudSyncPostgres
import Glibc

/// The PostgreSQL the tests use: `CLOUDSYNC_TEST_POSTGRES_URL`, set by `scripts/with-postgres`
/// (`.ci/run` runs every test inside it). Unset, every test that needs a server fails with a
/// message saying how to run it; it is never skipped, in CI or not, so a suite without its
/// server can never pass unnoticed.
enum TestServer {
    /// Why there is no server to test against.
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            let ci = getenv("CI").map { String(cString: $0) } == "true"
            return ci
                ? "CLOUDSYNC_TEST_POSTGRES_URL is not set in CI: .ci/run must run the tests under scripts/with-postgres"
                : "CLOUDSYNC_TEST_POSTGRES_URL is not set: run the tests under a throwaway cluster with "
                    + "`scripts/with-postgres scripts/test` (or `scripts/with-postgres swift test --filter CloudSyncPostgresTests`)"
        }
    }

    /// The URL of the test cluster (password authentication over TCP).
    static func urlText() throws -> String {
        guard let value = getenv("CLOUDSYNC_TEST_POSTGRES_URL").map({ String(cString: $0) }), !value.isEmpty else {
            throw Missing()
        }
        return value
    }

    static func url() throws -> PostgresURL { try PostgresURL(urlText()) }

    /// A new connection to the test database.
    static func connect() throws -> PostgresConnection { try PostgresConnection(url()) }

    /// A name no other test (running in parallel on the same database) uses.
    static func uniqueName(_ prefix: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 6)
        _ = getentropy(&bytes, bytes.count)
        return prefix + "_" + bytes.map { String($0, radix: 16) }.joined()
    }
}
