/// Reads `otpauth://` URIs and Google's `otpauth-migration://` URIs, one per line (blank lines
/// and `#` comments skipped), as `pass otp`, `2fa` users and QR scanners produce them.
public enum URIListImport {
    /// The tokens of every good line; one problem per bad line, and one per missing batch of
    /// a Google export.
    public static func read(_ text: String) -> ImportContents {
        var contents = ImportContents(format: .uris)
        var batches: [Int32: (size: Int, seen: Set<Int>)] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "line \(index + 1)"
            if GoogleMigration.looksLikeURI(line) {
                do {
                    let batch = try GoogleMigration.parse(line)
                    var known = batches[batch.batchID] ?? (batch.batchSize, [])
                    if known.seen.contains(batch.batchIndex) {
                        contents.problems.append(ImportProblem(entry: place, reason: "batch \(batch.batchIndex + 1) of \(batch.batchSize) appears twice; skipped"))
                        continue
                    }
                    known.seen.insert(batch.batchIndex)
                    known.size = max(known.size, batch.batchSize)
                    batches[batch.batchID] = known
                    for entry in batch.entries {
                        switch entry {
                        case .success(let token): contents.tokens.append(token)
                        case .failure(let problem):
                            contents.problems.append(ImportProblem(entry: "\(place) (\(problem.entry))", reason: problem.reason))
                        }
                    }
                } catch {
                    contents.problems.append(ImportProblem(entry: place, reason: error.description))
                }
            } else if OTPAuthURI.looksLikeURI(line) {
                do {
                    contents.tokens.append(try OTPAuthURI.parse(line))
                } catch {
                    contents.problems.append(ImportProblem(entry: place, reason: error.description))
                }
            } else {
                contents.problems.append(ImportProblem(entry: place, reason: "not an otpauth:// or otpauth-migration:// URI"))
            }
        }
        for (id, batch) in batches.sorted(by: { $0.key < $1.key }) {
            let missing = (0..<batch.size).filter { !batch.seen.contains($0) }
            if !missing.isEmpty {
                let list = missing.map { String($0 + 1) }.joined(separator: ", ")
                contents.problems.append(ImportProblem(entry: "Google Authenticator export \(id)",
                                                       reason: "batch \(list) of \(batch.size) is missing; import every QR code of the export"))
            }
        }
        return contents
    }
}
