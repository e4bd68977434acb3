# shellcheck shell=bash
# bash completion for cloudsync.
# Generated from the command table by 'cloudsync __generate-docs'; do not edit.
# Regenerate with: swift package --allow-writing-to-package-directory generate-docs
#
# Install: source this file from ~/.bashrc, or copy it to
#   ~/.local/share/bash-completion/completions/cloudsync
# Commands, options and fixed values come from this file; live values (zone names,
# record types, ...) from the hidden entry point 'cloudsync __complete -- <words>'.

# __cloudsync_table PATH: describes the command PATH ('' for cloudsync itself, 'zone create')
# in subs (its subcommands), opts (its long options, then the global ones) and valopts (the
# options, long and short, that take a value).
__cloudsync_table() {
    subs='' opts='' valopts=''
    case $1 in
    '') subs='zone record fetch-changes store sync kv subscribe share schema keys message otp serve token admin login tour whoami cloud repl help' opts='--version' ;;
    'zone') subs='create list delete' ;;
    'zone create') opts='--atomic --database' valopts='--database' ;;
    'zone list') opts='--database' valopts='--database' ;;
    'zone delete') opts='--yes --purge --database' valopts='--database' ;;
    'record') subs='save get delete query' ;;
    'record save') opts='--field --fields-json --zone --change-tag --policy --database --owner' valopts='--field -f --fields-json --zone --change-tag --policy --database --owner' ;;
    'record get') opts='--zone --database --owner --asset-dir' valopts='--zone --database --owner --asset-dir' ;;
    'record delete') opts='--zone --database --owner' valopts='--zone --database --owner' ;;
    'record query') opts='--where --arg --sort --limit --continuation --all --zone --database --owner' valopts='--where --arg --sort --limit --continuation --zone --database --owner' ;;
    'fetch-changes') opts='--zone --reset --limit --database --owner' valopts='--zone --limit --database --owner' ;;
    'store') subs='put get delete query history status sync config conflicts export import revert' ;;
    'store put') opts='--field --unset --encrypt --zone --owner --create-zone --database' valopts='--field -f --unset --encrypt --zone --owner --database' ;;
    'store get') opts='--zone --asset-dir --database --owner' valopts='--zone --asset-dir --database --owner' ;;
    'store delete') opts='--zone --database --owner' valopts='--zone --database --owner' ;;
    'store query') opts='--where --arg --sort --limit --zone --database --owner' valopts='--where --arg --sort --limit --zone --database --owner' ;;
    'store history') opts='--since --limit --database' valopts='--since --limit --database' ;;
    'store status') opts='--database' valopts='--database' ;;
    'store sync') opts='--download-only --batch-size --force-data --delete-cloud-data --yes --database --full-scan' valopts='--batch-size --database' ;;
    'store conflicts') opts='--unresolved --limit --database --owner' valopts='--limit --database --owner' ;;
    'store export') opts='--zone --type --database' valopts='--zone --type --database' ;;
    'store import') opts='--zone --batch-size' valopts='--zone --batch-size' ;;
    'store revert') opts='--database' valopts='--database' ;;
    'sync') opts='--watch' ;;
    'kv') subs='get set delete list sync' ;;
    'kv set') opts='--type --file' valopts='--type --file' ;;
    'kv list') opts='--all' ;;
    'subscribe') subs='create list delete listen init unregister' ;;
    'subscribe create') opts='--database --zone --query --where --arg --fires-on --once --id --silent --alert --desired-keys --owner' valopts='--database --zone --query --where --arg --fires-on --id --alert --desired-keys --owner' ;;
    'subscribe list') opts='--database' valopts='--database' ;;
    'subscribe delete') opts='--database' valopts='--database' ;;
    'subscribe listen') opts='--once --timeout --exec --retry' valopts='--timeout --exec' ;;
    'subscribe init') opts='--zone --database --verify' valopts='--zone --database' ;;
    'share') subs='create add remove accept leave delete list' ;;
    'share create') opts='--zone --title --public-permission' valopts='--zone --title --public-permission' ;;
    'share add') opts='--zone --permission' valopts='--zone --permission' ;;
    'share remove') opts='--zone' valopts='--zone' ;;
    'share leave') opts='--zone --owner' valopts='--zone --owner' ;;
    'share delete') opts='--zone' valopts='--zone' ;;
    'share list') opts='--zone' valopts='--zone' ;;
    'schema') subs='export validate import diff deploy reset init show' ;;
    'schema export') opts='--output' valopts='--output -o' ;;
    'schema import') opts='--dry-run' ;;
    'schema deploy') opts='--dry-run --allow-wider-grants' ;;
    'schema reset') opts='--yes' ;;
    'schema init') opts='--dry-run' ;;
    'keys') subs='unlock lock status passphrase identity show trust rotate export-identity' ;;
    'keys passphrase') subs='change' ;;
    'keys export-identity') opts='--output --all' valopts='--output' ;;
    'message') subs='send inbox outbox read delete' ;;
    'message send') opts='--file' valopts='--file' ;;
    'message inbox') opts='--since --limit' valopts='--since --limit' ;;
    'message outbox') opts='--since --limit' valopts='--since --limit' ;;
    'message read') opts='--output' valopts='--output' ;;
    'otp') subs='add code verify list show rename remove import export sync' ;;
    'otp add') opts='--issuer --account-name --type --algorithm --digits --period --counter --note --secret-file --generate' valopts='--issuer --account-name --type --algorithm --digits --period --counter --note --secret-file' ;;
    'otp code') opts='--at --next --exact --clip' valopts='--at --next' ;;
    'otp verify') opts='--window --at' valopts='--window --at' ;;
    'otp show') opts='--uri --qr' ;;
    'otp remove') opts='--yes' ;;
    'otp import') opts='--format --password-file --dry-run' valopts='--format --password-file' ;;
    'otp export') opts='--format --qr --output' valopts='--format --output -o' ;;
    'otp sync') opts='--download-only --batch-size --force-data --delete-cloud-data --yes' valopts='--batch-size' ;;
    'serve') opts='--listen --tls-cert --tls-key --max-connections --max-requests --max-connections-per-address --header-timeout --max-body-memory --quota-bytes --db-connections --read-replica --max-poll-wait --public-url --log' valopts='--listen --tls-cert --tls-key --max-connections --max-requests --max-connections-per-address --header-timeout --max-body-memory --quota-bytes --db-connections --read-replica --max-poll-wait --public-url --log' ;;
    'token') subs='create list revoke add-key' ;;
    'token create') opts='--admin --api' ;;
    'token add-key') opts='--public-key --admin' valopts='--public-key' ;;
    'admin') subs='add list remove' ;;
    'tour') opts='--keep' ;;
    'whoami') opts='--set-name --discoverable' valopts='--set-name --discoverable' ;;
    'cloud') subs='create check copy' ;;
    'cloud copy') opts='--from --to --force' valopts='--from --to' ;;
    'repl') opts='--bail --echo' ;;
    'help') opts='--all' ;;
    esac
    opts+=' --account --device --container --environment --cloud --home --json --quiet --no-color --help'
    valopts+=' --account --device --container --environment --cloud --home'
}

