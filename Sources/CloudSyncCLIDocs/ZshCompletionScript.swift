import CloudSyncCLI

/// Generates `completions/_cloudsync` from the command table: one `_arguments` function per
/// command, with the descriptions of commands and options, the fixed value sets, file
/// completion, and `cloudsync __complete` for live values. It works from `$fpath` (autoloaded
/// by compinit) and when sourced.
public enum ZshCompletionScript {
    /// The script's text.
    public static func render(root: CommandSpec) -> String {
        let table = CompletionScriptTable(root: root)
        var lines = ["#compdef cloudsync"]
        lines += CompletionScriptTable.header(shell: "zsh", install: [
            "Install: copy this file (named _cloudsync) into a folder of $fpath, for example",
            "  mkdir -p ~/.zfunc && cp _cloudsync ~/.zfunc/   and in ~/.zshrc, before compinit:",
            "  fpath=(~/.zfunc $fpath)",
        ])
        lines += globalsFunction(table)
        for entry in table.entries {
            lines += commandFunction(entry, table)
        }
        lines += staticPart.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The function that completes the command at `path`.
    static func functionName(_ entry: CompletionScriptTable.Entry) -> String {
        entry.path.isEmpty ? "_cloudsync" : "__cloudsync_" + entry.identifier
    }

    /// `__cloudsync_globals`: the global option specs, in the caller's `globals` array.
    private static func globalsFunction(_ table: CompletionScriptTable) -> [String] {
        var lines = ["# The global options, accepted before and after every command (into the caller's 'globals').",
                     "__cloudsync_globals() {", "    globals=("]
        for option in table.globalOptions(at: ["x"]) {
            lines.append("        " + optionSpec(option))
        }
        lines += ["    )", "}", ""]
        return lines
    }

    private static func commandFunction(_ entry: CompletionScriptTable.Entry, _ table: CompletionScriptTable) -> [String] {
        let name = functionName(entry)
        let subcommands = entry.spec.visibleSubcommands
        var lines = ["# " + (["cloudsync"] + entry.path).joined(separator: " "), "\(name)() {"]
        var specs: [String] = ["$globals"]
        if entry.path.isEmpty {
            specs += table.root.visibleOptions.filter { $0.long == "version" }.map(optionSpec)
        }
        specs += table.ownOptions(entry).map(optionSpec)
        if subcommands.isEmpty {
            for (index, (argument, kind)) in table.argumentKinds(entry).enumerated() {
                let message = escapeMessage(argument.name)
                let head = argument.repeating ? "*" : String(index + 1) + (argument.optional ? "::" : ":")
                let separator = argument.repeating ? ":" : ""
                specs.append(CompletionScriptTable.singleQuoted(head + separator + message + ":" + action(kind)))
            }
            lines.append("    local -a globals; __cloudsync_globals")
            lines.append("    _arguments -s -S : " + specs.joined(separator: " \\\n        "))
            lines += ["}", ""]
            return lines
        }
        let listName = name + "_commands"
        specs.append(CompletionScriptTable.singleQuoted("1: :" + listName))
        specs.append(CompletionScriptTable.singleQuoted("*:: :->command"))
        lines += [
            "    local curcontext=$curcontext state state_descr line ret=1",
            "    typeset -A opt_args",
            "    local -a globals; __cloudsync_globals",
            "    _arguments -C -s -S : " + specs.joined(separator: " \\\n        ") + " && ret=0",
            "    if [[ $state == command ]]; then",
            "        curcontext=${curcontext%:*:*}:" + (["cloudsync"] + entry.path).joined(separator: "-") + "-$words[1]:",
            "        case $words[1] in",
        ]
        for sub in subcommands {
            let child = CompletionScriptTable.Entry(path: entry.path + [sub.name], spec: sub)
            lines.append("        (\(sub.name)) \(functionName(child)) && ret=0 ;;")
        }
        if entry.path.isEmpty {
            lines.append("        (*) _files && ret=0 ;;")
        }
        lines += ["        esac", "    fi", "    return ret", "}", ""]
        lines.append("\(listName)() {")
        lines.append("    local -a subcommands=(")
        for sub in subcommands {
            lines.append("        " + CompletionScriptTable.singleQuoted(sub.name.replacingAll(":", with: "\\:") + ":" + sub.abstract))
        }
        lines.append("    )")
        if entry.path.isEmpty {
            lines.append("    local -a plugins=(${${(k)commands[(I)cloudsync-*]}#cloudsync-})")
            lines.append("    _describe -t commands 'cloudsync command' subcommands -- plugins")
        } else {
            lines.append("    _describe -t commands " + CompletionScriptTable.singleQuoted("cloudsync " + entry.key + " subcommand")
                         + " subcommands")
        }
        lines += ["}", ""]
        return lines
    }

    /// One `_arguments` option spec: `'(-y --yes)'{-y,--yes}'[Do not ask.]'`,
    /// `'*--field=[A field.]:NAME=VALUE: '`.
    static func optionSpec(_ option: OptionSpec) -> String {
        let description = "[" + escapeDescription(HelpRenderer.optionHelp(option)) + "]"
        var argument = ""
        if let value = option.valueName {
            argument = ":" + escapeMessage(value) + ":" + action(CompletionScriptTable.valueKind(option.completion))
        }
        let long = option.flagName + (option.takesValue ? "=" : "")
        guard let short = option.short else {
            return CompletionScriptTable.singleQuoted((option.repeatable ? "*" : "") + long + description + argument)
        }
        let shortName = "-" + String(short) + (option.takesValue ? "+" : "")
        let exclusion = option.repeatable ? "*" : "(-\(short) \(option.flagName))"
        return CompletionScriptTable.singleQuoted(exclusion) + "{" + shortName + "," + long + "}"
            + CompletionScriptTable.singleQuoted(description + argument)
    }

    /// The action part of a spec.
    private static func action(_ kind: CompletionScriptTable.ValueKind) -> String {
        switch kind {
        case .none: " "
        case .file: "_files"
        case .live: "__cloudsync_live"
        case .words(let words): "(" + words.map { $0.replacingAll("\\", with: "\\\\").replacingAll(" ", with: "\\ ") }
            .joined(separator: " ") + ")"
        }
    }

    /// Text inside `[…]` of an option spec.
    private static func escapeDescription(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("[", with: "\\[").replacingAll("]", with: "\\]")
    }

    /// A message between colons.
    private static func escapeMessage(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll(":", with: "\\:")
    }

    /// The part that does not depend on the table.
    private static let staticPart = #"""
# Live values (zone names, record types, ...): the candidates 'cloudsync __complete' prints for
# the words left of the cursor.
__cloudsync_live() {
    local -a argv_ values
    local program
    argv_=("${(@Q)${(z)LBUFFER}}")
    [[ -z $LBUFFER || $LBUFFER == *[[:blank:]] ]] && argv_+=('')
    program=${argv_[1]}
    [[ $program == */* && -x $program ]] || program=cloudsync
    values=("${(@f)$(command $program __complete -- "${(@)argv_[2,-1]}" 2>/dev/null)}")
    values=(${values:#})
    compadd -a values
}

if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
    # Autoloaded from $fpath by compinit: complete now.
    _cloudsync "$@"
else
    # Sourced: register the function.
    compdef _cloudsync cloudsync
fi
"""#
}
