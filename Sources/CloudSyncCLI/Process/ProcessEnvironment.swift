import Glibc

/// The environment of this process, read once from `environ` (no Foundation).
public enum ProcessEnvironment {
    /// Every `NAME=value` pair of the process environment. For duplicate names the first wins,
    /// as with `getenv`. Runs on every start: the dictionary is sized once, and each name and
    /// value is made straight from its bytes (no intermediate `NAME=value` string).
    public static func current() -> [String: String] {
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard let start else { return [:] }
        var count = 0
        while start[count] != nil { count += 1 }
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let entry = start[index] else { continue }
            let length = strlen(entry)
            let bytes = UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self)
            guard let equals = memchr(entry, 61, length).map({ UnsafeRawPointer($0) - UnsafeRawPointer(entry) }) else { continue }
            let name = String(decoding: UnsafeBufferPointer(start: bytes, count: equals), as: UTF8.self)
            if result[name] == nil {
                result[name] = String(decoding: UnsafeBufferPointer(start: bytes + equals + 1, count: length - equals - 1), as: UTF8.self)
            }
        }
        return result
    }
}
