import Foundation
import StructureModel

/// Hyperbasis stores: spaces (`sp1`) and their anchors (`a1`), opened read-only for now.
extension Shell {
    func openStore(_ path: String, step: String?) throws {
        // `store/`, as a shell completes a folder, named a store "" (its last component):
        // `close store` found nothing. The slashes at the end say nothing more.
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        // `wb .` inside the store's folder (or `..` below it) named the store "." (its last
        // component), and a session's journal beside it "..wb-journal": such a path is named by
        // the folder it stands for.
        if [".", ".."].contains((path as NSString).lastPathComponent) {
            path = URL(fileURLWithPath: path).standardizedFileURL.path
        }
        try refuseStoreOpenTwice(path)
        let store: HyperbasisStore
        do {
            store = try HyperbasisStore.load(path)
        } catch {
            throw LoadError(path: path, message: error.message, location: nil, lineText: nil)
        }
        addStore(store, step: step)
    }

    /// One store (a folder, or an HBSpace file) opened twice, under another path or through a
    /// link, was two copies whose saves write the same records: it is opened once, as a file is.
    func refuseStoreOpenTwice(_ path: String) throws(LoadError) {
        guard let stamp = FileIO.stamp(of: path),
              let open = session.workspace.stores.first(where: { FileIO.stamp(of: $0.store.path)?.isSameFile(as: stamp) == true })
        else { return }
        throw LoadError(path: path, message: "is already open as \(FileIO.baseName(of: open.store.path)) (\(open.store.path))",
                        location: nil, lineText: nil)
    }

    /// Opens a store; with `step` (the command's text) as an undoable step.
    func addStore(_ store: HyperbasisStore, step: String?) {
        if let step {
            _ = session.open(store: store, text: step)
        } else {
            session.workspace.addStore(store)
        }
        for problem in store.problems { warn(problem) }
        if !options.quiet {
            // Named on the command line with commands to run, aside on standard error (none
            // with --json), as a file's: on standard output it went into what they printed.
            if step == nil && startupSummariesAside {
                if !options.json { output.writeError(Self.storeSummaryText(store)) }
            } else {
                output.write(options.json ? renderJSON(Self.storeSummaryJSON(store)) : Self.storeSummaryText(store))
            }
        }
    }

    /// What a store holds, as `open` and `summary` print it.
    static func storeSummaryText(_ store: HyperbasisStore) -> String {
        let live = store.anchors.filter { !$0.isDeleted }.count
        return "\(FileIO.baseName(of: store.path))  \(store.isSingleFile ? "HBSpace file" : "Hyperbasis store")  (\(store.path))\n"
            + "  spaces   \(store.spaces.count)\n"
            + "  anchors  \(store.anchors.count)  \(live) live, \(store.anchors.count - live) deleted\n"
            + "  events   \(store.events.values.reduce(0) { $0 + $1.count })\n"
            + (store.pendingOperations > 0 ? "  pending sync operations  \(store.pendingOperations)\n" : "")
    }

    static func storeSummaryJSON(_ store: HyperbasisStore) -> JSONValue {
        .object(JSONObject([
            JSONMember("kind", .string("HyperbasisStore")), JSONMember("file", .string(store.path)),
            JSONMember("spaces", .number(JSONNumber(store.spaces.count))),
            JSONMember("anchors", .number(JSONNumber(store.anchors.count))),
        ]))
    }

    /// Every open space with its handle (given once when its store was opened, never
    /// reused). `store` is the position in `session.workspace.stores`; `index` the record's.
    var spaceEntries: [(handle: String, store: Int, index: Int, space: SpaceRecord)] {
        var result: [(String, Int, Int, SpaceRecord)] = []
        let handles = session.workspace.handles
        for (storeIndex, entry) in session.workspace.stores.enumerated() {
            for (index, space) in entry.store.spaces.enumerated() {
                result.append((handles.handle(forSpace: space, store: entry.id) ?? "sp?", storeIndex, index, space))
            }
        }
        return result
    }

    var anchorEntries: [(handle: String, store: Int, index: Int, anchor: AnchorRecord)] {
        var result: [(String, Int, Int, AnchorRecord)] = []
        let handles = session.workspace.handles
        for (storeIndex, entry) in session.workspace.stores.enumerated() {
            for (index, anchor) in entry.store.anchors.enumerated() {
                result.append((handles.handle(forAnchor: anchor, store: entry.id) ?? "a?", storeIndex, index, anchor))
            }
        }
        return result
    }

