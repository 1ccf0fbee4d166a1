import Foundation
/// What kind of value an argument takes: drives checking, help and tab completion.
public enum ArgumentKind: Sendable, Hashable {
    /// Something open, by handle, identifier or name; completes to handles of these kinds.
    case reference(Set<ElementKind>)
    /// A field of the element named by the argument before (for `set`).
    case field
    /// A value of the field named by the argument before.
    case fieldValue
    /// `KIND where EXPR` and the expression's words.
    case expression
    case path
    case openFile
    case command
    case variableName
    case text
    case number
    case choice([String])
}

import StructureModel

public struct ArgumentSpec: Sendable, Hashable {
    public enum Arity: Sendable, Hashable {
        case required, optional, variadic, variadicAtLeastOne
    }

    public var name: String
    public var kind: ArgumentKind
    public var arity: Arity

    public init(_ name: String, _ kind: ArgumentKind, _ arity: Arity = .required) {
        self.name = name
        self.kind = kind
        self.arity = arity
    }
}

public struct OptionSpec: Sendable, Hashable {
    public var name: String
    /// The kind of the value the option takes, or nil for a flag.
    public var value: ArgumentKind?
    public var valueName: String
    public var help: String
    /// How many words the value takes (`--about X Z` takes two, joined with a comma).
    public var valueCount: Int

    public init(_ name: String, value: ArgumentKind? = nil, valueName: String = "VALUE", valueCount: Int = 1, help: String) {
        self.name = name
        self.value = value
        self.valueName = valueName
        self.valueCount = valueCount
        self.help = help
    }
}

/// A word after expansion, still knowing where it was written.
public struct Argument: Sendable, Hashable {
    public var text: String
    public var location: ScriptLocation
    /// Whether it was written in quotes (a where-expression treats it as one value).
    public var quoted = false

    public init(text: String, location: ScriptLocation, quoted: Bool = false) {
        self.text = text
        self.location = location
        self.quoted = quoted
    }
}

/// A command failed; `at` says which word to point at (the command name when nil).
public struct CommandFailure: Error, Sendable {
    public var message: String
    public var at: Argument?

    public init(_ message: String, at: Argument? = nil) {
        self.message = message
        self.at = at
    }
}

/// A command ready to run: its words sorted into options and positional arguments.
public struct Invocation {
    public let shell: Shell
    public let name: Argument
    public let text: String
    public var positionals: [Argument] = []
    public var flags: Set<String> = []
    public var values: [String: Argument] = [:]
    /// `--json` after the command: this command's output as JSON, as `wb --json` gives every command's.
    public var json = false
    /// `--help` after the command: its help, as `help COMMAND` gives it, and nothing run.
    public var help = false

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    public func positional(_ index: Int) -> Argument? {
        index < positionals.count ? positionals[index] : nil
    }
}

/// One command: everything about it in one place. The shell, `-c`, scripts, `help` and
/// tab completion all read the same table, so nothing about a command is written twice.
public struct CommandSpec {
    public var name: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// One line, for `help`.
    public var summary: String
    /// A paragraph or two, for `help NAME`.
    public var details: String
    /// Whether the command changes documents (so `--dry-run` and history care).
    public var edits: Bool
    /// Whether the command writes files (`save`, `export`): a batch refuses these once a
    /// command of the file's script has failed, so that a file is fixed whole or not at all.
    public var writesFiles: Bool
    /// Every word is an argument as written, `--json` and `--` too (`echo`): the command takes
    /// no options.
    public var takesWordsAsWritten = false
    /// Forms the arguments alone cannot show (`align`'s three): the synopsis, written out.
    public var forms: [String] = []
    public var run: (inout Invocation) throws -> Void

    public init(
        _ name: String,
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        summary: String,
        details: String = "",
        edits: Bool = false,
        writesFiles: Bool = false,
        run: @escaping (inout Invocation) throws -> Void
    ) {
        self.name = name
        self.arguments = arguments
        self.options = options
        self.summary = summary
        self.details = details
        self.edits = edits
        self.writesFiles = writesFiles
        self.run = run
    }

    /// `save [PATH] [--force]`
    public var synopsis: String {
        if !forms.isEmpty { return forms.joined(separator: " | ") }
        var parts = [name]
        for argument in arguments {
            switch argument.arity {
            case .required: parts.append(argument.name)
            case .optional: parts.append("[\(argument.name)]")
            case .variadic: parts.append("[\(argument.name) ...]")
            case .variadicAtLeastOne: parts.append("\(argument.name) ...")
            }
        }
        for option in options {
            parts.append(option.value == nil ? "[\(option.name)]" : "[\(option.name) \(option.valueName)]")
        }
        return parts.joined(separator: " ")
    }

