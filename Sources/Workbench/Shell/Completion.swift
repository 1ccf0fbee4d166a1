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
        return candidates(for: kind, prefix: current, words: Array(words.dropFirst()))
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
            return (handles + names + spaces).filter { $0.hasPrefix(prefix) }.sorted(by: handleOrder)
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
            if case .door = surface.category { return ["confidence", "open"] }
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

/// `r2` before `r10`: handles by letter, then number.
func handleOrder(_ a: String, _ b: String) -> Bool {
    let letterA = String(a.prefix(1)), letterB = String(b.prefix(1))
    if letterA != letterB { return letterA < letterB }
    let numberA = Int(a.dropFirst()) ?? 0, numberB = Int(b.dropFirst()) ?? 0
    if numberA != numberB { return numberA < numberB }
    return a < b
}

/// The longest text every candidate starts with.
func commonPrefix(_ candidates: [String]) -> String {
    guard var prefix = candidates.first else { return "" }
    for candidate in candidates.dropFirst() {
        while !candidate.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
}
