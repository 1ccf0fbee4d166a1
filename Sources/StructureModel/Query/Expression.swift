/// A word of a where-expression as the shell split it, with whether it was quoted
/// (a quoted word is one value, whatever it holds).
public struct QueryWord: Sendable {
    public var text: String
    public var quoted: Bool

    public init(_ text: String, quoted: Bool = false) {
        self.text = text
        self.quoted = quoted
    }
}

/// A mistake in an expression: which word, and where in it (0-based characters).
public struct QueryError: Error, Sendable, Equatable {
    public var message: String
    public var word: Int
    public var offset: Int
}

/// A compiled where-expression: `category = chair and confidence < high`,
/// `width > 80cm or (ChairType = swivel and not open = true)`.
///
/// Fields are a row's (`category`, `confidence`, `story`, `room`, `label`, `name`, `width`,
/// `height`, `depth`, `area`, `open`, `parent`, ...) and every attribute by its name.
/// Comparisons: `= != < <= > >=`, and `~` for "contains". Text compares without regard to
/// case; `=` with `*` or `?` is a glob. Lengths take units (`2m`, `80cm`, `3ft`, `10in`),
/// confidence compares in order (low < medium < high; a level wb does not know has no place in it).
/// A row without the field matches only `!=`.
public struct Query: Sendable {
    let predicate: @Sendable (any QueryRow) -> Bool
    /// What the expression may not mean as typed, to say when it matches nothing (a bare
    /// `width > 100` is 100 m).
    public var notes: [String] = []
    /// The fields the expression compares (as the schema spells them), each once, in order.
    public var fields: [String] = []

    public func matches(_ row: any QueryRow) -> Bool { predicate(row) }

    /// How a reference field's value (`room = kitchen`, `room = Gal*`, `room ~ gal`) is turned
    /// into the handles rows carry: given the field, the value as typed and how it compares, the
    /// handles it names (one, for `=` and `!=` without a wildcard), or a message saying why it
    /// names nothing. Without one, values are compared with the handles as typed.
    public typealias ReferenceResolver = (_ field: String, _ value: String, _ pattern: ReferencePattern)
        -> Result<Set<String>, ReferenceFailure>

    public enum ReferencePattern: Sendable {
        /// The value names one thing, as an argument does.
        case exact
        /// `=` or `!=` with `*` or `?`: a glob over handles, names and labels.
        case glob
        /// `~`: contained in a handle, a name or a label (case ignored).
        case contains

        /// Whether one of `words` (a thing's handle, names, labels) matches `value` so, case
        /// ignored: contains it for `~` (an empty value matches all), else as a glob.
        public func matches(any words: [String], _ value: String) -> Bool {
            let lowered = value.lowercased()
            return words.contains { word in
                let text = word.lowercased()
                if case .contains = self { return lowered.isEmpty || text.contains(lowered) }
                return Query.globMatches(lowered, text)
            }
        }
    }

    public struct ReferenceFailure: Error {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// `categories`: the names of categories the rows hold, lower-cased, asked for only when a
    /// name is none wb knows (a newer RoomPlan's, read and kept as written): comparing with one
    /// the rows hold is no typo.
    public static func compile(_ words: [QueryWord], schema: QuerySchema = .elements, categories: @escaping () -> Set<String> = { [] },
                               references: ReferenceResolver? = nil) throws(QueryError) -> Query {
        var parser = QueryParser(tokens: try QueryParser.tokenize(words), schema: schema)
        parser.references = references
        parser.categories = categories
        let predicate = try parser.parseOr()
        if let extra = parser.peek() {
            throw QueryError(message: extra.kind == .rightParen ? "a ')' without its '('" : "expected 'and' or 'or', found '\(extra.text)'",
                             word: extra.word, offset: extra.offset)
        }
        return Query(predicate: predicate, notes: parser.notes.lines, fields: parser.notes.fields)
    }

    /// How deeply parentheses may nest. Each level is a few frames of the parser and one
    /// closure when rows are matched; a real expression needs a handful, and 20,000 used to
    /// overflow the stack.
    public static let maximumNesting = 100

