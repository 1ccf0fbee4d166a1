import Foundation
import StructureModel

extension Shell {
    static let listableKinds: [String: ElementKind] = {
        var kinds: [String: ElementKind] = [:]
        for kind in ElementKind.allCases {
            kinds[kind.plural] = kind
            kinds[kind.rawValue] = kind
        }
        return kinds
    }()

    /// `[KIND] [where EXPR]` from the words after a command.
    func listing(_ words: [Argument], defaultKind: ElementKind?, requireWhere: Bool, command: String,
                 at name: Argument) throws -> (ElementKind, Query?, [Row]) {
        var rest = words[...]
        var kind = defaultKind
        if let first = rest.first, first.text != "where" {
            guard let named = Self.listableKinds[first.text] else {
                let plurals = ElementKind.allCases.map(\.plural)
                let hint = nearest(first.text, among: plurals).map { " (did you mean \($0)?)" } ?? ""
                throw CommandFailure("'\(first.text)' is not a kind of thing\(hint); one of \(plurals.joined(separator: ", "))", at: first)
            }
            kind = named
            rest = rest.dropFirst()
        }
        guard let kind else { throw CommandFailure("\(command) needs a KIND, like objects", at: name) }
        var query: Query?
        var rows = session.workspace.rows(kind)
        if let whereWord = rest.first {
            guard whereWord.text == "where" else {
                throw CommandFailure("expected 'where' and an expression, found '\(whereWord.text)'", at: whereWord)
            }
            let expression = Array(rest.dropFirst())
            guard !expression.isEmpty else {
                throw CommandFailure("'where' needs an expression, like category = chair", at: whereWord)
            }
            do {
                let at = expression[0]
                // Categories of the rows wb does not know (a newer RoomPlan's) are no typos.
                // Attributes of a newer RoomPlan (keys wb does not know) are fields too, where
                // the open files have them: `where ChairColor = red` was an unknown field.
                var schema = QuerySchema.elements
                for row in rows {
                    for member in row.attributes?.members ?? [] where schema.fields[member.key] == nil {
                        schema.fields[member.key] = .text
                        schema.suggestions.append(member.key)
                    }
                }
                query = try Query.compile(expression.map { QueryWord($0.text, quoted: $0.quoted) }, schema: schema,
                                          categories: { Set(rows.compactMap { $0.value("category")?.display.lowercased() }) }) { field, value, pattern in
                    self.referencedHandles(field: field, value: value, pattern: pattern, at: at)
                }
            } catch {
                let word = expression[min(error.word, expression.count - 1)]
                var location = word.location
                location.column += error.offset + (word.quoted ? 1 : 0)
                throw CommandFailure(error.message, at: Argument(text: word.text, location: location))
            }
        } else if requireWhere {
            throw CommandFailure("\(command) needs 'where EXPR' (or use ls)", at: name)
        }
        if let query {
            let all = rows
            rows = rows.filter(query.matches)
            if rows.isEmpty {
                for line in query.notes { inform("note: " + line) }
                // A field none of them has (`open` of objects, a chair's attribute of walls)
                // compares with nothing: said, so an empty answer is not taken for "none is".
                for field in query.fields where !all.isEmpty && !all.contains(where: { $0.value(field) != nil }) {
                    inform("note: no \(kind.rawValue) here has \(field): comparing it matches nothing")
                }
            }
        }
        return (kind, query, rows)
    }

    /// The handles a reference field's value names: one for `room = kitchen` (see
    /// `referencedHandle`), and for `room = Gal*` or `room ~ gal` every one whose handle, name or
    /// (for rooms and sections) label matches, case ignored. A pattern that matches nothing
    /// open is said to.
    func referencedHandles(field: String, value: String, pattern: Query.ReferencePattern,
                           at: Argument) -> Result<Set<String>, Query.ReferenceFailure> {
        if case .exact = pattern { return referencedHandle(field: field, value: value, at: at).map { [$0] } }
        let workspace = session.workspace
        var words: [(handle: String, words: [String])] = []
        // Each file's names, found once (not by a search of the files for every element).
        var namesOf: [Identity: String] = [:]
        for file in session.files { namesOf.merge(file.names) { first, _ in first } }
        func add(_ identity: Identity, _ extra: [String]) {
            guard workspace.exists(identity), let handle = workspace.handles.handle(for: identity) else { return }
            words.append((handle, [handle] + (namesOf[identity].map { [$0] } ?? []) + extra))
        }
        switch field {
        case "room", "section":
            for file in session.files {
                for room in file.rooms {
                    let sections = file.identities(room.scope, .section)
                    let labels = (file.capture(room.scope)?.sections ?? []).map(\.label)
                    if field == "room" {
                        // A room answers to its sections' labels and names as well as its own.
                        let sectionNames = sections.compactMap { namesOf[$0] }
                        add(room, labels + sectionNames)
                    } else {
                        for (index, section) in sections.enumerated() { add(section, index < labels.count ? [labels[index]] : []) }
                    }
                }
            }
        default:
            let kinds = field == "parent" ? ElementKind.allCases.filter { $0 != .room && $0 != .section } : ElementKind.allCases
            for kind in kinds { for identity in workspace.handles.order[kind] ?? [] { add(identity, []) } }
        }
        let found = words.filter { pattern.matches(any: $0.words, value) }
        guard !found.isEmpty else {
            let noun = field == "room" || field == "section" ? field : field == "parent" ? "element" : "thing"
            let how = { if case .contains = pattern { return "has '\(value)' in" } else { return "matches '\(value)' by" } }()
            return .failure(Query.ReferenceFailure("no open \(noun) \(how) its handle, name or label"))
        }
        return .success(Set(found.map(\.handle)))
    }

