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
        let steps = max(1, Int(max(abs(b.0 - a.0), abs(b.1 - a.1)).rounded(.up)))
        return (0...steps).map { i in
            let t = Double(i) / Double(steps)
            return (Int((a.0 + (b.0 - a.0) * t).rounded()), Int((a.1 + (b.1 - a.1) * t).rounded()))
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

    /// Writes text centred at a cell where it fits on empty cells: on its row or the ones
    /// next to it, else only its first word (the handle).
    mutating func label(_ text: String, at x: Int, _ y: Int) {
        let words = text.split(separator: " ").map(String.init)
        for candidate in [text, words.first ?? text] {
            let characters = Array(candidate.prefix(width))
            let start = max(0, min(width - characters.count, x - characters.count / 2))
            for row in [y, y - 1, y + 1, y - 2, y + 2] where row >= 0 && row < height {
                let free = (0..<characters.count).allSatisfy { bits[row][start + $0] == 0 && overlay[row][start + $0] == nil }
                if free {
                    for (offset, character) in characters.enumerated() { overlay[row][start + offset] = character }
                    return
                }
            }
        }
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
        let rooms = (session.workspace.handles.order[.room] ?? []).filter(session.workspace.exists)
        guard !rooms.isEmpty else { throw CommandFailure("nothing is open to draw (open a file first)", at: invocation.name) }
        var storyOf: [Identity: Int] = [:]
        for identity in rooms {
            storyOf[identity] = session.workspace.capture(identity).flatMap {
                $0.story ?? $0.sections.first?.story ?? $0.walls.first?.story
            } ?? 0
        }
        let stories = Set(storyOf.values).sorted()
        let story = try invocation.values["--story"].map { try wholeNumber($0, name: "--story", range: Workspace.storyRange) } ?? stories.first ?? 0
        guard stories.contains(story) else {
            throw CommandFailure("no room is on story \(story) (stories: \(stories.map(String.init).joined(separator: ", ")))",
                                 at: invocation.values["--story"] ?? invocation.name)
        }
        let chosen = rooms.filter { storyOf[$0] == story }
        var walls: [PlanSegment] = [], doors: [(PlanSegment, Bool)] = [], windows: [PlanSegment] = []
        var labels: [(String, PlanPoint)] = []
        for identity in chosen {
            guard let file = session.workspace.file(id: identity.file), let room = file.capture(identity.scope) else { continue }
            let sectionIdentities = file.identities(identity.scope, .section)
            walls += room.walls.map(\.planSegment)
            for door in room.doors + room.openings {
                if case .door(let open) = door.category { doors.append((door.planSegment, open)) } else { doors.append((door.planSegment, true)) }
            }
            windows += room.windows.map(\.planSegment)
            for (index, section) in room.sections.enumerated() {
                let handle = session.workspace.handles.handle(for: sectionIdentities[index]) ?? ""
                let name = file.names[sectionIdentities[index]] ?? section.label
                labels.append(("\(handle) \(name)", PlanPoint(x: Double(section.center.x), z: Double(section.center.z))))
            }
            if room.sections.isEmpty, let centre = session.workspace.centre(of: identity) {
                labels.append((session.workspace.handles.handle(for: identity) ?? "", PlanPoint(x: centre.x, z: centre.z)))
            }
        }
        let points = walls.flatMap { [$0.start, $0.end] } + labels.map(\.1)
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
              let minZ = points.map(\.z).min(), let maxZ = points.map(\.z).max() else {
            throw CommandFailure("nothing to draw on story \(story)", at: invocation.name)
        }
        let width = try invocation.values["--width"].map { try wholeNumber($0, name: "--width", range: 20...1000) } ?? Self.terminalWidth ?? 80
        let spanX = max(maxX - minX, 0.5), spanZ = max(maxZ - minZ, 0.5)
        // Cells are about twice as tall as wide: a row covers twice the metres of a column.
        var columnsPerMetre = Double(width - 2) / spanX
        let maxRows = 48.0
        if spanZ * columnsPerMetre / 2 > maxRows { columnsPerMetre = maxRows * 2 / spanZ }
        let rows = Int((spanZ * columnsPerMetre / 2).rounded(.up)) + 2
        let unicode = Self.localeIsUTF8 && !invocation.flag("--ascii")
        var canvas = FloorPlanCanvas(width: width, height: rows, unicode: unicode)
        func cell(_ p: PlanPoint) -> (Double, Double) {
            ((p.x - minX) * columnsPerMetre + 1, (p.z - minZ) * columnsPerMetre / 2 + 1)
        }
        for wall in walls { canvas.line(from: cell(wall.start), to: cell(wall.end)) }
        for window in windows {
            canvas.span(from: cell(window.start), to: cell(window.end)) { horizontal in
                unicode ? (horizontal ? "═" : "║") : (horizontal ? "=" : "\"")
            }
        }
        for (door, _) in doors {
            canvas.span(from: cell(door.start), to: cell(door.end)) { _ in unicode ? "░" : "." }
        }
        // Anchors of the spaces these rooms were scanned in, where they stand.
        var anchorCount = 0
        for entry in anchorEntries where !entry.anchor.isDeleted {
            guard let room = session.workspace.room(containing: entry.anchor), chosen.contains(room),
                  let t = entry.anchor.transform else { continue }
            let (x, y) = cell(PlanPoint(x: t.translation.x, z: t.translation.z))
            let cx = Int(x.rounded()), cy = Int(y.rounded())
            guard canvas.inside(cx, cy) else { continue }
            canvas.overlay[cy][cx] = unicode ? "◆" : "*"
            canvas.label(entry.handle, at: cx + 1 + entry.handle.count / 2, cy)
            anchorCount += 1
        }
        for (text, point) in labels {
            let (x, y) = cell(point)
            canvas.label(text, at: Int(x.rounded()), Int(y.rounded()))
        }
        var text = canvas.text
        let metresPerColumn = 1 / columnsPerMetre
        text += unicode ? "─ wall  ░ door  ═ window" : "- wall  . door  = window"
        if anchorCount > 0 { text += unicode ? "  ◆ anchor" : "  * anchor" }
        text += "   story \(story)" + (stories.count > 1 ? " of \(stories.map(String.init).joined(separator: ", "))" : "")
        text += "   1 column = \(formatted(metresPerColumn, digits: 2)) m, x → right, z ↓\n"
        if !unicode { text = text.replacingOccurrences(of: "→", with: "->").replacingOccurrences(of: "↓", with: "down") }
        output.write(text)
    }
}
