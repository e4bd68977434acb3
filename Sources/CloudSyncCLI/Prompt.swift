/// Questions asked on the terminal.
public enum Prompt {
    /// Asks a yes/no question on stderr (through `output`, so pending stdout is flushed first)
    /// and reads the answer from stdin; only `y`/`yes` is yes. End of input is no.
    public static func confirm(_ question: String, output: Output) -> Bool {
        output.writeError(question)
        guard let answer = readLine() else { return false }
        let text = answer.lowercased()
        return text == "y" || text == "yes"
    }
}
