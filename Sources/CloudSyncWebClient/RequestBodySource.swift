/// A request body as libcurl reads it (`CURLOPT_READFUNCTION`), from the start to the end once.
///
/// libcurl sends a request again by itself, on a new connection, when the kept-alive connection
/// it used closed without a byte of reply, POSTs included: the caller never learns that its
/// request went out twice. A node behind a balancer that applied a save and died can end that
/// way, and the save's second send then meets the first as a conflict the client took for a
/// first try (ClusterNodeKillTests saw a client stop on "record … already exists"). With the body
/// given this way and no seek callback, libcurl cannot rewind it and fails with
/// `CURLE_SEND_FAIL_REWIND` instead; `CurlSession` reports that as `closedBeforeReply` with the
/// request sent, and `HTTPCloud.exchange` decides: a save is sent again as a repeat, which
/// `HTTPCloud+RepeatedSave` reconciles with its first try.
final class RequestBodySource {
    /// The body, valid during the transfer.
    var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    /// How much libcurl has read.
    var offset = 0

    static let readCallback: LibCurl.DataCallback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let source = Unmanaged<RequestBodySource>.fromOpaque(context).takeUnretainedValue()
        let length = min(size * count, source.bytes.count - source.offset)
        guard length > 0, let base = source.bytes.baseAddress else { return 0 }
        UnsafeMutableRawPointer(buffer).copyMemory(from: base + source.offset, byteCount: length)
        source.offset += length
        return length
    }
}
