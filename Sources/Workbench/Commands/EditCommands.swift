import Foundation
import StructureModel

extension Shell {
    /// Applies an edit as one undoable step, then tells the person what happened.
    func perform(_ plan: EditPlan, text: String, done: String, placing placed: [Identity] = []) throws {
        if plan.changes.isEmpty {
            inform("nothing changed: \(done) already")
            return
        }
        if let what = plan.unrepresentableNumber {
            throw CommandFailure("refused: this would give \(what) a number a RoomPlan file cannot hold (infinite, or beyond "
                                 + "±3.4e38, Float's range); nothing was changed")
        }
        session.perform(plan, text: text, placing: placed)
        inform(done)
        for note in plan.notes { inform("note: \(note)") }
        for warning in plan.warnings { warn(warning) }
    }

    func plan(_ body: () throws(EditError) -> EditPlan, at word: Argument) throws -> EditPlan {
        do {
            return try body()
        } catch {
            throw CommandFailure(error.message, at: word)
        }
    }

    func handleText(_ identity: Identity) -> String {
        session.workspace.handles.handle(for: identity) ?? identity.key
    }

    /// A section of `room`: the only one, or the one `--section N` picks (1-based).
    func section(of room: Identity, pick: Argument?, at word: Argument) throws -> Identity {
        let sections = session.workspace.file(id: room.file)?.identities(room.scope, .section) ?? []
        let count = sections.count
        if let pick, count > 0 {
            let number = try wholeNumber(pick, name: "--section", range: 1...max(1, count))
            return sections[number - 1]
        }
        switch count {
        case 0:
            throw CommandFailure("\(handleText(room)) has no sections (an iOS 16 capture): RoomPlan keeps labels on sections", at: word)
        case 1:
            return sections[0]
        default:
            let handles = sections.map { handleText($0) }
            throw CommandFailure("\(handleText(room)) has \(count) sections (\(handles.joined(separator: ", "))); "
                                 + "label one of them, or pick one with --section N", at: word)
        }
    }

