# fish completion for cloudsync.
# Generated from the command table by 'cloudsync __generate-docs'; do not edit.
# Regenerate with: swift package --allow-writing-to-package-directory generate-docs
#
# Install: copy this file to ~/.config/fish/completions/cloudsync.fish
# Commands, options and fixed values come from this file; live values (zone names,
# record types, ...) from the hidden entry point 'cloudsync __complete -- <words>'.

# The subcommands of the command path given as one argument ('' or 'zone').
function __cloudsync_subcommands --argument-names path
    switch "$path"
        case ''
            printf '%s\n' 'zone' 'record' 'fetch-changes' 'store' 'sync' 'kv' 'subscribe' 'share' 'schema' 'keys' 'message' 'otp' 'serve' 'token' 'admin' 'login' 'tour' 'whoami' 'cloud' 'repl' 'help'
        case 'zone'
            printf '%s\n' 'create' 'list' 'delete'
        case 'record'
            printf '%s\n' 'save' 'get' 'delete' 'query'
        case 'store'
            printf '%s\n' 'put' 'get' 'delete' 'query' 'history' 'status' 'sync' 'config' 'conflicts' 'export' 'import' 'revert'
        case 'kv'
            printf '%s\n' 'get' 'set' 'delete' 'list' 'sync'
        case 'subscribe'
            printf '%s\n' 'create' 'list' 'delete' 'listen' 'init' 'unregister'
        case 'share'
            printf '%s\n' 'create' 'add' 'remove' 'accept' 'leave' 'delete' 'list'
        case 'schema'
            printf '%s\n' 'export' 'validate' 'import' 'diff' 'deploy' 'reset' 'init' 'show'
        case 'keys'
            printf '%s\n' 'unlock' 'lock' 'status' 'passphrase' 'identity' 'show' 'trust' 'rotate' 'export-identity'
        case 'keys passphrase'
            printf '%s\n' 'change'
        case 'message'
            printf '%s\n' 'send' 'inbox' 'outbox' 'read' 'delete'
        case 'otp'
            printf '%s\n' 'add' 'code' 'verify' 'list' 'show' 'rename' 'remove' 'import' 'export' 'sync'
        case 'token'
            printf '%s\n' 'create' 'list' 'revoke' 'add-key'
        case 'admin'
            printf '%s\n' 'add' 'list' 'remove'
        case 'cloud'
            printf '%s\n' 'create' 'check' 'copy'
    end
end

# The options (long and short) that take a value, at the command path given.
function __cloudsync_value_options --argument-names path
    printf '%s\n' '--account' '--device' '--container' '--environment' '--cloud' '--home'
    switch "$path"
        case 'zone create'
            printf '%s\n' '--database'
        case 'zone list'
            printf '%s\n' '--database'
        case 'zone delete'
            printf '%s\n' '--database'
        case 'record save'
            printf '%s\n' '--field' '-f' '--fields-json' '--zone' '--change-tag' '--policy' '--database' '--owner'
        case 'record get'
            printf '%s\n' '--zone' '--database' '--owner' '--asset-dir'
        case 'record delete'
            printf '%s\n' '--zone' '--database' '--owner'
        case 'record query'
            printf '%s\n' '--where' '--arg' '--sort' '--limit' '--continuation' '--zone' '--database' '--owner'
        case 'fetch-changes'
            printf '%s\n' '--zone' '--limit' '--database' '--owner'
        case 'store put'
            printf '%s\n' '--field' '-f' '--unset' '--encrypt' '--zone' '--owner' '--database'
        case 'store get'
            printf '%s\n' '--zone' '--asset-dir' '--database' '--owner'
        case 'store delete'
            printf '%s\n' '--zone' '--database' '--owner'
        case 'store query'
            printf '%s\n' '--where' '--arg' '--sort' '--limit' '--zone' '--database' '--owner'
        case 'store history'
            printf '%s\n' '--since' '--limit' '--database'
        case 'store status'
            printf '%s\n' '--database'
        case 'store sync'
            printf '%s\n' '--batch-size' '--database'
        case 'store conflicts'
            printf '%s\n' '--limit' '--database' '--owner'
        case 'store export'
            printf '%s\n' '--zone' '--type' '--database'
        case 'store import'
            printf '%s\n' '--zone' '--batch-size'
        case 'store revert'
            printf '%s\n' '--database'
        case 'kv set'
            printf '%s\n' '--type' '--file'
        case 'subscribe create'
            printf '%s\n' '--database' '--zone' '--query' '--where' '--arg' '--fires-on' '--id' '--alert' '--desired-keys' '--owner'
        case 'subscribe list'
            printf '%s\n' '--database'
        case 'subscribe delete'
            printf '%s\n' '--database'
        case 'subscribe listen'
            printf '%s\n' '--timeout' '--exec'
        case 'subscribe init'
            printf '%s\n' '--zone' '--database'
        case 'share create'
            printf '%s\n' '--zone' '--title' '--public-permission'
        case 'share add'
            printf '%s\n' '--zone' '--permission'
        case 'share remove'
            printf '%s\n' '--zone'
        case 'share leave'
            printf '%s\n' '--zone' '--owner'
        case 'share delete'
            printf '%s\n' '--zone'
        case 'share list'
            printf '%s\n' '--zone'
        case 'schema export'
            printf '%s\n' '--output' '-o'
        case 'keys export-identity'
            printf '%s\n' '--output'
        case 'message send'
            printf '%s\n' '--file'
        case 'message inbox'
            printf '%s\n' '--since' '--limit'
        case 'message outbox'
            printf '%s\n' '--since' '--limit'
        case 'message read'
            printf '%s\n' '--output'
        case 'otp add'
            printf '%s\n' '--issuer' '--account-name' '--type' '--algorithm' '--digits' '--period' '--counter' '--note' '--secret-file'
        case 'otp code'
            printf '%s\n' '--at' '--next'
        case 'otp verify'
            printf '%s\n' '--window' '--at'
        case 'otp import'
            printf '%s\n' '--format' '--password-file'
        case 'otp export'
            printf '%s\n' '--format' '--output' '-o'
        case 'otp sync'
            printf '%s\n' '--batch-size'
        case 'serve'
            printf '%s\n' '--listen' '--tls-cert' '--tls-key' '--max-connections' '--max-requests' '--max-connections-per-address' '--header-timeout' '--max-body-memory' '--quota-bytes' '--db-connections' '--read-replica' '--max-poll-wait' '--public-url' '--log'
        case 'token add-key'
            printf '%s\n' '--public-key'
        case 'whoami'
            printf '%s\n' '--set-name' '--discoverable'
        case 'cloud copy'
            printf '%s\n' '--from' '--to'
    end
