/// One bash script that runs every README block in order, so `export`s carry over, and leaves each
/// line's exit status, stdout and stderr in a results folder (`B.L.out`, `B.L.err`, `status`).
enum ReadmeScript {
    /// A line's result file stem: block and line number.
    static func stem(_ block: ReadmeBlock, _ line: Int) -> String { "\(block.number).\(line)" }

    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    /// The script; `results` is the folder the lines report to, `repository` the checkout.
    static func make(_ document: ReadmeDocument, results: String, repository: String) -> String {
        var script = """
        cd "$WORK" || exit 90
        cp -R \(quoted(repository + "/man")) \(quoted(repository + "/completions")) . || exit 91
        mkdir -p scripts && cp \(quoted(repository + "/scripts/cluster")) scripts/ || exit 92
        __results=\(quoted(results))
        __status() { return "$1"; }

        """
        script += ReadmeStandIns.fixtures + "\n"
        for standIn in ReadmeStandIns.standIns {
            let function = "\(standIn.name)() {\n\(standIn.body)\n}\n"
            script += standIn.onlyIfMissing ? "command -v \(standIn.name) >/dev/null || eval \(quoted(function))\n" : function
        }
        for block in document.blocks {
            script += "\n# block \(block.number): \(block.heading)\n"
            if let transcript = block.transcript {
                let input = transcript.inputs.joined(separator: "\n")
                script += wrap("cloudsync --account \(quoted(transcript.account)) --device \(quoted(transcript.device)) repl <<'__REPL__'\n\(input)\n__REPL__",
                               stem: stem(block, 1), input: nil)
                continue
            }
            for line in block.lines {
                let input = ReadmeStandIns.inputs.first { line.command.contains($0.key) }
                script += wrap(line.text, stem: stem(block, line.number), input: input)
            }
            // A background line's claims are about what it prints later: wait (bounded) for them.
            for line in block.lines where line.isBackground {
                let stem = stem(block, line.number)
                for (text, file) in line.expectation.stdout.map({ ($0, "out") }) + line.expectation.stderr.map({ ($0, "err") }) {
                    script += "for __i in $(seq 300); do grep -qF -- \(quoted(text)) \"$__results/\(stem).\(file)\" && break; sleep 0.1; done\n"
                }
            }
        }
        // The background lines' processes (their PIDs kept in __background) end with the README.
        // SIGTERM, as a user would stop them: the test's children start with an empty signal
        // mask and default dispositions (ProcessSpawner.cleanSignalState).
        script += "\n[ -z \"$__background\" ] || kill -TERM $__background 2>/dev/null; wait\n"
        // A cluster a block started (scripts/cluster, in its default folder under the test's
        // TMPDIR) is stopped even when a line after its start failed.
        script += "[ ! -f \"${TMPDIR:-/tmp}/cloudsync-cluster/.cloudsync-cluster\" ] || scripts/cluster stop >/dev/null 2>&1\n"
        return script
    }

    /// The line as written, its output to files and its status recorded, then `$?` restored so
    /// that a following `echo $?` sees it.
    static func wrap(_ text: String, stem: String, input: ReadmeStandIns.Input?) -> String {
        var out = ""
        let stdin: String
        if let input, !input.stdin.isEmpty {
            out += "printf '%s' \(quoted(input.stdin)) > \"$__results/\(stem).in\"\n"
            stdin = "\"$__results/\(stem).in\""
        } else {
            stdin = "/dev/null"
        }
        for (name, value) in input?.environment.sorted(by: { $0.key < $1.key }) ?? [] {
            out += "export \(name)=\(quoted(value))\n"
        }
        out += "{ \(text)\n} > \"$__results/\(stem).out\" 2> \"$__results/\(stem).err\" < \(stdin)\n"
        out += "__s=$?; echo \"\(stem) $__s\" >> \"$__results/status\"\n"
        if ReadmeLine.stripComment(text).trimmingSpaces.hasSuffix("&") { out += "__background=\"$__background $!\"\n" }
        for name in input?.environment.keys.sorted() ?? [] { out += "unset \(name)\n" }
        out += "__status $__s\n"
        return out
    }
}
