import CloudSyncCLI

/// Generates `completions/cloudsync.fish` from the command table: `complete` rules conditioned
/// on the command path typed so far, with descriptions, fixed value sets, file completion where
/// the table asks for a path, and `cloudsync __complete` for live values.
public enum FishCompletionScript {
    /// The script's text.
    public static func render(root: CommandSpec) -> String {
        let table = CompletionScriptTable(root: root)
        var lines = CompletionScriptTable.header(shell: "fish", install: [
            "Install: copy this file to ~/.config/fish/completions/cloudsync.fish",
        ])
        lines += subcommandsFunction(table)
        lines += valueOptionsFunction(table)
        lines += staticPart.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines += rules(table)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func subcommandsFunction(_ table: CompletionScriptTable) -> [String] {
        var lines = ["# The subcommands of the command path given as one argument ('' or 'zone').",
                     "function __cloudsync_subcommands --argument-names path",
                     "    switch \"$path\""]
        for entry in table.entries where !entry.spec.visibleSubcommands.isEmpty {
            lines.append("        case " + quoted(entry.key))
            lines.append("            printf '%s\\n' " + entry.spec.visibleSubcommands.map { quoted($0.name) }.joined(separator: " "))
        }
        lines += ["    end", "end", ""]
        return lines
    }

    private static func valueOptionsFunction(_ table: CompletionScriptTable) -> [String] {
        var lines = ["# The options (long and short) that take a value, at the command path given.",
                     "function __cloudsync_value_options --argument-names path"]
        let globals = table.root.options.filter(\.takesValue).flatMap(names)
        lines.append("    printf '%s\\n' " + globals.map(quoted).joined(separator: " "))
        lines.append("    switch \"$path\"")
        for entry in table.entries where !entry.path.isEmpty {
            let own = entry.spec.options.filter(\.takesValue).flatMap(names)
            guard !own.isEmpty else { continue }
            lines.append("        case " + quoted(entry.key))
            lines.append("            printf '%s\\n' " + own.map(quoted).joined(separator: " "))
        }
        lines += ["    end", "end", ""]
        return lines
    }

    private static func names(_ option: OptionSpec) -> [String] {
        [option.flagName] + (option.short.map { ["-" + String($0)] } ?? [])
    }

    /// The `complete` rules.
    private static func rules(_ table: CompletionScriptTable) -> [String] {
        var lines = ["", "# No file names unless the table asks for a path.", "complete -c cloudsync -f", "",
                     "# Global options."]
        for option in table.globalOptions(at: ["x"]) {
            lines.append(optionRule(option, condition: nil))
        }
        for option in table.root.visibleOptions where option.long == "version" {
            lines.append(optionRule(option, condition: "__cloudsync_at ''"))
        }
        for entry in table.entries {
            lines.append("")
            lines.append("# cloudsync" + (entry.path.isEmpty ? "" : " " + entry.key))
            let key = quoted(entry.key)
            if entry.path.isEmpty {
                lines.append("complete -c cloudsync -n " + quoted("__cloudsync_arg '' 0") + " -a '(__cloudsync_plugins)' -d plugin")
            }
            for sub in entry.spec.visibleSubcommands {
                lines.append("complete -c cloudsync -n " + quoted("__cloudsync_arg \(key) 0") + " -a " + quoted(sub.name)
                             + " -d " + quoted(sub.abstract))
            }
            for option in table.ownOptions(entry) {
                lines.append(optionRule(option, condition: "__cloudsync_at \(key)"))
            }
            guard entry.spec.visibleSubcommands.isEmpty else { continue }
            for (index, (argument, kind)) in table.argumentKinds(entry).enumerated() {
                let condition = "__cloudsync_arg \(key) \(index)" + (argument.repeating ? " rest" : "")
                var rule = "complete -c cloudsync -n " + quoted(condition)
                switch kind {
                case .none: continue
                case .file: rule += " -F"
                case .live: rule += " -a '(__cloudsync_live)'"
                case .words(let words): rule += " -a " + quoted(words.joined(separator: " "))
                }
                lines.append(rule + " -d " + quoted(HelpRenderer.argumentHelp(argument)))
            }
        }
        return lines
    }

    private static func optionRule(_ option: OptionSpec, condition: String?) -> String {
        var rule = "complete -c cloudsync"
        if let condition { rule += " -n " + quoted(condition) }
        if let short = option.short { rule += " -s " + String(short) }
        rule += " -l " + option.long
        if option.takesValue {
            switch CompletionScriptTable.valueKind(option.completion) {
            case .none: rule += " -x"
            case .file: rule += " -r -F"
            case .live: rule += " -x -a '(__cloudsync_live)'"
            case .words(let words): rule += " -x -a " + quoted(words.joined(separator: " "))
            }
        }
        return rule + " -d " + quoted(HelpRenderer.optionHelp(option))
    }

    /// `text` as a fish single-quoted string.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }

    /// The part that does not depend on the table.
    private static let staticPart = #"""
# Prints 'PATH|N': the command path typed before the cursor ('zone create') and how many
# positional arguments follow it. A first word that is not a command (a plugin) gives '?|0'.
function __cloudsync_state
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path
    set -l count 0
    set -l skip 0
    set -l eoo 0
    for token in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test $eoo -eq 0
            switch $token
                case --
                    set eoo 1
                    continue
                case '--*=*'
                    continue
                case '-?*'
                    if contains -- $token (__cloudsync_value_options "$path")
                        set skip 1
                    end
                    continue
            end
        end
        if test $count -eq 0; and begin; test -z "$path"; or test $eoo -eq 0; end
            if contains -- $token (__cloudsync_subcommands "$path")
                set path $path $token
                set eoo 0
                continue
            end
            if test -z "$path"
                echo '?|0'
                return
            end
        end
        set count (math $count + 1)
    end
    echo "$path|$count"
end

# True if the command path typed so far is exactly the argument ('' for cloudsync itself).
function __cloudsync_at --argument-names want
    set -l state (string split -r -m1 '|' -- (__cloudsync_state))
    test "$state[1]" = "$want"
end

# True if the cursor is on positional INDEX (from 0) of the command PATH; with 'rest', on
# INDEX or any later one.
function __cloudsync_arg --argument-names want index rest
    set -l state (string split -r -m1 '|' -- (__cloudsync_state))
    test "$state[1]" = "$want"; or return 1
    if test "$rest" = rest
        test $state[2] -ge $index
    else
        test $state[2] -eq $index
    end
end

# Live values (zone names, record types, ...): what 'cloudsync __complete' prints for the
# words up to the cursor.
function __cloudsync_live
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l program $tokens[1]
    if not string match -q -- '*/*' $program; or not test -x $program
        set program cloudsync
    end
    command $program __complete -- $tokens[2..-1] "$current" 2>/dev/null
end

# Plugins: cloudsync-<name> executables on $PATH.
function __cloudsync_plugins
    for path in $PATH
        for file in $path/cloudsync-*
            test -x $file; and string replace -r '^.*/cloudsync-' '' -- $file
        end
    end
end
"""#
}