    /// The one entry a word names: by handle, by full id, or by a unique id prefix of at
    /// least 4 characters (several matches are an error that lists them).
    private func pick<T>(_ entries: [(handle: String, store: Int, index: Int, item: T)], id: (T) -> String,
                         _ word: Argument, what: String) throws -> (handle: String, store: Int, index: Int, item: T)? {
        let text = word.text.uppercased()
        if let byHandle = entries.first(where: { $0.handle == word.text }) { return byHandle }
        // An id in several files (a sync-conflict copy) names several things: never pick one.
        let byID = entries.filter { id($0.item).uppercased() == text }
        if byID.count > 1 {
            throw CommandFailure("'\(word.text)' names several \(what)s (\(byID.map(\.handle).joined(separator: ", ")): the same id in several files); "
                                 + "use a handle", at: word)
        }
        if let exact = byID.first { return exact }
        guard text.count >= 4, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
        let matches = entries.filter { id($0.item).uppercased().hasPrefix(text) }
        if matches.count > 1 {
            throw CommandFailure("'\(word.text)' is the start of several \(what) ids (\(matches.prefix(6).map(\.handle).joined(separator: ", ")))",
                                 at: word)
        }
        return matches.first
    }

    func spaceEntry(_ word: Argument) throws -> (handle: String, store: Int, index: Int, space: SpaceRecord)? {
        try pick(spaceEntries.map { ($0.handle, $0.store, $0.index, $0.space) }, id: \.id, word, what: "space")
            .map { ($0.handle, $0.store, $0.index, $0.item) }
    }

    func anchorEntry(_ word: Argument) throws -> (handle: String, store: Int, index: Int, anchor: AnchorRecord)? {
        try pick(anchorEntries.map { ($0.handle, $0.store, $0.index, $0.anchor) }, id: \.id, word, what: "anchor")
            .map { ($0.handle, $0.store, $0.index, $0.item) }
    }

    /// The room an anchor stands in, among the rooms attached to its space.
    func roomHandle(of anchor: AnchorRecord) -> String? {
        session.workspace.room(containing: anchor).flatMap { session.workspace.handles.handle(for: $0) }
    }

    func spaceHandle(_ id: String) -> String? {
        spaceEntries.first { $0.space.id.uppercased() == id.uppercased() }?.handle
    }

    func listSpaces(wide: Bool = false) -> String {
        let entries = spaceEntries
        if options.json {
            return renderJSON(.array(entries.map { entry in
                let space = entry.space
                let anchors = session.workspace.stores[entry.store].store.anchors.filter { $0.spaceId.uppercased() == space.id.uppercased() }
                return .object(JSONObject([
                    JSONMember("handle", .string(entry.handle)), JSONMember("kind", .string("space")),
                    JSONMember("identifier", .string(space.id)), JSONMember("name", space.name.map { .string($0) } ?? .null),
                    JSONMember("createdAt", space.createdAt.map { .string($0) } ?? .null),
                    JSONMember("updatedAt", space.updatedAt.map { .string($0) } ?? .null),
                    JSONMember("isCompressed", .bool(space.isCompressed)),
                    JSONMember("worldMapStored", .number(JSONNumber(space.worldMap.storedSize))),
                    JSONMember("worldMapRaw", space.worldMap.rawSize.map { .number(JSONNumber($0)) } ?? .null),
                    JSONMember("liveAnchors", .number(JSONNumber(anchors.filter { !$0.isDeleted }.count))),
                    JSONMember("deletedAnchors", .number(JSONNumber(anchors.filter(\.isDeleted).count))),
                ]))
            }))
        }
        let rows = entries.map { entry -> [String] in
            let space = entry.space
            let anchors = session.workspace.stores[entry.store].store.anchors.filter { $0.spaceId.uppercased() == space.id.uppercased() }
            return [entry.handle, space.name ?? "", space.id, space.createdAt ?? "", space.updatedAt ?? "",
                    "\(space.worldMap.storedSize)", space.worldMap.rawSize.map(String.init) ?? "?",
                    space.isCompressed ? "yes" : "no", "\(anchors.filter { !$0.isDeleted }.count)", "\(anchors.filter(\.isDeleted).count)"]
        }
        return tableText(Table(["space", "name", "id", "created", "updated", "map bytes", "raw bytes", "compressed", "live", "deleted"],
                               rows, numeric: [5, 6, 8, 9], flexible: [1, 2, 3, 4]), wide: wide)
    }

    /// What `ls anchors where ...` can ask of an anchor; any other name is a metadata key.
    struct AnchorRow: QueryRow {
        var handle: String
        var space: String
        var room: String?
        var anchor: AnchorRecord
        var version: Int?

        func value(_ field: String) -> FieldValue? {
            switch field {
            case "handle": return .reference(handle)
            case "space": return .reference(space)
            case "room": return room.map { .reference($0) }
            case "identifier": return .text(anchor.id)
            case "state": return .text(anchor.isDeleted ? "deleted" : "live")
            case "deleted": return .flag(anchor.isDeleted)
            case "version": return version.map { .number(Double($0)) }
            case "x": return anchor.transform.map { .length(Double($0[12])) }
            case "y": return anchor.transform.map { .length(Double($0[13])) }
            case "z": return anchor.transform.map { .length(Double($0[14])) }
            default:
                switch anchor.metadata[field] {
                case .string(let text)?: return .text(text)
                case .number(let number)?: return .number(number.doubleValue)
                case .bool(let flag)?: return .text(flag ? "true" : "false")
                case .null?: return .text("null")
                default: return nil
                }
            }
        }

