import Glibc

/// The environment of this process, read once from `environ` (no Foundation).
public enum ProcessEnvironment {
    /// Every `NAME=value` pair of the process environment. For duplicate names the first wins,
    /// as with `getenv`.
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var cursor = start else { return result }
        while let entry = cursor.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") {
                let name = String(pair[..<equals])
                if result[name] == nil {
                    result[name] = String(pair[pair.index(after: equals)...])
                }
            }
            cursor += 1
        }
        return result
    }
}
