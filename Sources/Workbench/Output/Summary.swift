import Foundation
import StructureModel

/// The short description of an open file that `wb FILE` and `summary` print.
struct FileSummary {
    struct RoomLine {
        var handle: String
        var labels: [String]
        var stories: [Int]
        var floorArea: Double
        var floorAreaFromWalls: Bool
        var counts: [(String, Int)]
    }

    var name: String
    var path: String
    var kind: String
    var version: Int?
    var stories: [Int]
    var sectionLabels: [String]
    var counts: [(String, Int)]
    var openDoors: Int
    var objectCategories: [String]
    var floorArea: Double
    var floorAreaFromWalls: Bool
    var rooms: [RoomLine]

    init(_ file: WorkspaceFile, handles: HandleTable) {
        name = file.name
        path = file.path
        kind = file.document.kindName
        let contents: CapturedRoom
        switch file.document {
        case .room(let room):
            contents = room
            rooms = []
        case .structure(let structure):
            contents = structure.merged
            rooms = structure.rooms.enumerated().map { index, room in
                let m = room.measurements
                let handle = handles.handle(for: Identity.room(file.roomIDs[index], file: file.id)) ?? "\(index + 1)."
                return RoomLine(handle: handle, labels: room.sections.map(\.label), stories: Self.stories(of: room),
                                floorArea: m.floorArea, floorAreaFromWalls: m.floorAreaFromWalls,
                                counts: Self.counts(of: room))
            }
        }
        version = contents.version
        var stories = Set(Self.stories(of: contents))
        if case .structure(let structure) = file.document {
            for room in structure.rooms { stories.formUnion(Self.stories(of: room)) }
        }
        self.stories = stories.sorted()
        sectionLabels = contents.sections.map(\.label)
        counts = Self.counts(of: contents)
        openDoors = contents.doors.filter { $0.category.doorIsOpen == true }.count
        objectCategories = contents.objects.map(\.category.name)
        let m = contents.measurements
        floorArea = m.floorArea
        floorAreaFromWalls = m.floorAreaFromWalls
    }

    static func stories(of room: CapturedRoom) -> [Int] {
        var found = Set<Int>()
        if let story = room.story { found.insert(story) }
        for group in room.surfaceGroups { for surface in group.surfaces { if let s = surface.story { found.insert(s) } } }
        for object in room.objects { if let s = object.story { found.insert(s) } }
        for section in room.sections { if let s = section.story { found.insert(s) } }
        return found.sorted()
    }

    static func counts(of room: CapturedRoom) -> [(String, Int)] {
        [("walls", room.walls.count), ("doors", room.doors.count), ("windows", room.windows.count),
         ("openings", room.openings.count), ("floors", room.floors.count), ("objects", room.objects.count)]
    }

    /// `bedroom ×2, bathroom`: repeated names counted, first-seen order kept.
    static func tally(_ names: [String]) -> String {
        var order: [String] = []
        var count: [String: Int] = [:]
        for name in names {
            if count[name] == nil { order.append(name) }
            count[name, default: 0] += 1
        }
        return order.map { count[$0]! > 1 ? "\($0) ×\(count[$0]!)" : $0 }.joined(separator: ", ")
    }

    var text: String {
        var lines: [String] = []
        var heading = "\(name)  \(kind)"
        if let version { heading += ", version \(version)" }
        // A long path goes on a line of its own rather than past the 80th column.
        if heading.count + 4 + path.count > 80 {
            lines.append(heading)
            lines.append("  (\(path))")
        } else {
            lines.append(heading + "  (\(path))")
        }
        var rows: [(String, String, String)] = []
        if !rooms.isEmpty {
            rows.append(("rooms", "\(rooms.count)", ""))
        }
        rows.append(("stories", "\(stories.count)", stories.map(String.init).joined(separator: ", ")))
        rows.append(("sections", "\(sectionLabels.count)", Self.tally(sectionLabels)))
        for (key, value) in counts {
            var note = ""
            if key == "doors" && value > 0 { note = "\(openDoors) open" }
            if key == "objects" { note = Self.tally(objectCategories) }
            rows.append((key, "\(value)", note))
        }
        let keyWidth = max(rows.map(\.0.count).max() ?? 0, "floor area".count)
        let valueWidth = rows.map(\.1.count).max() ?? 0
        // A structure's floor is its stories' merged outlines, gaps between rooms filled; its
        // rooms' floors add up to less (Apple's 11-room home: 198.49 against 189.44 m²), which
        // is what `stats` totals: both said, so the two do not seem to disagree.
        let roomsArea = rooms.reduce(0) { $0 + $1.floorArea }
        let floorNote = floorAreaFromWalls ? "from the walls (no floor)"
            : rooms.isEmpty ? "" : "the structure's floor; its rooms' add up to \(formatted(roomsArea, digits: 2)) m²"
        rows.append(("floor area", formatted(floorArea, digits: 2) + " m²", floorNote))
        for (key, value, note) in rows {
            let padded = key.padding(toLength: keyWidth, withPad: " ", startingAt: 0)
            let valuePadded = key == "floor area" ? value : String(repeating: " ", count: max(0, valueWidth - value.count)) + value
            lines += ("  \(padded)  \(valuePadded)  \(note)").trimmingTrailingBlanks()
                .wrapped(indent: 2 + keyWidth + 2 + (key == "floor area" ? value.count : valueWidth) + 2)
                .split(separator: "\n").map(String.init)
        }
        if !rooms.isEmpty {
            lines.append("  rooms:")
            for room in rooms {
                let label = room.labels.isEmpty ? "(no section)" : Self.tally(room.labels)
                let story = room.stories.map(String.init).joined(separator: ",")
                let counts = room.counts.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                lines += "    \(room.handle)  \(label)  story \(story)  \(formatted(room.floorArea, digits: 2)) m²  \(counts)"
                    .wrapped(indent: 6).split(separator: "\n").map(String.init)
            }
        }
        return lines.map(\.escapingControls).joined(separator: "\n") + "\n"
    }