    /// Whether `text` matches the glob `pattern` (`*` any run, `?` one character), as `=` with
    /// a wildcard compares (both sides as given: lower them to ignore case).
    public static func globMatches(_ pattern: String, _ text: String) -> Bool {
        QueryParser.globMatch(Array(pattern), Array(text))
    }

    public static var attributeNames: [String] {
        Array(Set(ObjectCategory.known.flatMap { $0.attributeSchema.map(\.name) })).sorted()
    }
}

struct QueryToken {
    enum Kind: Equatable { case word, quoted, op, leftParen, rightParen }
    var kind: Kind
    var text: String
    var word: Int
    var offset: Int
}

/// What a row can be asked: anything listings show.
public protocol QueryRow {
    func value(_ field: String) -> FieldValue?
}

extension Row: QueryRow {}

/// The fields a kind of row has, for checking an expression before it runs.
public struct QuerySchema: Sendable {
    public enum FieldKind: Sendable {
        case length, area, number, confidence, text, flag, reference, category
        /// Compared as a number when both sides are numbers, else as text (anchor metadata).
        case dynamic
    }

    public var fields: [String: FieldKind]
    /// Whether a name not in `fields` is allowed (as `dynamic`), like metadata keys.
    public var openEnded: Bool
    public var suggestions: [String]

    public init(fields: [String: FieldKind], openEnded: Bool, suggestions: [String]) {
        self.fields = fields
        self.openEnded = openEnded
        self.suggestions = suggestions
    }

    public static let elements: QuerySchema = {
        var fields: [String: FieldKind] = [
            "width": .length, "height": .length, "depth": .length, "area": .area, "story": .number,
            "confidence": .confidence, "open": .flag, "room": .reference, "section": .reference, "parent": .reference,
            "handle": .reference, "category": .category, "label": .text, "name": .text, "kind": .text, "identifier": .text,
            "level": .text,
        ]
        for attribute in Query.attributeNames { fields[attribute] = .text }
        return QuerySchema(fields: fields, openEnded: false, suggestions: Row.fieldNames + Query.attributeNames)
    }()
}

/// Notes a parser gathers as it goes (its parsing functions do not mutate it).
final class QueryNotes {
    var lines: [String] = []
    var fields: [String] = []
}

struct QueryParser {
    let notes = QueryNotes()
    var tokens: [QueryToken]
    var position = 0
    var schema: QuerySchema = .elements

    static let operators = ["<=", ">=", "!=", "=", "<", ">", "~", "=="]

    static func tokenize(_ words: [QueryWord]) throws(QueryError) -> [QueryToken] {
        var tokens: [QueryToken] = []
        for (index, word) in words.enumerated() {
            if word.quoted {
                tokens.append(QueryToken(kind: .quoted, text: word.text, word: index, offset: 0))
                continue
            }
            let chars = Array(word.text)
            var i = 0
            var current = ""
            var start = 0
            func flush() {
                if !current.isEmpty { tokens.append(QueryToken(kind: .word, text: current, word: index, offset: start)) }
                current = ""
            }
            while i < chars.count {
                let c = chars[i]
                if c == "(" || c == ")" {
                    flush()
                    tokens.append(QueryToken(kind: c == "(" ? .leftParen : .rightParen, text: String(c), word: index, offset: i))
                    i += 1
                    start = i
                } else if "=!<>~".contains(c) {
                    flush()
                    var op = String(c)
                    var j = i + 1
                    while j < chars.count, "=!<>~".contains(chars[j]) {
                        op.append(chars[j])
                        j += 1
                    }
                    guard operators.contains(op) else {
                        throw QueryError(message: "'\(op)' is not an operator (use = != < <= > >= or ~)", word: index, offset: i)
                    }
                    tokens.append(QueryToken(kind: .op, text: op == "==" ? "=" : op, word: index, offset: i))
                    i += op.count
                    start = i
                } else {
                    if current.isEmpty { start = i }
                    current.append(c)
                    i += 1
                }
            }
            flush()
        }
        return tokens
    }

    func peek() -> QueryToken? { position < tokens.count ? tokens[position] : nil }

