#if canImport(Glibc)
import Glibc
#endif

/// Questions asked on the terminal.
public enum Prompt {
    /// Asks a yes/no question on stderr and reads the answer from stdin; only `y`/`yes` is yes.
    public static func confirm(_ question: String) -> Bool {
        let bytes = Array(question.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        guard let answer = readLine() else { return false }
        let text = answer.lowercased()
        return text == "y" || text == "yes"
    }
}
