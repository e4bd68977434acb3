@testable import CloudSyncHTTPServer
import Glibc
import TestSupport
import Testing

@Suite("HTTPServer: graceful stop and termination signals")
struct HTTPServerStopTests {
    @Test func stopWaitsForTheRequestInFlightThenRefusesConnections() throws {
        let gate = Gate()
        let finished = Collected<Int>()
        let harness = try ServerHarness { _ in
            gate.wait()
            finished.append(1)
            return HTTPResponse(status: 200, body: Array("finished".utf8))
        }
        let answers = Collected<String>()
        let stopReturned = Collected<Int>()
        runOnThreads(3) { role in
            switch role {
            case 0:
                let client = RawClient(port: harness.port)
                defer { client.close() }
                client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                answers.append(client.readResponse())
            case 1:
                #expect(eventually { gate.waiters == 1 })
                harness.server.stop(grace: .seconds(20))
                // The handler had finished (it was released below) before stop returned.
                stopReturned.append(finished.all.count)
            default:
                #expect(eventually { gate.waiters == 1 })
                #expect(eventually { harness.server.lock.withLock { harness.server.stopping } })
                usleep(200_000)
                #expect(stopReturned.all.isEmpty, "stop returned while a request was in flight")
                gate.release()
            }
        }
        #expect(stopReturned.all == [1])
        #expect(answers.all.first?.hasSuffix("\r\n\r\nfinished") == true, "\(answers.all)")
        let late = RawClient(port: harness.port, receiveTimeoutSeconds: 5)
        defer { late.close() }
        late.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(late.readAll() == "")
    }

    @Test func stopReturnsAfterTheGracePeriodWhenAHandlerHangs() throws {
        let gate = Gate()
        let harness = try ServerHarness { _ in
            gate.wait()
            return HTTPResponse(status: 200)
        }
        let client = RawClient(port: harness.port)
        defer { client.close() }
        client.send("GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(eventually { gate.waiters == 1 })
        harness.server.stop(grace: .milliseconds(300))
        #expect(gate.waiters == 1, "stop returned only once the hanging handler was released")
        gate.release()
    }

    @Test func aTerminationSignalStopsTheServer() throws {
        let harness = try ServerHarness { _ in HTTPResponse(status: 200) }
        let waiter = Collected<pthread_t>()
        let received = Collected<Int32>()
        runOnThreads(2) { role in
            if role == 0 {
                // SIGUSR2 stands in for SIGTERM: it is sent to this thread only (pthread_kill), so
                // the test process is not at risk whatever the other threads' masks are.
                let signals = TerminationSignals([SIGUSR2])
                waiter.append(pthread_self())
                received.append(signals.stopOnSignal(harness.server, grace: .seconds(5)))
            } else {
                #expect(eventually { waiter.all.count == 1 })
                usleep(50_000)
                pthread_kill(waiter.all[0], SIGUSR2)
            }
        }
        #expect(received.all == [SIGUSR2])
        #expect(harness.server.lock.withLock { harness.server.stopped })
    }
}
