/// A place in a script: which script, line and column (1-based, in characters).
public struct ScriptLocation: Sendable, Hashable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var column: Int

    public init(source: String, line: Int, column: Int) {
        self.source = source
        self.line = line
        self.column = column
    }

    public var description: String { "\(source):\(line):\(column)" }
}

/// An error in what a person typed or wrote, with where it is and the line it is on.
public struct ScriptError: Error, Sendable, Equatable {
    public var location: ScriptLocation
    public var message: String
    /// The source line, for the caret display; nil when there is no line to show.
    public var lineText: String?

    public init(_ message: String, at location: ScriptLocation, lineText: String? = nil) {
        self.location = location
        self.message = message
        self.lineText = lineText
    }
}

/// Sizes no real script reaches, so that a runaway one (a variable doubled forty times, a
/// generated line without newlines) gets an error rather than exhausting memory: a script
/// line (continuations joined), a variable's value and a command after its variables are
/// replaced are each at most 1 MiB of UTF-8.
public enum Limits {
    public static let maximumBytes = 1 << 20
    public static let description = "1 MiB (1,048,576 bytes)"
}

/// A word as written: literal text and `$NAME` references, expanded just before the
/// command runs, so `set` on one line affects the next.
public struct Word: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        case text(String)
        /// A variable and where its `$` is (a word may run over a continued line).
        case variable(String, line: Int, column: Int)
    }

    public var parts: [Part]
    public var location: ScriptLocation
    /// Whether any part was quoted, so `""` is an empty word rather than no word.
    public var quoted: Bool

    /// The text with no variables expanded (for completion and echo).
    public var rawText: String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .variable(let name, _, _): return "$" + name
            }
        }.joined()
    }
}

/// One command as written: its words and the line it came from.
public struct CommandText: Sendable, Hashable {
    public var words: [Word]
    public var location: ScriptLocation
    /// The physical line the command starts on, for error carets.
    public var lineText: String
    /// Every physical line of the logical line the command is on (shared, not copied, by
    /// the commands of one line), and the number of the first: carets for words on a
    /// continuation line show that line.
    public var physicalLines: [String] = []
    public var startLine: Int = 1
    /// This command's own text within the line.
    public var text: String
}

/// Splits script text into commands by wb's fixed rules: blanks separate words; `"…"`
/// and `'…'` quote; a backslash escapes the next character; `#` at the start of a word
/// comments out the rest of the line; `\` at the end of a line continues it; `;`
/// separates commands; `$NAME` and `${NAME}` are variables (not inside single quotes).
public struct Lexer {
    public let source: String

    public init(source: String) {
        self.source = source
    }

    /// Physical lines joined into logical ones at trailing backslashes, each with the line
    /// number it starts on and the column map back to physical positions.
    public struct LogicalLine: Sendable {
        public var text: [Character]
        public var positions: [(line: Int, column: Int)]
        public var startLine: Int
        /// The physical lines this logical line was joined from, as written.
        public var physicalLines: [String]

        /// The physical lines joined with newlines, as written.
        public var displayText: String { physicalLines.joined(separator: "\n") }
    }

    /// Cuts `text` into logical lines. A continuation on the last line is an error.
    public func logicalLines(_ text: String, firstLine: Int = 1) throws(ScriptError) -> [LogicalLine] {
        var lines: [LogicalLine] = []
        // "\r\n" is one Character in Swift: Windows line endings are cut as well.
        var physical = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { line -> Substring in line.hasSuffix("\r") ? line.dropLast() : line }
        if text.hasSuffix("\n") || text.hasSuffix("\r\n") { physical.removeLast() }
        var current: LogicalLine?
        var currentBytes = 0
        for (index, raw) in physical.enumerated() {
            let number = index + firstLine
            // Checked before the line is taken apart into characters (about 30 bytes of
            // memory for each one).
            currentBytes = (current == nil ? 0 : currentBytes) + raw.utf8.count
            if currentBytes > Limits.maximumBytes {
                let start = current?.startLine ?? number
                throw ScriptError("this line is longer than \(Limits.description), the most a script line may be"
                                  + (start == number ? "" : " (with the lines it continues, from line \(start))"),
                                  at: ScriptLocation(source: source, line: number, column: 1))
            }
            let chars = Array(raw)
            // Taken out of `current` so that appending does not copy what was joined so far
            // (a copy per continued line made long continuations quadratic).
            var logical = current ?? LogicalLine(text: [], positions: [], startLine: number, physicalLines: [])
            current = nil
            // A line ends in a continuation when it ends in an odd number of backslashes
            // outside single quotes; counting the run is enough for the common cases and
            // the lexer re-checks quoting when it reads the joined line.
            var trailing = 0
            while trailing < chars.count && chars[chars.count - 1 - trailing] == "\\" { trailing += 1 }
            let continues = trailing % 2 == 1 && !endsInsideSingleQuote(chars)
            let kept = continues ? Array(chars.dropLast()) : chars
            for (column, character) in kept.enumerated() {
                logical.text.append(character)
                logical.positions.append((number, column + 1))
            }
            logical.physicalLines.append(String(raw))
            if continues {
                if index == physical.count - 1 {
                    throw ScriptError("the line continues ('\\' at its end) past the end of the script",
                                      at: ScriptLocation(source: source, line: number, column: chars.count),
                                      lineText: String(raw))
                }
                current = logical
            } else {
                lines.append(logical)
                current = nil
            }
        }
        return lines
    }