    mutating func next() -> QueryToken? {
        defer { position += 1 }
        return peek()
    }

    private func endError(_ message: String) -> QueryError {
        let last = tokens.last
        return QueryError(message: message, word: last?.word ?? 0, offset: (last?.offset ?? 0) + (last?.text.count ?? 0))
    }

    private func isKeyword(_ token: QueryToken?, _ word: String) -> Bool {
        token?.kind == .word && token?.text.lowercased() == word
    }

    /// Parentheses open around the current position.
    var depth = 0
    var references: Query.ReferenceResolver?
    var categories: () -> Set<String> = { [] }

    /// `a or b or ...`: the terms are kept in one list and tried in a loop, so a 90,000-term
    /// expression neither recurses when parsed nor when it matches a row.
    mutating func parseOr() throws(QueryError) -> @Sendable (any QueryRow) -> Bool {
        var terms = [try parseAnd()]
        while isKeyword(peek(), "or") {
            position += 1
            terms.append(try parseAnd())
        }
        if terms.count == 1 { return terms[0] }
        let all = terms
        return { row in all.contains { $0(row) } }
    }

    /// `a and b and ...`, as a list like `or`.
    mutating func parseAnd() throws(QueryError) -> @Sendable (any QueryRow) -> Bool {
        var terms = [try parseNot()]
        while isKeyword(peek(), "and") {
            position += 1
            terms.append(try parseNot())
        }
        if terms.count == 1 { return terms[0] }
        let all = terms
        return { row in all.allSatisfy { $0(row) } }
    }

    /// `not not ... x`: the nots are counted, not recursed into; an even number cancels out.
    mutating func parseNot() throws(QueryError) -> @Sendable (any QueryRow) -> Bool {
        var negated = false
        while isKeyword(peek(), "not") {
            position += 1
            negated.toggle()
        }
        let inner = try parsePrimary()
        guard negated else { return inner }
        return { row in !inner(row) }
    }

    mutating func parsePrimary() throws(QueryError) -> @Sendable (any QueryRow) -> Bool {
        guard let token = next() else { throw endError("the expression ends where a comparison should be, like category = chair") }
        if token.kind == .leftParen {
            guard depth < Query.maximumNesting else {
                throw QueryError(message: "parentheses nest too deeply (more than \(Query.maximumNesting) levels)",
                                 word: token.word, offset: token.offset)
            }
            depth += 1
            let inner = try parseOr()
            depth -= 1
            guard let close = next(), close.kind == .rightParen else {
                throw QueryError(message: "a '(' that is never closed", word: token.word, offset: token.offset)
            }
            _ = close
            return inner
        }
        guard token.kind == .word else {
            throw QueryError(message: "expected a field name, found '\(token.text)'", word: token.word, offset: token.offset)
        }
        guard let op = next() else { throw endError("'\(token.text)' needs an operator and a value, like \(token.text) = ...") }
        guard op.kind == .op else {
            throw QueryError(message: "expected an operator (= != < <= > >= ~) after \(token.text), found '\(op.text)'",
                             word: op.word, offset: op.offset)
        }
        guard let value = next(), value.kind == .word || value.kind == .quoted else {
            throw endError("\(token.text) \(op.text) needs a value")
        }
        return try comparison(field: token, op: op, value: value)
    }

    private typealias FieldType = QuerySchema.FieldKind

    private func fieldType(_ field: QueryToken) throws(QueryError) -> (String, FieldType) {
        let name = field.text
        if let kind = schema.fields[name] { return (name, kind) }
        if let match = schema.fields.keys.first(where: { $0.lowercased() == name.lowercased() }) {
            return (match, schema.fields[match]!)
        }
        if schema.openEnded { return (name, .dynamic) }
        let scored = schema.suggestions.map { ($0, editDistance($0.lowercased(), name.lowercased())) }.min { $0.1 < $1.1 }
        let hint = scored.flatMap { $0.1 <= max(2, name.count / 3) ? " (did you mean \($0.0)?)" : nil } ?? ""
        throw QueryError(message: "unknown field '\(name)'\(hint)", word: field.word, offset: field.offset)
    }