        static let schema = QuerySchema(
            fields: ["handle": .reference, "space": .reference, "room": .reference, "identifier": .text, "state": .text,
                     "deleted": .flag, "version": .number, "x": .length, "y": .length, "z": .length],
            openEnded: true, suggestions: [])
    }

    func listAnchors(where words: [Argument] = [], wide: Bool = false) throws -> String {
        var entries = anchorEntries
        func version(_ entry: (handle: String, store: Int, index: Int, anchor: AnchorRecord)) -> Int? {
            session.workspace.stores[entry.store].store.events(of: entry.anchor).map(\.version).max()
        }
        if let whereWord = words.first {
            guard whereWord.text == "where", words.count > 1 else {
                throw CommandFailure("expected 'where' and an expression, like where color = yellow", at: whereWord)
            }
            let expression = Array(words.dropFirst())
            let query: Query
            do {
                let at = expression[0]
                query = try Query.compile(expression.map { QueryWord($0.text, quoted: $0.quoted) }, schema: AnchorRow.schema,
                                          references: { field, value, pattern in
                                              self.anchorReferences(field: field, value: value, pattern: pattern, at: at)
                                          })
            } catch {
                let word = expression[min(error.word, expression.count - 1)]
                var location = word.location
                location.column += error.offset + (word.quoted ? 1 : 0)
                throw CommandFailure(error.message, at: Argument(text: word.text, location: location))
            }
            entries = entries.filter { entry in
                query.matches(AnchorRow(handle: entry.handle, space: spaceHandle(entry.anchor.spaceId) ?? entry.anchor.spaceId,
                                        room: roomHandle(of: entry.anchor), anchor: entry.anchor, version: version(entry)))
            }
        }
        return renderAnchors(entries, version: version, wide: wide)
    }

    /// The handles a reference field of an anchor names, as an argument names them: `space =
    /// 3F2C…` (an id or its prefix), `space = "Living Room"` (a name), `room = kitchen`; with a
    /// wildcard or `~`, every one whose handle, id or name matches. A value naming nothing is
    /// said to: it was compared with the handles as typed, so a space's id matched no anchor,
    /// silently.
    func anchorReferences(field: String, value: String, pattern: Query.ReferencePattern,
                          at: Argument) -> Result<Set<String>, Query.ReferenceFailure> {
        if field == "room" { return referencedHandles(field: field, value: value, pattern: pattern, at: at) }
        let isSpace = field == "space"
        // What each handle answers to; an anchor whose space has no record carries the space's id.
        var words: [(handle: String, words: [String])] = isSpace
            ? spaceEntries.map { ($0.handle, [$0.handle, $0.space.id] + ($0.space.name.map { [$0] } ?? [])) }
            : anchorEntries.map { ($0.handle, [$0.handle, $0.anchor.id]) }
        if isSpace {
            for entry in anchorEntries where spaceHandle(entry.anchor.spaceId) == nil && !words.contains(where: { $0.handle == entry.anchor.spaceId }) {
                words.append((entry.anchor.spaceId, [entry.anchor.spaceId]))
            }
        }
        let noun = isSpace ? "space" : "anchor"
        let lowered = value.lowercased()
        switch pattern {
        case .exact:
            let word = Argument(text: value, location: at.location)
            do {
                if let handle = isSpace ? try spaceEntry(word)?.handle : try anchorEntry(word)?.handle { return .success([handle]) }
            } catch let failure as CommandFailure {
                return .failure(Query.ReferenceFailure(failure.message))
            } catch {
                return .failure(Query.ReferenceFailure("\(error)"))
            }
            let named = words.filter { $0.words.contains { $0.lowercased() == lowered } }
            if named.count == 1 { return .success([named[0].handle]) }
            if named.count > 1 {
                return .failure(Query.ReferenceFailure("'\(value)' names several \(noun)s (\(named.map(\.handle).joined(separator: ", "))); use a handle"))
            }
            return .failure(Query.ReferenceFailure("no open \(noun) is called '\(value)' (by handle, id or name)"))
        case .glob, .contains:
            let found = words.filter { pattern.matches(any: $0.words, value) }
            guard !found.isEmpty else {
                let how = { if case .contains = pattern { return "has '\(value)' in" } else { return "matches '\(value)' by" } }()
                return .failure(Query.ReferenceFailure("no open \(noun) \(how) its handle, id or name"))
            }
            return .success(Set(found.map(\.handle)))
        }
    }