end

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

# No file names unless the table asks for a path.
complete -c cloudsync -f

# Global options.
complete -c cloudsync -l account -x -d 'Act as this account (env CLOUDSYNC_ACCOUNT; default \'default\').'
complete -c cloudsync -l device -x -d 'Act as this device of the account (env CLOUDSYNC_DEVICE; default the short host name).'
complete -c cloudsync -l container -x -d 'Use this container (env CLOUDSYNC_CONTAINER; default iCloud.com.example.App).'
complete -c cloudsync -l environment -x -a 'development production' -d 'Use the container\'s development or production environment (env CLOUDSYNC_ENVIRONMENT; default development).'
complete -c cloudsync -l cloud -x -d 'The cloud to talk to, sqlite:///path, postgres://... or http(s)://HOST:PORT of \'cloudsync serve\' (env CLOUDSYNC_CLOUD; default sqlite://<home>/cloud.sqlite).'
complete -c cloudsync -l home -r -F -d 'Where local state lives (env CLOUDSYNC_HOME; default $XDG_DATA_HOME/cloudsync).'
complete -c cloudsync -l json -d 'Print JSON on stdout (NDJSON for streams) and JSON errors on stderr (env CLOUDSYNC_JSON).'
complete -c cloudsync -s q -l quiet -d 'Print no progress chatter on stderr (env CLOUDSYNC_QUIET).'
complete -c cloudsync -l no-color -d 'Never color the output (NO_COLOR does the same) (env CLOUDSYNC_NO_COLOR).'
complete -c cloudsync -s h -l help -d 'Show help for cloudsync or the command.'
complete -c cloudsync -n '__cloudsync_at \'\'' -l version -d 'Print the version of cloudsync.'

# cloudsync
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a '(__cloudsync_plugins)' -d plugin
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'zone' -d 'Create, list and delete record zones.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'record' -d 'Save, fetch, delete and query records in the cloud.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'fetch-changes' -d 'Fetch what changed in the cloud since this device last asked.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'store' -d 'Work with this device\'s local store and sync it with the cloud.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'sync' -d 'Sync this device once, or keep it in sync (--watch).'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'kv' -d 'Get, set and sync the account\'s key-value store.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'subscribe' -d 'Subscribe to changes and listen for notifications.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'share' -d 'Share zones with other accounts, and accept or leave their shares.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'schema' -d 'Export, check, import and deploy the container\'s schema (.ckdb).'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'keys' -d 'The account\'s data key for encrypted fields, and its identity key for messages.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'message' -d 'Send and read end-to-end encrypted messages between accounts.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'otp' -d 'Manage 2FA tokens (TOTP, HOTP, Steam) and sync them between devices.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'serve' -d 'Serve the cloud over HTTP in the CloudKit Web Services protocol.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'token' -d 'Create, list and revoke the tokens and keys of \'cloudsync serve\'.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'admin' -d 'Name the accounts that administer the container (schema import, deploy, reset).'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'login' -d 'Store the token of a cloudsync server (read from stdin or asked).'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'tour' -d 'Walk through cloudsync with two devices on a throwaway cloud.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'whoami' -d 'Show the account, device, container and cloud this command line acts as.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'cloud' -d 'Create, check or copy the cloud\'s storage.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'repl' -d 'Run commands at an interactive prompt, or one per line from a script.'
complete -c cloudsync -n '__cloudsync_arg \'\' 0' -a 'help' -d 'Show help for cloudsync or one of its commands.'

# cloudsync zone
complete -c cloudsync -n '__cloudsync_arg \'zone\' 0' -a 'create' -d 'Create zones (existing ones are left as they are).'
complete -c cloudsync -n '__cloudsync_arg \'zone\' 0' -a 'list' -d 'List the zones of a database.'
complete -c cloudsync -n '__cloudsync_arg \'zone\' 0' -a 'delete' -d 'Delete zones and every record in them.'

# cloudsync zone create
complete -c cloudsync -n '__cloudsync_at \'zone create\'' -l atomic -d 'Make modify calls in the zone all-or-nothing.'
complete -c cloudsync -n '__cloudsync_at \'zone create\'' -l database -x -a 'private shared public' -d 'Database: private (default), shared or public.'

# cloudsync zone list
complete -c cloudsync -n '__cloudsync_at \'zone list\'' -l database -x -a 'private shared public' -d 'Database: private (default), shared or public.'

# cloudsync zone delete
complete -c cloudsync -n '__cloudsync_at \'zone delete\'' -s y -l yes -d 'Do not ask for confirmation (required without a terminal).'
complete -c cloudsync -n '__cloudsync_at \'zone delete\'' -l purge -d 'Delete as the user would in iCloud settings (userDeletedZone).'
complete -c cloudsync -n '__cloudsync_at \'zone delete\'' -l database -x -a 'private shared public' -d 'Database: private (default), shared or public.'
complete -c cloudsync -n '__cloudsync_arg \'zone delete\' 0 rest' -a '(__cloudsync_live)' -d 'Zone name.'

# cloudsync record
complete -c cloudsync -n '__cloudsync_arg \'record\' 0' -a 'save' -d 'Create or update a record.'
complete -c cloudsync -n '__cloudsync_arg \'record\' 0' -a 'get' -d 'Fetch records by name.'
complete -c cloudsync -n '__cloudsync_arg \'record\' 0' -a 'delete' -d 'Delete records (records that reference them with DELETE_SELF go too).'
complete -c cloudsync -n '__cloudsync_arg \'record\' 0' -a 'query' -d 'Query records of a type with a predicate.'

# cloudsync record save
complete -c cloudsync -n '__cloudsync_at \'record save\'' -s f -l field -x -d 'A field (repeatable). VALUE @FILE reads a file, @- stdin.'
complete -c cloudsync -n '__cloudsync_at \'record save\'' -l fields-json -r -F -d 'Fields as a JSON object {name: {value, type}}; - for stdin.'
complete -c cloudsync -n '__cloudsync_at \'record save\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default _defaultZone).'
complete -c cloudsync -n '__cloudsync_at \'record save\'' -l change-tag -x -d 'The change tag of the version being replaced.'
complete -c cloudsync -n '__cloudsync_at \'record save\'' -l policy -x -a 'if-unchanged changed-keys all-keys' -d 'if-unchanged (default), changed-keys or all-keys.'
complete -c cloudsync -n '__cloudsync_at \'record save\'' -l database -x -a 'private shared public' -d 'Database: private (default), shared or public.'
complete -c cloudsync -n '__cloudsync_at \'record save\'' -l owner -x -d 'With --database shared: the account (login or userRecordName) that shared the zone.'
complete -c cloudsync -n '__cloudsync_arg \'record save\' 0' -a '(__cloudsync_live)' -d 'Record type.'
complete -c cloudsync -n '__cloudsync_arg \'record save\' 1' -a '(__cloudsync_live)' -d 'Record name (default: a new random name).'

