/// Binds positional words to a command's `ArgumentSpec`s, left to right: required arguments
/// take one word each, optional ones take a word when enough remain for the required ones
/// after them, and a repeating argument takes the rest.
enum ArgumentBinder {
    static func bind(_ words: [String], to specs: [ArgumentSpec]) throws(CLIError) -> [String: [String]] {
        var bound: [String: [String]] = [:]
        var next = 0
        for (position, spec) in specs.enumerated() {
            let remaining = words.count - next
            let neededAfter = specs[(position + 1)...].filter { !$0.optional }.count
            let take: Int
            if spec.repeating {
                take = max(0, remaining - neededAfter)
            } else if spec.optional {
                take = remaining > neededAfter ? 1 : 0
            } else {
                take = remaining > 0 ? 1 : 0
            }
            if take == 0 && !spec.optional {
                throw .usage("missing argument <\(spec.name)>")
            }
            let values = Array(words[next..<(next + take)])
            if case .values(let allowed) = spec.completion {
                for value in values where !allowed.contains(value) {
                    throw .usage(notAllowed(value, spec: spec, allowed: allowed))
                }
            }
            if take > 0 { bound[spec.name] = values }
            next += take
        }
        if next < words.count {
            let extra = words[next...].map { "'\($0)'" }.joined(separator: " ")
            throw .usage((words.count - next == 1 ? "unexpected argument " : "unexpected arguments ") + extra)
        }
        return bound
    }

    private static func notAllowed(_ value: String, spec: ArgumentSpec, allowed: [String]) -> String {
        var message = "invalid value '\(value)' for <\(spec.name)>: expected "
            + allowed.map { "'\($0)'" }.joined(separator: ", ")
        if let hint = Suggestions.didYouMean(value, among: allowed) { message += "\n" + hint }
        return message
    }
}