    private func renderAnchors(_ entries: [(handle: String, store: Int, index: Int, anchor: AnchorRecord)],
                               version: ((handle: String, store: Int, index: Int, anchor: AnchorRecord)) -> Int?,
                               wide: Bool) -> String {
        if options.json {
            return renderJSON(.array(entries.map { entry in
                let a = entry.anchor
                let position: JSONValue = a.transform.map { t in
                    .array([t[12], t[13], t[14]].map { .number(JSONNumber(text: floatText($0))) })
                } ?? .null
                return .object(JSONObject([
                    JSONMember("handle", .string(entry.handle)), JSONMember("kind", .string("anchor")),
                    JSONMember("identifier", .string(a.id)), JSONMember("space", .string(spaceHandle(a.spaceId) ?? a.spaceId)),
                    JSONMember("position", position), JSONMember("metadata", .object(a.metadata)),
                    JSONMember("deleted", .bool(a.isDeleted)), JSONMember("version", version(entry).map { .number(JSONNumber($0)) } ?? .null),
                    JSONMember("room", roomHandle(of: a).map { .string($0) } ?? .null),
                ]))
            }))
        }
        let rows = entries.map { entry -> [String] in
            let a = entry.anchor
            let position = a.transform.map { "\(formatted(Double($0[12]), digits: 2)), \(formatted(Double($0[13]), digits: 2)), \(formatted(Double($0[14]), digits: 2))" } ?? "?"
            let metadata = a.metadata.members.map { member -> String in
                switch member.value {
                case .string(let text): return "\(member.key)=\(text)"
                case .number(let n): return "\(member.key)=\(n.text)"
                case .bool(let b): return "\(member.key)=\(b)"
                default: return "\(member.key)=…"
                }
            }.joined(separator: " ")
            return [entry.handle, spaceHandle(a.spaceId) ?? a.spaceId, roomHandle(of: a) ?? "", position, a.isDeleted ? "deleted" : "live",
                    version(entry).map(String.init) ?? "", metadata]
        }
        return tableText(Table(["anchor", "space", "room", "position x, y, z", "state", "version", "metadata"], rows, numeric: [5],
                               flexible: [6]), wide: wide)
    }

    /// A number for --json output, to a millimetre's millionth.
    static func jsonNumber(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        var text = formatted(value, digits: 6)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return .number(JSONNumber(text: text == "-0" ? "0" : text))
    }

