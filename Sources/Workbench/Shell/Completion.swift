import Foundation
import StructureModel

/// Tab completion, from the command table: command names, options, and for each
/// argument what its kind allows (paths, open files, commands, choices, variables).
extension Shell {
    /// Candidates for the word that ends at the end of `prefix` (the line up to the cursor).
    /// Each candidate is the whole word, not just the missing part.
    public func completions(forLinePrefix prefix: String) -> [String] {
        // Only the command after the last ';' matters; quotes are honoured roughly.
        var words: [String] = []
        var current = ""
        var inSingle = false, inDouble = false, escaped = false
        for character in prefix {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch character {
            case "\\" where !inSingle: escaped = true
            case "'" where !inDouble: inSingle.toggle()
            case "\"" where !inSingle: inDouble.toggle()
            case " " where !inSingle && !inDouble, "\t" where !inSingle && !inDouble:
                if !current.isEmpty { words.append(current) }
                current = ""
            case ";" where !inSingle && !inDouble:
                words = []
                current = ""
            default:
                current.append(character)
            }
        }
        if words.isEmpty {
            return commands.map(\.name).filter { $0.hasPrefix(current) }
        }
        guard let spec = command(named: words[0]) else { return [] }
        if current.hasPrefix("-") {
            return spec.options.map(\.name).filter { $0.hasPrefix(current) }
        }
        // Which argument is this? Skip options and the values they take.
        var position = 0
        var index = 1
        var pendingOption: OptionSpec?
        while index < words.count {
            let word = words[index]
            index += 1
            if let option = spec.options.first(where: { $0.name == word }) {
                if option.value != nil { pendingOption = option }
                continue
            }
            if pendingOption != nil {
                pendingOption = nil
                continue
            }
            position += 1
        }
        let kind: ArgumentKind?
        if let pendingOption {
            kind = pendingOption.value
        } else {
            kind = argumentKind(spec, at: position)
        }
        guard let kind else { return [] }
        let found = candidates(for: kind, prefix: current, words: Array(words.dropFirst()))
        // A file name is typed back as the line reads it: `my scan.json` went in as two words
        // (`open my scan.json` opened "my"). Inside a quote the word is completed to its end.
        switch kind {
        case .path, .openFile: return found.map { Self.typed($0, inQuote: inSingle ? "'" : inDouble ? "\"" : nil) }
        default: return found
        }
    }

    /// `word` as it must be typed to be read back as itself: outside quotes with a backslash
    /// before each blank, quote, backslash, `;`, `#` and `$`; inside a quote from the quote
    /// on, closed after a file name (a folder's goes on). A tab or a newline is `\t`, `\n`.
    static func typed(_ word: String, inQuote quote: Character?) -> String {
        var text = ""
        for character in word {
            switch (quote, character) {
            case (_, "\n"): text += quote == "'" ? "\n" : "\\n"
            case (_, "\t"): text += quote == "'" ? "\t" : "\\t"
            case (nil, " "), (nil, "\""), (nil, "'"), (nil, "\\"), (nil, ";"), (nil, "#"), (nil, "$"),
                 ("\"", "\""), ("\"", "\\"), ("\"", "$"):
                text += "\\" + String(character)
            default: text.append(character)
            }
        }
        if let quote, !word.hasSuffix("/") { text.append(quote) }
        return text
    }

    /// Where, in the line up to the cursor, the word being completed starts as
    /// `completions(forLinePrefix:)` gives it: after the last blank or `;` outside quotes and
    /// escapes, or after the quote that opens it.
    static func completedWordStart(_ prefix: String) -> String.Index {
        var start = prefix.startIndex
        var inSingle = false, inDouble = false, escaped = false
        var index = prefix.startIndex
        while index < prefix.endIndex {
            let character = prefix[index]
            let next = prefix.index(after: index)
            if escaped {
                escaped = false
            } else {
                switch character {
                case "\\" where !inSingle: escaped = true
                case "'" where !inDouble:
                    inSingle.toggle()
                    if inSingle && index == start { start = next }
                case "\"" where !inSingle:
                    inDouble.toggle()
                    if inDouble && index == start { start = next }
                case " " where !inSingle && !inDouble, "\t" where !inSingle && !inDouble, ";" where !inSingle && !inDouble:
                    start = next
                default: break
                }
            }
            index = next
        }
        return start
    }

    private func argumentKind(_ spec: CommandSpec, at position: Int) -> ArgumentKind? {
        var index = 0
        for argument in spec.arguments {
            switch argument.arity {
            case .variadic, .variadicAtLeastOne:
                return argument.kind
            case .required, .optional:
                if index == position { return argument.kind }
                index += 1
            }
        }
        return nil
    }