    static func editCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "label",
                arguments: [ArgumentSpec("ROOM", .reference([.room, .section])), ArgumentSpec("LABEL", .choice(SectionLabel.known))],
                options: [OptionSpec("--section", value: .number, valueName: "N", help: "which section of a room with several (1-based)")],
                summary: "set RoomPlan's label of a room (or one of its sections)",
                details: """
                    LABEL is one of RoomPlan's section labels: livingRoom, bedroom, bathroom, kitchen, diningRoom,
                    unidentified. RoomPlan keeps labels on sections; a room with one section takes its label
                    directly, a room with several needs a section handle (label s3 kitchen) or --section N.
                    In a structure, the structure-level copy of the section is relabelled too.
                    """,
                edits: true
            ) { invocation in
                let shell = invocation.shell
                let target = try shell.resolve(invocation.positionals[0], allowed: [.room, .section], what: "ROOM")
                let section = target.kind == .section ? target
                    : try shell.section(of: target, pick: invocation.values["--section"], at: invocation.positionals[0])
                let label = invocation.positionals[1]
                let plan = try shell.plan({ () throws(EditError) in try shell.session.workspace.planLabel(section: section, label: label.text) },
                                          at: label)
                try shell.perform(plan, text: invocation.text, done: "\(shell.handleText(section)) is labelled \(label.text.escapingControls)")
            },
            CommandSpec(
                "name",
                arguments: [ArgumentSpec("REF", .reference([.room, .section])), ArgumentSpec("TEXT", .text)],
                summary: "give a room or section a free-text name (\"\" removes it)",
                details: """
                    Names like "Guest bedroom" have no place in RoomPlan's JSON, so wb keeps them in a sidecar file
                    next to it (flat.json → flat.wb.json), written when the file is saved. Names are matched to
                    rooms by their walls' identifiers and to sections by their centres, so they survive saving,
                    reopening and re-exports. A name can be used wherever a room is expected.
                    """,
                edits: true
            ) { invocation in
                let shell = invocation.shell
                if try shell.renameSpace(invocation) { return }
                let target = try shell.resolve(invocation.positionals[0], allowed: [.room, .section], what: "REF")
                let text = invocation.positionals[1].text
                let plan = try shell.plan({ () throws(EditError) in
                    try shell.session.workspace.planName(target, name: text)
                }, at: invocation.positionals[1])
                try shell.perform(plan, text: invocation.text,
                                  done: text.isEmpty ? "\(shell.handleText(target)) has no name" : "\(shell.handleText(target)) is named \"\(text.escapingControls)\"")
            },
            CommandSpec(
                "story",
                arguments: [ArgumentSpec("ROOM", .reference([.room]), .optional), ArgumentSpec("N", .number, .optional)],
                options: [OptionSpec("--auto", help: "stories from floor heights, for every open room (or ROOM's file)"),
                          OptionSpec("--tolerance", value: .number, valueName: "D",
                                     help: "with --auto: floors within D of each other are one story (default 1m)")],
                summary: "put a room, and everything in it, on floor level N (or --auto: by floor height)",
                details: """
                    Sets the story of the room, its sections, surfaces and objects (and their structure-level copies).
                    story --auto [ROOM] groups rooms by the height of their floors (floors within --tolerance, 1 m by
                    default, of the next lower one are one story), numbers the groups from the lowest (0) and puts
                    each room on its group's story, as one step. A room with no floor or walls to measure, and a
                    split-level room (its own floors further apart than the tolerance), are reported, not guessed.
                    With ROOM, only the rooms of ROOM's file; without, every open room (they should share one frame:
                    a structure, or rooms aligned into one).
                    """,
                edits: true
            ) { invocation in
                let shell = invocation.shell
                if invocation.flag("--auto") {
                    try shell.autoStories(invocation)
                    return
                }
                guard invocation.positionals.count == 2 else {
                    throw CommandFailure("usage: story ROOM N, or story --auto [ROOM]", at: invocation.positionals.first ?? invocation.name)
                }
                let room = try shell.resolve(invocation.positionals[0], allowed: [.room], what: "ROOM")
                let story = try shell.wholeNumber(invocation.positionals[1], name: "story", range: Workspace.storyRange)
                let plan = try shell.plan({ () throws(EditError) in try shell.session.workspace.planStory(room: room, story: story) },
                                          at: invocation.positionals[1])
                try shell.perform(plan, text: invocation.text, done: "\(shell.handleText(room)) is on story \(story)")
            },
            CommandSpec(
                "elevate",
                arguments: [ArgumentSpec("ROOM", .reference([.room])), ArgumentSpec("DY", .number)],
                options: [OptionSpec("--anchors", help: "carry along the anchors standing in the room (see attach)")],
                summary: "shift a room vertically, in metres (80cm, 3ft also work)",
                edits: true
            ) { invocation in
                let shell = invocation.shell
                let room = try shell.resolve(invocation.positionals[0], allowed: [.room], what: "ROOM")
                let dy = try shell.length(invocation.positionals[1], name: "DY")
                try shell.moveRoom(room, RigidMotion(translation: SIMD3(0, dy, 0)), invocation: invocation,
                                   done: "\(shell.handleText(room)) raised by \(formatted(dy, digits: 3)) m")
            },
            CommandSpec(
                "move",
                arguments: [ArgumentSpec("ROOM", .reference([.room])), ArgumentSpec("DX", .number), ArgumentSpec("DZ", .number),
                            ArgumentSpec("DY", .number, .optional)],
                options: [OptionSpec("--anchors", help: "carry along the anchors standing in the room (see attach)")],
                summary: "translate a room, in metres along world X, Z (and Y)",
                details: "Every surface, object and section centre of the room moves rigidly; so do their structure-level copies.",
                edits: true
            ) { invocation in
                let shell = invocation.shell
                if try shell.moveAnchor(invocation) { return }
                let room = try shell.resolve(invocation.positionals[0], allowed: [.room], what: "ROOM")
                let dx = try shell.length(invocation.positionals[1], name: "DX")
                let dz = try shell.length(invocation.positionals[2], name: "DZ")
                let dy = try invocation.positional(3).map { try shell.length($0, name: "DY") } ?? 0
                try shell.moveRoom(room, RigidMotion(translation: SIMD3(dx, dy, dz)), invocation: invocation,
                                   done: "\(shell.handleText(room)) moved by (\(formatted(dx, digits: 3)), \(formatted(dy, digits: 3)), \(formatted(dz, digits: 3))) m")
            },
            CommandSpec(
                "rotate",
                arguments: [ArgumentSpec("ROOM", .reference([.room])), ArgumentSpec("DEGREES", .number)],
                options: [OptionSpec("--about", value: .number, valueName: "X Z", valueCount: 2,
                                     help: "the point to turn about, world X and Z (default: the room's middle)"),
                          OptionSpec("--anchors", help: "carry along the anchors standing in the room (see attach)")],
                summary: "turn a room about the vertical axis (counter-clockwise seen from above)",
                details: "Quarter turns are exact: transforms stay orthonormal however many times a room is turned.",
                edits: true
            ) { invocation in
                let shell = invocation.shell
                let room = try shell.resolve(invocation.positionals[0], allowed: [.room], what: "ROOM")
                let angle = try shell.degrees(invocation.positionals[1], name: "DEGREES")
                var pivot = shell.session.workspace.centre(of: room) ?? .zero
                if let about = invocation.values["--about"] {
                    let parts = about.text.split(separator: ",", omittingEmptySubsequences: false)
                    guard parts.count == 2 else { throw CommandFailure("--about takes X Z (two numbers)", at: about) }
                    pivot = SIMD3(try shell.length(Argument(text: String(parts[0]), location: about.location), name: "X"), 0,
                                  try shell.length(Argument(text: String(parts[1]), location: about.location), name: "Z"))
                }
                let turn = RigidMotion(yaw: angle * .pi / 180)
                let motion = RigidMotion(translation: pivot).composed(after: turn.composed(after: RigidMotion(translation: -pivot)))
                try shell.moveRoom(room, motion, invocation: invocation,
                                   done: "\(shell.handleText(room)) turned \(formatted(angle, digits: 2))° about (\(formatted(pivot.x, digits: 3)), \(formatted(pivot.z, digits: 3)))")
            },
            CommandSpec(
                "set",
                arguments: [ArgumentSpec("REF", .reference([.object, .wall, .door, .window, .opening, .floor])),
                            ArgumentSpec("FIELD", .field), ArgumentSpec("VALUE", .fieldValue, .optional)],
                options: [OptionSpec("--remove", help: "for an anchor: remove the metadata key FIELD; for an object: its model")],
                summary: "change a field: category, an attribute, confidence, a door's open state, an object's model",
                details: """
                    Objects: category (one of RoomPlan's 16), confidence (high, medium, low), and the attributes of their
                    category, e.g. set o12 ChairType stool (ChairType: dining, stool, swivel, unidentified). Changing
                    the category keeps the attributes the new category has and says what it dropped or added: a
                    missing one becomes unidentified, or is left out where RoomPlan has no such value (ChairArmType,
                    ChairBackType, StorageType), rather than guessed.
                    Surfaces: confidence; doors also open (true or false).
                    set o12 model chair.usdz attaches a USDZ model (Object Capture's output) to an object: export usdz
                    packs it and draws it scaled into the object's box instead of the box (export usda references it).
                    It is kept in the sidecar, relative to the file's folder; set o12 model none (or --remove) detaches it.
                    Anchors of a Hyperbasis space: set a1 KEY VALUE sets a metadata key (true, false, null and
                    numbers are read as JSON; quote a word to keep it text); set a1 KEY --remove removes it.
                    """,
                edits: true
            ) { invocation in
                let shell = invocation.shell
                if try shell.setAnchorMetadata(invocation) { return }
                let target = try shell.resolve(invocation.positionals[0], allowed: [.object, .wall, .door, .window, .opening, .floor],
                                               what: "REF")
                if invocation.positionals[1].text.lowercased() == "model" {
                    guard target.kind == .object else {
                        throw CommandFailure("only objects take a model (\(invocation.positionals[0].text) is a \(target.kind.rawValue))",
                                             at: invocation.positionals[0])
                    }
                    try shell.setModel(invocation, target: target)
                    return
                }
                guard let value = invocation.positional(2) else {
                    throw CommandFailure("set needs a VALUE (usage: set REF FIELD VALUE)", at: invocation.positionals[1])
                }
                let field = invocation.positionals[1]
                let plan = try shell.plan({ () throws(EditError) in
                    try shell.session.workspace.planSet(target, field: field.text, value: value.text)
                }, at: field)
                try shell.perform(plan, text: invocation.text, done: "\(shell.handleText(target)) \(field.text) is \(value.text)")
            },
            CommandSpec(
                "delete",
                arguments: [ArgumentSpec("REF", .reference([.object, .wall, .door, .window, .opening, .floor]))],
                summary: "remove a surface or object (restore puts it back)",
                details: """
                    In a structure, a room's element takes the structure-level element it stands for with it when no
                    other room has it; a structure-level element takes the room elements it stands for.
                    What hangs on a deleted element (a wall's doors and windows, a table's chairs) stays, pointing at
                    nothing: a warning names them (the rooms' and the structure's copies), and save warns again while
                    any element points at a parent that is not there. Delete them too, or undo.
                    """,
                edits: true
            ) { invocation in
                try invocation.shell.deleteOrRestore(invocation, delete: true)
            },
            CommandSpec(
                "restore",
                arguments: [ArgumentSpec("REF", .reference([.object, .wall, .door, .window, .opening, .floor]))],
                summary: "put a deleted surface or object back where it was",
                details: """
                    A structure-level element comes back with the room elements that went with it, and a room's element
                    with the structure-level element it stands for. One put back while its parent is still deleted (a door
                    whose wall is) points at nothing: a warning names the parent to restore too. A room moved, turned or put
                    on another story since takes its deleted elements along: they come back where the room now is.
                    """,
                edits: true
            ) { invocation in
                try invocation.shell.deleteOrRestore(invocation, delete: false)
            },
        ]
    }

    /// `delete REF` / `restore REF` for surfaces and objects (and anchors, softly).
    func deleteOrRestore(_ invocation: Invocation, delete: Bool) throws {
        if try deleteOrRestoreAnchor(invocation, delete: delete) { return }
        let word = invocation.positionals[0]
        let target = try resolve(word, allowed: [.object, .wall, .door, .window, .opening, .floor], what: "REF")
        let workspace = session.workspace
        let plan = try self.plan({ () throws(EditError) in
            delete ? try workspace.planDelete(target) : try workspace.planRestore(target)
        }, at: word)
        let handle = handleText(target)
        try perform(plan, text: invocation.text, done: delete ? "deleted \(handle) (restore \(handle) puts it back)" : "restored \(handle)")
    }

    /// `story --auto [ROOM]`: every open room (or those of ROOM's file) on its story by height.
    func autoStories(_ invocation: Invocation) throws {
        let workspace = session.workspace
        var rooms = session.files.flatMap(\.rooms)
        if let word = invocation.positional(0) {
            let room = try resolve(word, allowed: [.room], what: "ROOM")
            rooms = workspace.file(id: room.file)?.rooms ?? []
        }
        guard !rooms.isEmpty else { throw CommandFailure("no room is open", at: invocation.name) }
        let tolerance = try invocation.values["--tolerance"].map { try length($0, name: "--tolerance") } ?? 1.0
        guard tolerance > 0 else { throw CommandFailure("--tolerance must be more than 0", at: invocation.values["--tolerance"]) }
        var plan: EditPlan
        let assignment: StoryAssignment
        do {
            (plan, assignment) = try workspace.planStoriesByHeight(of: rooms, tolerance: tolerance)
        } catch {
            throw CommandFailure(error.message, at: invocation.name)
        }
        var seen = Set<String>()
        plan.notes = plan.notes.filter { seen.insert($0).inserted }
        for level in assignment.levels {
            inform("story \(level.story): floor at \(formatted(level.height, digits: 2)) m: "
                   + level.rooms.map { handleText($0) }.joined(separator: ", "))
        }
        for level in assignment.levels where level.isSpread(tolerance: tolerance) {
            warn("story \(level.story)'s floors lie from \(formatted(level.low, digits: 2)) to \(formatted(level.high, digits: 2)) m: "
                 + "a step or a split level? check its rooms (--tolerance D sets how far apart one story's floors may be)")
        }
        for room in assignment.unknown {
            warn("\(handleText(room)) has no floor or walls to measure its height by: its story was left as it is")
        }
        for entry in assignment.splitLevel {
            warn("\(handleText(entry.room)) is split-level (floors at \(formatted(entry.low, digits: 2)) and "
                 + "\(formatted(entry.high, digits: 2)) m): put by its middle floor; check it")
        }
        let count = assignment.levels.count
        try perform(plan, text: invocation.text, done: "\(count) stor\(count == 1 ? "y" : "ies") by floor height")
    }

    func moveRoom(_ room: Identity, _ motion: RigidMotion, invocation: Invocation, done: String) throws {
        var plan = try self.plan({ () throws(EditError) in try session.workspace.planMove(room: room, by: motion) },
                                 at: invocation.positionals[0])
        if invocation.flag("--anchors") {
            guard let id = room.scope.roomID, session.workspace.file(id: room.file)?.spaceLinks[id] != nil else {
                throw CommandFailure("\(handleText(room)) is in no space: attach it to one first (attach ROOM SPACE)", at: invocation.positionals[0])
            }
            // Which anchors stand in the room is decided before the room moves.
            let anchors = try self.plan({ () throws(EditError) in
                EditPlan(changes: try session.workspace.anchorChanges(for: room, motion: motion))
            }, at: invocation.positionals[0]).changes
            plan.changes += anchors
            plan.notes.append("\(anchors.count) anchor\(anchors.count == 1 ? "" : "s") moved with the room")
        }
        try perform(plan, text: invocation.text, done: done)
    }

    static func historyCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "undo",
                arguments: [ArgumentSpec("N", .number, .optional)],
                summary: "take back the last edit (or the last N)",
                details: "A script run with -f or source is one step. Undo back to where a file was opened and save gives its original bytes."
            ) { invocation in
                try invocation.shell.stepHistory(invocation, undo: true)
            },
            CommandSpec(
                "redo",
                arguments: [ArgumentSpec("N", .number, .optional)],
                summary: "do again what undo took back (or N steps)",
                details: "A new edit after undo drops what could have been redone."
            ) { invocation in
                try invocation.shell.stepHistory(invocation, undo: false)
            },
            CommandSpec(
                "history",
                summary: "the edits of this session, each with the command that made it"
            ) { invocation in
                let shell = invocation.shell
                let done = shell.session.undoStack, undone = shell.session.redoStack.reversed()
                if done.isEmpty && undone.isEmpty && !shell.options.json {
                    shell.inform("no edits yet")
                    return
                }
                if shell.options.json {
                    let steps = done.map { ($0, false) } + undone.map { ($0, true) }
                    shell.output.write(renderJSON(.array(steps.enumerated().map { index, step in
                        .object(JSONObject([JSONMember("step", .number(JSONNumber(text: String(index + 1)))),
                                            JSONMember("command", .string(step.0.text)),
                                            JSONMember("undone", .bool(step.1))]))
                    })))
                    return
                }
                var text = ""
                for (index, entry) in done.enumerated() {
                    text += String(format: "%4d  ", index + 1) + entry.text.replacingOccurrences(of: "\n", with: " ") + "\n"
                }
                for (offset, entry) in undone.enumerated() {
                    text += String(format: "%4d  ", done.count + offset + 1) + entry.text.replacingOccurrences(of: "\n", with: " ")
                        + "   (undone; redo brings it back)\n"
                }
                shell.output.write(text.escapingControlsKeepingLines)
            },
            CommandSpec(
                "diff",
                arguments: [ArgumentSpec("NAME", .openFile, .optional)],
                summary: "what this session changed, against the files on disk",
                details: """
                    Reads each file from disk again and lists, element by element, what differs in memory;
                    for a Hyperbasis store, each space and anchor a save would write, and what changed in it.
                    """
            ) { invocation in
                try invocation.shell.showDiff(invocation)
            },
        ]
    }

    func stepHistory(_ invocation: Invocation, undo: Bool) throws {
        let available = undo ? session.undoStack.count : session.redoStack.count
        let count = try invocation.positional(0).map { try wholeNumber($0, name: "N", range: 1...1_000_000) } ?? 1
        guard available > 0 else {
            throw CommandFailure(undo ? "nothing to undo" : "nothing to redo", at: invocation.name)
        }
        guard count <= available else {
            throw CommandFailure("only \(available) step\(available == 1 ? "" : "s") to \(undo ? "undo" : "redo")",
                                 at: invocation.positional(0) ?? invocation.name)
        }
        for _ in 0..<count {
            guard let entry = undo ? session.undo() : session.redo() else { break }
            inform("\(undo ? "undid" : "redid"): \(entry.text.replacingOccurrences(of: "\n", with: " "))")
        }
    }

    func showDiff(_ invocation: Invocation) throws {
        // NAME may be a store's (`close` takes it so too); without NAME, every file and store.
        var files = session.files
        var stores = Array(session.workspace.stores.indices)
        if let word = invocation.positional(0) {
            if let position = session.workspace.stores.firstIndex(where: {
                FileIO.baseName(of: $0.store.path) == word.text || $0.store.path == word.text
            }) {
                (files, stores) = ([], [position])
            } else {
                (files, stores) = ([try fileArgument(word)], [])
            }
        }
        // (file, element, what changed), in the order the text lists them.
        var changes: [(String, String, String)] = []
        for file in files {
            // A document wb made (a merge result) is on no disk: it is new, not unreadable (diff
            // failed outright and showed the other files' changes not at all).
            if file.stamp == nil && !FileIO.isRegularFile(file.path) {
                changes.append((file.name, "(whole file)", "new, not saved yet (save writes \(file.path))"))
                continue
            }
            let onDisk: RoomPlanDocument
            do {
                onDisk = try RoomPlanCodec.decode(try FileIO.read(file.path))
            } catch let error as FileError {
                throw CommandFailure("cannot read \(file.path) to compare: \(error.message)", at: invocation.name)
            } catch {
                throw CommandFailure("cannot read \(file.path) to compare: \(error)", at: invocation.name)
            }
            for entry in DocumentDiff.compare(onDisk, file) {
                let identity = Identity(file: file.id, scope: entry.scope, kind: entry.kind, key: entry.key)
                let place = session.workspace.handles.handle(for: identity)
                    ?? (entry.scope == .structure ? "structure-level " : "") + "\(entry.kind.rawValue) \(entry.key.prefix(8))"
                changes.append((file.name, place, entry.description))
            }
            let sidecar = Sidecar.path(for: file.path)
            let savedNames: [Identity: String]
            if let bytes = try? FileIO.read(sidecar), let decoded = try? Sidecar.decode(bytes) {
                savedNames = (file.contentDigest.map { decoded.resolved(for: $0).0 } ?? decoded).names(for: file)
            } else {
                savedNames = [:]
            }
            let keys = Set(savedNames.keys).union(file.names.keys).filter { savedNames[$0] != file.names[$0] }
            for identity in keys.sorted(by: { handleText($0).count != handleText($1).count ? handleText($0).count < handleText($1).count
                                                                                             : handleText($0) < handleText($1) }) {
                let old = savedNames[identity].map { "\"\($0)\"" } ?? "no name"
                let new = file.names[identity].map { "\"\($0)\"" } ?? "no name"
                changes.append((file.name, handleText(identity), "name \(old) → \(new) (in \(FileIO.baseName(of: sidecar)))"))
            }
        }
        // A store's edits: it said "no differences from the files on disk" with anchors moved.
        for position in stores { changes += storeDifferences(position) }
        if options.json {
            output.write(renderJSON(.array(changes.map { change in
                .object(JSONObject([JSONMember("file", .string(change.0)), JSONMember("element", .string(change.1)),
                                    JSONMember("change", .string(change.2))]))
            })))
        } else if changes.isEmpty {
            inform("no differences from the files on disk")
        } else {
            output.write(changes.map { "\($0.0): \($0.1): \($0.2)\n" }.joined().escapingControlsKeepingLines)
        }
    }
}