    /// `show sp1`: the space and what its world map holds; `show a1`: an anchor and its history.
    func showSpaceOrAnchor(_ word: Argument) throws -> Bool {
        if let entry = try spaceEntry(word) {
            let space = entry.space
            var lines: [(String, String)] = [("handle", entry.handle), ("kind", "space"), ("identifier", space.id),
                                             ("name", space.name ?? "(none)"), ("created", space.createdAt ?? "?"),
                                             ("updated", space.updatedAt ?? "?"), ("compressed", space.isCompressed ? "yes (raw DEFLATE)" : "no"),
                                             ("map bytes", "\(space.worldMap.storedSize) stored, \(space.worldMap.rawSize.map(String.init) ?? "?") raw")]
            if !space.duplicates.isEmpty {
                lines.append(("file", space.file))
                lines.append(("same id in", space.duplicates.joined(separator: ", ") + " (not saved: keep one file)"))
            }
            if let info = space.worldMap.info {
                lines.append(("archive", "\(info.archiver) \(info.archiveVersion), root \(info.rootClass)"))
                lines.append(("map version", info.mapVersion.map(String.init) ?? "none"))
                for (key, size) in info.opaqueSizes.sorted(by: { $0.key < $1.key }) { lines.append((key, "\(size) bytes (opaque)")) }
                if let origin = info.referenceOriginTransform {
                    lines.append(("reference origin", "x \(formatted(origin.translation.x, digits: 3)), y \(formatted(origin.translation.y, digits: 3)), z \(formatted(origin.translation.z, digits: 3)), heading \(formatted(origin.yaw * 180 / .pi, digits: 1))°"))
                }
                for anchor in info.anchors {
                    let at = anchor.transform.map { " at \(formatted($0.translation.x, digits: 2)), \(formatted($0.translation.y, digits: 2)), \(formatted($0.translation.z, digits: 2))" } ?? ""
                    lines.append(("ARAnchor", "\(anchor.identifier ?? "?")\(anchor.name.map { " \"\($0)\"" } ?? "")\(at)"))
                }
            }
            lines.append(("valid", space.worldMap.problem == nil ? "yes" : "no: \(space.worldMap.problem!)"))
            if options.json {
                // Numbers as numbers, yes and no as booleans (they were all strings: "698 stored, 1097 raw").
                func point(_ t: Transform) -> JSONValue { .array([t.translation.x, t.translation.y, t.translation.z].map(Self.jsonNumber)) }
                var object = JSONObject()
                object["handle"] = .string(entry.handle)
                object["kind"] = .string("space")
                object["identifier"] = .string(space.id)
                object["name"] = space.name.map { .string($0) } ?? .null
                object["created"] = space.createdAt.map { .string($0) } ?? .null
                object["updated"] = space.updatedAt.map { .string($0) } ?? .null
                object["isCompressed"] = .bool(space.isCompressed)
                object["worldMapStored"] = .number(JSONNumber(space.worldMap.storedSize))
                object["worldMapRaw"] = space.worldMap.rawSize.map { .number(JSONNumber($0)) } ?? .null
                if !space.duplicates.isEmpty {
                    object["file"] = .string(space.file)
                    object["sameIdIn"] = .array(space.duplicates.map { .string($0) })
                }
                if let info = space.worldMap.info {
                    object["archive"] = .string("\(info.archiver) \(info.archiveVersion)")
                    object["rootClass"] = .string(info.rootClass)
                    object["mapVersion"] = info.mapVersion.map { .number(JSONNumber($0)) } ?? .null
                    object["opaqueBytes"] = .object(JSONObject(info.opaqueSizes.sorted { $0.key < $1.key }.map { JSONMember($0.key, .number(JSONNumber($0.value))) }))
                    object["referenceOrigin"] = info.referenceOriginTransform.map(point) ?? .null
                    object["referenceHeading"] = info.referenceOriginTransform.map { Self.jsonNumber($0.yaw * 180 / .pi) } ?? .null
                    object["arAnchors"] = .array(info.anchors.map { anchor in
                        .object(JSONObject([JSONMember("identifier", anchor.identifier.map { .string($0) } ?? .null),
                                            JSONMember("name", anchor.name.map { .string($0) } ?? .null),
                                            JSONMember("position", anchor.transform.map(point) ?? .null)]))
                    })
                }
                object["valid"] = .bool(space.worldMap.problem == nil)
                object["problem"] = space.worldMap.problem.map { .string($0) } ?? .null
                output.write(renderJSON(.object(object)))
            } else {
                output.write(fieldLines(lines))
            }
            return true
        }
        if let entry = try anchorEntry(word) {
            let a = entry.anchor
            var lines: [(String, String)] = [("handle", entry.handle), ("kind", "anchor"), ("identifier", a.id),
                                             ("space", spaceHandle(a.spaceId) ?? a.spaceId), ("state", a.isDeleted ? "deleted \(a.deletedAt!)" : "live"),
                                             ("created", a.createdAt ?? "?"), ("updated", a.updatedAt ?? "?")]
            if !a.duplicates.isEmpty {
                lines.append(("file", a.file))
                lines.append(("same id in", a.duplicates.joined(separator: ", ") + " (not saved: keep one file)"))
            }
            if let t = a.transform {
                lines.append(("position", "x \(formatted(t.translation.x, digits: 3)), y \(formatted(t.translation.y, digits: 3)), z \(formatted(t.translation.z, digits: 3)) m"))
            }
            for member in a.metadata.sortedMembers { lines.append(("metadata." + member.key, renderJSON(member.value).trimmingCharacters(in: .whitespacesAndNewlines))) }
            let events = session.workspace.stores[entry.store].store.events(of: a)
            for event in events {
                lines.append(("event v\(event.version)", "\(event.type) at \(event.timestamp)"))
            }
            // `show` prints one object under --json (COMMANDS.md): an anchor printed its text
            // table (an adversarial pass).
            if options.json {
                var object = JSONObject()
                object["handle"] = .string(entry.handle)
                object["kind"] = .string("anchor")
                object["identifier"] = .string(a.id)
                object["space"] = .string(spaceHandle(a.spaceId) ?? a.spaceId)
                object["state"] = .string(a.isDeleted ? "deleted" : "live")
                object["deletedAt"] = a.deletedAt.map { .string($0) } ?? .null
                object["created"] = a.createdAt.map { .string($0) } ?? .null
                object["updated"] = a.updatedAt.map { .string($0) } ?? .null
                object["position"] = a.transform.map { t in .array([t.translation.x, t.translation.y, t.translation.z].map(Self.jsonNumber)) } ?? .null
                object["metadata"] = .object(a.metadata)
                object["events"] = .array(events.map { event in
                    .object(JSONObject([JSONMember("version", .number(JSONNumber(event.version))), JSONMember("type", .string(event.type)),
                                        JSONMember("timestamp", .string(event.timestamp))]))
                })
                if !a.duplicates.isEmpty {
                    object["file"] = .string(a.file)
                    object["sameIdIn"] = .array(a.duplicates.map { .string($0) })
                }
                output.write(renderJSON(.object(object)))
                return true
            }
            output.write(fieldLines(lines))
            return true
        }
        return false
    }