# cloudsync record get
complete -c cloudsync -n '__cloudsync_at \'record get\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default _defaultZone).'
complete -c cloudsync -n '__cloudsync_at \'record get\'' -l database -x -a 'private shared public' -d 'Database: private (default), shared or public.'
complete -c cloudsync -n '__cloudsync_at \'record get\'' -l owner -x -d 'With --database shared: the account (login or userRecordName) that shared the zone.'
complete -c cloudsync -n '__cloudsync_at \'record get\'' -l asset-dir -r -F -d 'Write the record\'s assets (and BYTES values) to DIR, one file per checksum.'
complete -c cloudsync -n '__cloudsync_arg \'record get\' 0 rest' -a '(__cloudsync_live)' -d 'Record name.'

# cloudsync record delete
complete -c cloudsync -n '__cloudsync_at \'record delete\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default _defaultZone).'
complete -c cloudsync -n '__cloudsync_at \'record delete\'' -l database -x -a 'private shared public' -d 'Database: private (default), shared or public.'
complete -c cloudsync -n '__cloudsync_at \'record delete\'' -l owner -x -d 'With --database shared: the account (login or userRecordName) that shared the zone.'
complete -c cloudsync -n '__cloudsync_arg \'record delete\' 0 rest' -a '(__cloudsync_live)' -d 'Record name.'

# cloudsync record query
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l where -x -d 'Filter (default TRUEPREDICATE).'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l arg -x -d 'Value for the next %@ (repeatable).'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l sort -x -d 'Sort by fields; - for descending.'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l limit -x -d 'Records per page (default 100).'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l continuation -x -d 'Continue after a previous page.'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l all -d 'Follow continuation markers to the last page.'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default _defaultZone).'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l database -x -a 'private shared public' -d 'Database: private (default), shared or public.'
complete -c cloudsync -n '__cloudsync_at \'record query\'' -l owner -x -d 'With --database shared: the account (login or userRecordName) that shared the zone.'
complete -c cloudsync -n '__cloudsync_arg \'record query\' 0' -a '(__cloudsync_live)' -d 'Record type.'

# cloudsync fetch-changes
complete -c cloudsync -n '__cloudsync_at \'fetch-changes\'' -l zone -x -a '(__cloudsync_live)' -d 'Fetch only this zone (repeatable).'
complete -c cloudsync -n '__cloudsync_at \'fetch-changes\'' -l reset -d 'Ignore stored tokens and rebuild the cache.'
complete -c cloudsync -n '__cloudsync_at \'fetch-changes\'' -l limit -x -d 'Records per page (default 2000).'
complete -c cloudsync -n '__cloudsync_at \'fetch-changes\'' -l database -x -a 'private shared' -d 'private (default) or shared.'
complete -c cloudsync -n '__cloudsync_at \'fetch-changes\'' -l owner -x -d 'With --database shared: the account (login or userRecordName) that shared the zone.'

# cloudsync store
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'put' -d 'Create or update a record in the local store (offline).'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'get' -d 'Show records of the local store.'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'delete' -d 'Delete a record from the local store (offline).'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'query' -d 'Query the local store with a predicate (offline).'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'history' -d 'List the transactions of the persistent history.'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'status' -d 'Pending changes, last sync, tokens and conflicts (offline).'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'sync' -d 'Sync with the cloud, or turn sync on or off for the account.'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'config' -d 'Show or set the store\'s sync settings.'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'conflicts' -d 'Show the conflict log: every conflict and how it was resolved.'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'export' -d 'Write the local store\'s records as NDJSON (one record a line).'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'import' -d 'Read NDJSON records (as \'store export\' writes them) into the local store.'
complete -c cloudsync -n '__cloudsync_arg \'store\' 0' -a 'revert' -d 'Drop this device\'s pending changes to public records and take the cloud\'s version.'

# cloudsync store put
complete -c cloudsync -n '__cloudsync_at \'store put\'' -s f -l field -x -d 'A field to set (repeatable). VALUE @FILE reads a file, @- stdin.'
complete -c cloudsync -n '__cloudsync_at \'store put\'' -l unset -x -d 'A field to remove (repeatable).'
complete -c cloudsync -n '__cloudsync_at \'store put\'' -l encrypt -x -d 'Encrypt this field of the type on the device before it syncs (repeatable).'
complete -c cloudsync -n '__cloudsync_at \'store put\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default com.apple.coredata.cloudkit.zone).'
complete -c cloudsync -n '__cloudsync_at \'store put\'' -l owner -x -d 'The local store of the zones OWNER (a login) shared with this account.'
complete -c cloudsync -n '__cloudsync_at \'store put\'' -l create-zone -d 'Allow a zone this device does not know yet (it is made in the cloud at the next sync).'
complete -c cloudsync -n '__cloudsync_at \'store put\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'
complete -c cloudsync -n '__cloudsync_arg \'store put\' 0' -a '(__cloudsync_live)' -d 'Record type.'
complete -c cloudsync -n '__cloudsync_arg \'store put\' 1' -a '(__cloudsync_live)' -d 'Record name (default: a new random name).'

# cloudsync store get
complete -c cloudsync -n '__cloudsync_at \'store get\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default com.apple.coredata.cloudkit.zone).'
complete -c cloudsync -n '__cloudsync_at \'store get\'' -l asset-dir -r -F -d 'Write the record\'s assets (and BYTES values) to DIR, one file per checksum.'
complete -c cloudsync -n '__cloudsync_at \'store get\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'
complete -c cloudsync -n '__cloudsync_at \'store get\'' -l owner -x -d 'The local store of the zones OWNER (a login) shared with this account.'
complete -c cloudsync -n '__cloudsync_arg \'store get\' 0 rest' -a '(__cloudsync_live)' -d 'Record name.'

# cloudsync store delete
complete -c cloudsync -n '__cloudsync_at \'store delete\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default com.apple.coredata.cloudkit.zone).'
complete -c cloudsync -n '__cloudsync_at \'store delete\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'
complete -c cloudsync -n '__cloudsync_at \'store delete\'' -l owner -x -d 'The local store of the zones OWNER (a login) shared with this account.'
complete -c cloudsync -n '__cloudsync_arg \'store delete\' 0 rest' -a '(__cloudsync_live)' -d 'Record name.'

