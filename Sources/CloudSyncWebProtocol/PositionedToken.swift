import CloudSyncCore

/// Change tokens that carry a position (issue 28): a server with read replicas appends
/// `.` + the position's offset in hex to every `syncToken` it hands out (`token.3A5F0C8`), so a
/// client that only keeps tokens (another CloudKit client, a new process) carries the position
/// back with them. The base64url alphabet of tokens has no `.`, so a token without one (every
/// token of a server without replicas, and those of older servers) reads as before, and the
/// suffix is dropped wherever a token is read, by any server and by `HTTPCloud`.
public enum PositionedToken {
    /// The token without its position, and the position (nil when it carries none).
    public static func split(_ text: String) -> (token: String, position: ReadPosition?) {
        guard let dot = text.lastIndex(of: "."), case let hex = text[text.index(after: dot)...],
              (1...16).contains(hex.count), hex.allSatisfy(\.isHexDigit), let offset = UInt64(hex, radix: 16) else {
            return (text, nil)
        }
        return (String(text[..<dot]), ReadPosition(offset: offset))
    }

    /// `reply` with `.HEX` of `position` appended to each `"syncToken":"…"` string in it (a
    /// JSON reply as this server writes it: a token holds no `"` or escape, and the key's
    /// pattern cannot occur inside another string, whose quotes are escaped).
    public static func stamping(_ reply: [UInt8], with position: ReadPosition) -> [UInt8] {
        let key = Array(#""syncToken":""#.utf8)
        let suffix = Array(("." + String(position.offset, radix: 16, uppercase: true)).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(reply.count + 64)
        var index = 0
        while index < reply.count {
            if reply[index] == key[0], index + key.count <= reply.count, reply[index..<index + key.count].elementsEqual(key) {
                out.append(contentsOf: key)
                index += key.count
                while index < reply.count, reply[index] != UInt8(ascii: "\"") {
                    out.append(reply[index])
                    index += 1
                }
                out.append(contentsOf: suffix)
                continue
            }
            out.append(reply[index])
            index += 1
        }
        return out
    }

    /// The position a request body's `syncToken` carries, if any.
    package static func position(inBody body: [UInt8]) -> ReadPosition? {
        guard !body.isEmpty, let json = try? JSONValue.parse(bytes: body), let text = json["syncToken"]?.stringValue else { return nil }
        return split(text).position
    }
}