    /// The handle a reference field's value names (`room = kitchen` is `room = r2`), so that
    /// a name, label or identifier works in `where` as it does as an argument, and a value
    /// naming nothing open is said to, rather than matching nothing.
    func referencedHandle(field: String, value: String, at: Argument) -> Result<String, Query.ReferenceFailure> {
        let allowed: Set<ElementKind>, what: String
        switch field {
        case "room": (allowed, what) = ([.room], "a room")
        case "section": (allowed, what) = ([.section], "a section")
        case "parent": (allowed, what) = (Set(ElementKind.allCases).subtracting([.room, .section]), "an element")
        default: (allowed, what) = (Set(ElementKind.allCases), "a thing")
        }
        var firstFailure: String?
        for text in value == value.lowercased() ? [value] : [value, value.lowercased()] {
            do {
                var identity = try resolve(Argument(text: text, location: at.location), allowed: Set(ElementKind.allCases), what: what)
                // A section's label names its room where a room is asked for.
                if identity.kind == .section, field == "room", let room = identity.room { identity = room }
                let handle = session.workspace.handles.handle(for: identity) ?? text
                guard allowed.contains(identity.kind) else {
                    let kind = identity.kind.rawValue
                    let article = "aeiou".contains(kind.first ?? "x") ? "an" : "a"
                    firstFailure = firstFailure ?? "\(handle) is \(article) \(kind), not \(what)"
                    continue
                }
                return .success(handle)
            } catch let failure as CommandFailure {
                firstFailure = firstFailure ?? failure.message
            } catch {
                firstFailure = firstFailure ?? "\(error)"
            }
        }
        return .failure(Query.ReferenceFailure(firstFailure ?? "nothing open is called '\(value)'"))
    }

    func dimensionsText(_ d: SIMD3<Float>?) -> String {
        guard let d else { return "" }
        return "\(formatted(Double(d.x), digits: 2))×\(formatted(Double(d.y), digits: 2))×\(formatted(Double(d.z), digits: 2))"
    }

    func attributesText(_ attributes: JSONObject?) -> String {
        (attributes?.members ?? []).map { member in
            if case .string(let value) = member.value { return "\(member.key)=\(value)" }
            return "\(member.key)=…"
        }.joined(separator: " ")
    }

    /// Attributes for a narrow table, saying the same in fewer columns: the value of the
    /// category's own type first, bare (`ChairType=swivel` is `swivel`), then the others
    /// named without the category and `Type` (`ChairArmType=existing` is `Arm=existing`);
    /// an own type RoomPlan could not tell (`unidentified`) last, as it says least.
    /// Cut to 11 columns, a chair's was `ChairArmTy…`; now it is `swivel…`.
    func shortAttributesText(_ attributes: JSONObject?, category: String?) -> String {
        let prefix = category.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? ""
        var main: [String] = [], others: [String] = []
        for member in attributes?.members ?? [] {
            let value: String
            if case .string(let text) = member.value { value = text } else { value = "…" }
            var name = Substring(member.key)
            if !prefix.isEmpty, name.hasPrefix(prefix) {
                name = name.dropFirst(prefix.count)
                if name.hasSuffix("Type") { name = name.dropLast(4) }
            }
            if name.isEmpty { main.append(value) } else { others.append("\(name)=\(value)") }
        }
        let unknown = main.filter { $0 == "unidentified" }
        return (main.filter { $0 != "unidentified" } + others + unknown).joined(separator: " ")
    }

