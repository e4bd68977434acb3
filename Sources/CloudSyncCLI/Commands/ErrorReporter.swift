import CloudSyncCore

/// Turns an error thrown by a command (or found by the dispatcher) into stderr text and an exit
/// status: `cloudsync: error: <reason>` for humans, the error's JSON document with `--json`.
struct ErrorReporter {
    let output: Output

    /// Reports `error` and returns its exit status. `usage` (the command and its words) adds a
    /// usage reminder after usage errors in human mode.
    func report(_ error: any Error, usage: (CommandSpec, [String])?) -> Int32 {
        switch error {
        case let error as CLIError:
            if case .exit(let status) = error { return status }
            if output.isJSON {
                emitJSON(error.jsonDocument)
            } else {
                output.error(Self.lines(of: error.message))
                if case .usage = error { remind(usage) }
            }
            return error.exitCode
        case let error as CloudError:
            if output.isJSON {
                emitJSON(error.jsonDocument)
            } else {
                // A cloud reason is one sentence, often with names in it: shown as one value, with
                // the `Did you mean …?` line a command may add (`NameHints`).
                var lines: [TerminalText] = [Self.lines(of: error.reason.isEmpty ? error.code.rawValue : error.reason)]
                for (id, item) in error.partialErrors.sorted(by: { $0.key.recordName < $1.key.recordName }) {
                    lines.append("  \(id.recordName): \(item.reason) (\(item.code.rawValue))")
                }
                output.error(TerminalText(lines: lines))
            }
            return error.exitCode
        case let error as any CLIErrorConvertible:
            return report(error.cliError, usage: usage)
        default:
            let wrapped = CLIError.internalError("internal error: \(String(describing: error))")
            if output.isJSON {
                emitJSON(wrapped.jsonDocument)
            } else {
                output.error("\(wrapped.message)")
            }
            return wrapped.exitCode
        }
    }

    /// An error message as text: one line, then the `Did you mean …?` hint lines the program
    /// adds (`Suggestions.didYouMean`). Any other newline (or control character) came with a
    /// name or value the message echoes and is escaped, so it cannot forge a line.
    static func lines(of message: String) -> TerminalText {
        var lines: [String] = []
        for piece in message.split(separator: "\n", omittingEmptySubsequences: false) {
            if lines.isEmpty || piece.hasPrefix(Suggestions.hintPrefix) {
                lines.append(String(piece))
            } else {
                lines[lines.count - 1] += "\n" + piece
            }
        }
        return TerminalText(lines: lines.map { .value($0) })
    }

    private func emitJSON(_ document: JSONValue) {
        output.jsonError(document)
    }

    /// `usage: <form>` and `See 'cloudsync zone create --help'.`
    private func remind(_ usage: (CommandSpec, [String])?) {
        guard let (spec, path) = usage else {
            output.writeError("See '\(Dispatcher.programName) --help'.\n")
            return
        }
        var lines: [TerminalText] = []
        let forms = UsageFormatter().forms(for: spec, path: path, prefixWidth: 7)
        for (index, form) in forms.enumerated() {
            for (number, line) in form.enumerated() {
                lines.append(.text((number > 0 ? "       " : (index == 0 ? "usage: " : "   or: ")) + line))
            }
        }
        lines.append("See '\(path.joined(separator: " ")) --help'.")
        output.writeError(TerminalText(lines: lines).appending("\n"))
    }
}