    func candidates(for kind: ArgumentKind, prefix: String, words: [String]) -> [String] {
        switch kind {
        case .path: return pathCandidates(prefix)
        case .openFile:
            let names = session.files.map(\.name) + session.workspace.stores.map { FileIO.baseName(of: $0.store.path) }
            return names.filter { $0.hasPrefix(prefix) }
        case .command: return commands.map(\.name).filter { $0.hasPrefix(prefix) }
        case .variableName: return variables.keys.sorted().filter { $0.hasPrefix(prefix) }
        case .choice(let values): return values.filter { $0.hasPrefix(prefix) }
        case .text, .number: return []
        case .expression: return expressionCandidates(prefix: prefix, words: words)
        case .reference(let kinds):
            let table = session.workspace.handles
            let handles = kinds.flatMap { table.order[$0] ?? [] }.filter { session.workspace.exists($0) || session.workspace.isDeleted($0) }.compactMap { table.handle(for: $0) }
            let names = session.files.flatMap { $0.names.values }.filter { !$0.contains(" ") }
            // Spaces and anchors take the shared verbs too (name, move, set, delete, restore, show).
            let spaces = spaceEntries.map(\.handle) + anchorEntries.map(\.handle)
            // Kinds grouped (rooms, then sections, ... as ElementKind lists them), each in natural order.
            let matching = (handles + names + spaces).filter { $0.hasPrefix(prefix) }
            var seen = Set<String>()
            return matching.filter { seen.insert($0).inserted }.sorted { a, b in
                let rankA = completionGroupRank(a), rankB = completionGroupRank(b)
                return rankA != rankB ? rankA < rankB : naturalOrder(a, b)
            }
        case .field:
            return fieldNames(for: words.first).filter { $0.hasPrefix(prefix) }
        case .fieldValue:
            guard words.count >= 2 else { return [] }
            return fieldValues(for: words[0], field: words[1]).filter { $0.hasPrefix(prefix) }
        }
    }

    private func element(named word: String?) -> Element? {
        guard let word, let identity = session.workspace.handles.identity(for: word) else { return nil }
        return session.workspace.element(identity)
    }

    /// In `ls objects where ...`: kinds, `where`, field names, categories, attribute values.
    func expressionCandidates(prefix: String, words: [String]) -> [String] {
        let kinds = ElementKind.allCases.map(\.plural)
        guard let whereIndex = words.firstIndex(of: "where") else {
            let hasKind = words.contains { kinds.contains($0) }
            return (hasKind ? ["where"] : kinds + ["where"]).filter { $0.hasPrefix(prefix) }
        }
        let expression = Array(words[(whereIndex + 1)...])
        let fields = Row.fieldNames + Query.attributeNames
        // After "FIELD OP", complete values; otherwise fields and keywords.
        if expression.count >= 2, ["=", "!=", "<", "<=", ">", ">=", "~"].contains(expression[expression.count - 1]) {
            let field = expression[expression.count - 2]
            var values: [String] = []
            switch field {
            case "category": values = ObjectCategory.known.map(\.name) + ["wall", "door", "window", "opening", "floor"]
            case "confidence": values = ["low", "medium", "high"]
            case "open": values = ["true", "false"]
            case "label": values = SectionLabel.known
            default:
                values = ObjectCategory.known.flatMap(\.attributeSchema).first { $0.name == field }?.values ?? []
            }
            return values.filter { $0.hasPrefix(prefix) }
        }
        return (fields + ["and", "or", "not"]).filter { $0.hasPrefix(prefix) }
    }

    func fieldNames(for word: String?) -> [String] {
        switch element(named: word) {
        case .object(let object)?: return ["category", "confidence"] + object.category.attributeSchema.map(\.name)
        case .surface(let surface)?:
            if surface.category.doorIsOpen != nil { return ["confidence", "open"] }
            return ["confidence"]
        default: return []
        }
    }

    func fieldValues(for word: String, field: String) -> [String] {
        switch (element(named: word), field) {
        case (_, "confidence"): return ["high", "medium", "low"]
        case (_, "open"): return ["true", "false"]
        case (.object?, "category"): return ObjectCategory.known.map(\.name)
        case (.object(let object)?, _): return object.category.attributeSchema.first { $0.name == field }?.values ?? []
        default: return []
        }
    }

