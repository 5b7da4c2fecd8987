/// Picks one verb's lines out of a tool's usage text, for `TOOL VERB --help`.
public enum UsageText {
    /// The lines of `usage` whose command starts with `verb` (after `usage:`, the tool's name and
    /// its bracketed global options), each with the more-indented lines that continue it; nil if none does.
    public static func section(of verb: String, in usage: String, tool: String) -> String? {
        let lines = usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var picked: [String] = []
        var index = 0
        while index < lines.count {
            guard Self.command(of: lines[index], tool: tool) == verb else {
                index += 1
                continue
            }
            let indent = Self.indent(of: lines[index])
            picked.append(lines[index])
            index += 1
            // Deeper lines continue it, unless they start another command line of the tool.
            while index < lines.count, !lines[index].isEmpty, Self.indent(of: lines[index]) > indent,
                !lines[index].drop(while: { $0 == " " }).hasPrefix(tool + " ")
            {
                picked.append(lines[index])
                index += 1
            }
        }
        return picked.isEmpty ? nil : picked.joined(separator: "\n")
    }

    /// The first word of a line's command that is not the tool's name nor inside brackets;
    /// nil for a line of options.
    private static func command(of line: String, tool: String) -> String? {
        var words = line.split(separator: " ").map(String.init)[...]
        if words.first == "usage:" { words = words.dropFirst() }
        if words.first == tool { words = words.dropFirst() }
        var depth = 0
        for word in words {
            let opened = word.filter { $0 == "[" }.count
            let closed = word.filter { $0 == "]" }.count
            if depth > 0 || opened > 0 {
                depth += opened - closed
                continue
            }
            return word.hasPrefix("-") || word.hasPrefix("(") || word.hasPrefix("|") ? nil : word
        }
        return nil
    }

    private static func indent(of line: String) -> Int {
        line.prefix { $0 == " " }.count
    }
}
