import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Entry point: `cloudsync-bench [options]`, or the hidden `child-OP` / `child-OP-run` (OP:
/// fetch, push, pull) used for peak-RSS measurements, or the hidden `pending-device DEVICE
/// ROWS` (writes the pending device of (d), e.g. to profile `child-push-run` on it). Exit
/// codes: 0 ok, 1 a benchmark failed, 64 usage.
enum BenchMain {
    static func run(_ arguments: [String]) -> Int32 {
        var hidden: [String: ([String]) throws -> JSONValue] = [:]
        for operation in ChildOperation.allCases {
            hidden[operation.relayName] = { try ChildRelay.run(operation, $0) }
            hidden[operation.runName] = { try ChildCommand.run(operation, $0) }
        }
        hidden[StoreWorkload.pendingDeviceCommand] = StoreWorkload.runPendingDevice
        hidden[ProcessRelay.command] = ProcessRelay.run
        if let first = arguments.first, let subcommand = hidden[first] {
            do {
                print(try subcommand(Array(arguments.dropFirst())).serialized())
                return 0
            } catch {
                Log.line("cloudsync-bench \(first): \(error)")
                return 1
            }
        }
        if arguments.contains("-h") || arguments.contains("--help") {
            print(BenchOptions.usage)
            return 0
        }
        let options: BenchOptions
        do {
            options = try BenchOptions(arguments: arguments)
        } catch {
            Log.line("cloudsync-bench: \(error)\n\n\(BenchOptions.usage)")
            return 64
        }
        do {
            let document = try BenchRunner(options: options).run().serialized()
            print(document)
            if let path = options.jsonOut { try FileIO.write(document + "\n", to: path) }
            return 0
        } catch {
            Log.line("cloudsync-bench: \(error)")
            return 1
        }
    }
}

exit(BenchMain.run(Array(CommandLine.arguments.dropFirst())))
