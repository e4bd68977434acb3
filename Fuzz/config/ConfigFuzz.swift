import CloudSyncCLI

// libFuzzer target: the config file parser (`$XDG_CONFIG_HOME/cloudsync/config`). Checks: no
// crash; every setting kept is a known key with a non-empty value from a line of the file.

@_cdecl("LLVMFuzzerTestOneInput")
public func configFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let config = ConfigFile.parse(text, path: "config")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    for (key, entry) in config.entries {
        guard ConfigFile.keys.contains(key), !entry.value.isEmpty, (1...lines).contains(entry.line) else {
            fatalError("config kept an impossible entry: \(key) = \(entry.value) at line \(entry.line)")
        }
    }
    return 0
}