# cloudsync store query
complete -c cloudsync -n '__cloudsync_at \'store query\'' -l where -x -d 'Filter (default TRUEPREDICATE).'
complete -c cloudsync -n '__cloudsync_at \'store query\'' -l arg -x -d 'Value for the next %@ (repeatable).'
complete -c cloudsync -n '__cloudsync_at \'store query\'' -l sort -x -d 'Sort by fields; - for descending.'
complete -c cloudsync -n '__cloudsync_at \'store query\'' -l limit -x -d 'At most N records.'
complete -c cloudsync -n '__cloudsync_at \'store query\'' -l zone -x -a '(__cloudsync_live)' -d 'Only this zone (default: every zone).'
complete -c cloudsync -n '__cloudsync_at \'store query\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'
complete -c cloudsync -n '__cloudsync_at \'store query\'' -l owner -x -d 'The local store of the zones OWNER (a login) shared with this account.'
complete -c cloudsync -n '__cloudsync_arg \'store query\' 0' -a '(__cloudsync_live)' -d 'Record type.'

# cloudsync store history
complete -c cloudsync -n '__cloudsync_at \'store history\'' -l since -x -d 'Only transactions after ID.'
complete -c cloudsync -n '__cloudsync_at \'store history\'' -l limit -x -d 'At most N transactions (default 100).'
complete -c cloudsync -n '__cloudsync_at \'store history\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'

# cloudsync store status
complete -c cloudsync -n '__cloudsync_at \'store status\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'

# cloudsync store sync
complete -c cloudsync -n '__cloudsync_at \'store sync\'' -l download-only -d 'Only pull; leave local changes pending.'
complete -c cloudsync -n '__cloudsync_at \'store sync\'' -l batch-size -x -d 'Records per modify call (1-400).'
complete -c cloudsync -n '__cloudsync_at \'store sync\'' -l force-data -d 'Send BYTES fields inline this time instead of as assets.'
complete -c cloudsync -n '__cloudsync_at \'store sync\'' -l delete-cloud-data -d 'With off: delete the store\'s own zones from the cloud (its default zone and zones its syncs made; never a zone made otherwise, e.g. by zone create).'
complete -c cloudsync -n '__cloudsync_at \'store sync\'' -s y -l yes -d 'With --delete-cloud-data: do not ask.'
complete -c cloudsync -n '__cloudsync_at \'store sync\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'
complete -c cloudsync -n '__cloudsync_at \'store sync\'' -l full-scan -d 'With --database public: scan every mirrored type in full now, to find records deleted upstream.'
complete -c cloudsync -n '__cloudsync_arg \'store sync\' 0' -a 'on off' -d 'on or off: turn sync on or off for the account.'

# cloudsync store config
complete -c cloudsync -n '__cloudsync_arg \'store config\' 0' -a 'merge-policy force-data shared-zones public-types public-scan-interval' -d 'merge-policy, force-data, shared-zones, public-types or public-scan-interval.'

# cloudsync store conflicts
complete -c cloudsync -n '__cloudsync_at \'store conflicts\'' -l unresolved -d 'Only conflicts still waiting.'
complete -c cloudsync -n '__cloudsync_at \'store conflicts\'' -l limit -x -d 'At most N entries (default 50).'
complete -c cloudsync -n '__cloudsync_at \'store conflicts\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'
complete -c cloudsync -n '__cloudsync_at \'store conflicts\'' -l owner -x -d 'The local store of the zones OWNER (a login) shared with this account.'

# cloudsync store export
complete -c cloudsync -n '__cloudsync_at \'store export\'' -l zone -x -a '(__cloudsync_live)' -d 'Only this zone (default: every zone).'
complete -c cloudsync -n '__cloudsync_at \'store export\'' -l type -x -a '(__cloudsync_live)' -d 'Only records of this type.'
complete -c cloudsync -n '__cloudsync_at \'store export\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'

# cloudsync store import
complete -c cloudsync -n '__cloudsync_at \'store import\'' -l zone -x -a '(__cloudsync_live)' -d 'Zone (default com.apple.coredata.cloudkit.zone).'
complete -c cloudsync -n '__cloudsync_at \'store import\'' -l batch-size -x -d 'Records per transaction (default 1000).'
complete -c cloudsync -n '__cloudsync_arg \'store import\' 0' -F -d 'NDJSON file; - for stdin.'

# cloudsync store revert
complete -c cloudsync -n '__cloudsync_at \'store revert\'' -l database -x -a 'private public shared' -d 'private (default), public (the public store mirrors the public database\'s types set by \'store config public-types\') or shared with --owner OWNER (the store of the zones OWNER shares with you).'
complete -c cloudsync -n '__cloudsync_arg \'store revert\' 0 rest' -a '(__cloudsync_live)' -d 'Record name.'

# cloudsync sync
complete -c cloudsync -n '__cloudsync_at \'sync\'' -l watch -d 'Keep running: push after local commits, pull on notifications, wait out outages.'

# cloudsync kv
complete -c cloudsync -n '__cloudsync_arg \'kv\' 0' -a 'get' -d 'Print a key\'s value.'
complete -c cloudsync -n '__cloudsync_arg \'kv\' 0' -a 'set' -d 'Set a key (offline; pending until kv sync).'
complete -c cloudsync -n '__cloudsync_arg \'kv\' 0' -a 'delete' -d 'Delete a key (offline; pending until kv sync).'
complete -c cloudsync -n '__cloudsync_arg \'kv\' 0' -a 'list' -d 'List keys, values and whether they are pending.'
complete -c cloudsync -n '__cloudsync_arg \'kv\' 0' -a 'sync' -d 'Push pending writes and pull changes made elsewhere.'

# cloudsync kv get
complete -c cloudsync -n '__cloudsync_arg \'kv get\' 0' -a '(__cloudsync_live)' -d 'The key.'

# cloudsync kv set
complete -c cloudsync -n '__cloudsync_at \'kv set\'' -l type -x -a 'string number bool data json' -d 'string (default), number, bool, data (base64) or json.'
complete -c cloudsync -n '__cloudsync_at \'kv set\'' -l file -r -F -d 'Read the value from a file (- for stdin); data is taken raw.'
complete -c cloudsync -n '__cloudsync_arg \'kv set\' 0' -a '(__cloudsync_live)' -d 'The key (at most 64 bytes).'