    /// Files and folders whose names start with the typed text; folders end in `/`.
    func pathCandidates(_ prefix: String) -> [String] {
        let expanded = prefix.hasPrefix("~/") ? NSHomeDirectory() + prefix.dropFirst() : prefix
        let folder: String, partial: String, shownFolder: String
        if let slash = expanded.lastIndex(of: "/") {
            folder = String(expanded[...slash])
            partial = String(expanded[expanded.index(after: slash)...])
            shownFolder = String(prefix[...prefix.lastIndex(of: "/")!])
        } else {
            folder = ""
            partial = expanded
            shownFolder = ""
        }
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        return entries
            .filter { $0.hasPrefix(partial) && (partial.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
            .map { entry in
                var isFolder: ObjCBool = false
                _ = manager.fileExists(atPath: folder + entry, isDirectory: &isFolder)
                return shownFolder + entry + (isFolder.boolValue ? "/" : "")
            }
    }
}

/// Natural order: runs of digits compare as numbers, so `o2` comes before `o10` and
/// `scan-9.json` before `scan-10.json`; the rest compares as text.
func naturalOrder(_ a: String, _ b: String) -> Bool {
    var left = a.unicodeScalars[...], right = b.unicodeScalars[...]
    func digits(_ text: inout Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        let run = text.prefix { ("0"..."9").contains($0) }
        text = text.dropFirst(run.count)
        return run
    }
    while let l = left.first, let r = right.first {
        if ("0"..."9").contains(l) && ("0"..."9").contains(r) {
            let leftRun = digits(&left).drop { $0 == "0" }, rightRun = digits(&right).drop { $0 == "0" }
            if leftRun.count != rightRun.count { return leftRun.count < rightRun.count }
            if !leftRun.elementsEqual(rightRun) { return String(leftRun).unicodeScalars.lexicographicallyPrecedes(rightRun) }
            continue
        }
        if l != r { return l < r }
        left = left.dropFirst()
        right = right.dropFirst()
    }
    if left.isEmpty != right.isEmpty { return left.isEmpty }
    return a < b  // equal but for leading zeros: o02 before o2, so the order is total
}

/// Where a handle's kind comes in a completion list: the kinds in ElementKind's order, then
/// spaces and anchors, then names.
private func completionGroupRank(_ word: String) -> Int {
    let letters = String(word.prefix { !("0"..."9").contains($0) })
    guard word.count > letters.count, word.dropFirst(letters.count).allSatisfy({ ("0"..."9").contains($0) }) else {
        return 100
    }
    if let index = ElementKind.allCases.firstIndex(where: { $0.handlePrefix == letters }) { return index }
    switch letters {
    case "sp": return 50
    case "a": return 51
    default: return 100
    }
}

/// One entry of a completion list as it is shown: the word completed, what the list shows
/// for it (a room's handle with its name or label), and the group it is listed under when
/// several kinds match.
public struct CompletionEntry: Sendable, Equatable {
    public var word: String
    public var shown: String
    public var group: String

    public init(word: String, shown: String, group: String) {
        self.word = word
        self.shown = shown
        self.group = group
    }
}

extension Shell {
    /// `candidates` as a list shows them: handles with the kind they belong to, rooms with
    /// their name (or labels), spaces with their name.
    public func describe(_ candidates: [String]) -> [CompletionEntry] {
        let workspace = session.workspace
        return candidates.map { word in
            if let identity = workspace.handles.identity(for: word), workspace.handles.handle(for: identity) == word {
                var shown = word
                if identity.kind == .room || identity.kind == .section, let row = workspace.row(for: identity),
                   let text = row.name ?? row.label, !text.isEmpty {
                    shown += " (" + text.escapingControls + ")"
                }
                return CompletionEntry(word: word, shown: shown, group: identity.kind.plural)
            }
            if let space = spaceEntries.first(where: { $0.handle == word }) {
                return CompletionEntry(word: word, shown: word + (space.space.name.map { " (" + $0.escapingControls + ")" } ?? ""),
                                       group: "spaces")
            }
            if anchorEntries.contains(where: { $0.handle == word }) {
                return CompletionEntry(word: word, shown: word, group: "anchors")
            }
            return CompletionEntry(word: word, shown: word.escapingControls, group: "")
        }
    }

    /// The list shown when Tab cannot complete further: in the order given (natural, kinds
    /// grouped), in columns across `width`, each group under its name when there are several.
    public func completionListing(_ entries: [CompletionEntry], width: Int) -> String {
        var groups: [(String, [CompletionEntry])] = []
        for entry in entries {
            if let last = groups.indices.last, groups[last].0 == entry.group {
                groups[last].1.append(entry)
            } else {
                groups.append((entry.group, [entry]))
            }
        }
        let titled = groups.count > 1
        let limit = 500
        var text = ""
        for (group, members) in groups {
            let indent = titled ? "  " : ""
            if titled { text += (group.isEmpty ? "names" : group) + ":\n" }
            let shown = members.prefix(limit).map(\.shown)
            let cell = (shown.map(displayWidth).max() ?? 0) + 2
            let perLine = max(1, (width - indent.count + 2) / cell)
            for start in stride(from: 0, to: shown.count, by: perLine) {
                let line = shown[start..<min(shown.count, start + perLine)].map { item in
                    item + String(repeating: " ", count: max(0, cell - displayWidth(item)))
                }.joined()
                text += indent + line.trimmingTrailingBlanks() + "\n"
            }
            if members.count > limit { text += indent + "… and \(members.count - limit) more (type more of the word)\n" }
        }
        return text
    }
}

/// The longest text every candidate starts with.
func commonPrefix(_ candidates: [String]) -> String {
    guard var prefix = candidates.first else { return "" }
    for candidate in candidates.dropFirst() {
        while !candidate.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
}