    /// Section labels for a narrow table, repeats counted: `bedroom×2,bathroom,unidentified`.
    func shortLabels(_ labels: String) -> String {
        var order: [Substring] = [], count: [Substring: Int] = [:]
        for label in labels.split(separator: ",", omittingEmptySubsequences: false) {
            if count[label] == nil { order.append(label) }
            count[label, default: 0] += 1
        }
        return order.map { count[$0]! > 1 ? "\($0)×\(count[$0]!)" : String($0) }.joined(separator: ",")
    }

    /// A table fitted to the terminal (`Table`), or whole with `wide`; handles coloured
    /// when standard output takes colour. Written with `output.writeStyled`: its cells are
    /// escaped already.
    func tableText(_ table: Table, wide: Bool) -> String {
        let width = wide ? nil : output.columns
        let rendered = table.render(width: width, colour: output.colorsOutput)
        guard rendered.cut || !rendered.omitted.isEmpty, let width else { return rendered.text }
        var said: [String] = []
        if !rendered.omitted.isEmpty {
            let columns = rendered.omitted.joined(separator: ", ")
            said.append("\(columns) left out, empty in every row")
        }
        if rendered.cut { said.append("cells shortened to fit \(width) columns") }
        return rendered.text + note("(" + said.joined(separator: "; ") + "; --wide shows "
                                    + (rendered.cut ? "them whole" : "every column") + ")")
    }