# cloudsync kv delete
complete -c cloudsync -n '__cloudsync_arg \'kv delete\' 0' -a '(__cloudsync_live)' -d 'The key.'

# cloudsync kv list
complete -c cloudsync -n '__cloudsync_at \'kv list\'' -s a -l all -d 'Also list the keys cloudsync keeps for itself (cloudsync.*, such as the wrapped data key).'

# cloudsync kv sync

# cloudsync subscribe
complete -c cloudsync -n '__cloudsync_arg \'subscribe\' 0' -a 'create' -d 'Create (or replace) a database, zone or query subscription.'
complete -c cloudsync -n '__cloudsync_arg \'subscribe\' 0' -a 'list' -d 'List the account\'s subscriptions.'
complete -c cloudsync -n '__cloudsync_arg \'subscribe\' 0' -a 'delete' -d 'Delete subscriptions by ID.'
complete -c cloudsync -n '__cloudsync_arg \'subscribe\' 0' -a 'listen' -d 'Wait for notifications and print (or act on) each one.'
complete -c cloudsync -n '__cloudsync_arg \'subscribe\' 0' -a 'init' -d 'Create the app\'s zones and database subscriptions once.'
complete -c cloudsync -n '__cloudsync_arg \'subscribe\' 0' -a 'unregister' -d 'Stop notifications to this device and drop its unread ones.'

# cloudsync subscribe create
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l database -x -a 'private shared public' -d 'A database subscription on SCOPE; for --query, its database (default private). One of: private, shared, public.'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l zone -x -a '(__cloudsync_live)' -d 'A zone subscription on ZONE; for --query, limit it to ZONE.'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l query -x -a '(__cloudsync_live)' -d 'A query subscription on records of TYPE.'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l where -x -d 'With --query: which records (default TRUEPREDICATE).'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l arg -x -d 'Value for the next %@ of --where (repeatable).'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l fires-on -x -d 'With --query: create,update,delete or a part of it (default all three).'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l once -d 'With --query: delete the subscription after it fired once.'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l id -x -d 'The subscription ID (default: a new random UUID).'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l silent -d 'Silent notifications that only wake the listener (the default).'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l alert -x -d 'With --query: the alert text of each notification.'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l desired-keys -x -d 'With --query: up to three fields carried by each notification.'
complete -c cloudsync -n '__cloudsync_at \'subscribe create\'' -l owner -x -d 'With --database shared: the account (login or userRecordName) that shared the zone.'

# cloudsync subscribe list
complete -c cloudsync -n '__cloudsync_at \'subscribe list\'' -l database -x -a 'private shared public' -d 'Only this database (repeatable). One of: private, shared, public.'

# cloudsync subscribe delete
complete -c cloudsync -n '__cloudsync_at \'subscribe delete\'' -l database -x -a 'private shared public' -d 'The database of the subscriptions. One of: private, shared, public.'
complete -c cloudsync -n '__cloudsync_arg \'subscribe delete\' 0 rest' -a '(__cloudsync_live)' -d 'Subscription ID.'

# cloudsync subscribe listen
complete -c cloudsync -n '__cloudsync_at \'subscribe listen\'' -l once -d 'Exit after the first notification.'
complete -c cloudsync -n '__cloudsync_at \'subscribe listen\'' -l timeout -x -d 'Exit (status 75 if nothing came) after SECONDS without a notification.'
complete -c cloudsync -n '__cloudsync_at \'subscribe listen\'' -l exec -x -d 'Run COMMAND (through /bin/sh -c) once per notification.'
complete -c cloudsync -n '__cloudsync_at \'subscribe listen\'' -l retry -d 'When the cloud cannot be reached, wait for it (backoff 1 s to 60 s) and resume instead of exiting 69.'

# cloudsync subscribe init
complete -c cloudsync -n '__cloudsync_at \'subscribe init\'' -l zone -x -d 'A zone the app keeps its records in (repeatable).'
complete -c cloudsync -n '__cloudsync_at \'subscribe init\'' -l database -x -a 'private shared' -d 'Subscribe to this database: private or shared (repeatable; default both).'
complete -c cloudsync -n '__cloudsync_at \'subscribe init\'' -l verify -d 'Ask the cloud what exists and re-create what is missing.'

# cloudsync subscribe unregister

# cloudsync share
complete -c cloudsync -n '__cloudsync_arg \'share\' 0' -a 'create' -d 'Share a zone (or change its share\'s title and public permission); prints its URL.'
complete -c cloudsync -n '__cloudsync_arg \'share\' 0' -a 'add' -d 'Invite accounts to a zone\'s share, or change their permission.'
complete -c cloudsync -n '__cloudsync_arg \'share\' 0' -a 'remove' -d 'Remove participants: the zone leaves their shared database.'
complete -c cloudsync -n '__cloudsync_arg \'share\' 0' -a 'accept' -d 'Accept a share: its zone appears in your shared database.'
complete -c cloudsync -n '__cloudsync_arg \'share\' 0' -a 'leave' -d 'Leave a share you accepted.'
complete -c cloudsync -n '__cloudsync_arg \'share\' 0' -a 'delete' -d 'Stop sharing a zone: every participant loses it.'
complete -c cloudsync -n '__cloudsync_arg \'share\' 0' -a 'list' -d 'List the shares you own (with participants) and those you accepted.'

# cloudsync share create
complete -c cloudsync -n '__cloudsync_at \'share create\'' -l zone -x -a '(__cloudsync_live)' -d 'The shared zone.'
complete -c cloudsync -n '__cloudsync_at \'share create\'' -l title -x -d 'What participants see (default: the zone\'s name).'
complete -c cloudsync -n '__cloudsync_at \'share create\'' -l public-permission -x -a 'none read-only read-write' -d 'What anyone with the URL may accept: none (default), read-only or read-write.'

# cloudsync share add
complete -c cloudsync -n '__cloudsync_at \'share add\'' -l zone -x -a '(__cloudsync_live)' -d 'The shared zone.'
complete -c cloudsync -n '__cloudsync_at \'share add\'' -l permission -x -a 'read-only read-write' -d 'read-only (default) or read-write.'

# cloudsync share remove
complete -c cloudsync -n '__cloudsync_at \'share remove\'' -l zone -x -a '(__cloudsync_live)' -d 'The shared zone.'

# cloudsync share accept

# cloudsync share leave
complete -c cloudsync -n '__cloudsync_at \'share leave\'' -l zone -x -a '(__cloudsync_live)' -d 'The shared zone.'
complete -c cloudsync -n '__cloudsync_at \'share leave\'' -l owner -x -d 'With --database shared: the account (login or userRecordName) that shared the zone.'