    /// Sorts `words` into options and positionals and checks their number.
    func bind(shell: Shell, name: Argument, words: [Argument], text: String, end: ScriptLocation) throws -> Invocation {
        var invocation = Invocation(shell: shell, name: name, text: text)
        var index = 0
        var optionsEnded = false
        if takesWordsAsWritten {
            invocation.positionals = words
            index = words.count
        }
        // Any command takes --help, as a shell's commands do: "unknown option --help (ls takes
        // --wide)" was the answer. (No argument can be --help: a word so spelled is an option.)
        if !takesWordsAsWritten, !options.contains(where: { $0.name == "--help" }),
           let end = words.firstIndex(where: { $0.text == "--" }) ?? Optional(words.count),
           words[..<end].contains(where: { $0.text == "--help" && !$0.quoted }) {
            invocation.help = true
            return invocation
        }
        while index < words.count {
            let word = words[index]
            index += 1
            if !optionsEnded && word.text == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded && word.text.hasPrefix("--") && word.text.count > 2 {
                var optionName = word.text
                var inlineValue: String?
                if let equals = word.text.firstIndex(of: "=") {
                    optionName = String(word.text[..<equals])
                    inlineValue = String(word.text[word.text.index(after: equals)...])
                }
                // Any command takes --json: its output as JSON, as wb --json gives it (so
                // `check --json`, as the issue and COMMANDS.md write it, works as typed).
                if optionName == "--json" && inlineValue == nil && !options.contains(where: { $0.name == "--json" }) {
                    invocation.json = true
                    continue
                }
                guard let option = options.first(where: { $0.name == optionName }) else {
                    let known = options.map(\.name)
                    let hint = known.isEmpty ? "\(self.name) takes no options"
                        : "\(self.name) takes " + known.joined(separator: ", ")
                    throw CommandFailure("unknown option \(optionName) (\(hint))", at: word)
                }
                // Given twice, an option's second value replaced the first without a word (and a
                // flag twice, `--flip --flip`, read as once: perhaps not what was meant).
                if invocation.flags.contains(option.name) || invocation.values[option.name] != nil {
                    throw CommandFailure("\(option.name) is given twice", at: word)
                }
                if option.value != nil {
                    if let inlineValue {
                        invocation.values[option.name] = Argument(text: inlineValue, location: word.location)
                    } else {
                        guard index + option.valueCount <= words.count else {
                            throw CommandFailure("\(option.name) needs \(option.valueName)", at: word)
                        }
                        var value = words[index]
                        value.text = words[index..<(index + option.valueCount)].map(\.text).joined(separator: ",")
                        invocation.values[option.name] = value
                        index += option.valueCount
                    }
                    if case .choice(let allowed) = option.value, let given = invocation.values[option.name], !allowed.contains(given.text) {
                        throw CommandFailure("\(option.name) takes \(allowed.joined(separator: " or ")) (not '\(given.text)')", at: given)
                    }
                } else {
                    guard inlineValue == nil else { throw CommandFailure("\(option.name) takes no value", at: word) }
                    invocation.flags.insert(option.name)
                }
                continue
            }
            invocation.positionals.append(word)
        }
        let required = arguments.filter { $0.arity == .required || $0.arity == .variadicAtLeastOne }.count
        let unbounded = arguments.contains { $0.arity == .variadic || $0.arity == .variadicAtLeastOne }
        if invocation.positionals.count < required {
            let missing = arguments.filter { $0.arity == .required || $0.arity == .variadicAtLeastOne }[invocation.positionals.count]
            // A flag that only some forms take picks the form: `align --all` needs `auto`, not ROOM.
            let given = invocation.flags.union(invocation.values.keys)
            let chosen = forms.filter { form in
                let words = Set(form.split(separator: " ").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "[]")) })
                return !given.isEmpty && given.allSatisfy(words.contains)
            }
            if !chosen.isEmpty && chosen.count < forms.count {
                let needed = chosen.map { form in
                    form.split(separator: " ").dropFirst().map(String.init)
                        .filter { !$0.hasPrefix("[") && !$0.hasSuffix("]") && !given.contains($0) }
                        .dropFirst(invocation.positionals.count).joined(separator: " ")
                }
                let flags = given.sorted().joined(separator: " ")
                throw CommandFailure("\(self.name) \(flags) needs \(needed.joined(separator: " or ")) (usage: \(chosen.joined(separator: " | ")))",
                                     at: Argument(text: "", location: end))
            }
            throw CommandFailure("\(self.name) needs \(missing.name) (usage: \(synopsis))",
                                 at: Argument(text: "", location: end))
        }
        if !unbounded && invocation.positionals.count > arguments.count {
            throw CommandFailure("too many arguments for \(self.name) (usage: \(synopsis))",
                                 at: invocation.positionals[arguments.count])
        }
        // An empty path (`save ''`, a variable never set) names no file: said so, not as the
        // system's "no such file or directory" for a name that is not there.
        for (index, argument) in arguments.enumerated() where argument.kind == .path {
            let given = argument.arity == .variadic || argument.arity == .variadicAtLeastOne
                ? Array(invocation.positionals.dropFirst(index)) : Array(invocation.positionals.dropFirst(index).prefix(1))
            if let empty = given.first(where: { $0.text.isEmpty }) {
                throw CommandFailure("\(self.name) needs a \(argument.name), and this one is empty", at: empty)
            }
        }
        return invocation
    }
}