    private func endsInsideSingleQuote(_ chars: [Character]) -> Bool {
        var inSingle = false, inDouble = false, escaped = false
        for character in chars {
            if escaped { escaped = false; continue }
            switch character {
            case "\\" where !inSingle: escaped = true
            case "'" where !inDouble: inSingle.toggle()
            case "\"" where !inSingle: inDouble.toggle()
            default: break
            }
        }
        return inSingle
    }

    /// The commands on one logical line.
    public func commands(in line: LogicalLine) throws(ScriptError) -> [CommandText] {
        var commands: [CommandText] = []
        var words: [Word] = []
        var parts: [Word.Part] = []
        var literal = ""
        var wordStart: Int?
        var quoted = false
        var commandStart = 0
        let chars = line.text
        var i = 0

        func location(_ index: Int) -> ScriptLocation {
            guard !line.positions.isEmpty else { return ScriptLocation(source: source, line: line.startLine, column: 1) }
            let p = line.positions[min(index, line.positions.count - 1)]
            return ScriptLocation(source: source, line: p.line, column: index >= line.positions.count ? p.column + 1 : p.column)
        }
        func physicalLineText(_ index: Int) -> String {
            let offset = location(index).line - line.startLine
            return offset >= 0 && offset < line.physicalLines.count ? line.physicalLines[offset] : line.displayText
        }
        func fail(_ message: String, _ index: Int) -> ScriptError {
            ScriptError(message, at: location(index), lineText: physicalLineText(index))
        }
        func flushLiteral() {
            if !literal.isEmpty {
                parts.append(.text(literal))
                literal = ""
            }
        }
        func endWord() {
            flushLiteral()
            if let start = wordStart, !parts.isEmpty || quoted {
                words.append(Word(parts: parts, location: location(start), quoted: quoted))
            }
            parts = []
            wordStart = nil
            quoted = false
        }
        func endCommand(_ end: Int) {
            endWord()
            if !words.isEmpty {
                let text = String(chars[commandStart..<end]).trimmingBlanks()
                commands.append(CommandText(words: words, location: words[0].location,
                                            lineText: physicalLineText(commandStart), physicalLines: line.physicalLines,
                                            startLine: line.startLine, text: text))
            }
            words = []
        }
        func readVariable(_ dollar: Int) throws(ScriptError) -> (String, Int) {
            var j = dollar + 1
            if j < chars.count && chars[j] == "{" {
                j += 1
                var name = ""
                while j < chars.count && chars[j] != "}" {
                    name.append(chars[j])
                    j += 1
                }
                guard j < chars.count else { throw fail("'${' without a closing '}'", dollar) }
                guard isName(name) else { throw fail("'\(name)' is not a variable name", dollar) }
                return (name, j + 1)
            }
            var name = ""
            while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_") && chars[j].isASCII {
                name.append(chars[j])
                j += 1
            }
            return (name, j)
        }

        /// A `$NAME` at `dollar` becomes a variable part (a lone `$` stays text); returns
        /// where reading goes on.
        func variable(at dollar: Int) throws(ScriptError) -> Int {
            let (name, next) = try readVariable(dollar)
            if name.isEmpty {
                literal.append("$")
                return dollar + 1
            }
            flushLiteral()
            parts.append(.variable(name, line: location(dollar).line, column: location(dollar).column))
            return next
        }

        while i < chars.count {
            let c = chars[i]
            switch c {
            case " ", "\t":
                endWord()
                i += 1
            case ";":
                endCommand(i)
                i += 1
                commandStart = i
            case "#" where wordStart == nil:
                i = chars.count
            case "'":
                if wordStart == nil { wordStart = i }
                quoted = true
                let open = i
                i += 1
                while i < chars.count && chars[i] != "'" {
                    literal.append(chars[i])
                    i += 1
                }
                guard i < chars.count else { throw fail("a quote (') that is never closed", open) }
                i += 1
            case "\"":
                if wordStart == nil { wordStart = i }
                quoted = true
                let open = i
                i += 1
                while i < chars.count && chars[i] != "\"" {
                    if chars[i] == "\\" && i + 1 < chars.count {
                        literal.append(escaped(chars[i + 1], inDoubleQuotes: true))
                        i += 2
                    } else if chars[i] == "$" {
                        i = try variable(at: i)
                    } else {
                        literal.append(chars[i])
                        i += 1
                    }
                }
                guard i < chars.count else { throw fail("a quote (\") that is never closed", open) }
                i += 1
            case "\\":
                if wordStart == nil { wordStart = i }
                guard i + 1 < chars.count else {
                    throw fail("a '\\' with nothing after it", i)
                }
                literal.append(escaped(chars[i + 1], inDoubleQuotes: false))
                i += 2
            case "$":
                if wordStart == nil { wordStart = i }
                i = try variable(at: i)
            default:
                if wordStart == nil { wordStart = i }
                literal.append(c)
                i += 1
            }
        }
        endCommand(chars.count)
        return commands
    }

    private func escaped(_ c: Character, inDoubleQuotes: Bool) -> String {
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        default:
            // Inside double quotes only \" \\ \$ and the letters above are escapes,
            // as in a POSIX shell; elsewhere the backslash is kept.
            if inDoubleQuotes && !["\"", "\\", "$"].contains(c) { return "\\" + String(c) }
            return String(c)
        }
    }
}

func isName(_ text: String) -> Bool {
    guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
}

extension String {
    func trimmingBlanks() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
