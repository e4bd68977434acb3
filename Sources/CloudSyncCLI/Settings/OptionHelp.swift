/// The help text of an option: as given, or a setting's (`SettingSpec.option`), whose variable
/// and default are appended when the text is read.
enum OptionHelp: Sendable, Hashable {
    case text(String)
    case setting(help: String, variable: String?, defaultText: String?)

    /// The text: `Act as this account (env CLOUDSYNC_ACCOUNT; default 'default').` for a setting.
    var text: String {
        switch self {
        case .text(let text):
            return text
        case .setting(let help, let variable, let defaultText):
            var notes: [String] = []
            if let variable { notes.append("env " + variable) }
            if let defaultText { notes.append("default " + defaultText) }
            return OptionHelp.sentence(help, notes: notes)
        }
    }

    /// `text` as one sentence with `notes` in parentheses before its full stop:
    /// `Act as this account (env X; default 'y').`
    static func sentence(_ text: String, notes: [String]) -> String {
        let body = text.hasSuffix(".") ? String(text.dropLast()) : text
        return body + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")") + "."
    }
}