# cloudsync share delete
complete -c cloudsync -n '__cloudsync_at \'share delete\'' -l zone -x -a '(__cloudsync_live)' -d 'The shared zone.'

# cloudsync share list
complete -c cloudsync -n '__cloudsync_at \'share list\'' -l zone -x -a '(__cloudsync_live)' -d 'Only this zone.'

# cloudsync schema
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'export' -d 'Print the environment\'s schema as .ckdb text.'
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'validate' -d 'Check a .ckdb file without touching the cloud.'
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'import' -d 'Replace the development schema with a .ckdb file.'
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'diff' -d 'Show what importing a .ckdb file would change.'
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'deploy' -d 'Promote the development schema to production (additive changes only).'
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'reset' -d 'Delete the development schema and all development data.'
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'init' -d 'Add the record types and fields of this device\'s local store to development.'
complete -c cloudsync -n '__cloudsync_arg \'schema\' 0' -a 'show' -d 'Show record types, fields, their types and indexes as a table.'

# cloudsync schema export
complete -c cloudsync -n '__cloudsync_at \'schema export\'' -s o -l output -r -F -d 'Write to FILE instead of standard output (\'-\').'

# cloudsync schema validate
complete -c cloudsync -n '__cloudsync_arg \'schema validate\' 0' -F -d 'The .ckdb file (\'-\' for standard input).'

# cloudsync schema import
complete -c cloudsync -n '__cloudsync_at \'schema import\'' -l dry-run -d 'Show what would change and change nothing.'
complete -c cloudsync -n '__cloudsync_arg \'schema import\' 0' -F -d 'The .ckdb file (\'-\' for standard input).'

# cloudsync schema diff
complete -c cloudsync -n '__cloudsync_arg \'schema diff\' 0' -F -d 'The .ckdb file (\'-\' for standard input).'

# cloudsync schema deploy
complete -c cloudsync -n '__cloudsync_at \'schema deploy\'' -l dry-run -d 'Show what would change and change nothing.'
complete -c cloudsync -n '__cloudsync_at \'schema deploy\'' -l allow-wider-grants -d 'Deploy grants that widen who may create or write production records.'

# cloudsync schema reset
complete -c cloudsync -n '__cloudsync_at \'schema reset\'' -s y -l yes -d 'Confirm; required.'

# cloudsync schema init
complete -c cloudsync -n '__cloudsync_at \'schema init\'' -l dry-run -d 'Show what would change and change nothing.'

# cloudsync schema show
complete -c cloudsync -n '__cloudsync_arg \'schema show\' 0' -a '(__cloudsync_live)' -d 'Only this record type.'

# cloudsync keys
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'unlock' -d 'Unlock (or, on the account\'s first device, create) the data key here.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'lock' -d 'Forget the unlocked data key on this device.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'status' -d 'Whether this device holds the data key and the account has one.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'passphrase' -d 'Change the sync passphrase.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'identity' -d 'Show this account\'s identity key, creating and publishing it on first use.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'show' -d 'Show another account\'s published identity key and whether it is trusted here.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'trust' -d 'Pin an account\'s identity key by its fingerprint.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'rotate' -d 'Make a new identity key; the old ones stay so old messages still open.'
complete -c cloudsync -n '__cloudsync_arg \'keys\' 0' -a 'export-identity' -d 'Write the current identity private key as PKCS#8 PEM (mode 0600).'

# cloudsync keys unlock

# cloudsync keys lock

# cloudsync keys status

# cloudsync keys passphrase
complete -c cloudsync -n '__cloudsync_arg \'keys passphrase\' 0' -a 'change' -d 'Re-wrap the data key under a new passphrase (data is not re-encrypted).'

# cloudsync keys passphrase change

# cloudsync keys identity

# cloudsync keys show

# cloudsync keys trust

# cloudsync keys rotate

# cloudsync keys export-identity
complete -c cloudsync -n '__cloudsync_at \'keys export-identity\'' -l output -r -F -d 'Where to write the PEM (created 0600; refuses to overwrite).'
complete -c cloudsync -n '__cloudsync_at \'keys export-identity\'' -l all -d 'Every identity key, oldest first, not only the current one.'

# cloudsync message
complete -c cloudsync -n '__cloudsync_arg \'message\' 0' -a 'send' -d 'Encrypt a message to an account and store it in the public database.'
complete -c cloudsync -n '__cloudsync_arg \'message\' 0' -a 'inbox' -d 'List the messages sent to this account, oldest first.'
complete -c cloudsync -n '__cloudsync_arg \'message\' 0' -a 'outbox' -d 'List the messages this account sent, oldest first (from the sender\'s own sealed copy).'
complete -c cloudsync -n '__cloudsync_arg \'message\' 0' -a 'read' -d 'Print one message (as its recipient, or from the sender\'s outbox copy).'
complete -c cloudsync -n '__cloudsync_arg \'message\' 0' -a 'delete' -d 'Delete a message you sent, or hide a message you received from your inbox.'

# cloudsync message send
complete -c cloudsync -n '__cloudsync_at \'message send\'' -l file -r -F -d 'Send the bytes of FILE.'

# cloudsync message inbox
complete -c cloudsync -n '__cloudsync_at \'message inbox\'' -l since -x -d 'Only messages sent after TIME (ISO 8601, @epoch-seconds or epoch milliseconds).'
complete -c cloudsync -n '__cloudsync_at \'message inbox\'' -l limit -x -d 'Only the N most recent messages.'

# cloudsync message outbox
complete -c cloudsync -n '__cloudsync_at \'message outbox\'' -l since -x -d 'Only messages sent after TIME (ISO 8601, @epoch-seconds or epoch milliseconds).'
complete -c cloudsync -n '__cloudsync_at \'message outbox\'' -l limit -x -d 'Only the N most recent messages.'

# cloudsync message read
complete -c cloudsync -n '__cloudsync_at \'message read\'' -l output -r -F -d 'Write the plaintext bytes to FILE (created 0600).'

# cloudsync message delete