    private func comparison(field: QueryToken, op: QueryToken, value: QueryToken) throws(QueryError) -> @Sendable (any QueryRow) -> Bool {
        let (name, type) = try fieldType(field)
        if !notes.fields.contains(name) { notes.fields.append(name) }
        let o = op.text
        // RoomPlan's numbers are 32-bit: a height the file writes as 0.45 is 0.449999988 once
        // read, and failed `height = 0.45m` (and passed `height < 0.45m`). Numbers within a
        // millionth of each other (relative; Float keeps about seven digits) are equal.
        @Sendable func ordered(_ a: Double, _ b: Double) -> Bool {
            let tolerance = max(1e-9, 1e-6 * max(abs(a), abs(b)))
            switch o {
            case "=": return abs(a - b) <= tolerance
            case "!=": return abs(a - b) > tolerance
            case "<": return a < b - tolerance
            case "<=": return a <= b + tolerance
            case ">": return a > b + tolerance
            default: return a >= b - tolerance
            }
        }
        func bad(_ message: String) -> QueryError { QueryError(message: message, word: value.word, offset: value.offset) }
        // A thing without the field (an attribute of chairs asked of a bed, an object with no
        // parent) equals no value, and so is unlike every one: `!=` holds, the rest do not.
        // `ChairType != swivel` gave 0 of 13 objects where `not ChairType = swivel` gave 12, and
        // `not (ChairType != swivel)` all 13 with the swivel chair (an adversarial pass).
        let missing = o == "!="
        switch type {
        case .length, .area, .number:
            guard o != "~" else { throw QueryError(message: "~ (contains) is for text; \(name) is a number", word: op.word, offset: op.offset) }
            let target: Double
            switch type {
            case .length:
                guard let metres = Self.length(value.text) else {
                    throw bad("\(name) is a length; '\(value.text)' is not one (like 2m, 80cm or 3ft)")
                }
                // No scanned thing is 20 m in any one size: a bare number that large was meant in
                // another unit (`width > 100` matched nothing, without a word: an adversarial pass).
                if Self.decimal(value.text) != nil, abs(metres) >= 20 {
                    notes.lines.append("\(name) \(o) \(value.text) is \(value.text) m: a length without a unit is in metres "
                                       + "(\(value.text)cm or \(value.text)mm for those)")
                }
                target = metres
            case .area:
                var text = value.text.lowercased()
                for suffix in ["m²", "m2", "sqm"] where text.hasSuffix(suffix) { text.removeLast(suffix.count) }
                guard let number = Self.decimal(text) else { throw bad("\(name) is an area in m²; '\(value.text)' is not a number") }
                target = number
            default:
                guard let number = Self.decimal(value.text) else { throw bad("\(name) is a number; '\(value.text)' is not one") }
                // Stories are whole numbers: `story = 1.5` is no story (`story < 1.5` is fine).
                if name == "story", o == "=" || o == "!=", number.rounded() != number {
                    notes.lines.append("stories are whole numbers: \(name) \(o) \(value.text) " + (o == "=" ? "matches nothing" : "matches everything"))
                }
                target = number
            }
            return { row in
                switch row.value(name) {
                case .length(let v)?, .area(let v)?, .number(let v)?: return ordered(v, target)
                default: return missing
                }
            }
        case .confidence:
            guard let level = Confidence(name: value.text.lowercased()) else {
                throw bad("confidence is low, medium or high, not '\(value.text)'")
            }
            guard o != "~" else { throw QueryError(message: "~ (contains) is for text; confidence is ordered", word: op.word, offset: op.offset) }
            let rank = Double(level.rank)
            return { row in
                // A level wb does not know (a newer RoomPlan's) has no place in the order: as missing.
                guard case .confidence(let r, _)? = row.value("confidence"), r > 0 else { return missing }
                return ordered(Double(r), rank)
            }
        case .flag:
            guard o == "=" || o == "!=" else { throw QueryError(message: "\(name) is true or false: use = or !=", word: op.word, offset: op.offset) }
            guard let flag = ["true": true, "false": false, "yes": true, "no": false][value.text.lowercased()] else {
                throw bad("\(name) is true or false, not '\(value.text)'")
            }
            return { row in
                guard case .flag(let v)? = row.value(name) else { return missing }
                return o == "=" ? v == flag : v != flag
            }
        case .dynamic:
            let wanted = value.text, lowered = wanted.lowercased()
            let number = Self.decimal(wanted)
            return { row in
                switch row.value(name) {
                case .number(let v)?, .length(let v)?, .area(let v)?:
                    guard let number else { return o == "!=" }
                    return ordered(v, number)
                case let v?:
                    let text = v.display.lowercased()
                    switch o {
                    case "~": return lowered.isEmpty || text.contains(lowered)
                    case "=": return text == lowered
                    case "!=": return text != lowered
                    default: return false
                    }
                case nil:
                    return missing
                }
            }
        case .text, .category, .reference:
            if ["<", "<=", ">", ">="].contains(o) {
                throw QueryError(message: "\(name) is text: compare it with =, != or ~ (contains), not \(o)", word: op.word, offset: op.offset)
            }
            let wanted = value.text
            let isGlob = o != "~" && (wanted.contains("*") || wanted.contains("?"))
            // `room = kitchen`, `parent = 3F2C`, `room ~ gal`: the handles a name, label or
            // identifier prefix names (or a glob or a part of one matches), and a value that
            // names nothing open is an error, not an empty answer.
            if type == .reference, let references {
                let handles: Set<String>
                switch references(name, wanted, o == "~" ? .contains : isGlob ? .glob : .exact) {
                case .success(let found): handles = Set(found.map { $0.lowercased() })
                case .failure(let failure): throw bad(failure.message)
                }
                return { row in
                    guard let v = row.value(name) else { return missing }
                    // A structure-level element's room is the list of rooms it stands for:
                    // room = r2 matches when r2 is among them.
                    let match = v.display.lowercased().split(separator: ",").contains { handles.contains(String($0)) }
                    return o == "!=" ? !match : match
                }
            }
            if type == .category && !isGlob && o != "~" {
                let categories = ObjectCategory.known.map(\.name) + ["wall", "door", "window", "opening", "floor", "room", "section"]
                if !categories.contains(where: { $0.lowercased() == wanted.lowercased() }) && !self.categories().contains(wanted.lowercased()) {
                    let near = categories.min { editDistance($0, wanted) < editDistance($1, wanted) }
                    throw bad("no category is called '\(wanted)'" + (near.map { " (did you mean \($0)?)" } ?? ""))
                }
            }
            let lowered = wanted.lowercased()
            let glob = Array(lowered)
            return { row in
                guard let v = row.value(name) else { return missing }
                // A structure-level element's room is the list of rooms it stands for:
                // room = r2 matches when r2 is among them.
                let texts = type == .reference ? v.display.lowercased().split(separator: ",").map(String.init)
                                               : [v.display.lowercased()]
                let match = texts.contains { text in
                    if o == "~" { return lowered.isEmpty || text.contains(lowered) }
                    if isGlob { return Self.globMatch(glob, Array(text)) }
                    return text == lowered
                }
                return o == "!=" ? !match : match
            }
        }
    }

    static func decimal(_ text: String) -> Double? {
        guard text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }), text.contains(where: \.isNumber),
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func length(_ text: String) -> Double? {
        let lowered = text.lowercased()
        for (suffix, factor) in [("mm", 0.001), ("cm", 0.01), ("ft", 0.3048), ("in", 0.0254), ("m", 1.0)]
        where lowered.hasSuffix(suffix) {
            if let number = decimal(String(lowered.dropLast(suffix.count))) { return number * factor }
        }
        return decimal(lowered)
    }

    static func globMatch(_ pattern: [Character], _ text: [Character]) -> Bool {
        var p = 0, t = 0, star = -1, mark = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
                p += 1
                t += 1
            } else if p < pattern.count && pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

/// Optimal string alignment distance (insertions, deletions, substitutions and swaps of
/// neighbours: "lable" is one edit from "label"), for suggestions.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                current[j] = min(current[j], beforePrevious[j - 2] + 1)
            }
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}