    static func spaceCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "attach",
                arguments: [ArgumentSpec("ROOM", .reference([.room])), ArgumentSpec("SPACE", .reference([]))],
                summary: "say that a room was scanned in a Hyperbasis space (same coordinate frame)",
                details: """
                    Then ls anchors says which room each of the space's anchors stands in, plan draws them, and
                    move, rotate and elevate carry them along with --anchors. Kept in the room file's sidecar
                    (flat.wb.json) when it is saved; detach ROOM undoes it.
                    """,
                edits: true
            ) { invocation in
                let shell = invocation.shell
                let room = try shell.resolve(invocation.positionals[0], allowed: [.room], what: "ROOM")
                guard let entry = try shell.spaceEntry(invocation.positionals[1]) else {
                    throw CommandFailure("there is no space '\(invocation.positionals[1].text)' (open a Hyperbasis store first)",
                                         at: invocation.positionals[1])
                }
                try shell.perform(shell.session.workspace.planLink(room: room, space: entry.space.id), text: invocation.text,
                                  done: "\(shell.handleText(room)) was scanned in \(entry.handle)")
            },
            CommandSpec(
                "detach",
                arguments: [ArgumentSpec("ROOM", .reference([.room]))],
                summary: "forget which space a room was scanned in",
                edits: true
            ) { invocation in
                let shell = invocation.shell
                let room = try shell.resolve(invocation.positionals[0], allowed: [.room], what: "ROOM")
                try shell.perform(shell.session.workspace.planLink(room: room, space: nil), text: invocation.text,
                                  done: "\(shell.handleText(room)) is in no space")
            },
            CommandSpec(
                "validate",
                arguments: [ArgumentSpec("SPACE", .reference([]))],
                summary: "check a space's world map as the SDK's validate() would",
                details: "The map must inflate (when isCompressed), be a keyed archive with an ARWorldMap root, of a version ARKit reads (3 or older), with trackingData."
            ) { invocation in
                let shell = invocation.shell
                let word = invocation.positionals[0]
                guard let entry = try shell.spaceEntry(word) else {
                    let handles = shell.spaceEntries.map(\.handle)
                    throw CommandFailure("there is no space '\(word.text)'" + (handles.isEmpty ? " (no Hyperbasis store is open)" : " (spaces: \(handles.joined(separator: ", ")))"), at: word)
                }
                // Read the map again from disk: validate answers for the file as it is now.
                let store = shell.session.workspace.stores[entry.store].store
                let state: WorldMapState
                if store.isSingleFile {
                    state = ((try? HyperbasisStore.loadSpaceFile(store.path)) ?? nil)?.spaces.first?.worldMap
                        ?? WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: "the file is no longer an HBSpace file")
                } else if let file = try? HyperbasisStore.worldMapFile(store.path, spaceId: entry.space.id) {
                    state = HyperbasisStore.readWorldMap(file, compressed: entry.space.isCompressed)
                } else {
                    state = WorldMapState(storedSize: 0, rawSize: nil, info: nil, problem: "its id is not a UUID, so it has no world map file")
                }
                if let problem = state.problem {
                    throw CommandFailure("\(entry.handle) is not valid: \(problem)", at: word)
                }
                if shell.options.json {
                    shell.output.write(renderJSON(.object(JSONObject([
                        JSONMember("handle", .string(entry.handle)), JSONMember("kind", .string("space")), JSONMember("valid", .bool(true)),
                        JSONMember("mapVersion", state.info?.mapVersion.map { .number(JSONNumber($0)) } ?? .null),
                        JSONMember("arAnchors", .number(JSONNumber(state.info?.anchors.count ?? 0))),
                        JSONMember("worldMapRaw", state.rawSize.map { .number(JSONNumber($0)) } ?? .null),
                    ]))))
                    return
                }
                shell.output.write("\(entry.handle): valid (ARWorldMap version \(state.info?.mapVersion ?? 0), \(state.info?.anchors.count ?? 0) ARAnchor\(state.info?.anchors.count == 1 ? "" : "s"), \(state.rawSize ?? 0) bytes)\n")
            },
        ]
    }
}

/// The shared verbs (`name`, `move`, `set`, `delete`, `restore`) on spaces and anchors.
extension Shell {
    func storeID(_ position: Int) -> Int { session.workspace.stores[position].id }

    func performSpaceEdit(_ body: () throws(EditError) -> EditPlan, at word: Argument, text: String, done: String) throws {
        try perform(try plan(body, at: word), text: text, done: done)
    }

    /// `name SPACE TEXT`; false when REF is not a space.
    func renameSpace(_ invocation: Invocation) throws -> Bool {
        guard let entry = try spaceEntry(invocation.positionals[0]) else { return false }
        let name = invocation.positionals[1].text
        let store = storeID(entry.store)
        try performSpaceEdit({ () throws(EditError) in try session.workspace.planRenameSpace(store: store, index: entry.index, name: name) },
                             at: invocation.positionals[1], text: invocation.text,
                             done: name.isEmpty ? "\(entry.handle) has no name" : "\(entry.handle) is named \"\(name.escapingControls)\"")
        return true
    }