# cloudsync otp
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'add' -d 'Add a token; the secret comes from a prompt, stdin or a file, never the command line.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'code' -d 'Print the current code of a token, or of every time-based token.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'verify' -d 'Check a code against a token: exit 0 on a match (printing the step offset), 1 otherwise.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'list' -d 'List the tokens of this device (without secrets), or those a QUERY matches.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'show' -d 'Show a token; --uri reveals its otpauth:// URI with the secret, --qr draws it.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'rename' -d 'Give a token another name.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'remove' -d 'Remove tokens (asks first on a terminal; --yes otherwise).'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'import' -d 'Import tokens from otpauth URIs, Google Authenticator, Aegis, 2FAS, andOTP, Bitwarden or Proton.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'export' -d 'Export tokens, secrets included, as otpauth:// URIs, an Aegis vault or QR codes.'
complete -c cloudsync -n '__cloudsync_arg \'otp\' 0' -a 'sync' -d 'Sync tokens now, or turn sync on or off for the account.'

# cloudsync otp add
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l issuer -x -d 'The service (GitHub).'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l account-name -x -d 'The account at the service (alice@example.com). (--account chooses the cloudsync account.)'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l type -x -a 'totp hotp steam' -d 'totp (default), hotp or steam.'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l algorithm -x -a 'SHA1 SHA256 SHA512' -d 'SHA1 (default), SHA256 or SHA512.'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l digits -x -d 'Code length, 6 (default) to 8.'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l period -x -d 'TOTP step length (default 30).'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l counter -x -d 'HOTP: the next counter to use (default 0).'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l note -x -d 'Free text kept with the token.'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l secret-file -r -F -d 'Read the secret or URI from FILE (\'-\' for stdin).'
complete -c cloudsync -n '__cloudsync_at \'otp add\'' -l generate -d 'Make a new random secret instead of reading one.'

# cloudsync otp code
complete -c cloudsync -n '__cloudsync_at \'otp code\'' -l at -x -d 'The code at TIME (ISO 8601, @epoch-seconds or epoch milliseconds) instead of now.'
complete -c cloudsync -n '__cloudsync_at \'otp code\'' -l next -x -d 'Also print the N codes that follow.'
complete -c cloudsync -n '__cloudsync_at \'otp code\'' -l exact -d 'Refuse a QUERY that matches more than one token instead of printing each one\'s code.'
complete -c cloudsync -n '__cloudsync_at \'otp code\'' -s c -l clip -d 'Copy the code to the clipboard (cleared after 45 s) instead of printing it.'
complete -c cloudsync -n '__cloudsync_arg \'otp code\' 0' -a '(__cloudsync_live)' -d 'Name, issuer, issuer:account or part of one.'

# cloudsync otp verify
complete -c cloudsync -n '__cloudsync_at \'otp verify\'' -l window -x -d 'Steps (TOTP) or counters (HOTP) of tolerance, 0 to 100 (default 1).'
complete -c cloudsync -n '__cloudsync_at \'otp verify\'' -l at -x -d 'Verify as at TIME (ISO 8601, @epoch-seconds or epoch milliseconds) instead of now.'
complete -c cloudsync -n '__cloudsync_arg \'otp verify\' 1' -a '(__cloudsync_live)' -d 'Name, issuer, issuer:account or part of one.'

# cloudsync otp list
complete -c cloudsync -n '__cloudsync_arg \'otp list\' 0' -a '(__cloudsync_live)' -d 'Name, issuer, issuer:account or part of one, as \'otp code\' matches.'

# cloudsync otp show
complete -c cloudsync -n '__cloudsync_at \'otp show\'' -l uri -d 'Print the otpauth:// URI, secret included.'
complete -c cloudsync -n '__cloudsync_at \'otp show\'' -l qr -d 'Draw the URI as a QR code to scan with a phone.'
complete -c cloudsync -n '__cloudsync_arg \'otp show\' 0' -a '(__cloudsync_live)' -d 'Name, issuer, issuer:account or part of one.'

# cloudsync otp rename
complete -c cloudsync -n '__cloudsync_arg \'otp rename\' 0' -a '(__cloudsync_live)' -d 'Name, issuer, issuer:account or part of one.'

# cloudsync otp remove
complete -c cloudsync -n '__cloudsync_at \'otp remove\'' -s y -l yes -d 'Do not ask.'
complete -c cloudsync -n '__cloudsync_arg \'otp remove\' 0 rest' -a '(__cloudsync_live)' -d 'Name, issuer, issuer:account or part of one.'

# cloudsync otp import
complete -c cloudsync -n '__cloudsync_at \'otp import\'' -l format -x -a 'uri aegis 2fas andotp bitwarden proton' -d 'Skip detection: uri, aegis, 2fas, andotp, bitwarden or proton.'
complete -c cloudsync -n '__cloudsync_at \'otp import\'' -l password-file -r -F -d 'The password of an encrypted Aegis vault.'
complete -c cloudsync -n '__cloudsync_at \'otp import\'' -s n -l dry-run -d 'Report what would be imported; store nothing.'
complete -c cloudsync -n '__cloudsync_arg \'otp import\' 0' -F -d 'The export file, or - for stdin.'

# cloudsync otp export
complete -c cloudsync -n '__cloudsync_at \'otp export\'' -l format -x -a 'uri aegis migration' -d 'uri (default), aegis or migration.'
complete -c cloudsync -n '__cloudsync_at \'otp export\'' -l qr -d 'Draw each URI as a QR code (uri and migration formats).'
complete -c cloudsync -n '__cloudsync_at \'otp export\'' -s o -l output -r -F -d 'Write to FILE (mode 0600) instead of stdout.'
complete -c cloudsync -n '__cloudsync_arg \'otp export\' 0 rest' -a '(__cloudsync_live)' -d 'Export only these tokens (default: all).'

# cloudsync otp sync
complete -c cloudsync -n '__cloudsync_at \'otp sync\'' -l download-only -d 'Only pull; leave local changes pending.'
complete -c cloudsync -n '__cloudsync_at \'otp sync\'' -l batch-size -x -d 'Records per modify call (1-400).'
complete -c cloudsync -n '__cloudsync_at \'otp sync\'' -l force-data -d 'Send BYTES fields inline this time instead of as assets.'
complete -c cloudsync -n '__cloudsync_at \'otp sync\'' -l delete-cloud-data -d 'With off: delete the store\'s own zones from the cloud (its default zone and zones its syncs made; never a zone made otherwise, e.g. by zone create).'
complete -c cloudsync -n '__cloudsync_at \'otp sync\'' -s y -l yes -d 'With --delete-cloud-data: do not ask.'
complete -c cloudsync -n '__cloudsync_arg \'otp sync\' 0' -a 'on off' -d 'on or off: turn sync on or off for the account.'

