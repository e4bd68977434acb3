import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Facts about the machine that help judge noise: cores and load averages.
enum MachineInfo {
    static var cores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The 1-, 5- and 15-minute load averages.
    static var loadAverages: [Double] {
        var loads = [Double](repeating: 0, count: 3)
        let n = getloadavg(&loads, 3)
        return n == 3 ? loads : []
    }

    static func loadJSON() -> JSONValue { .array(loadAverages.map { JSONFigures.number($0, 2) }) }
}
