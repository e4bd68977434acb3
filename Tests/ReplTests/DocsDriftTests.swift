import TestSupport
import Testing

/// The committed man/ and completions/ are exactly what the command table generates.
@Suite struct DocsDriftTests {
    @Test func committedFilesMatchTheTable() throws {
        let folder = TemporaryDirectory("docs-drift")
        let result = BinaryRunner(home: folder.path).run(["__generate-docs", "--output", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let regenerate = "run 'swift package --allow-writing-to-package-directory generate-docs' and commit the result"
        for sub in ["man", "completions"] {
            let generated = TemporaryDirectory.directoryEntries(folder.path + "/" + sub).sorted()
            let committed = TemporaryDirectory.directoryEntries(PackageFolder.path + "/" + sub).sorted()
            #expect(committed == generated, "\(sub)/ holds other files than the table generates; \(regenerate)")
            for name in generated {
                let fresh = TemporaryDirectory.readBytes(folder.path + "/" + sub + "/" + name)
                let old = TemporaryDirectory.readBytes(PackageFolder.path + "/" + sub + "/" + name)
                let same = fresh == old
                #expect(same, "\(sub)/\(name) differs from the command table; \(regenerate)")
            }
        }
        let check = BinaryRunner(home: folder.path).run(["__generate-docs", "--check", "--output", PackageFolder.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func theCheckModeReportsDrift() throws {
        let folder = TemporaryDirectory("docs-check")
        let runner = BinaryRunner(home: folder.path)
        #expect(runner.run(["__generate-docs", "--output", folder.path]).status == 0)
        folder.write("man/cloudsync-zone.1", "stale\n")
        folder.write("man/cloudsync-gone.1", "a command that no longer exists\n")
        let check = runner.run(["__generate-docs", "--check", "--output", folder.path])
        #expect(check.status == 1)
        #expect(check.stdout == "man/cloudsync-zone.1\nman/cloudsync-gone.1\n")
        let again = runner.run(["__generate-docs", "--output", folder.path])
        #expect(again.stdout == "wrote man/cloudsync-zone.1\nremoved man/cloudsync-gone.1\n")
        #expect(runner.run(["__generate-docs", "--check", "--output", folder.path]).status == 0)
    }

    @Test func theHiddenEntryPointsStayHidden() throws {
        let folder = TemporaryDirectory("docs-hidden")
        let runner = BinaryRunner(home: folder.path)
        let help = runner.run(["help", "-a"])
        #expect(!help.stdout.contains("__complete") && !help.stdout.contains("__generate-docs"))
        #expect(runner.run(["__complete", "--", ""]).stdout.split(separator: "\n").contains("zone"))
        // Quiet: a broken context prints nothing and creates nothing.
        let broken = runner.run(["__complete", "--", "--cloud", "nope://x", "zone", "delete", ""])
        #expect(broken.status == 0 && broken.stdout.isEmpty && broken.stderr.isEmpty)
        let fresh = runner.run(["__complete", "--", "zone", "delete", ""])
        #expect(fresh.stdout.isEmpty)
        #expect(TemporaryDirectory.readBytes(folder.path + "/cloud.sqlite") == nil, "completion created no cloud")
    }
}
