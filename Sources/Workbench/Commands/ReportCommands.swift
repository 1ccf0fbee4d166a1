import Foundation
import StructureModel

/// Sizes and counts of one room, for `stats`.
struct RoomStats {
    var handle: String
    var file: String
    var story: Int?
    var labels: String
    var floorArea: Double
    var floorFromWalls: Bool
    var wallArea: Double
    var perimeter: Double
    var height: Double
    var categories: [String: Int]
    var confidences: [String: Int]
    /// What names the room across files: its identifier, else its first wall's (a structure's
    /// nested copy of an open room keeps both), nil when it has neither.
    var key: String?

    init(handle: String, file: String, room: CapturedRoom) {
        self.handle = handle
        self.file = file
        key = room.identifier ?? room.walls.first?.identifier
        let m = room.measurements
        story = room.effectiveStory
        labels = FileSummary.tally(room.sections.map(\.label))
        floorArea = m.floorArea
        floorFromWalls = m.floorAreaFromWalls
        wallArea = m.netWallArea
        perimeter = m.perimeter
        height = m.height
        var categories: [String: Int] = [:], confidences: [String: Int] = [:]
        for object in room.objects { categories[object.category.name, default: 0] += 1 }
        for name in room.objects.map({ $0.confidence?.name ?? "none" }) + room.surfaceGroups.flatMap({ $0.surfaces.map { $0.confidence?.name ?? "none" } }) {
            confidences[name, default: 0] += 1
        }
        self.categories = categories
        self.confidences = confidences
    }
}

