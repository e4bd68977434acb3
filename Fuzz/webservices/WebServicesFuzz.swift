import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncWebProtocol
import CloudSyncWebServer
#if canImport(Glibc)
import Glibc
#endif

// libFuzzer target: the request router and JSON reader of `cloudsync serve`
// (WebServicesHandler.handle) over an SQLite cloud in a temporary file. The input is
// "METHOD PATH\nBODY": a PATH without a leading "/" is put under
// /database/1/iCloud.com.example.Fuzz/development/ (so seeds read "POST private/records/modify").
// Checks: no crash; the status is an HTTP status; a JSON reply parses.

let fuzzHandler: WebServicesHandler = {
    var template = Array("/tmp/cloudsync-fuzz-webservices-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { buffer -> String in
        guard let base = buffer.baseAddress, let made = mkdtemp(base) else { fatalError("mkdtemp failed") }
        return String(cString: made)
    }
    let cloud: SQLiteCloud
    do {
        cloud = try SQLiteCloud(path: folder + "/cloud.sqlite")
    } catch {
        fatalError("cannot open the fuzz cloud: \(error)")
    }
    return WebServicesHandler(cloudFor: { _ throws(CloudError) in cloud }, makeUUID: { "fuzz-uuid" })
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func webServicesFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    let line = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []
    let space = line.firstIndex(of: " ") ?? line.endIndex
    let method = String(line[..<space])
    var path = space < line.endIndex ? String(line[line.index(after: space)...]) : ""
    if !path.hasPrefix("/") { path = "/database/1/iCloud.com.example.Fuzz/development/" + path }
    let account: String? = body.first == UInt8(ascii: "!") ? nil : "alice"
    let request = WebServicesRequest(method: method, path: path, headers: [("Content-Type", "application/json")],
                                     body: body, account: account)
    let response = fuzzHandler.handle(request)
    guard (100..<600).contains(response.status) else { fatalError("status \(response.status) for \(method) \(path)") }
    let isJSON = response.headers.contains { $0.0.lowercased() == "content-type" && $0.1.hasPrefix("application/json") }
    if isJSON, (try? JSONValue.parse(bytes: response.body)) == nil {
        fatalError("a JSON reply that does not parse: \(String(decoding: response.body, as: UTF8.self))")
    }
    return 0
}
