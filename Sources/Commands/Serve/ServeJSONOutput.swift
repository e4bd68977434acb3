import CloudSyncCLI
import CloudSyncSession

/// What the serve commands print with --json (the man page's JSON OUTPUT section).
enum ServeJSONOutput {
    static let serve = JSONOutput.document("One line once listening, then request logs on stderr until stopped.", [("url", "The URL it listens on."), ("cloud", "The cloud it serves (a PostgreSQL password left out).")])
    static let login = JSONOutput.nothing("Prints nothing on stdout: the token is stored for the URL.")
    static let create = JSONOutput.document("The new token, shown once.", [("id", "Its ID (for 'token revoke')."), ("account", "The account it acts as."), ("role", "admin, user, or none for an API token."), ("?container", "An API token's container (with --api only)."), ("token", "The secret token.")])
    static let list = JSONOutput.document("Every token and key.", [("tokens", "[{id (for 'token revoke'), account, kind (token, server-key or api-token), role (admin, user, or none for an API token), container (an API token's, else null), created (ms since the epoch), lastUsed (ms since the epoch, or null)}]")])
    static let revoke = JSONOutput.document("The revoked token or key, in the list 'token list' prints.", [("tokens", "[{id, deleted: true}].")])
    static let addKey = JSONOutput.document("The registered key.", [("id", "The key ID, for the X-Apple-CloudKit-Request-KeyID header."), ("account", "The account it acts as.")])
}
