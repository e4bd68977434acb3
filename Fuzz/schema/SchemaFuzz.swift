import CloudSyncCore

// libFuzzer target: the CloudKit Schema Language (.ckdb files for `schema validate`, `import`,
// `diff`). Input: the schema text. An input starting with byte 1 is a repetition: a 16-bit
// little-endian count, then `prefix NUL middle NUL suffix`, giving prefix×count + middle +
// suffix×count (so a few bytes reach long or deeply nested texts, like `LIST<`×n).
// Checks: no crash; an error has a position ≥ 1:1 and renders on one line; a parsed schema
// prints, the print parses back to the same schema and prints to the same bytes, and diffs to
// itself with no differences and no deploy violations.

@_cdecl("LLVMFuzzerTestOneInput")
public func schemaFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text: String
    if bytes.count >= 3, bytes[0] == 1 {
        let count = Int(bytes[1]) | Int(bytes[2]) << 8
        let parts = bytes[3...].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
        let prefix = parts[0], middle = parts.count > 1 ? parts[1] : [], suffix = parts.count > 2 ? parts[2] : []
        guard (prefix.count + suffix.count) * count <= 1 << 18 else { return -1 }
        var repeated: [UInt8] = []
        for _ in 0..<count { repeated += prefix }
        repeated += middle
        for _ in 0..<count { repeated += suffix }
        text = String(decoding: repeated, as: UTF8.self)
    } else {
        text = String(decoding: bytes, as: UTF8.self)
    }
    let schema: CloudSchema
    do {
        schema = try SchemaParser.parse(text)
    } catch {
        let line = error.rendered(file: "f.ckdb")
        if error.line < 1 || error.column < 1 || line.contains("\n") || line.contains("\r") {
            fatalError("a badly placed or multi-line error: \(line)")
        }
        return 0
    }
    let printed = SchemaPrinter.print(schema)
    guard let again = try? SchemaParser.parse(printed) else {
        fatalError("the print of a parsed schema does not parse:\n\(printed)")
    }
    if again != schema { fatalError("parse(print(s)) != s:\n\(printed)") }
    if SchemaPrinter.print(again) != printed { fatalError("printing is not stable:\n\(printed)") }
    if !SchemaDiff(from: schema, to: again).isEmpty { fatalError("a schema differs from itself:\n\(printed)") }
    if !SchemaDeployCheck(development: schema, production: again).isAllowed {
        fatalError("deploying a schema onto itself has violations:\n\(printed)")
    }
    return 0
}
