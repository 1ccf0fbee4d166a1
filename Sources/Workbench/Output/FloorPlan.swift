#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StructureModel

/// A floor plan drawn in character cells. Walls set connection bits in the cells they
/// pass through, so corners and crossings get the right box-drawing character.
struct FloorPlanCanvas {
    static let north: UInt8 = 1, south: UInt8 = 2, east: UInt8 = 4, west: UInt8 = 8, diagonalUp: UInt8 = 16, diagonalDown: UInt8 = 32

    let width: Int
    let height: Int
    let unicode: Bool
    var bits: [[UInt8]]
    var overlay: [[Character?]]

    init(width: Int, height: Int, unicode: Bool) {
        self.width = width
        self.height = height
        self.unicode = unicode
        bits = Array(repeating: Array(repeating: 0, count: width), count: height)
        overlay = Array(repeating: Array(repeating: nil, count: width), count: height)
    }

    func inside(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    /// The cells of a segment, one per step along its longer axis.
    func cells(from a: (Double, Double), to b: (Double, Double)) -> [(Int, Int)] {
        // Every cell of a drawn segment is on the canvas, so a longer walk than its sides is
        // never needed; the cap also keeps a segment from far away (huge coordinates) finite.
        let steps = min(max(1, Int(saturating: max(abs(b.0 - a.0), abs(b.1 - a.1)).rounded(.up))), 2 * (width + height) + 4)
        return (0...steps).map { i in
            let t = Double(i) / Double(steps)
            return (Int(saturating: (a.0 + (b.0 - a.0) * t).rounded()), Int(saturating: (a.1 + (b.1 - a.1) * t).rounded()))
        }
    }

    mutating func line(from a: (Double, Double), to b: (Double, Double)) {
        let path = cells(from: a, to: b)
        for (index, cell) in path.enumerated() where index > 0 {
            let previous = path[index - 1]
            let dx = cell.0 - previous.0, dy = cell.1 - previous.1
            guard inside(cell.0, cell.1), inside(previous.0, previous.1), dx != 0 || dy != 0 else { continue }
            if dx != 0 && dy != 0 {
                let flag = (dx > 0) == (dy < 0) ? Self.diagonalUp : Self.diagonalDown
                bits[cell.1][cell.0] |= flag
                bits[previous.1][previous.0] |= flag
            } else if dx != 0 {
                bits[cell.1][cell.0] |= dx > 0 ? Self.west : Self.east
                bits[previous.1][previous.0] |= dx > 0 ? Self.east : Self.west
            } else {
                bits[cell.1][cell.0] |= dy > 0 ? Self.north : Self.south
                bits[previous.1][previous.0] |= dy > 0 ? Self.south : Self.north
            }
        }
    }

    /// Marks the cells of a door or window span with `mark` (drawn over the wall).
    mutating func span(from a: (Double, Double), to b: (Double, Double), mark: (Bool) -> Character) {
        let horizontal = abs(b.0 - a.0) >= abs(b.1 - a.1)
        for (x, y) in cells(from: a, to: b) where inside(x, y) {
            overlay[y][x] = mark(horizontal)
        }
    }

    /// Writes text centred at a cell where it fits on empty cells with an empty cell at each
    /// end (written flush against a wall's run, a hallway's name read as part of its wall: an
    /// adversarial pass): on its row or the ones next to it, else only its first word (the handle).
    mutating func label(_ text: String, at x: Int, _ y: Int) {
        let words = text.split(separator: " ").map(String.init)
        for candidate in [text, words.first ?? text] {
            let characters = Array(candidate.prefix(width))
            let start = max(0, min(width - characters.count, x - characters.count / 2))
            for row in [y, y - 1, y + 1, y - 2, y + 2] where row >= 0 && row < height {
                // (The end cells are kept from walls only: an anchor's label goes flush after its ◆.)
                let free = (0..<characters.count).allSatisfy { bits[row][start + $0] == 0 && overlay[row][start + $0] == nil }
                    && [start - 1, start + characters.count].allSatisfy { $0 < 0 || $0 >= width || bits[row][$0] == 0 }
                if free {
                    for (offset, character) in characters.enumerated() { overlay[row][start + offset] = character }
                    return
                }
            }
        }
    }

    /// Writes `text` whole near a cell (as `label` does, on its row or the next ones), and says
    /// whether it found room.
    mutating func place(_ text: String, at x: Int, _ y: Int) -> Bool {
        let characters = Array(text)
        guard !characters.isEmpty, characters.count <= width else { return false }
        let start = x - characters.count / 2
        for row in [y, y - 1, y + 1] where row >= 0 && row < height {
            for shift in [0, -1, 1] {
                let first = start + shift
                guard first >= 0, first + characters.count <= width else { continue }
                let free = (first - 1...first + characters.count).allSatisfy { column in
                    column < 0 || column >= width || (bits[row][column] == 0 && overlay[row][column] == nil)
                }
                if free {
                    for (offset, character) in characters.enumerated() { overlay[row][first + offset] = character }
                    return true
                }
            }
        }
        return false
    }

    func glyph(_ b: UInt8) -> Character {
        if b == 0 { return " " }
        let n = b & Self.north != 0, s = b & Self.south != 0, e = b & Self.east != 0, w = b & Self.west != 0
        if !(n || s || e || w) {
            if unicode { return b & Self.diagonalUp != 0 ? (b & Self.diagonalDown != 0 ? "╳" : "╱") : "╲" }
            return b & Self.diagonalUp != 0 ? (b & Self.diagonalDown != 0 ? "X" : "/") : "\\"
        }
        if !unicode {
            if (n || s) && (e || w) { return "+" }
            return (e || w) ? "-" : "|"
        }
        switch (n, s, e, w) {
        case (false, false, _, _): return "─"
        case (_, _, false, false): return "│"
        case (false, true, true, false): return "┌"
        case (false, true, false, true): return "┐"
        case (true, false, true, false): return "└"
        case (true, false, false, true): return "┘"
        case (false, true, true, true): return "┬"
        case (true, false, true, true): return "┴"
        case (true, true, true, false): return "├"
        case (true, true, false, true): return "┤"
        default: return "┼"
        }
    }

    var text: String {
        var lines: [String] = []
        for y in 0..<height {
            var line = ""
            for x in 0..<width { line.append(overlay[y][x] ?? glyph(bits[y][x])) }
            lines.append(line.trimmingTrailingBlanks())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Shell {
    /// Whether the locale says the terminal takes UTF-8.
    static var localeIsUTF8: Bool {
        let environment = ProcessInfo.processInfo.environment
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LANG"] ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    static var terminalWidth: Int? {
        var size = winsize()
        guard isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 else { return nil }
        return Int(size.ws_col)
    }

    func drawPlan(_ invocation: Invocation) throws {
        // A drawing is no data: printed into JSON output it would break what reads it.
        guard !options.json else {
            throw CommandFailure("plan draws a picture and has no JSON form: ls rooms --json lists the rooms, "
                                 + "export svg PATH draws the plan to a file", at: invocation.name)
        }
        var only: Set<Identity>?
        for word in invocation.positionals {
            if let file = session.file(named: word.text) {
                only = (only ?? []).union(file.rooms)
            } else {
                only = (only ?? []).union([try resolve(word, allowed: [.room], what: "ROOM")])
            }
        }
        let handles = invocation.flag("--handles")
        let inputs = floorPlanInputs(only: only, handles: handles)
        guard !inputs.rooms.isEmpty else { throw CommandFailure("nothing is open to draw (open a file first)", at: invocation.name) }
        let plan = FloorPlanModel(rooms: inputs.rooms, anchors: inputs.anchors)
        let stories = plan.stories.map(\.number)
        let number = try invocation.values["--story"].map { try wholeNumber($0, name: "--story", range: Workspace.storyRange) } ?? stories.first ?? 0
        guard let story = plan.story(number) else {
            throw CommandFailure("no room is on story \(number) (stories: \(stories.map(String.init).joined(separator: ", ")))",
                                 at: invocation.values["--story"] ?? invocation.name)
        }
        guard let bounds = story.bounds else {
            throw CommandFailure("nothing to draw on story \(number)", at: invocation.name)
        }
        let width = try invocation.values["--width"].map { try wholeNumber($0, name: "--width", range: 20...1000) } ?? Self.terminalWidth ?? 80
        let spanX = max(bounds.width, 0.5), spanZ = max(bounds.depth, 0.5)
        // Cells are about twice as tall as wide: a row covers twice the metres of a column.
        var columnsPerMetre = Double(width - 2) / spanX
        let maxRows = 48.0
        if spanZ * columnsPerMetre / 2 > maxRows { columnsPerMetre = maxRows * 2 / spanZ }
        let rows = min(Int(maxRows), Int(saturating: (spanZ * columnsPerMetre / 2).rounded(.up))) + 2
        let unicode = Self.localeIsUTF8 && !invocation.flag("--ascii")
        var canvas = FloorPlanCanvas(width: width, height: rows, unicode: unicode)
        func cell(_ p: PlanPoint) -> (Double, Double) {
            ((p.x - bounds.min.x) * columnsPerMetre + 1, (p.z - bounds.min.z) * columnsPerMetre / 2 + 1)
        }
        for wall in story.walls { canvas.line(from: cell(wall.segment.start), to: cell(wall.segment.end)) }
        for window in story.windows {
            canvas.span(from: cell(window.segment.start), to: cell(window.segment.end)) { horizontal in
                unicode ? (horizontal ? "═" : "║") : (horizontal ? "=" : "\"")
            }
        }
        for doorway in story.doors.map(\.segment) + story.openings.map(\.segment) {
            canvas.span(from: cell(doorway.start), to: cell(doorway.end)) { _ in unicode ? "░" : "." }
        }
        var anchorCount = 0
        for anchor in story.anchors {
            let (x, y) = cell(anchor.point)
            let cx = Int(saturating: x.rounded()), cy = Int(saturating: y.rounded())
            guard canvas.inside(cx, cy) else { continue }
            canvas.overlay[cy][cx] = unicode ? "◆" : "*"
            let text = anchor.text.escapingControls
            canvas.label(text, at: cx + 1 + text.count / 2, cy)
            anchorCount += 1
        }
        for label in story.labels {
            let (x, y) = cell(label.point)
            canvas.label(label.text.escapingControls, at: Int(saturating: x.rounded()), Int(saturating: y.rounded()))
        }
        // Handles beside their elements' middles, on their rooms' sides: doorways first (what
        // align ROOM using DOOR to DOOR takes), then windows, then walls.
        var unlabelled: [String] = []
        if handles {
            let marked: [(handle: String?, segment: PlanSegment, inward: PlanPoint?)] =
                story.doors.map { ($0.handle, $0.segment, $0.inwardNormal) } + story.openings.map { ($0.handle, $0.segment, $0.inwardNormal) }
                + story.windows.map { ($0.handle, $0.segment, $0.inwardNormal) } + story.walls.map { ($0.handle, $0.segment, $0.inwardNormal) }
            for element in marked {
                guard let handle = element.handle else { continue }
                let (x, y) = cell(element.segment.midpoint)
                // The side to write on, in cells (a row is two columns' height); a room without
                // an outline has no inside: below or right of the element, then.
                let normal = element.inward ?? PlanPoint(x: 0, z: 1)
                let dx = normal.x, dy = normal.z / 2
                let length = (dx * dx + dy * dy).squareRoot()
                let (ux, uy) = length > 1e-9 ? (dx / length, dy / length) : (0.0, 1.0)
                // Clear of the wall's cells: half the text's width to the side of an upright wall,
                // a row above or below a level one.
                let reach = abs(ux) > abs(uy) ? Double(handle.count) / 2 + 1.5 : 1.2
                let placed = canvas.place(handle, at: Int(saturating: (x + ux * reach).rounded()), Int(saturating: (y + uy * reach).rounded()))
                if !placed { unlabelled.append(handle) }
            }
        }
        var text = canvas.text
        let metresPerColumn = 1 / columnsPerMetre
        text += unicode ? "─ wall  ░ door  ═ window" : "- wall  . door  = window"
        if anchorCount > 0 { text += unicode ? "  ◆ anchor" : "  * anchor" }
        text += "   story \(number)" + (stories.count > 1 ? " of \(stories.map(String.init).joined(separator: ", "))" : "")
        text += "   1 column = \(formatted(metresPerColumn, digits: 2)) m, x → right, z ↓\n"
        if !unicode { text = text.replacingOccurrences(of: "→", with: "->").replacingOccurrences(of: "↓", with: "down") }
        if !unlabelled.isEmpty {
            text += "no room to write \(unlabelled.joined(separator: ", ")) (a wider plan, --width, or one room at a time fits more)\n"
        }
        output.write(text)
    }

    /// What the plan draws, read from the open workspace: every room with its handle and its
    /// sections' handles and names as label texts, and the live anchors of attached spaces
    /// with the room each stands in. The only part of the plan that knows identities.
    private func floorPlanInputs(only: Set<Identity>? = nil, handles: Bool = false)
        -> (rooms: [FloorPlanModel.RoomInput], anchors: [FloorPlanModel.AnchorInput]) {
        let workspace = session.workspace
        var rooms: [FloorPlanModel.RoomInput] = []
        var position: [Identity: Int] = [:]
        for identity in workspace.handles.order[.room] ?? [] where only?.contains(identity) ?? true {
            guard let file = workspace.file(id: identity.file), let room = file.capture(identity.scope) else { continue }
            let sections = file.identities(identity.scope, .section)
            let sectionLabels = room.sections.indices.map { index in
                "\(workspace.handles.handle(for: sections[index]) ?? "") \(file.names[sections[index]] ?? room.sections[index].label)"
            }
            position[identity] = rooms.count
            var elementHandles: [ElementKind: [String]] = [:]
            if handles {
                for kind in [ElementKind.wall, .door, .window, .opening] {
                    elementHandles[kind] = file.identities(identity.scope, kind).map { workspace.handles.handle(for: $0) ?? "" }
                }
            }
            rooms.append(FloorPlanModel.RoomInput(room: room, label: workspace.handles.handle(for: identity) ?? "", sectionLabels: sectionLabels,
                                                  handles: elementHandles))
        }
        let anchors = anchorEntries.compactMap { entry -> FloorPlanModel.AnchorInput? in
            guard !entry.anchor.isDeleted, let t = entry.anchor.transform,
                  let room = workspace.room(containing: entry.anchor), let index = position[room] else { return nil }
            return FloorPlanModel.AnchorInput(label: FloorPlanModel.Label(text: entry.handle, point: PlanPoint(t.translation)), room: index)
        }
        return (rooms, anchors)
    }
}
