import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncWebProtocol
import CloudSyncWebServer
#if canImport(Glibc)
import Glibc
#endif

// libFuzzer target: the header/credential pre-check of `cloudsync serve`
// (StoredCredentialAuthenticator.precheck, run on a request's head before its body is read) over
// an SQLite cloud in a temporary file holding one token for alice. The input is lines: one
// starting with "?" is a query string (`a=b&c=d`), the others are "Name: value" header fields;
// "$TOKEN" anywhere is replaced by alice's real token, so the fuzzer reaches the accepted paths.
// Checks: no crash; the pre-check never refuses what the full check (`account`, empty body)
// accepts; the real token as a bearer header always passes it.

let fuzzSetup: (StoredCredentialAuthenticator, String) = {
    var template = Array("/tmp/cloudsync-fuzz-precheck-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { buffer -> String in
        guard let base = buffer.baseAddress, let made = mkdtemp(base) else { fatalError("mkdtemp failed") }
        return String(cString: made)
    }
    do {
        let cloud = try SQLiteCloud(path: folder + "/cloud.sqlite")
        let token = try cloud.createToken(account: "alice").token
        let authenticator = StoredCredentialAuthenticator(service: cloud, clock: { 1_800_000_000_000 })
        guard authenticator.precheck(path: "/", query: [], headers: [("Authorization", "Bearer " + token)]) == nil else {
            fatalError("the pre-check refuses a real token")
        }
        return (authenticator, token)
    } catch {
        fatalError("cannot set up the fuzz cloud: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func credentialPrecheckFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (authenticator, token) = fuzzSetup
    var text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    text = text.replacingOccurrences(of: "$TOKEN", with: token)
    var query: [(String, String)] = []
    var headers: [(String, String)] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        if line.hasPrefix("?") {
            for pair in line.dropFirst().split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                query.append((String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : ""))
            }
        } else if let colon = line.firstIndex(of: ":") {
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
    }
    let path = "/database/1/iCloud.com.example.Fuzz/development/private/users/current"
    let refusal = authenticator.precheck(path: path, query: query, headers: headers)
    if let refusal, (try? authenticator.caller(method: "POST", path: path, query: query, headers: headers, body: [])) != nil {
        fatalError("the pre-check refuses (\(refusal)) what the full check accepts: \(headers) \(query)")
    }
    return 0
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