# cloudsync serve
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l listen -x -d 'Address to listen on (default 127.0.0.1:8080; port 0 picks one).'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l tls-cert -r -F -d 'Serve HTTPS with this PEM certificate (with --tls-key).'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l tls-key -r -F -d 'The PEM private key of --tls-cert.'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l max-connections -x -d 'Connections served at once (default 256).'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l max-requests -x -d 'Requests worked on at once, below --max-connections (default 32, at most a quarter of the connections); twice as many more wait, the rest get 503 with Retry-After. Long polls are not counted.'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l max-connections-per-address -x -d 'Connections from one address at once (default 32; 0 for no limit). Once three quarters of --max-connections are open, an address holding two or more gets no new one, so a few addresses cannot fill the server. Long polls may hold at most three quarters of --max-connections.'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l header-timeout -x -d 'Close a connection whose request headers are not all in within SECONDS (default 10), idle kept-alive ones too.'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l max-body-memory -x -d 'Request bodies held at once, over all connections (default 256M; K, M, G suffixes); past it 503 with Retry-After.'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l quota-bytes -x -d 'Storage per account: record fields and assets (default 10G; K, M, G suffixes; 0 for none); past it QUOTA_EXCEEDED (exit 65), reads and deletes still work.'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l db-connections -x -d 'Connections to a postgres:// cloud, shared by the requests (default twice the cores); a request that finds them all busy for 2 s gets 503 with Retry-After.'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l read-replica -x -d 'A streaming replica (postgres://…) of the postgres:// --cloud, repeatable: read-only calls (records lookup, query and changes, zones list, lookup and changes, database changes) of a client that sends back the X-CloudSync-Position of its replies (or a change token, which carries it) go to a replica that has replayed that far, others to the primary; a replica that is behind, down or failing leaves the call to the primary (one unreachable at start is a warning).'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l max-poll-wait -x -d 'The longest a notifications/poll is held waiting before it answers with no notification (default 60, the protocol\'s most; 1 to 60). Behind a load balancer, keep it below the balancer\'s response timeout, so that no waiting poll is cut (scripts/cluster does).'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l public-url -x -d 'The http(s) URL clients reach this server at (a proxy in front), for the asset upload and download URLs and the sign-in page a 421 names (default: the request\'s Host and the server\'s scheme).'
complete -c cloudsync -n '__cloudsync_at \'serve\'' -l log -r -F -d 'Append the request log to FILE (- for stderr, the default).'

# cloudsync token
complete -c cloudsync -n '__cloudsync_arg \'token\' 0' -a 'create' -d 'Print a new token for --account, or an API token with --api (shown once).'
complete -c cloudsync -n '__cloudsync_arg \'token\' 0' -a 'list' -d 'List tokens and keys: ID, account, kind, role, created, last used.'
complete -c cloudsync -n '__cloudsync_arg \'token\' 0' -a 'revoke' -d 'Revoke a token or key by ID.'
complete -c cloudsync -n '__cloudsync_arg \'token\' 0' -a 'add-key' -d 'Register a server-to-server key (ECDSA P-256) for --account; print its key ID.'

# cloudsync token create
complete -c cloudsync -n '__cloudsync_at \'token create\'' -l admin -d 'Give it the administrator role (schema import, deploy and reset of every container; the console\'s Operations page and GET /metrics).'
complete -c cloudsync -n '__cloudsync_at \'token create\'' -l api -d 'Make a container API token (reads the public database as no user).'

# cloudsync token list

# cloudsync token revoke

# cloudsync token add-key
complete -c cloudsync -n '__cloudsync_at \'token add-key\'' -l public-key -r -F -d 'The PEM public key (openssl ec -pubout).'
complete -c cloudsync -n '__cloudsync_at \'token add-key\'' -l admin -d 'Give it the administrator role (schema import, deploy and reset of every container; the console\'s Operations page and GET /metrics).'

# cloudsync admin
complete -c cloudsync -n '__cloudsync_arg \'admin\' 0' -a 'add' -d 'Make an account an administrator of the container (as --account, an administrator).'
complete -c cloudsync -n '__cloudsync_arg \'admin\' 0' -a 'list' -d 'List the container\'s administrators.'
complete -c cloudsync -n '__cloudsync_arg \'admin\' 0' -a 'remove' -d 'End an account\'s administration of the container (as --account, an administrator).'

# cloudsync admin add

# cloudsync admin list

# cloudsync admin remove

# cloudsync login

# cloudsync tour
complete -c cloudsync -n '__cloudsync_at \'tour\'' -l keep -d 'Keep the temporary folder and print its path.'

# cloudsync whoami
complete -c cloudsync -n '__cloudsync_at \'whoami\'' -l set-name -x -d 'Set the account\'s display name, shown to others with your messages and keys ("" clears it).'
complete -c cloudsync -n '__cloudsync_at \'whoami\'' -l discoverable -x -a 'on off' -d 'Whether other accounts find this one by its login (off: only by its userRecordName). One of: on, off.'

# cloudsync cloud
complete -c cloudsync -n '__cloudsync_arg \'cloud\' 0' -a 'create' -d 'Create the cloud named by --cloud if it does not exist.'
complete -c cloudsync -n '__cloudsync_arg \'cloud\' 0' -a 'check' -d 'Check the cloud\'s format, counts and integrity.'
complete -c cloudsync -n '__cloudsync_arg \'cloud\' 0' -a 'copy' -d 'Copy a whole cloud to another URL (SQLite to PostgreSQL or back).'

# cloudsync cloud create

# cloudsync cloud check

# cloudsync cloud copy
complete -c cloudsync -n '__cloudsync_at \'cloud copy\'' -l from -x -d 'The cloud to copy (sqlite:///… or postgres://…).'
complete -c cloudsync -n '__cloudsync_at \'cloud copy\'' -l to -x -d 'Where to copy it (created if needed, in an existing folder).'
complete -c cloudsync -n '__cloudsync_at \'cloud copy\'' -l force -d 'Replace what the target holds.'

# cloudsync repl
complete -c cloudsync -n '__cloudsync_at \'repl\'' -l bail -d 'In a script, stop at the first line that fails.'
complete -c cloudsync -n '__cloudsync_at \'repl\'' -s x -l echo -d 'In a script, print each line to stderr before running it.'
complete -c cloudsync -n '__cloudsync_arg \'repl\' 0' -F -d 'Run the lines of this file instead of reading stdin.'

# cloudsync help
complete -c cloudsync -n '__cloudsync_at \'help\'' -s a -l all -d 'List builtin commands and plugins.'
complete -c cloudsync -n '__cloudsync_arg \'help\' 0 rest' -a '(__cloudsync_live)' -d 'The command (and subcommands) to explain.'
