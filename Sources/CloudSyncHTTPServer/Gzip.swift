import CZlib

/// gzip (RFC 1952) over zlib: whole bodies in memory, as the server holds them.
public enum Gzip {
    /// Why a gzip body could not be read.
    public enum Failure: Error, Sendable, Equatable {
        /// The decompressed body would be larger than the limit (a "gzip bomb" stops here).
        case tooLarge(limit: Int)
        /// Not a gzip stream, or a damaged one.
        case malformed
        /// zlib could not be loaded.
        case unavailable(String)
    }

    /// `bytes` compressed as one gzip member; nil when zlib cannot be loaded or fails. Level 1
    /// by default: a changes page of JSON comes out about a sixth larger than at zlib's default
    /// level 6, in about a sixth of the time (0.7 against 4.8 ms for 240 KB).
    public static func compress(_ bytes: [UInt8], level: Int32 = 1) -> [UInt8]? {
        guard let z = try? LibZ.shared() else { return nil }
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        guard z.deflateInit(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, z.version,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { _ = z.deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count / 2 + 64)
        var produced = 0
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                if produced == output.count { output += [UInt8](repeating: 0, count: max(output.count, 1024)) }
                let result: Int32 = output.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress! + produced
                    stream.avail_out = uInt(target.count - produced)
                    let result = z.deflate(&stream, Z_FINISH)
                    produced = target.count - Int(stream.avail_out)
                    return result
                }
                if result != Z_OK && result != Z_BUF_ERROR { return result }
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[..<produced])
    }

    /// The bytes of the gzip stream `bytes`, refused as soon as they pass `limit`.
    public static func decompress(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        let z: LibZ
        do { z = try LibZ.shared() } catch { throw .unavailable(error.description) }
        var stream = z_stream()
        guard z.inflateInit(&stream, 15 + 16, z.version, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .unavailable("inflateInit2 failed")
        }
        defer { _ = z.inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let outcome: Failure? = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (result, count): (Int32, Int) = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let result = z.inflate(&stream, Z_NO_FLUSH)
                    return (result, target.count - Int(stream.avail_out))
                }
                guard output.count + count <= limit else { return .tooLarge(limit: limit) }
                output += chunk[..<count]
                switch result {
                case Z_STREAM_END: return stream.avail_in == 0 ? nil : .malformed
                case Z_OK: continue
                case Z_BUF_ERROR where count > 0: continue
                default: return .malformed
                }
            }
        }
        if let outcome { throw outcome }
        return output
    }

    /// Replies smaller than this go as they are: gzip would save little.
    public static let minimumSize = 1024

    /// `response` for a client that accepts gzip: its body compressed, with `Content-Encoding:
    /// gzip` and `Vary: Accept-Encoding`, when it has `minimumSize` bytes or more, no coding yet,
    /// and compressing makes it smaller. Any reply of the server goes through here.
    public static func encode(_ response: HTTPResponse) -> HTTPResponse {
        guard response.body.count >= minimumSize, response.headers["Content-Encoding"] == nil,
              response.status != 204, response.status != 304, response.status >= 200 else { return response }
        var encoded = response
        encoded.headers.set("Vary", "Accept-Encoding")
        guard let compressed = compress(response.body), compressed.count < response.body.count else { return encoded }
        encoded.body = compressed
        encoded.headers.set("Content-Encoding", "gzip")
        return encoded
    }

    /// True when an `Accept-Encoding` value accepts gzip (`gzip` or `x-gzip` or `*`, unless given `q=0`).
    public static func accepted(by acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let coding = parts.first, ["gzip", "x-gzip", "*"].contains(coding) else { continue }
            let refused = parts.dropFirst().contains { parameter in
                let text = parameter.replacingSpaces
                return text.hasPrefix("q=") && Double(text.dropFirst(2)) == 0
            }
            if !refused { return true }
        }
        return false
    }
}

private extension Substring {
    var trimmingSpaces: String {
        var scalars = unicodeScalars[...]
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
        while scalars.last == " " || scalars.last == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

private extension String {
    var replacingSpaces: String { String(unicodeScalars.filter { $0 != " " && $0 != "\t" }) }
}