# __cloudsync_option_kind PATH OPTION: how the value of OPTION completes, in kind: none,
# file, live (ask cloudsync __complete) or 'values:<word> <word>...'.
__cloudsync_option_kind() {
    case "$1|$2" in
    'zone create|--database') kind='values:private shared public' ;;
    'zone list|--database') kind='values:private shared public' ;;
    'zone delete|--database') kind='values:private shared public' ;;
    'record save|--fields-json') kind=file ;;
    'record save|--zone') kind=live ;;
    'record save|--policy') kind='values:if-unchanged changed-keys all-keys' ;;
    'record save|--database') kind='values:private shared public' ;;
    'record get|--zone') kind=live ;;
    'record get|--database') kind='values:private shared public' ;;
    'record get|--asset-dir') kind=file ;;
    'record delete|--zone') kind=live ;;
    'record delete|--database') kind='values:private shared public' ;;
    'record query|--zone') kind=live ;;
    'record query|--database') kind='values:private shared public' ;;
    'fetch-changes|--zone') kind=live ;;
    'fetch-changes|--database') kind='values:private shared' ;;
    'store put|--zone') kind=live ;;
    'store put|--database') kind='values:private public shared' ;;
    'store get|--zone') kind=live ;;
    'store get|--asset-dir') kind=file ;;
    'store get|--database') kind='values:private public shared' ;;
    'store delete|--zone') kind=live ;;
    'store delete|--database') kind='values:private public shared' ;;
    'store query|--zone') kind=live ;;
    'store query|--database') kind='values:private public shared' ;;
    'store history|--database') kind='values:private public shared' ;;
    'store status|--database') kind='values:private public shared' ;;
    'store sync|--database') kind='values:private public shared' ;;
    'store conflicts|--database') kind='values:private public shared' ;;
    'store export|--zone') kind=live ;;
    'store export|--type') kind=live ;;
    'store export|--database') kind='values:private public shared' ;;
    'store import|--zone') kind=live ;;
    'store revert|--database') kind='values:private public shared' ;;
    'kv set|--type') kind='values:string number bool data json' ;;
    'kv set|--file') kind=file ;;
    'subscribe create|--database') kind='values:private shared public' ;;
    'subscribe create|--zone') kind=live ;;
    'subscribe create|--query') kind=live ;;
    'subscribe list|--database') kind='values:private shared public' ;;
    'subscribe delete|--database') kind='values:private shared public' ;;
    'subscribe init|--database') kind='values:private shared' ;;
    'share create|--zone') kind=live ;;
    'share create|--public-permission') kind='values:none read-only read-write' ;;
    'share add|--zone') kind=live ;;
    'share add|--permission') kind='values:read-only read-write' ;;
    'share remove|--zone') kind=live ;;
    'share leave|--zone') kind=live ;;
    'share delete|--zone') kind=live ;;
    'share list|--zone') kind=live ;;
    'schema export|--output' | 'schema export|-o') kind=file ;;
    'keys export-identity|--output') kind=file ;;
    'message send|--file') kind=file ;;
    'message read|--output') kind=file ;;
    'otp add|--type') kind='values:totp hotp steam' ;;
    'otp add|--algorithm') kind='values:SHA1 SHA256 SHA512' ;;
    'otp add|--secret-file') kind=file ;;
    'otp import|--format') kind='values:uri aegis 2fas andotp bitwarden proton' ;;
    'otp import|--password-file') kind=file ;;
    'otp export|--format') kind='values:uri aegis migration' ;;
    'otp export|--output' | 'otp export|-o') kind=file ;;
    'serve|--tls-cert') kind=file ;;
    'serve|--tls-key') kind=file ;;
    'serve|--log') kind=file ;;
    'token add-key|--public-key') kind=file ;;
    'whoami|--discoverable') kind='values:on off' ;;
    *'|--environment') kind='values:development production' ;;
    *'|--home') kind=file ;;
    *) kind=none ;;
    esac
}

