import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A "server" that answers garbage (Python's standard library, every request 200 with bytes that
/// are not JSON): the watcher says why on one line, retries on its backoff without spinning, and
/// a SIGTERM still ends it cleanly.
@Suite("sync --watch facing a server that answers garbage (end to end)")
struct SyncWatchBadServerTests {
    static let garbageServer = #"""
import http.server, sys
count_file, port_file = sys.argv[1], sys.argv[2]
class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self):
        with open(count_file, "a") as f:
            f.write(self.path + "\n")
        body = b"\x00garbage{{{ not json"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = do_PUT = answer
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]) + "\n")
import os
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
"""#

    @Test func garbageIsRetriedOnTheBackoffWithOneLineAndSIGTERMStillWorks() throws {
        let folder = TemporaryDirectory("watch-garbage")
        let python = BinaryRunner(home: folder.path, executable: "/usr/bin/python3")
        let server = python.start(["-c", Self.garbageServer, folder.file("requests"), folder.file("port")])
        defer { server.kill(); _ = server.wait() }
        #expect(BackgroundProcess.waitForText("\n", in: folder.file("port"), seconds: 10))
        let port = BackgroundProcess.read(folder.file("port")).filter(\.isNumber)
        let client = BinaryRunner(home: folder.path, extra: ["CLOUDSYNC_CLOUD": "http://127.0.0.1:\(port)",
                                                             "CLOUDSYNC_TOKEN": "cst_garbage", "CLOUDSYNC_SYNC_BACKOFF": "0.2,1"])
        let watcher = BackgroundProcess(client, ["sync", "--watch"], device: "a", stdout: folder.file("out"), stderr: folder.file("err"))
        sleepSeconds(4)
        #expect(kill(watcher.pid, 0) == 0, "still waiting for a server that makes sense: \(BackgroundProcess.read(folder.file("err")))")
        let requests = BackgroundProcess.read(folder.file("requests")).split(separator: "\n").count
        #expect(requests >= 2 && requests <= 30, "retried on the backoff, no spin: \(requests) requests in 4 s")
        kill(watcher.pid, SIGTERM)
        #expect(watcher.wait(seconds: 20) == 0)
        let err = BackgroundProcess.read(folder.file("err"))
        let lines = err.split(separator: "\n")
        #expect(lines.count == 1 && err.hasPrefix("offline: ") && err.contains("not JSON"), "one line says why: \(err)")
    }
}
