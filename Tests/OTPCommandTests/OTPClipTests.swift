import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `otp code --clip` through the binary, with a fake `xclip` (or `wl-copy`) on PATH that keeps
/// the clipboard in a file and logs every call.
@Suite("otp code --clip (end to end, fake clipboard tools)")
struct OTPClipTests {
    let home = TemporaryDirectory("otp-clip")

    /// A fake clipboard program: `-o`/`--no-newline` (wl-paste) prints the clipboard, `--clear`
    /// empties it, anything else copies stdin; every call is logged as `NAME copy [TEXT] [ARGS]`
    /// or `NAME read`.
    static func fake(_ name: String) -> String {
        """
        #!/bin/sh
        state="$FAKE_CLIP_DIR/clipboard"
        case " $* " in
          *" -o "*|*" --no-newline "*) echo "\(name) read" >> "$FAKE_CLIP_DIR/log"; cat "$state" 2>/dev/null ;;
          *" --clear "*) echo "\(name) clear" >> "$FAKE_CLIP_DIR/log"; : > "$state" ;;
          *) content=$(cat); printf '%s' "$content" > "$state"; echo "\(name) copy [$content] [$*]" >> "$FAKE_CLIP_DIR/log" ;;
        esac

        """
    }

    var cli: BinaryRunner {
        BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop", "PATH": home.path + "/bin:/usr/bin:/bin",
                                              "FAKE_CLIP_DIR": home.path])
    }

    func setUp(tools: [String] = ["xclip"]) {
        home.makeDirectory("bin")
        for tool in tools { home.write("bin/" + tool, Self.fake(tool), mode: 0o755) }
        let added = cli.run(["otp", "add", "rfc", "--digits", "8"], stdin: rfcSecret + "\n")
        #expect(added.status == 0, "\(added.stderr)")
    }

    var log: [String] {
        String(decoding: TemporaryDirectory.readBytes(home.file("log")) ?? [], as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    var clipboard: String { String(decoding: TemporaryDirectory.readBytes(home.file("clipboard")) ?? [], as: UTF8.self) }

    /// Waits (up to a minute: the machine may be busy) until the log has `count` lines.
    func waitForLog(_ count: Int) {
        for _ in 0..<600 where log.count < count { usleep(100_000) }
    }

    @Test func copiesTheCodeAndClearsItAfterTheDelay() {
        setUp()
        let result = cli.run(["otp", "code", "rfc", "--at", "@59", "--clip"], env: ["CLOUDSYNC_CLIP_TIME": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "copied the code of rfc to the clipboard with xclip; it is cleared in 1 s\n")
        #expect(!result.stdout.contains("94287082"), "the code is not shown")
        #expect(log.first == "xclip copy [94287082] [-selection clipboard]")
        waitForLog(3)
        #expect(log == ["xclip copy [94287082] [-selection clipboard]", "xclip read", "xclip copy [] [-selection clipboard]"])
        #expect(clipboard.isEmpty)
    }

    @Test func theCommandReturnsAtOnceAndTheCodeStaysUntilTheDelay() throws {
        setUp()
        // With the default 45 s, the command has returned (its output pipes closed: the clearing
        // child holds none of them) long before anything is cleared.
        let result = cli.run(["otp", "code", "rfc", "--at", "@59", "--clip", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["code"] == .string("94287082"))
        #expect(clipboard == "94287082")
        #expect(log == ["xclip copy [94287082] [-selection clipboard]"])
        let quiet = cli.run(["otp", "code", "rfc", "--at", "@59", "--clip", "-q"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
    }

    @Test func aClipboardChangedMeanwhileIsLeftAlone() {
        setUp()
        let result = cli.run(["otp", "code", "rfc", "--at", "@59", "--clip"], env: ["CLOUDSYNC_CLIP_TIME": "3"])
        #expect(result.status == 0, "\(result.stderr)")
        home.write("clipboard", "something else")
        waitForLog(2)
        usleep(300_000)
        #expect(log == ["xclip copy [94287082] [-selection clipboard]", "xclip read"])
        #expect(clipboard == "something else")
    }

    @Test func waylandPrefersWlCopyAndClearsWithIt() {
        setUp(tools: ["xclip", "wl-copy", "wl-paste"])
        let result = cli.run(["otp", "code", "rfc", "--at", "@59", "--clip"],
                             env: ["CLOUDSYNC_CLIP_TIME": "1", "WAYLAND_DISPLAY": "wayland-0"])
        #expect(result.status == 0, "\(result.stderr)")
        waitForLog(3)
        #expect(log == ["wl-copy copy [94287082] []", "wl-paste read", "wl-copy clear"])
    }

    @Test func withoutAToolItExits69NamingThePackagesAndSpendsNoCounter() throws {
        home.makeDirectory("bin")
        let bare = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop", "PATH": home.path + "/bin"])
        #expect(bare.run(["otp", "add", "counter", "--type", "hotp"], stdin: rfcSecret + "\n").status == 0)
        let refused = bare.run(["otp", "code", "counter", "--clip"])
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("install the package wl-clipboard (Wayland) or xclip (X11)"))
        #expect(refused.stdout.isEmpty)
        let shown = try bare.run(["otp", "show", "counter", "--json"]).json()
        #expect(shown["counter"] == .int(0), "\(shown)")
    }

    @Test func clipNeedsOneTokenAndAValidDelay() {
        setUp()
        #expect(cli.run(["otp", "add", "rfc2"], stdin: "JBSWY3DPEHPK3PXP\n").status == 0)
        #expect(cli.run(["otp", "code", "--clip"]).status == 64)
        let ambiguous = cli.run(["otp", "code", "rf", "--clip"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("matches 2 tokens"))
        let badDelay = cli.run(["otp", "code", "rfc", "--clip"], env: ["CLOUDSYNC_CLIP_TIME": "soon"])
        #expect(badDelay.status == 64)
        #expect(badDelay.stderr.contains("CLOUDSYNC_CLIP_TIME"))
        #expect(log.isEmpty)
    }
}
