extension JSONValue {
    /// Serializes to compact JSON (one line), as NDJSON and machine output want.
    public func serialized() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writeCompact(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Compact output into a byte buffer (much cheaper than appending to a String piecewise).
    func writeCompact(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: JSONValue.format(d).utf8)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.writeCompact(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.writeCompact(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `JSONValue.array(strings.map { .string($0) }).serialized()` without building the array
    /// of values: the changed keys of every history row a pull writes.
    public static func serializedStrings(_ strings: [String]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        out.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeString(string, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Serializes with two-space indentation, for humans.
    public func prettyPrinted() -> String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.format(d)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                JSONValue.newline(&out, indent, level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            JSONValue.newline(&out, indent, level)
            out += "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.newline(&out, indent, level + 1)
                JSONValue.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent, level: level + 1)
            }
            JSONValue.newline(&out, indent, level)
            out += "}"
        }
    }

    static func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<level { out += indent }
    }

    /// JSON has no infinities or NaN: they are written as null. Integral doubles keep a `.0`.
    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        return d.description
    }
}
