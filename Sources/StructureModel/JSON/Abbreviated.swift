/// Shortens what a message quotes from a file. A 500-digit number or a key path 512 levels
/// deep says nothing more at full length than its ends do, and would bury the message.
enum Abbreviated {
    /// A number's text: its first digits, its last ones and its length.
    static func number(_ text: String) -> String {
        guard text.count > 24 else { return text }
        return text.prefix(16) + "…" + text.suffix(4) + " (\(text.count) characters)"
    }

    /// A key or other short text, cut in the middle.
    static func text(_ text: String, limit: Int = 40) -> String {
        guard text.count > limit else { return text }
        return text.prefix(limit * 2 / 3) + "…" + text.suffix(limit - limit * 2 / 3 - 1)
    }

    /// A key path: its start says where in the file, its end which value; the middle goes.
    static func keyPath(_ path: String, limit: Int = 120) -> String {
        guard path.count > limit else { return path }
        return path.prefix(limit / 3) + "…" + path.suffix(limit - limit / 3 - 1)
    }
}
