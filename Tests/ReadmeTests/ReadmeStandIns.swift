/// The reviewed exceptions: what the README test does not run exactly as written, and why.
/// Keep this list short; every entry must still be used by the README (the test checks).
enum ReadmeStandIns {
    /// A command the README calls that the test replaces with a shell function of the same name.
    struct StandIn {
        let name: String
        let body: String
        let reason: String
        /// Only where the command itself is not installed.
        var onlyIfMissing = false
    }

    /// Input that a user types at a prompt; without a terminal it comes from stdin or the
    /// environment variable the command documents instead.
    struct Input {
        /// A piece of the line's command, as in README claims.
        let key: String
        var stdin: String = ""
        var environment: [String: String] = [:]
        let reason: String
    }

    static let standIns: [StandIn] = [
        StandIn(name: "scripts/tour", body: "cloudsync tour",
                reason: "installs Debian packages and builds in release mode (minutes), then runs `cloudsync tour`"),
        StandIn(name: "scripts/test", body: ":",
                reason: "runs every test, this one included"),
        StandIn(name: "scripts/build-release", body: "command -v cloudsync",
                reason: "a release build takes minutes; like it, this prints the path of a built binary"),
        StandIn(name: "pass", body: #"echo 'otpauth://totp/Forge:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Forge'"#,
                reason: "the user's pass-otp entry: an otpauth URI"),
        StandIn(name: "xclip", body: #"cat > "$HOME/clipboard""#,
                reason: "needs an X display"),
        StandIn(name: "zbarimg", body: #"cat transfer.uri"#,
                reason: "the test has no photo of a phone; this prints what zbarimg reads from one "
                    + "(OTPQRTests scans real QR codes with zbarimg)"),
        StandIn(name: "man", body: #"mandoc -T utf8 "$HOME/.local/share/man/man1/$1.1""#,
                reason: "man-db is not a test dependency; mandoc (one) formats the page installed above",
                onlyIfMissing: true),
    ]

    static let inputs: [Input] = [
        Input(key: "otp add --issuer GitHub --account-name alice", stdin: "JBSWY3DPEHPK3PXP\n",
              reason: "the secret is asked without echo on a terminal, read from stdin otherwise"),
        Input(key: "keys passphrase change", environment: ["CLOUDSYNC_NEW_PASSPHRASE": "a new passphrase here"],
              reason: "the new passphrase is asked on a terminal, else taken from CLOUDSYNC_NEW_PASSPHRASE"),
    ]

    /// Files the README's commands read, made in the work folder before the first block.
    /// (Besides these, the work folder holds copies of the repository's man/ and completions/,
    /// and of scripts/cluster, which the README runs as `scripts/cluster`.)
    static let fixtures = #"""
    echo KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU > vpn.key
    fixture() { CLOUDSYNC_HOME="$TMPDIR/fixture" XDG_DATA_HOME="$TMPDIR/fixture" CLOUDSYNC_DEVICE=fixture cloudsync "$@"; }
    echo 'otpauth://totp/Aegis:bob?secret=MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U&issuer=Aegis' | fixture otp import - >/dev/null
    fixture otp export aegis --format aegis -o aegis-backup.json >/dev/null
    echo 'otpauth://totp/Transfer:carol?secret=ONSWG4TFORZWK3TSMVZXI43FMNZGK5DT&issuer=Transfer' | fixture otp import - >/dev/null
    fixture otp export transfer --format migration > transfer.uri
    unset -f fixture
    """#
}
