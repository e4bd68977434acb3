import CloudSyncCLI

/// Generates `completions/cloudsync.bash` from the command table. The script walks the words
/// typed so far with the table (subcommands, options that take a value, `--`) and completes
/// commands, long options, fixed values and file names itself; live values come from
/// `cloudsync __complete`. It needs bash 4 and works with or without the bash-completion package.
public enum BashCompletionScript {
    /// The script's text.
    public static func render(root: CommandSpec) -> String {
        let table = CompletionScriptTable(root: root)
        var lines = ["# shellcheck shell=bash"]
        lines += CompletionScriptTable.header(shell: "bash", install: [
            "Install: source this file from ~/.bashrc, or copy it to",
            "  ~/.local/share/bash-completion/completions/cloudsync",
        ])
        lines += tableFunction(table)
        lines += optionKindFunction(table)
        lines += argumentKindFunction(table)
        lines += staticPart.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `__cloudsync_table PATH`: the subcommands, options and value-taking options of a command.
    private static func tableFunction(_ table: CompletionScriptTable) -> [String] {
        var lines = [
            "# __cloudsync_table PATH: describes the command PATH ('' for cloudsync itself, 'zone create')",
            "# in subs (its subcommands), opts (its long options, then the global ones) and valopts (the",
            "# options, long and short, that take a value).",
            "__cloudsync_table() {",
            "    subs='' opts='' valopts=''",
            "    case $1 in",
        ]
        func names(_ options: [OptionSpec]) -> String {
            options.flatMap { option in [option.flagName] + (option.short.map { ["-" + String($0)] } ?? []) }
                .joined(separator: " ")
        }
        for entry in table.entries {
            var assignments: [String] = []
            let subs = entry.spec.visibleSubcommands.map(\.name)
            if !subs.isEmpty { assignments.append("subs=" + CompletionScriptTable.singleQuoted(subs.joined(separator: " "))) }
            let own = entry.path.isEmpty ? table.root.visibleOptions.filter { $0.long == "version" } : table.ownOptions(entry)
            if !own.isEmpty {
                assignments.append("opts=" + CompletionScriptTable.singleQuoted(own.map(\.flagName).joined(separator: " ")))
            }
            let valueOptions = entry.path.isEmpty ? [] : entry.spec.options.filter(\.takesValue)
            if !valueOptions.isEmpty {
                assignments.append("valopts=" + CompletionScriptTable.singleQuoted(names(valueOptions)))
            }
            guard !assignments.isEmpty else { continue }
            lines.append("    " + CompletionScriptTable.singleQuoted(entry.key) + ") " + assignments.joined(separator: " ") + " ;;")
        }
        lines += [
            "    esac",
            "    opts+=" + CompletionScriptTable.singleQuoted(" " + table.globalOptions(at: ["x"]).map(\.flagName).joined(separator: " ")),
            "    valopts+=" + CompletionScriptTable.singleQuoted(" " + names(table.root.options.filter(\.takesValue))),
            "}",
            "",
        ]
        return lines
    }

    /// `__cloudsync_option_kind PATH OPTION`: how the value of an option completes, in `kind`.
    private static func optionKindFunction(_ table: CompletionScriptTable) -> [String] {
        var lines = [
            "# __cloudsync_option_kind PATH OPTION: how the value of OPTION completes, in kind: none,",
            "# file, live (ask cloudsync __complete) or 'values:<word> <word>...'.",
            "__cloudsync_option_kind() {",
            "    case \"$1|$2\" in",
        ]
        /// `path` nil: any command (a global option).
        func add(_ path: String?, _ option: OptionSpec) {
            guard let kind = kindWord(CompletionScriptTable.valueKind(option.completion)) else { return }
            var names = [option.flagName]
            if let short = option.short { names.append("-" + String(short)) }
            let patterns = names.map { name in
                path.map { CompletionScriptTable.singleQuoted($0 + "|" + name) } ?? "*" + CompletionScriptTable.singleQuoted("|" + name)
            }
            lines.append("    " + patterns.joined(separator: " | ") + ") kind=" + kind + " ;;")
        }
        for entry in table.entries where !entry.path.isEmpty {
            for option in entry.spec.options where option.takesValue { add(entry.key, option) }
        }
        for option in table.root.options where option.takesValue { add(nil, option) }
        lines += ["    *) kind=none ;;", "    esac", "}", ""]
        return lines
    }

    /// `__cloudsync_argument_kind PATH INDEX`: how the positional at INDEX (from 0) completes.
    private static func argumentKindFunction(_ table: CompletionScriptTable) -> [String] {
        var lines = [
            "# __cloudsync_argument_kind PATH INDEX: how the positional argument at INDEX (from 0) of",
            "# the command PATH completes, in kind.",
            "__cloudsync_argument_kind() {",
            "    case \"$1|$2\" in",
        ]
        for entry in table.entries where !entry.path.isEmpty {
            for (index, (argument, kind)) in table.argumentKinds(entry).enumerated() {
                guard let word = kindWord(kind) else { continue }
                let pattern = CompletionScriptTable.singleQuoted(entry.key + "|") + (argument.repeating ? "*" : String(index))
                lines.append("    " + pattern + ") kind=" + word + " ;;")
            }
        }
        lines += ["    *) kind=none ;;", "    esac", "}", ""]
        return lines
    }

    /// The value of `kind=` in the script, nil for `none` (the default).
    private static func kindWord(_ kind: CompletionScriptTable.ValueKind) -> String? {
        switch kind {
        case .none: nil
        case .file: "file"
        case .live: "live"
        case .words(let words): CompletionScriptTable.singleQuoted("values:" + words.joined(separator: " "))
        }
    }

    /// The part that does not depend on the table.
    private static let staticPart = #"""
# __cloudsync_words: COMP_WORDS and COMP_CWORD as words and cword, with '--option' '=' 'value'
# (COMP_WORDBREAKS splits at '=') glued back into '--option=value', and 'GitHub' ':' 'al' (it
# splits at ':' too) into 'GitHub:al', as git's completion reassembles its words.
__cloudsync_words() {
    words=() cword=0
    local i=0 j=0 w
    while ((i < ${#COMP_WORDS[@]})); do
        w=${COMP_WORDS[i]}
        if ((j > 1)) && [[ -n $w && -z ${w//:/} && -n ${words[j-1]} ]]; then
            words[j-1]+=$w
            ((i == COMP_CWORD)) && cword=$((j - 1))
            if ((i + 1 < ${#COMP_WORDS[@]} && i + 1 <= COMP_CWORD)); then
                i=$((i + 1))
                words[j-1]+=${COMP_WORDS[i]}
                ((i == COMP_CWORD)) && cword=$((j - 1))
            fi
        elif ((j > 0)) && [[ $w == = && ${words[j-1]} == --* && ${words[j-1]} != *=* ]]; then
            words[j-1]+==
            ((i == COMP_CWORD)) && cword=$((j - 1))
            if ((i + 1 < ${#COMP_WORDS[@]} && i + 1 <= COMP_CWORD)); then
                i=$((i + 1))
                words[j-1]+=${COMP_WORDS[i]}
                ((i == COMP_CWORD)) && cword=$((j - 1))
            fi
        else
            words[j]=$w
            ((i == COMP_CWORD)) && cword=$j
            j=$((j + 1))
        fi
        i=$((i + 1))
    done
}

# __cloudsync_live: the candidates 'cloudsync __complete' prints for the words up to the cursor.
__cloudsync_live() {
    local program=${words[0]}
    [[ $program == */* && -x $program ]] || program=cloudsync
    "$program" __complete -- "${words[@]:1:cword}" 2>/dev/null
}

# __cloudsync_offer KIND CUR [PREFIX]: fills COMPREPLY for a value of KIND starting with CUR.
# PREFIX ('--zone=') is put in front when COMP_WORDBREAKS does not split at '='.
__cloudsync_offer() {
    local kind=$1 cur=$2 prefix=${3-} line
    [[ $COMP_WORDBREAKS == *=* ]] && prefix=
    case $kind in
    file)
        compopt -o filenames 2>/dev/null
        while IFS= read -r line; do COMPREPLY+=("$prefix$line"); done < <(compgen -f -- "$cur")
        ;;
    live)
        while IFS= read -r line; do
            [[ -n $line && $line == "$cur"* ]] && COMPREPLY+=("$prefix$line")
        done < <(__cloudsync_live)
        ;;
    values:*)
        local -a values
        read -ra values <<<"${kind#values:}"
        for line in "${values[@]}"; do
            [[ $line == "$cur"* ]] && COMPREPLY+=("$prefix$line")
        done
        ;;
    esac
}

_cloudsync() {
    local words cword cur subs opts valopts kind path='' expect='' npos=0 eoo=0 i w
    COMPREPLY=()
    __cloudsync_words
    cur=${words[cword]-}
    __cloudsync_table ''
    for ((i = 1; i < cword; i++)); do
        w=${words[i]}
        if [[ -n $expect ]]; then
            expect=''
            continue
        fi
        if ((!eoo)); then
            case $w in
            --) eoo=1; continue ;;
            --*=*) continue ;;
            -?*) [[ " $valopts " == *" $w "* ]] && expect=$w; continue ;;
            esac
        fi
        if [[ -z $path ]] || ((npos == 0 && !eoo)); then
            if [[ -n $subs && " $subs " == *" $w "* ]]; then
                path=${path:+$path }$w
                eoo=0
                __cloudsync_table "$path"
                continue
            fi
            if [[ -z $path ]]; then
                # A plugin (cloudsync-<name>): its arguments are its own business.
                compopt -o filenames 2>/dev/null
                while IFS= read -r w; do COMPREPLY+=("$w"); done < <(compgen -f -- "$cur")
                return 0
            fi
        fi
        npos=$((npos + 1))
    done
    if [[ -n $expect ]]; then
        __cloudsync_option_kind "$path" "$expect"
        __cloudsync_offer "$kind" "$cur"
    elif ((!eoo)) && [[ $cur == --*=* ]]; then
        __cloudsync_option_kind "$path" "${cur%%=*}"
        __cloudsync_offer "$kind" "${cur#*=}" "${cur%%=*}="
    elif ((!eoo)) && [[ $cur == -* ]]; then
        for w in $opts; do [[ $w == "$cur"* ]] && COMPREPLY+=("$w"); done
    elif [[ -n $subs ]] && ((npos == 0)); then
        for w in $subs; do [[ $w == "$cur"* ]] && COMPREPLY+=("$w"); done
        if [[ -z $path ]]; then
            # Plugins: cloudsync-<name> on CLOUDSYNC_EXEC_PATH, then on PATH.
            local folder
            while IFS= read -r w; do
                [[ -n $w ]] && COMPREPLY+=("${w#cloudsync-}")
            done < <(
                {
                    IFS=: read -ra folders <<<"${CLOUDSYNC_EXEC_PATH-}"
                    for folder in "${folders[@]}"; do
                        for w in "$folder"/cloudsync-"$cur"*; do
                            [[ -f $w && -x $w ]] && printf '%s\n' "${w##*/}"
                        done
                    done
                    compgen -c -- "cloudsync-$cur"
                } | sort -u
            )
        fi
    else
        __cloudsync_argument_kind "$path" "$npos"
        __cloudsync_offer "$kind" "$cur"
    fi
    # bash replaces only the part of the word after the last ':' (a word break): drop the part
    # before it from the candidates, as __ltrim_colon_completions does.
    if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
        local colon_prefix=${cur%"${cur##*:}"}
        for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"$colon_prefix"}; done
    fi
    return 0
}

complete -F _cloudsync cloudsync
"""#
}