    var json: JSONValue {
        var object = JSONObject()
        object["name"] = .string(name)
        object["file"] = .string(path)
        object["kind"] = .string(kind)
        object["version"] = version.map { .number(JSONNumber($0)) } ?? .null
        object["stories"] = .array(stories.map { .number(JSONNumber($0)) })
        object["sections"] = .array(sectionLabels.map { .string($0) })
        object["counts"] = .object(JSONObject(counts.map { JSONMember($0.0, .number(JSONNumber($0.1))) }))
        object["floorArea"] = .number(JSONNumber(text: formatted(floorArea, digits: 4)))
        if !rooms.isEmpty {
            object["roomsFloorArea"] = .number(JSONNumber(text: formatted(rooms.reduce(0) { $0 + $1.floorArea }, digits: 4)))
        }
        if kind == "CapturedStructure" {
            object["rooms"] = .array(rooms.map { room in
                var r = JSONObject()
                r["handle"] = .string(room.handle)
                r["labels"] = .array(room.labels.map { .string($0) })
                r["stories"] = .array(room.stories.map { .number(JSONNumber($0)) })
                r["floorArea"] = .number(JSONNumber(text: formatted(room.floorArea, digits: 4)))
                r["counts"] = .object(JSONObject(room.counts.map { JSONMember($0.0, .number(JSONNumber($0.1))) }))
                return .object(r)
            })
        }
        return .object(object)
    }
}

extension String {
    /// This line broken between words into lines of at most `width` characters, each line
    /// after the first starting with `indent` blanks (a hanging indent); a word longer than a
    /// line stays whole. Text shown on an 80-column terminal: a help line or a summary's
    /// list of 41 objects ran to 128 columns, which the terminal wrapped under the key.
    func wrapped(width: Int = 80, indent: Int) -> String {
        guard count > width else { return self }
        var lines: [String] = []
        var rest = Substring(self)
        var prefix = ""
        // The blanks of the first line are kept as they are (a table's padding); each break
        // falls at the last blank that leaves the line within `width`.
        while prefix.count + rest.count > width {
            let room = width - prefix.count
            let head = rest.prefix(room + 1)
            let floor = prefix.isEmpty ? rest.prefix { $0 == " " }.count : 0
            guard let cut = head.lastIndex(of: " "), rest.distance(from: rest.startIndex, to: cut) > floor else {
                // A word longer than the line: up to its end.
                guard let end = rest.dropFirst(floor).firstIndex(of: " ") else { break }
                lines.append(prefix + rest[..<end])
                rest = rest[end...].drop { $0 == " " }
                prefix = String(repeating: " ", count: indent)
                continue
            }
            lines.append(prefix + String(rest[..<cut]).trimmingTrailingBlanks())
            rest = rest[cut...].drop { $0 == " " }
            prefix = String(repeating: " ", count: indent)
        }
        if !rest.isEmpty { lines.append(prefix + rest) }
        return lines.joined(separator: "\n")
    }

    func trimmingTrailingBlanks() -> String {
        let utf8 = self.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: " ") { end = utf8.index(before: end) }
        return end == utf8.endIndex ? self : String(self[..<end])
    }
}

/// Renders JSON for `--json` output (the same canonical writer files use).
func renderJSON(_ value: JSONValue) -> String {
    var writer = JSONWriter(capacity: 4096)
    writer.value(value)
    return String(decoding: writer.bytes, as: UTF8.self) + "\n"
}