# __cloudsync_argument_kind PATH INDEX: how the positional argument at INDEX (from 0) of
# the command PATH completes, in kind.
__cloudsync_argument_kind() {
    case "$1|$2" in
    'zone delete|'*) kind=live ;;
    'record save|'0) kind=live ;;
    'record save|'1) kind=live ;;
    'record get|'*) kind=live ;;
    'record delete|'*) kind=live ;;
    'record query|'0) kind=live ;;
    'store put|'0) kind=live ;;
    'store put|'1) kind=live ;;
    'store get|'*) kind=live ;;
    'store delete|'*) kind=live ;;
    'store query|'0) kind=live ;;
    'store sync|'0) kind='values:on off' ;;
    'store config|'0) kind='values:merge-policy force-data shared-zones public-types public-scan-interval' ;;
    'store import|'0) kind=file ;;
    'store revert|'*) kind=live ;;
    'kv get|'0) kind=live ;;
    'kv set|'0) kind=live ;;
    'kv delete|'0) kind=live ;;
    'subscribe delete|'*) kind=live ;;
    'schema validate|'0) kind=file ;;
    'schema import|'0) kind=file ;;
    'schema diff|'0) kind=file ;;
    'schema show|'0) kind=live ;;
    'otp code|'0) kind=live ;;
    'otp verify|'1) kind=live ;;
    'otp list|'0) kind=live ;;
    'otp show|'0) kind=live ;;
    'otp rename|'0) kind=live ;;
    'otp remove|'*) kind=live ;;
    'otp import|'0) kind=file ;;
    'otp export|'*) kind=live ;;
    'otp sync|'0) kind='values:on off' ;;
    'repl|'0) kind=file ;;
    'help|'*) kind=live ;;
    *) kind=none ;;
    esac
}

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
