import Glibc
import TestSupport
import Testing

/// Issue 15: bash completes words with ':' (otp names are Issuer:account; COMP_WORDBREAKS splits
/// at ':'), and offers plugins found on CLOUDSYNC_EXEC_PATH.
@Suite struct BashColonCompletionTests {
    static func complete(_ words: [String], home: TemporaryDirectory, extra: [String: String] = [:]) -> [String]? {
        let program = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _cloudsync
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        var environment = CompletionScriptTests.environment(home)
        for (key, value) in extra { environment[key] = value }
        guard let result = Tool.bash.run(["--norc", "--noprofile", "-c", program, "bash", CompletionScriptTests.bash] + words,
                                         environment: environment) else { return nil }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func otpNamesWithAColonComplete() throws {
        let home = TemporaryDirectory("colon-completion")
        let runner = BinaryRunner(home: home.path)
        for (account, secret) in [("alice", "JBSWY3DPEHPK3PXPJBSWY3DP"), ("bob", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")] {
            let added = runner.run(["otp", "add", "--issuer", "GitHub", "--account-name", account], device: "laptop", stdin: secret)
            #expect(added.status == 0, "\(added.stderr)")
        }
        // `cloudsync otp code GitHub:al<Tab>`: bash hands the words GitHub, ':' and al.
        #expect(Self.complete(["cloudsync", "otp", "code", "GitHub", ":", "al"], home: home) == ["alice"])
        // `cloudsync otp code GitHub:<Tab>`: the word under the cursor is the ':'.
        #expect(Self.complete(["cloudsync", "otp", "code", "GitHub", ":"], home: home)?.sorted() == ["alice", "bob"])
        #expect(Self.complete(["cloudsync", "otp", "code", "Git"], home: home)?.sorted() == ["GitHub:alice", "GitHub:bob"])
    }

    @Test func pluginsOnTheExecPathAreOffered() throws {
        let home = TemporaryDirectory("plugin-completion")
        home.makeDirectory("plugins")
        _ = home.write("plugins/cloudsync-hello", "#!/bin/sh\necho hi\n", mode: 0o755)
        _ = home.write("plugins/cloudsync-hidden", "not executable\n", mode: 0o644)
        let offered = Self.complete(["cloudsync", "h"], home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.file("plugins")])
        #expect(offered?.contains("hello") == true, "\(offered ?? [])")
        #expect(offered?.contains("help") == true)
        #expect(offered?.contains("hidden") == false)
    }
}