    /// `move ANCHOR DX DZ [DY]`.
    func moveAnchor(_ invocation: Invocation) throws -> Bool {
        guard let entry = try anchorEntry(invocation.positionals[0]) else { return false }
        let dx = try length(invocation.positionals[1], name: "DX")
        let dz = try length(invocation.positionals[2], name: "DZ")
        let dy = try invocation.positional(3).map { try length($0, name: "DY") } ?? 0
        let store = storeID(entry.store)
        try performSpaceEdit({ () throws(EditError) in
            try session.workspace.planMoveAnchor(store: store, index: entry.index, by: SIMD3(dx, dy, dz))
        }, at: invocation.positionals[0], text: invocation.text, done: "\(entry.handle) moved by (\(formatted(dx, digits: 3)), \(formatted(dy, digits: 3)), \(formatted(dz, digits: 3))) m")
        return true
    }

    /// `set ANCHOR KEY VALUE` and `set ANCHOR KEY --remove`. Values read as JSON scalars the
    /// way the SDK's metadata decodes them: true/false, null, numbers; quoted words stay text.
    func setAnchorMetadata(_ invocation: Invocation) throws -> Bool {
        guard let entry = try anchorEntry(invocation.positionals[0]) else { return false }
        let key = invocation.positionals[1]
        var value: JSONValue?
        if invocation.flag("--remove") {
            guard invocation.positional(2) == nil else { throw CommandFailure("--remove takes no VALUE", at: invocation.positionals[2]) }
        } else {
            guard let word = invocation.positional(2) else { throw CommandFailure("set needs a VALUE (or --remove)", at: key) }
            value = metadataValue(word)
        }
        let store = storeID(entry.store)
        try performSpaceEdit({ () throws(EditError) in
            try session.workspace.planSetMetadata(store: store, index: entry.index, key: key.text, value: value)
        }, at: key, text: invocation.text, done: value == nil ? "\(entry.handle) has no \(key.text)" : "\(entry.handle) \(key.text) is \(invocation.positionals[2].text)")
        return true
    }