extension Shell {
    static func reportCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "stats",
                arguments: [ArgumentSpec("REF", .reference([.room]), .optional)],
                options: [wideOption],
                summary: "floor and wall areas, perimeters, heights and counts, per room, per story and in all",
                details: """
                    Floor area comes from the floor polygon (for a room without a floor, from the hull of its walls);
                    wall area is net of the doors, windows and openings in the walls (a wall with a polygon, by its
                    polygon); perimeter is the length of the floor's outline (of the walls' loop without a floor);
                    height the median wall height. With REF, one room (or the rooms of a file, by its name).
                    """
            ) { invocation in
                try invocation.shell.stats(invocation)
            },
            CommandSpec(
                "plan",
                arguments: [ArgumentSpec("ROOM", .reference([.room]), .variadic)],
                options: [OptionSpec("--story", value: .number, valueName: "N", help: "which floor level (default: the lowest)"),
                          OptionSpec("--ascii", help: "plain ASCII, even on a UTF-8 terminal"),
                          OptionSpec("--width", value: .number, valueName: "COLUMNS", help: "the width to draw in (default: the terminal's, or 80)"),
                          OptionSpec("--handles", help: "label every wall, door, window and opening with its handle")],
                summary: "a floor plan in the terminal: walls, doors, windows, rooms with their handles",
                details: """
                    Draws one story of every open room (or of the ROOMs given: handles, or file names for all of a
                    file's rooms), scaled to the terminal, with Unicode lines (ASCII when the locale is not UTF-8, or
                    with --ascii). Doors are gaps marked ░ (RoomPlan does not record which way a door swings),
                    windows ═ or ║; each room's sections are labelled with their handle and label. World X runs to the
                    right and Z downwards, as seen from above. --handles writes each wall's, door's, window's and
                    opening's handle beside its middle, on its room's side: what align ROOM using A to B needs (rooms
                    scanned apart lie on top of one another, each in its own frame: plan one at a time). Handles
                    there was no room to write are listed under the plan.
                    """
            ) { invocation in
                try invocation.shell.drawPlan(invocation)
            },
        ]
    }

    func stats(_ invocation: Invocation) throws {
        // (Handles of closed files stay in the order, never to be reused: only open files' rooms.)
        var rooms: [Identity] = (session.workspace.handles.order[.room] ?? []).filter { session.workspace.file(id: $0.file) != nil }
        // An empty table of totals 0 would read as rooms of no area: say there are none.
        guard !rooms.isEmpty else {
            throw CommandFailure(session.files.isEmpty ? "nothing is open to count (open a room or structure first)"
                                                       : "no room is open to count", at: invocation.name)
        }
        if let word = invocation.positional(0) {
            if let file = session.file(named: word.text) {
                rooms = rooms.filter { $0.file == file.id }
            } else {
                rooms = [try resolve(word, allowed: [.room], what: "REF")]
            }
        }
        let stats: [RoomStats] = rooms.compactMap { identity in
            guard let file = session.workspace.file(id: identity.file), let room = file.capture(identity.scope) else { return nil }
            return RoomStats(handle: session.workspace.handles.handle(for: identity) ?? "?", file: file.name, room: room)
        }
        func sum(_ group: [RoomStats]) -> (floor: Double, wall: Double, perimeter: Double, categories: [String: Int], confidences: [String: Int]) {
            var categories: [String: Int] = [:], confidences: [String: Int] = [:]
            for s in group {
                categories.merge(s.categories, uniquingKeysWith: +)
                confidences.merge(s.confidences, uniquingKeysWith: +)
            }
            return (group.reduce(0) { $0 + $1.floorArea }, group.reduce(0) { $0 + $1.wallArea },
                    group.reduce(0) { $0 + $1.perimeter }, categories, confidences)
        }
        // Totals count each room once: after `merge`, a structure nests copies of the open rooms,
        // and the sums of both were twice the home.
        var seen = Set<String>()
        let distinct = stats.filter { s in s.key.map { seen.insert($0).inserted } ?? true }
        let stories = Set(stats.compactMap(\.story)).sorted()
        let total = sum(distinct)
        // A structure's own arrays: shared walls once, one floor per story, as Apple merged them.
        let structureFiles = invocation.positional(0).map { word in session.files.filter { $0.name == word.text } } ?? session.files
        let structures: [(file: WorkspaceFile, stats: RoomStats, walls: Int)] = structureFiles.compactMap { file in
            guard let merged = file.capture(.structure) else { return nil }
            return (file, RoomStats(handle: file.name, file: file.name, room: merged), merged.walls.count)
        }
        func counts(_ values: [String: Int]) -> String {
            values.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        if options.json {
            func number(_ value: Double) -> JSONValue { .number(JSONNumber(text: formatted(value, digits: 4))) }
            func map(_ values: [String: Int]) -> JSONValue {
                .object(JSONObject(values.keys.sorted().map { JSONMember($0, .number(JSONNumber(values[$0]!))) }))
            }
            let roomValues: [JSONValue] = stats.map { s in
                .object(JSONObject([JSONMember("handle", .string(s.handle)), JSONMember("file", .string(s.file)),
                                    JSONMember("story", s.story.map { .number(JSONNumber($0)) } ?? .null),
                                    JSONMember("floorArea", number(s.floorArea)), JSONMember("wallArea", number(s.wallArea)),
                                    JSONMember("perimeter", number(s.perimeter)), JSONMember("height", number(s.height)),
                                    JSONMember("categories", map(s.categories)), JSONMember("confidence", map(s.confidences))]))
            }
            let storyValues: [JSONValue] = stories.map { story in
                let t = sum(distinct.filter { $0.story == story })
                return .object(JSONObject([JSONMember("story", .number(JSONNumber(story))), JSONMember("floorArea", number(t.floor)),
                                           JSONMember("wallArea", number(t.wall)), JSONMember("categories", map(t.categories))]))
            }
            let totals = JSONValue.object(JSONObject([JSONMember("rooms", .number(JSONNumber(distinct.count))),
                                                      JSONMember("floorArea", number(total.floor)), JSONMember("wallArea", number(total.wall)),
                                                      JSONMember("perimeter", number(total.perimeter)),
                                                      JSONMember("categories", map(total.categories)),
                                                      JSONMember("confidence", map(total.confidences))]))
            let structureValues: [JSONValue] = structures.map { entry in
                .object(JSONObject([JSONMember("file", .string(entry.file.name)), JSONMember("level", .string("structure")),
                                    JSONMember("floorArea", number(entry.stats.floorArea)), JSONMember("wallArea", number(entry.stats.wallArea)),
                                    JSONMember("perimeter", number(entry.stats.perimeter)), JSONMember("walls", .number(JSONNumber(entry.walls))),
                                    JSONMember("categories", map(entry.stats.categories)), JSONMember("confidence", map(entry.stats.confidences))]))
            }
            output.write(renderJSON(.object(JSONObject([JSONMember("rooms", .array(roomValues)), JSONMember("stories", .array(storyValues)),
                                                        JSONMember("structures", .array(structureValues)), JSONMember("total", totals)]))))
            return
        }
        let rows = stats.map { s in
            [s.handle, s.file, s.story.map(String.init) ?? "", s.labels, readable(s.floorArea, digits: 2) + (s.floorFromWalls ? "*" : ""),
             readable(s.wallArea, digits: 2), readable(s.perimeter, digits: 2), formatted(s.height, digits: 2), counts(s.categories)]
        }
        output.writeStyled(tableText(Table(["room", "file", "story", "labels", "floor m²", "walls m² net", "perimeter m", "height m",
                                            "objects"], rows, numeric: [2, 4, 5, 6, 7], flexible: [1, 3, 8],
                                           shorter: [3: rows.map { shortLabels($0[3]) }]),
                                     wide: invocation.flag("--wide")))
        var text = ""
        if stats.contains(where: \.floorFromWalls) { text += "* no floor in the file: the area of the hull of its walls\n" }
        text += "\n"
        for story in stories {
            let t = sum(distinct.filter { $0.story == story })
            text += "story \(story): floor \(readable(t.floor, digits: 2)) m², walls \(readable(t.wall, digits: 2)) m² net, objects: \(counts(t.categories))\n"
        }
        text += "total: \(distinct.count) room\(distinct.count == 1 ? "" : "s"), floor \(readable(total.floor, digits: 2)) m², "
            + "walls \(readable(total.wall, digits: 2)) m² net, perimeter \(readable(total.perimeter, digits: 2)) m\n"
        if distinct.count < stats.count {
            let twice = stats.count - distinct.count
            // (With no structure open, the twice-open room is one scan in two files, a copy of it:
            // it was said to be nested in a structure.)
            let how = structures.isEmpty ? "the same scan in two files"
                : "in a file of \(twice == 1 ? "its" : "their") own and nested in a structure, or the same scan in two files"
            text += "(\(twice) row\(twice == 1 ? " is a room" : "s are rooms") open twice, \(how): counted once)\n"
        }
        text += "objects by category: \(counts(total.categories))\n"
        text += "everything by confidence: \(counts(total.confidences))\n"
        for entry in structures {
            text += "structure level of \(entry.file.name): \(entry.walls) walls (shared walls once), floor \(readable(entry.stats.floorArea, digits: 2)) m², "
                + "walls \(readable(entry.stats.wallArea, digits: 2)) m² net, \(entry.stats.categories.values.reduce(0, +)) objects\n"
        }
        // Lines of prose: wrapped at blanks to the terminal's width (whole when piped).
        output.write(text.escapingControlsKeepingLines.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.isEmpty ? "\n" : note(String($0)) }.joined())
    }
}
