import CloudSyncCLI
import Testing

@Suite struct CommandLineSplitterTests {
    @Test func splitsLikeAShell() throws {
        #expect(try CommandLineSplitter.split("zone create Notes") == ["zone", "create", "Notes"])
        #expect(try CommandLineSplitter.split("  record   save\tNote  ") == ["record", "save", "Note"])
        #expect(try CommandLineSplitter.split("record save Note --field 'title=Hello world'")
                == ["record", "save", "Note", "--field", "title=Hello world"])
        #expect(try CommandLineSplitter.split(#"a "b \"c\" \\ \$x \n" d"#) == ["a", #"b "c" \ $x \n"#, "d"])
        #expect(try CommandLineSplitter.split(#"say it\'s a\ b"#) == ["say", "it's", "a b"])
        #expect(try CommandLineSplitter.split("a''b \"\" ''") == ["ab", "", ""])
        #expect(try CommandLineSplitter.split("zone list # a comment 'unbalanced") == ["zone", "list"])
        #expect(try CommandLineSplitter.split("echo a#b") == ["echo", "a#b"])
        #expect(try CommandLineSplitter.split("   ") == [])
        #expect(try CommandLineSplitter.split("# only a comment") == [])
        #expect(try CommandLineSplitter.split("--where 'count > %@' $HOME ~ *") == ["--where", "count > %@", "$HOME", "~", "*"])
    }

    @Test func unbalancedQuotesAreClearErrors() {
        #expect(throws: LineSplitError.unbalancedQuote(quote: "'", column: 18)) {
            try CommandLineSplitter.split("record save Note 'title=Hello")
        }
        #expect(throws: LineSplitError.unbalancedQuote(quote: "\"", column: 3)) {
            try CommandLineSplitter.split(#"a "b \" c"#)
        }
        let error = LineSplitError.unbalancedQuote(quote: "'", column: 18)
        #expect(error.description == "unbalanced single quote ('): the quote at column 18 is never closed")
        #expect(error.cliError.exitCode == 64)
        #expect(throws: LineSplitError.trailingBackslash) { try CommandLineSplitter.split("zone list \\") }
    }

    @Test func continuationLines() {
        #expect(CommandLineSplitter.continues("record save Note \\"))
        #expect(!CommandLineSplitter.continues("record save Note \\\\"))
        #expect(!CommandLineSplitter.continues("# a comment \\"))
        #expect(!CommandLineSplitter.continues("echo 'a \\"))
        #expect(CommandLineSplitter.continues("echo \"a \\"))
    }

    @Test func wordsForCompletion() {
        #expect(CommandLineSplitter.splitForCompletion("") == [""])
        #expect(CommandLineSplitter.splitForCompletion("zo") == ["zo"])
        #expect(CommandLineSplitter.splitForCompletion("zone ") == ["zone", ""])
        #expect(CommandLineSplitter.splitForCompletion("zone delete \"No") == ["zone", "delete", "No"])
        #expect(CommandLineSplitter.splitForCompletion("fetch-changes --zone=No") == ["fetch-changes", "--zone=No"])
        #expect(CommandLineSplitter.splitForCompletion("zone list # com") == nil)
    }
}