    func metadataValue(_ word: Argument) -> JSONValue {
        if word.quoted { return .string(word.text) }
        switch word.text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            if let number = Double(word.text), number.isFinite, word.text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) {
                return .number(JSONNumber(text: word.text))
            }
            return .string(word.text)
        }
    }

    /// `delete ANCHOR` / `restore ANCHOR`: soft deletion through `deletedAt`.
    func deleteOrRestoreAnchor(_ invocation: Invocation, delete: Bool) throws -> Bool {
        guard let entry = try anchorEntry(invocation.positionals[0]) else { return false }
        let store = storeID(entry.store)
        try performSpaceEdit({ () throws(EditError) in
            delete ? try session.workspace.planDeleteAnchor(store: store, index: entry.index, now: Date())
                : try session.workspace.planRestoreAnchor(store: store, index: entry.index)
        }, at: invocation.positionals[0], text: invocation.text,
           done: delete ? "deleted \(entry.handle) (soft: deletedAt is set; restore \(entry.handle) clears it)" : "restored \(entry.handle)")
        return true
    }

    /// Saves every store with changes; returns the names of what was written.
    func saveStores(force: Bool, at word: Argument) throws {
        for (position, entry) in session.workspace.stores.enumerated() where entry.isModified {
            _ = position
            // Changed on disk by another program since wb read it: refused, as a RoomPlan file
            // is, unless --force; forced, the events are numbered after the log as it is now.
            var store = entry.store
            let check = entry.store.changedOnDisk(since: entry.onDisk)
            if let file = check.file {
                guard force else {
                    throw CommandFailure("cannot save \(entry.store.path): \(file) changed on disk since the store was opened "
                                         + "(save --force to overwrite it anyway; nothing was written)", at: word)
                }
                if let now = check.now { store.events = now.events }
            }
            let result: HyperbasisStore.SaveResult
            do {
                // Checked again under the locks of the folders written, just before the renames: of
                // two processes saving one store at once, the second finds the first's changes and
                // is refused (both went ahead, one move was lost and two events got one version:
                // an adversarial pass).
                let onDisk = entry.onDisk, mine = entry.store
                result = try store.save(comparedWith: entry.onDisk, now: Date(), dryRun: options.dryRun, replacesWriteProtected: force,
                                        verify: force ? nil : { () throws(FileError) in
                    if let file = mine.changedOnDisk(since: onDisk).file {
                        throw FileError(path: file, message: "changed on disk since the store was opened (another process saved it just now?); "
                                        + "save --force to overwrite it anyway; nothing was written")
                    }
                })
            } catch {
                // The file it is about, when it is one of the store's (a record named for another
                // id, a link): "cannot save s7: holds anchor … but is not named …" named none.
                let which = error.path == entry.store.path ? "" : "\(error.path.escapingControls): "
                throw CommandFailure("cannot save \(entry.store.path): \(which)\(error.message)", at: word)
            }
            if options.dryRun {
                for renamed in result.renamed { inform("would rename \(renamed.from.escapingControls) to \(FileIO.baseName(of: renamed.to).escapingControls) (--dry-run)") }
                for file in result.written { inform("would write \(file.escapingControls) (--dry-run)") }
                if result.events > 0 { inform("would append \(result.events) event\(result.events == 1 ? "" : "s") (--dry-run)") }
                continue
            }
            session.workspace.markStoreSaved(id: entry.id, as: result.store)
            session.countStoreSave()
            filesWritten += result.written.count + result.renamed.count
            for renamed in result.renamed { inform("renamed \(renamed.from.escapingControls) to \(FileIO.baseName(of: renamed.to).escapingControls), the name the SDK looks for") }
            for file in result.written { inform("wrote \(file.escapingControls)") }
            if result.events > 0 { inform("appended \(result.events) event\(result.events == 1 ? "" : "s") to the event logs") }
        }
    }

    /// What `diff` lists for the store at `position`: each space and anchor that differs from
    /// the store as read or last saved (what a save writes), and how.
    func storeDifferences(_ position: Int) -> [(String, String, String)] {
        let entry = session.workspace.stores[position]
        let name = FileIO.baseName(of: entry.store.path)
        func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "no name" }
        func json(_ value: JSONValue?) -> String {
            value.map { renderJSON($0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "none"
        }
        func point(_ transform: Transform?) -> String {
            transform.map { t in "(\([t.translation.x, t.translation.y, t.translation.z].map { formatted($0, digits: 2) }.joined(separator: ", ")))" }
                ?? "(none)"
        }
        var changes: [(String, String, String)] = []
        for space in spaceEntries where space.store == position && entry.onDisk.spaces.indices.contains(space.index) {
            let old = entry.onDisk.spaces[space.index]
            guard old != space.space else { continue }
            changes.append((name, space.handle, old.name != space.space.name ? "name \(quoted(old.name)) → \(quoted(space.space.name))" : "changed"))
        }
        for anchor in anchorEntries where anchor.store == position && entry.onDisk.anchors.indices.contains(anchor.index) {
            let old = entry.onDisk.anchors[anchor.index], new = anchor.anchor
            guard old != new else { continue }
            var said: [String] = []
            if old.isDeleted != new.isDeleted { said.append(new.isDeleted ? "deleted (deletedAt is set)" : "restored") }
            if old.transform != new.transform { said.append("position \(point(old.transform)) → \(point(new.transform))") }
            for key in Set(old.metadata.members.map(\.key)).union(new.metadata.members.map(\.key)).sorted()
            where old.metadata[key] != new.metadata[key] {
                said.append("metadata.\(key) \(json(old.metadata[key])) → \(json(new.metadata[key]))")
            }
            for text in said.isEmpty ? ["changed"] : said { changes.append((name, anchor.handle, text)) }
        }
        return changes
    }

    /// `export space SPACE FILE`: the single-file HBSpace JSON, world map inline (uncompressed).
    func exportSpace(_ words: [Argument], at name: Argument) throws {
        guard words.count == 2 else { throw CommandFailure("export space needs SPACE and FILE", at: words.first ?? name) }
        guard let entry = try spaceEntry(words[0]) else { throw CommandFailure("there is no space '\(words[0].text)'", at: words[0]) }
        let store = session.workspace.stores[entry.store].store
        let stored: [UInt8]
        if store.isSingleFile {
            guard case .string(let encoded)? = entry.space.json["worldMapData"], let data = Data(base64Encoded: encoded) else {
                throw CommandFailure("\(entry.handle) has no readable worldMapData", at: words[0])
            }
            stored = [UInt8](data)
        } else {
            do {
                stored = try FileIO.read(try HyperbasisStore.worldMapFile(store.path, spaceId: entry.space.id))
            } catch {
                throw CommandFailure("cannot read \(entry.handle)'s world map: \(error.path): \(error.message)", at: words[0])
            }
        }
        // Inflated within the bound the store was read with, from a file or a folder alike: an
        // HBSpace file's map that would not inflate was written as an empty map, without a word.
        let raw: [UInt8]
        if entry.space.isCompressed {
            do {
                raw = try RawDeflate.inflate(stored, limit: max(1 << 20, stored.count * HyperbasisStore.inflationLimit))
            } catch {
                throw CommandFailure("\(entry.handle)'s world map cannot be inflated: \(error)", at: words[0])
            }
        } else {
            raw = stored
        }
        var object = JSONObject()
        object["createdAt"] = entry.space.createdAt.map { .string($0) }
        object["id"] = .string(entry.space.id.uppercased())
        object["name"] = entry.space.name.map { .string($0) }
        object["updatedAt"] = entry.space.updatedAt.map { .string($0) }
        object["worldMapData"] = .string(Data(raw).base64EncodedString())
        var writer = JSONWriter(capacity: raw.count * 4 / 3 + 256, compact: true)
        writer.value(.object(object))
        if options.dryRun && !printsToStandardOutput(words[1]) {
            try preflightExport(words[1])
            inform("would write \(words[1].text) (\(writer.bytes.count) bytes; --dry-run)")
            return
        }
        if try export(writer.bytes, to: words[1]) { return }
        inform("wrote \(words[1].text.escapingControls) (\(writer.bytes.count) bytes)")
    }
}