    /// A line under a table, wrapped at blanks to the terminal's width (whole when piped).
    func note(_ text: String) -> String {
        guard let width = output.columns, displayWidth(text) > width else { return text + "\n" }
        var lines: [String] = []
        var line = ""
        // A number stays with the word before it ("toilet 1" was broken between the lines of
        // stats' object counts: an adversarial pass), unless that word ends a clause.
        var words: [String] = []
        for word in text.split(separator: " ") {
            if let previous = words.last, word.first?.isNumber == true, previous.last.map({ !",:;".contains($0) }) == true {
                words[words.count - 1] = previous + " " + word
            } else {
                words.append(String(word))
            }
        }
        for word in words {
            if !line.isEmpty && displayWidth(line) + 1 + displayWidth(word) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.map { displayWidth($0) > width ? truncated($0, to: width) : $0 }.joined(separator: "\n") + "\n"
    }

    /// The `--wide` option of every command that prints a table.
    static let wideOption = OptionSpec("--wide", help: "every cell whole, however wide (on a terminal, tables are fitted to its width)")

    func table(_ kind: ElementKind, _ rows: [Row], wide: Bool = false) -> String {
        let inferred = rows.contains { $0.sectionInferred }
        let structureLevel = rows.contains { $0.identity.scope == .structure }
        func section(_ row: Row) -> String { (row.sectionHandle ?? "") + (row.sectionInferred ? "*" : "") }
        /// A room's own element names its room; a structure-level one, in parentheses, the
        /// rooms whose copies it stands for: the first three and how many more when there are
        /// over four (a story's floor under 11 rooms took 40 columns, and a table that wide is
        /// shown one field per line on a terminal; `show` and `--json` name them all).
        func room(_ row: Row) -> String {
            if let handle = row.roomHandle { return handle }
            guard row.identity.scope == .structure else { return "" }
            let rooms = row.roomHandles
            if rooms.count > 4 { return "(" + rooms.prefix(3).joined(separator: "+") + "+\(rooms.count - 3) more)" }
            return "(" + (rooms.isEmpty ? "-" : rooms.joined(separator: "+")) + ")"
        }
        var text: String
        switch kind {
        case .room:
            let data = rows.map { row -> [String] in
                let file = session.workspace.file(id: row.identity.file)
                let room = file?.capture(row.identity.scope)
                return [row.handle, file?.name ?? "", row.story.map(String.init) ?? "", row.label ?? "", row.name ?? "",
                        formatted(row.area ?? 0, digits: 2), "\(room?.walls.count ?? 0)", "\(room?.doors.count ?? 0)",
                        "\(room?.windows.count ?? 0)", "\(room?.objects.count ?? 0)"]
            }
            text = tableText(Table(["room", "file", "story", "labels", "name", "area m²", "walls", "doors", "windows", "objects"], data,
                                   numeric: [2, 5, 6, 7, 8, 9], flexible: [1, 3, 4], shorter: [3: data.map { shortLabels($0[3]) }]), wide: wide)
        case .section:
            let data = rows.map { row -> [String] in
                [row.handle, room(row), row.story.map(String.init) ?? "", row.label ?? "", row.name ?? "",
                 row.centre.map { "\(formatted($0.x, digits: 2)), \(formatted($0.z, digits: 2))" } ?? ""]
            }
            text = tableText(Table(["section", "room", "story", "label", "name", "centre x, z"], data, numeric: [2], flexible: [3, 4]),
                             wide: wide)
        case .object:
            let data = rows.map { row -> [String] in
                [row.handle, room(row), section(row), row.story.map(String.init) ?? "", row.category ?? "",
                 row.confidence?.name ?? "", dimensionsText(row.dimensions), attributesText(row.attributes), row.parentHandle ?? ""]
            }
            text = tableText(Table(["object", "room", "section", "story", "category", "confidence", "w×h×d m", "attributes", "parent"],
                                   data, numeric: [3], flexible: [7],
                                   shorter: [7: rows.map { shortAttributesText($0.attributes, category: $0.category) }]), wide: wide)
        default:
            let data = rows.map { row -> [String] in
                var category = row.category ?? ""
                if let open = row.isOpen { category += open ? " (open)" : " (closed)" }
                return [row.handle, room(row), section(row), row.story.map(String.init) ?? "", category,
                        row.confidence?.name ?? "", dimensionsText(row.dimensions), row.parentHandle ?? ""]
            }
            text = tableText(Table([kind.rawValue, "room", "section", "story", "category", "confidence", "w×h×d m", "parent"], data,
                                   numeric: [3], flexible: [4]), wide: wide)
        }
        if structureLevel {
            // (The legend's example is one of the rows': it said "(r1+r2)" above rows of (r3) and (r4).)
            let shown = rows.filter { $0.identity.scope == .structure }.map(room)
            let example = shown.first { $0 != "(-)" } ?? "(r1+r2)"
            text += note("\(example) structure-level: the structure's own element, standing for "
                         + (example.contains("+") ? "those rooms' copies" : "that room's copy")
                         + (shown.contains("(-)") ? "; (-) for no room's" : ""))
        }
        if inferred { text += note("* section inferred: the nearest section centre (RoomPlan does not say which section holds what)") }
        return text
    }

    func json(_ row: Row) -> JSONValue {
        var object = JSONObject()
        object["handle"] = .string(row.handle)
        object["kind"] = .string(row.kind.rawValue)
        object["identifier"] = row.identifier.map { .string($0) } ?? .null
        object["room"] = row.roomHandle.map { .string($0) } ?? .null
        object["level"] = .string(row.level)
        if row.identity.scope == .structure { object["rooms"] = .array(row.roomHandles.map { .string($0) }) }
        object["story"] = row.story.map { .number(JSONNumber($0)) } ?? .null
        object["category"] = row.category.map { .string($0) } ?? .null
        object["confidence"] = row.confidence.map { .string($0.name) } ?? .null
        object["dimensions"] = row.dimensions.map { d in .array([d.x, d.y, d.z].map { .number(JSONNumber(text: floatText($0))) }) } ?? .null
        object["attributes"] = row.attributes.map { .object($0) } ?? .null
        object["label"] = row.label.map { .string($0) } ?? .null
        object["name"] = row.name.map { .string($0) } ?? .null
        object["parent"] = row.parentHandle.map { .string($0) } ?? row.parentIdentifier.map { .string($0) } ?? .null
        object["section"] = row.sectionHandle.map { .string($0) } ?? .null
        object["sectionInferred"] = .bool(row.sectionInferred)
        if let open = row.isOpen { object["open"] = .bool(open) }
        if let area = row.area { object["area"] = .number(JSONNumber(text: formatted(area, digits: 4))) }
        return .object(object)
    }

    static func queryCommands() -> [CommandSpec] {
        let kinds = ElementKind.allCases.map(\.plural) + ["spaces", "anchors"]
        return [
            CommandSpec(
                "ls",
                arguments: [ArgumentSpec("KIND", .choice(kinds), .optional), ArgumentSpec("where EXPR", .expression, .variadic)],
                options: [wideOption],
                summary: "list rooms, sections, walls, doors, windows, openings, floors or objects",
                details: """
                    Each row starts with the thing's handle, which every command accepts. Without KIND, rooms (the
                    spaces, when only spaces are open).
                    In a capture with several sections (one scan of a whole flat), elements are assigned to the
                    nearest section centre; such sections are marked * (inferred).
                    where EXPR filters, as in find: fields category, confidence, story, room, section, label, name,
                    width, height, depth, area, open, parent and every attribute (ChairType, ...); operators
                    = != < <= > >= and ~ (contains); and, or, not, parentheses; lengths with units (2m, 80cm, 3ft);
                    confidence in order (confidence < high). Text ignores case; = with * or ? is a glob.
                    room, section and parent take what a command argument takes (room = kitchen, a name, a
                    handle), and with * ? or ~ match handles, names and labels (room ~ bed); a value that
                    names or matches nothing open is an error.

                    On a terminal the table fits its width: a column empty in every row is left out, long headers
                    shorten, attributes and labels take a shorter form (swivel Arm=existing, bedroom×2), and long
                    names, labels and attributes are cut with …, after a word where that keeps most of them; when a
                    row cannot fit even so, each row is shown one field per line. --wide shows every column and cell
                    whole; a pipe or a file always gets them whole.
                    """
            ) { invocation in
                let shell = invocation.shell
                // Bare `ls` with only spaces open (a Hyperbasis store, HBSpace files) lists what is
                // open, the spaces, not an empty table of rooms.
                if invocation.positionals.isEmpty, shell.session.workspace.rows(.room).isEmpty, !shell.spaceEntries.isEmpty {
                    shell.output.writeStyled(shell.listSpaces(wide: invocation.flag("--wide")))
                    return
                }
                if let first = invocation.positionals.first, first.text == "spaces" || first.text == "anchors" {
                    if first.text == "spaces", invocation.positionals.count > 1 {
                        throw CommandFailure("ls spaces takes no where-expression (ls anchors does)", at: invocation.positionals[1])
                    }
                    let wide = invocation.flag("--wide")
                    shell.output.writeStyled(first.text == "spaces" ? shell.listSpaces(wide: wide)
                                             : try shell.listAnchors(where: Array(invocation.positionals.dropFirst()), wide: wide))
                    return
                }
                let (kind, _, rows) = try shell.listing(invocation.positionals, defaultKind: .room, requireWhere: false,
                                                        command: "ls", at: invocation.name)
                if shell.options.json {
                    shell.output.write(renderJSON(.array(rows.map(shell.json))))
                } else {
                    shell.output.writeStyled(shell.table(kind, rows, wide: invocation.flag("--wide")))
                }
            },
            CommandSpec(
                "find",
                arguments: [ArgumentSpec("KIND", .choice(kinds)), ArgumentSpec("where EXPR", .expression, .variadic)],
                options: [wideOption],
                summary: "list the things of a kind that match an expression",
                details: "find objects where category = chair and confidence != high — the expression language is in 'help ls'."
            ) { invocation in
                let shell = invocation.shell
                if let first = invocation.positionals.first, first.text == "spaces" || first.text == "anchors" {
                    guard first.text == "anchors" else {
                        throw CommandFailure("spaces cannot be filtered (ls spaces lists them all; find anchors where ... works)", at: first)
                    }
                    guard invocation.positionals.count > 1 else {
                        throw CommandFailure("find anchors needs where and an expression, like find anchors where color = yellow", at: first)
                    }
                    shell.output.writeStyled(try shell.listAnchors(where: Array(invocation.positionals.dropFirst()),
                                                                   wide: invocation.flag("--wide")))
                    return
                }
                let (kind, _, rows) = try shell.listing(invocation.positionals, defaultKind: nil, requireWhere: true,
                                                        command: "find", at: invocation.name)
                if shell.options.json {
                    shell.output.write(renderJSON(.array(rows.map(shell.json))))
                } else {
                    shell.output.writeStyled(shell.table(kind, rows, wide: invocation.flag("--wide")))
                }
            },
            CommandSpec(
                "show",
                arguments: [ArgumentSpec("REF", .reference(Set(ElementKind.allCases)))],
                options: [OptionSpec("--feet", help: "lengths in feet as well as metres")],
                summary: "every field of one thing, its room, section, parent and children"
            ) { invocation in
                try invocation.shell.show(invocation)
            },
        ]
    }

    /// Whether an export to PATH prints (`-`, `/dev/stdout`) rather than writes a file. Such an
    /// export prints under `--dry-run` too: it writes no file, and a dry run of `export csv -`
    /// printed nothing at all under `-q` (only "would write -" without it).
    func printsToStandardOutput(_ path: Argument) -> Bool {
        path.text == "-" || path.text == "/dev/stdout"
    }

    /// What a real export to `path` would refuse, checked for `--dry-run`: an open file or its
    /// names file, a folder, a missing or unwritable folder (a script checked dry then failed).
    func preflightExport(_ path: Argument) throws {
        guard path.text != "-" && path.text != "/dev/stdout" else { return }
        try checkNotOpen(path, by: "an export")
        try checkReplaceable(path, writing: exportReplaces.writing, force: exportReplaces.force, by: "export")
        try claimWrites([path.text], at: path)
        do {
            try FileIO.preflight(path.text)
        } catch {
            throw CommandFailure("cannot write \(path.text): \(error.message)", at: path)
        }
    }

    /// Writes an export to PATH atomically, or to standard output when PATH is `-` or
    /// `/dev/stdout` (so a listing can be piped; the bytes go out as they are). Returns
    /// whether it went to standard output.
    func export(_ bytes: [UInt8], to path: Argument) throws -> Bool {
        if printsToStandardOutput(path) {
            sink.write(String(decoding: bytes, as: UTF8.self))
            return true
        }
        try checkNotOpen(path, by: "an export")
        try checkReplaceable(path, writing: exportReplaces.writing, force: exportReplaces.force, by: "export")
        try claimWrites([path.text], at: path)
        let linked = hardLinks([path.text])
        do {
            try FileIO.writeAtomically(bytes, to: path.text, faults: options.faults, flushes: !options.defersFlush)
            filesWritten += 1
            warnHardLinks(linked)
        } catch {
            throw CommandFailure("cannot write \(path.text): \(error.message)"
                                 + (FileIO.isRegularFile(path.text) || !FileManager.default.fileExists(atPath: path.text)
                                    ? "" : " (to print it, export to -)"), at: path)
        }
        return false
    }

    /// The files among `paths` that have other names (hard links), with how many: a write
    /// replaces the file under this name only (it is atomic: a new file renamed into place,
    /// never the old one written into), so the others keep the old contents. Asked before
    /// the write, said after it (`warnHardLinks`).
    func hardLinks(_ paths: [String]) -> [(path: String, others: Int)] {
        paths.compactMap { path in
            let others = FileIO.otherHardLinks(of: path)
            return others > 0 ? (path, others) : nil
        }
    }

    func warnHardLinks(_ linked: [(path: String, others: Int)], wouldBe: Bool = false) {
        for (path, others) in linked {
            let links = others == 1 ? "1 other hard link" : "\(others) other hard links"
            warn("\(path) had \(links): \(wouldBe ? "it would be" : "it was") replaced by a new file under this name (an atomic save "
                 + "never writes into the old one), so the other name\(others == 1 ? "" : "s") \(wouldBe ? "would " : "")keep\(others == 1 && !wouldBe ? "s" : "") the old contents")
        }
    }

    /// An export never replaces a file open in wb, nor the names file beside one: `export usda
    /// flat.json` turned the open scan itself into USD text, and `save` then had nothing to
    /// write back to. `save PATH` of one file checks another's path the same way (`what`: what
    /// would have replaced it).
    /// In a batch, refuses to write a path another file of the batch wrote: with one `save
    /// out/fixed.json` for every file, each replaced the one before, and only the last was
    /// left ("3 ok (3 changed)").
    func claimWrites(_ paths: [String], at word: Argument) throws {
        guard let claimWrite else { return }
        for path in paths {
            if let problem = claimWrite(path) {
                throw CommandFailure("will not write \(path): \(problem); give each file a path of its own "
                                     + "(e.g. save \"$out/$FILE_STEM.json\")", at: word)
            }
        }
    }

    /// A file already at PATH is not replaced unsaid unless it is an earlier copy of what is
    /// written there: `save PATH` and `export structure PATH` (RoomPlan JSON, `writing`) replace
    /// a RoomPlan file that shares an element identifier with the document (an earlier run's
    /// output), never another scan, a names file or anything else (a notes file, a typo's
    /// victim); the other exports (`writing` nil) replace anything but a RoomPlan scan or a
    /// names file (`export csv kitchen.json` turned a scan that was not open into a listing).
    /// `--force` replaces it.
    func checkReplaceable(_ path: Argument, writing: RoomPlanDocument?, force: Bool, by command: String) throws {
        guard !force, path.text != "-", path.text != "/dev/stdout", FileIO.isRegularFile(path.text) else { return }
        let bytes = (try? FileIO.read(path.text)) ?? []
        let refuse = { (what: String) throws -> CommandFailure in
            // In a batch, a path another file of the batch wrote (or is) is said as that.
            try self.claimWrites([path.text], at: path)
            return CommandFailure("\(path.text) is \(what): \(command == "save" ? "a copy" : "an export") does not replace it "
                           + "(give another PATH, or \(command) --force to replace it); nothing was written", at: path)
        }
        // A names file holding no names reads as a structure of no rooms: its name says what it is.
        if path.text.hasSuffix(".wb.json") { throw try refuse("a names file") }
        // (JSON of no elements, `{"rooms": []}` with anything beside, is no scan to replace.)
        let identifiers = (try? RoomPlanCodec.decode(bytes))?.elementIdentifiers ?? []
        if let writing {
            if identifiers.isEmpty { throw try refuse("not a RoomPlan scan") }
            if identifiers.isDisjoint(with: writing.elementIdentifiers) { throw try refuse("another scan (no element of it is in what is written)") }
        } else if !identifiers.isEmpty {
            throw try refuse("a RoomPlan scan")
        }
    }

    func checkNotOpen(_ path: Argument, by what: String, except own: Int? = nil) throws {
        func canonical(_ text: String) -> String {
            URL(fileURLWithPath: text).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let target = canonical(path.text)
        // A document wb made (a merge result) is on no disk yet: exporting it to its own path
        // replaces nothing wb read.
        for file in session.files where file.stamp != nil && file.id != own {
            let own = canonical(file.path)
            guard target == own || target == canonical(Sidecar.path(for: file.path)) else { continue }
            throw CommandFailure("\(path.text) is \(target == own ? "" : "the names file of ")\(file.name), open in wb: "
                                 + "\(what) does not replace it (give another PATH); nothing was written", at: path)
        }
    }

    func csv(_ rows: [Row]) -> String {
        func field(_ text: String) -> String {
            text.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        let headers = ["handle", "kind", "identifier", "room", "section", "sectionInferred", "story", "category", "confidence",
                       "width", "height", "depth", "attributes", "label", "name", "parent"]
        var lines = [headers.joined(separator: ",")]
        for row in rows {
            let d = row.dimensions
            let cells = [row.handle, row.kind.rawValue, row.identifier ?? "", row.roomHandle ?? "", row.sectionHandle ?? "",
                         row.sectionInferred ? "true" : "false", row.story.map(String.init) ?? "", row.category ?? "",
                         row.confidence?.name ?? "", d.map { floatText($0.x) } ?? "", d.map { floatText($0.y) } ?? "",
                         d.map { floatText($0.z) } ?? "", attributesText(row.attributes), row.label ?? "", row.name ?? "",
                         row.parentHandle ?? row.parentIdentifier ?? ""]
            lines.append(cells.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The USDZ model attached to an object (`set o3 model …`), if any.
    /// A curved wall's arc in words: RoomPlan writes its centre in the wall's plane, its radius
    /// and its start and end angles (as `Measurement`s: a value and a unit). What cannot be read
    /// so is shown as the file has it.
    static func describeCurve(_ curve: JSONValue) -> String {
        func number(_ value: JSONValue?) -> Double? {
            if case .number(let n)? = value { return n.doubleValue.isFinite ? n.doubleValue : nil }
            return nil
        }
        func degrees(_ value: JSONValue?) -> Double? {
            if let plain = number(value) { return plain * 180 / .pi }
            guard case .object(let measurement)? = value, let amount = number(measurement["value"]) else { return nil }
            guard case .object(let unit)? = measurement["unit"] else { return nil }
            // The converter to degrees (UnitAngle's base unit) decides, as Foundation's does; the
            // symbol only where there is none.
            if case .object(let converter)? = unit["converter"], let coefficient = number(converter["coefficient"]) {
                return amount * coefficient + (number(converter["constant"]) ?? 0)
            }
            switch unit["symbol"] {
            case .string("°")?, .string("deg")?: return amount
            case .string("rad")?: return amount * 180 / .pi
            default: return nil
            }
        }
        // An arc no scan gives (a radius of 0 or less, beyond a kilometre, angles beyond a few
        // turns) is shown as the file has it.
        guard case .object(let arc) = curve, let radius = number(arc["radius"]), radius > 0, radius <= 1000,
              let start = degrees(arc["startAngle"]), let end = degrees(arc["endAngle"]), abs(start) <= 1080, abs(end) <= 1080 else {
            let raw = renderJSON(curve).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            return "not an arc wb can read: " + (raw.count > 120 ? String(raw.prefix(119)) + "…" : raw)
        }
        var text = "an arc of radius \(formatted(radius, digits: 3)) m from \(formatted(start, digits: 1))° to \(formatted(end, digits: 1))°"
        if case .array(let centre)? = arc["center"], centre.count == 2, let x = number(centre[0]), let y = number(centre[1]) {
            text += " about (\(formatted(x, digits: 3)), \(formatted(y, digits: 3))) in the wall's plane"
        }
        return text
    }

    func attachedModel(_ identity: Identity) -> String? {
        guard identity.kind == .object, case .object(let object)? = session.workspace.element(identity) else { return nil }
        return session.workspace.file(id: identity.file)?.models[object.identifier]
    }

    func show(_ invocation: Invocation) throws {
        let word = invocation.positionals[0]
        if try showSpaceOrAnchor(word) { return }
        let identity = try resolve(word, allowed: Set(ElementKind.allCases), what: "REF")
        guard let row = session.workspace.row(for: identity) else {
            throw CommandFailure("\(word.text) is deleted (restore \(word.text) brings it back)", at: word)
        }
        let feet = invocation.flag("--feet")
        func length(_ value: Float) -> String {
            let metres = readable(Double(value), digits: 3) + " m"
            return feet ? metres + " (" + formatted(Double(value) / 0.3048, digits: 2) + " ft)" : metres
        }
        let children = session.workspace.children(of: identity).compactMap { session.workspace.handles.handle(for: $0) }
        if options.json {
            guard case .object(var object) = json(row) else { return }
            object["children"] = .array(children.map { .string($0) })
            // A curved wall's arc as the file has it (RoomPlan's own form: centre, radius, angles).
            if case .surface(let surface)? = session.workspace.element(identity), let curve = surface.curve, curve != .null {
                object["curve"] = curve
            }
            if let model = attachedModel(identity) { object["model"] = .string(model) }
            output.write(renderJSON(.object(object)))
            return
        }
        var lines: [(String, String)] = [("handle", row.handle), ("kind", row.kind.rawValue)]
        if let identifier = row.identifier { lines.append(("identifier", identifier)) }
        if let file = session.workspace.file(id: identity.file) { lines.append(("file", file.path)) }
        if row.kind != .room, let room = row.roomHandle { lines.append(("room", room)) }
        if identity.scope == .structure {
            let owners = session.workspace.owners(of: identity).filter(session.workspace.exists).compactMap { session.workspace.handles.handle(for: $0) }
            lines.append(("level", "structure (the structure's own \(row.kind.rawValue))"))
            lines.append(("stands for", owners.isEmpty ? "no room's element" : owners.joined(separator: ", ")
                          + " (in " + row.roomHandles.joined(separator: ", ") + ")"))
        } else if let link = session.workspace.link(of: identity), let handle = session.workspace.handles.handle(for: link.element) {
            lines.append(("structure-level", handle + (session.workspace.exists(link.element) ? "" : " (deleted)")))
        }
        if let section = row.sectionHandle, row.kind != .section {
            lines.append(("section", section + (row.label.map { " (\($0))" } ?? "") + (row.sectionInferred ? ", inferred from the nearest centre" : "")))
        }
        if let story = row.story { lines.append(("story", String(story))) }
        if let category = row.category, row.kind != .room, row.kind != .section { lines.append(("category", category)) }
        if row.kind == .room || row.kind == .section, let label = row.label { lines.append((row.kind == .room ? "labels" : "label", label)) }
        if let name = row.name, row.kind == .room || row.kind == .section { lines.append(("name", name)) }
        if let open = row.isOpen { lines.append(("open", open ? "yes" : "no")) }
        if let confidence = row.confidence { lines.append(("confidence", confidence.name)) }
        if let d = row.dimensions {
            lines.append(("width", length(d.x)))
            lines.append(("height", length(d.y)))
            lines.append(("depth", length(d.z)))
        }
        if let area = row.area { lines.append((row.kind == .room ? "floor area" : "area", readable(area, digits: 2) + " m²")) }
        if let centre = row.centre {
            lines.append(("centre", "x \(formatted(centre.x, digits: 3)), y \(formatted(centre.y, digits: 3)), z \(formatted(centre.z, digits: 3)) m"))
        }
        if let element = session.workspace.element(identity) {
            switch element {
            case .surface(let s):
                lines.append(("heading", formatted(s.transform.yaw * 180 / .pi, digits: 1) + "°"))
                if let corners = s.polygonCorners, !corners.isEmpty { lines.append(("corners", "\(corners.count) (polygon)")) }
                if let edges = s.completedEdges, !edges.isEmpty { lines.append(("completed edges", edges.map(\.description).joined(separator: ", "))) }
                if let curve = s.curve, curve != .null { lines.append(("curve", Self.describeCurve(curve))) }
            case .object(let o):
                lines.append(("heading", formatted(o.transform.yaw * 180 / .pi, digits: 1) + "°"))
                if let model = attachedModel(identity) { lines.append(("model", model)) }
            case .section:
                break
            }
        }
        for member in row.attributes?.members ?? [] {
            if case .string(let value) = member.value { lines.append((member.key, value)) }
        }
        if let parent = row.parentHandle ?? row.parentIdentifier {
            var text = parent
            if let parentIdentity = session.workspace.handles.identity(for: parent), let parentRow = session.workspace.row(for: parentIdentity) {
                text += " (\(parentRow.category ?? parentRow.kind.rawValue))"
            } else if row.parentHandle == nil {
                text += " (not an element of this room)"
            }
            lines.append(("parent", text))
        }
        if !children.isEmpty { lines.append(("children", children.joined(separator: ", "))) }
        if row.kind == .room, let file = session.workspace.file(id: identity.file), let room = file.capture(identity.scope) {
            let sections = file.identities(identity.scope, .section).compactMap { session.workspace.handles.handle(for: $0) }
            lines.append(("sections", sections.joined(separator: ", ")))
            lines.append(("contents", FileSummary.counts(of: room).map { "\($0.0) \($0.1)" }.joined(separator: ", ")))
        }
        output.write(fieldLines(lines))
    }
}
