#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StructureModel

/// `export FORMAT PATH …`: listings (csv, json), a space, a structure, and the 3D and plan
/// formats (usdz, usda, svg, ifc). Each format writes atomically (or to standard output
/// when PATH is `-` and the format is text), honours `--dry-run`, and draws from one
/// `ExportScene` chosen by the same rule (`exportScene`).
extension Shell {
    static let exportFormats = ["csv", "json", "space", "structure", "usdz", "usda", "svg", "ifc"]

    static func exportCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "export",
                arguments: [ArgumentSpec("FORMAT", .choice(exportFormats)), ArgumentSpec("PATH", .path),
                            ArgumentSpec("WHAT", .expression, .variadic)],
                options: [
                    OptionSpec("--story", value: .number, valueName: "N", help: "usdz, usda, svg, ifc: only floor level N"),
                    OptionSpec("--parametric", help: "usdz, usda: walls as plain boxes, without holes cut for doors and windows"),
                    OptionSpec("--wall-thickness", value: .number, valueName: "D",
                               help: "usdz, usda, ifc: thickness of walls RoomPlan gave none (default 10cm; usd 0: single faces)"),
                    OptionSpec("--dimensions", help: "svg: wall lengths drawn along the walls"),
                    OptionSpec("--objects", help: "svg: object outlines"),
                    OptionSpec("--north", value: .number, valueName: "DEG",
                               help: "svg: the compass bearing of the plan's up direction (default: the file's, else 0)"),
                    OptionSpec("--one-page", help: "svg: every story on one page (default: one file per story when there are several)"),
                    OptionSpec("--force", help: "replace a file at PATH that is not what this export writes (a scan, or for "
                               + "structure anything but an earlier copy)"),
                ],
                summary: "write a listing, a structure, a 3D model (USD), a floor plan (SVG) or a BIM model (IFC)",
                details: """
                    export csv chairs.csv objects where category = chair — the same rows as ls, written atomically.
                    export space SPACE FILE writes a space as a single HBSpace JSON file, its world map inline (base64).
                    export structure PATH [NAME] writes an open document as RoomPlan CapturedStructure JSON (by default
                    the latest merge result, else the only open structure, else the only open room, wrapped as a
                    structure of one room); the open file stays where it is. Its rooms' names (and a merge's
                    provenance) go beside it in PATH's names file, NAME.wb.json, as save puts them.
                    export usdz|usda|svg|ifc PATH [ROOM|NAME] [--story N] writes a 3D model, a floor plan or a BIM model
                    of the latest merge result, else the only open structure, else every open room together (where
                    align put them); ROOM exports one room, NAME one open file.
                    export svg plan.svg draws a floor plan at 1:50 (page in mm, sized to the plan): walls 12 cm thick where the
                    scan gives none, mitred at corners; doors with their swing, windows, openings; each room's name (or label)
                    and floor area; scale bar, north arrow, title. Several stories give plan-story0.svg, plan-story1.svg, …
                    (--one-page: all on one page). --north DEG: the bearing of the page's up (else the file's "azimuth", else 0).
                    export ifc writes IFC4 (a STEP file) for BIM tools: project, site, building, a storey per story, a
                    space per room (its area as a quantity), walls with openings filled by doors and windows, slabs,
                    objects as furniture, sanitary terminals or appliances; RoomPlan's identifiers become GlobalIds and
                    its facts a RoomPlan_Common property set. Walls RoomPlan gives no thickness are --wall-thickness
                    thick (0.1 m), behind the face it scanned; SOURCE_DATE_EPOCH fixes the file's time stamp.
                    export usdz|usda: RoomPlan's layout (a root Xform, one per story, one per room, Arch_grp and Object_grp),
                    walls as meshes with the doors, windows and openings cut out (--parametric: plain boxes), 10 cm thick where
                    RoomPlan gave no depth (--wall-thickness D; 0 draws single faces), RoomPlan's facts in each prim's customData,
                    a UsdPreviewSurface material per category; attached models (set o3 model chair.usdz) packed and fitted.
                    An export replaces a file at PATH only when it is what it writes: export structure replaces an earlier
                    copy (a RoomPlan file with an element of what it writes), the others anything but a RoomPlan scan or a
                    names file; --force replaces it anyway.
                    PATH - (or /dev/stdout) prints what would be written where the format is text: export csv - objects | sort
                    --dry-run says what would be written, and writes nothing (an export to - still prints).
                    """,
                writesFiles: true
            ) { invocation in
                try invocation.shell.exportCommand(invocation)
            },
        ]
    }

    func exportCommand(_ invocation: Invocation) throws {
        let format = invocation.positionals[0], path = invocation.positionals[1]
        exportReplaces = (nil, invocation.flag("--force"))
        defer { exportReplaces = (nil, false) }
        let rest = Array(invocation.positionals.dropFirst(2))
        let sceneOptions = ["--story", "--parametric", "--wall-thickness", "--dimensions", "--objects", "--north", "--one-page"]
        if !["ifc", "usdz", "usda"].contains(format.text), let word = invocation.values["--wall-thickness"] {
            throw CommandFailure("--wall-thickness is for export usdz, usda or ifc, not \(format.text)", at: word)
        }
        if !["usdz", "usda", "svg", "ifc"].contains(format.text),
           let option = sceneOptions.first(where: { invocation.flag($0) || invocation.values[$0] != nil }) {
            throw CommandFailure("\(option) is for export usdz, usda, svg or ifc, not \(format.text)",
                                 at: invocation.values[option] ?? format)
        }
        switch format.text {
        case "space":
            try exportSpace(Array(invocation.positionals.dropFirst()), at: invocation.name)
        case "structure":
            guard rest.count <= 1 else { throw CommandFailure("export structure takes PATH and at most one NAME", at: rest[1]) }
            try exportStructure(to: path, name: rest.first)
        case "csv", "json":
            let (_, _, rows) = try listing(rest, defaultKind: .room, requireWhere: false, command: "export", at: invocation.name)
            let text = format.text == "json" ? renderJSON(.array(rows.map(json))) : csv(rows)
            if options.dryRun && !printsToStandardOutput(path) {
                try preflightExport(path)
                inform("would write \(path.text.escapingControls) (\(rows.count) rows; --dry-run)")
                return
            }
            if try export(Array(text.utf8), to: path) { return }
            inform("wrote \(rows.count) rows to \(path.text.escapingControls)")
        case "usdz", "usda":
            try exportUSD(invocation, packaged: format.text == "usdz")
        case "svg":
            try exportSVG(invocation)
        case "ifc":
            try exportIFC(invocation)
        default:
            throw CommandFailure("export writes \(Self.exportFormats.joined(separator: ", ")) (not '\(format.text)')", at: format)
        }
    }

    // MARK: What an export draws

    /// The scene `export usdz|usda|svg|ifc PATH [ROOM|NAME] [--story N]` writes: the latest
    /// merge result, else the only open structure, else every open room file together;
    /// ROOM (a room by handle, name or identifier) alone; NAME (an open file) alone.
    /// `--story N` keeps that floor level. A structure is exported from its own merged
    /// arrays (a wall two rooms share appears once), with each element under the one room
    /// that stands for it, or under the story when several do.
    func exportScene(_ invocation: Invocation) throws -> ExportScene {
        let words = Array(invocation.positionals.dropFirst(2))
        guard words.count <= 1 else {
            throw CommandFailure("export \(invocation.positionals[0].text) takes PATH and at most one ROOM or file NAME", at: words[1])
        }
        let workspace = session.workspace
        var title: String
        var sources: [(file: WorkspaceFile, rooms: [Identity]?)] = []
        if let word = words.first {
            if let file = session.file(named: word.text) ?? session.files.first(where: { $0.path == word.text }) {
                sources = [(file, nil)]
                title = file.name
            } else {
                let room = try resolve(word, allowed: [.room], what: "what to export")
                guard let file = workspace.file(id: room.file) else { throw CommandFailure("\(word.text) is no longer open", at: word) }
                sources = [(file, [room])]
                title = file.names[room] ?? workspace.handles.handle(for: room) ?? file.name
            }
        } else {
            let structures = session.files.filter(\.isStructure)
            if let latest = structures.last(where: { $0.stamp == nil }) ?? (structures.count == 1 ? structures.first : nil) {
                sources = [(latest, nil)]
                title = latest.name
            } else if structures.count > 1 {
                throw CommandFailure("\(structures.count) structures are open; name one: export \(invocation.positionals[0].text) PATH NAME",
                                     at: invocation.positionals[1])
            } else {
                sources = session.files.map { ($0, nil) }
                title = session.files.count == 1 ? session.files[0].name : "rooms"
            }
        }
        guard !sources.isEmpty else { throw CommandFailure("nothing is open to export (open a room or structure first)", at: invocation.name) }
        for source in sources { warnIfBehindItsRooms(source.file) }
        title = FileIO.baseName(of: title)
        if let dot = title.lastIndex(of: "."), dot != title.startIndex { title = String(title[..<dot]) }

        var story: Int?
        if let word = invocation.values["--story"] {
            guard let n = Int(word.text) else { throw CommandFailure("--story takes a whole number, like --story 1", at: word) }
            story = n
        }
        let scene = sceneOf(sources, title: title, story: story)
        if let story, scene.stories.isEmpty {
            let all = sceneOf(sources, title: title, story: nil).stories.map { String($0.number) }
            throw CommandFailure("there is nothing on story \(story)" + (all.isEmpty ? "" : " (stories: \(all.joined(separator: ", ")))"),
                                 at: invocation.values["--story"])
        }
        return scene
    }

    private func sceneOf(_ sources: [(file: WorkspaceFile, rooms: [Identity]?)], title: String, story only: Int?) -> ExportScene {
        let workspace = session.workspace
        var stories: [Int: ExportScene.Story] = [:]
        var roomPosition: [Identity: (story: Int, index: Int)] = [:]
        var isStructure = false
        var azimuth: Double?

        func handle(_ identity: Identity) -> String { workspace.handles.handle(for: identity) ?? identity.key }

        for (file, chosen) in sources {
            let rooms = chosen ?? file.rooms
            let top = file.isStructure ? file.capture(.structure) : file.rooms.first.flatMap { file.capture($0.scope) }
            if azimuth == nil, case .number(let bearing)? = top?.extra["azimuth"], bearing.doubleValue.isFinite {
                azimuth = bearing.doubleValue
            }
            for room in rooms {
                guard let capture = file.capture(room.scope) else { continue }
                let number = capture.effectiveStory ?? 0
                if let only, number != only { continue }
                let sections = file.identities(room.scope, .section)
                let labels = capture.sections.indices.map { file.names[sections[$0]] ?? capture.sections[$0].label }
                let measured = capture.measurements
                let entry = ExportScene.Room(
                    handle: handle(room), name: file.names[room], labels: labels, identifier: capture.identifier, story: number,
                    floorHeight: capture.floorHeight ?? 0, floorArea: measured.floorArea, outlines: capture.planOutlines,
                    sections: zip(labels, capture.sections).map { ($0, PlanPoint(SIMD3<Double>($1.center))) })
                stories[number, default: ExportScene.Story(number: number, elevation: 0)].rooms.append(entry)
                roomPosition[room] = (number, stories[number]!.rooms.count - 1)
            }
            // The elements: a structure's own arrays when the whole structure is exported,
            // else each chosen room's own.
            let scopes: [Scope] = file.isStructure && chosen == nil ? [.structure] : rooms.map(\.scope)
            isStructure = isStructure || scopes == [.structure]
            for scope in scopes {
                guard let capture = file.capture(scope) else { continue }
                let ownRoom = scope == .structure ? nil : Identity(file: file.id, scope: scope, kind: .room, key: "")
                for kind in [ElementKind.wall, .door, .window, .opening, .floor, .object] {
                    let identities = file.identities(scope, kind)
                    let bodies: [ExportScene.Element.Body] = kind == .object
                        ? capture.objects.map { .object($0) }
                        : capture.surfaces(kind.surfaceArray!).map { .surface($0) }
                    for (index, body) in bodies.enumerated() {
                        let identity = identities[index]
                        // The one room an element belongs to: its own, or the only room that
                        // stands for a structure-level element.
                        var room = ownRoom
                        if room == nil {
                            let owners = Set(workspace.owners(of: identity).compactMap(\.room))
                            if owners.count == 1 { room = owners.first }
                        }
                        let placed = room.flatMap { roomPosition[$0] }
                        let number: Int
                        switch body {
                        case .surface(let s): number = placed?.story ?? s.story ?? 0
                        case .object(let o): number = placed?.story ?? o.story ?? 0
                        }
                        if let only, number != only { continue }
                        let element = ExportScene.Element(kind: kind, handle: handle(identity), body: body,
                                                          room: placed?.story == number ? placed?.index : nil, name: file.names[identity])
                        stories[number, default: ExportScene.Story(number: number, elevation: 0)].elements.append(element)
                    }
                }
            }
        }
        var ordered = stories.keys.sorted().map { stories[$0]! }
        for index in ordered.indices {
            let heights = ordered[index].rooms.map(\.floorHeight).sorted()
            if !heights.isEmpty {
                ordered[index].elevation = heights[heights.count / 2]
            } else {
                let floors = ordered[index].elements(of: .floor).map { $0.transform.translation.y }.sorted()
                ordered[index].elevation = floors.isEmpty ? 0 : floors[floors.count / 2]
            }
        }
        var scene = ExportScene(title: title, isStructure: isStructure, stories: ordered)
        scene.azimuth = azimuth
        return scene
    }

    /// Where an export goes, checked before any work: `-`/`/dev/stdout` only for text.
    func checkExportPath(_ path: Argument, text: Bool, format: String) throws {
        if !text && (path.text == "-" || path.text == "/dev/stdout") {
            throw CommandFailure("\(format) is a binary format; give a file PATH (not -)", at: path)
        }
        if path.text.isEmpty { throw CommandFailure("export needs a PATH", at: path) }
    }
}

/// A progress bar on standard error for long work: drawn only when standard error is a
/// terminal and `-q` is off, redrawn at most ten times a second, and wiped when done so
/// nothing of it stays in the scrollback. Silent when piped.
final class ProgressBar {
    private let sink: OutputSink
    private let label: String
    private let total: Int
    private let active: Bool
    private var lastDraw: Double = 0
    private var drawn = false
    private let start: Double

    init(shell: Shell, label: String, total: Int) {
        sink = shell.sink
        self.label = label
        self.total = max(total, 1)
        active = shell.sink.errorIsTerminal && !shell.options.quiet && total > 0
        start = ProgressBar.now()
        lastDraw = start
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// `done` of the total are finished. Cheap when nothing needs drawing.
    func update(_ done: Int) {
        guard active else { return }
        let now = ProgressBar.now()
        // Nothing is drawn for work that finishes within half a second.
        guard now - start > 0.5, now - lastDraw > 0.1 || done >= total else { return }
        lastDraw = now
        let fraction = min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let percent = Int((fraction * 100).rounded(.down))
        sink.writeError("\r\u{1B}[K\(label) [\(bar)] \(percent)% \(done)/\(total)")
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        sink.writeError("\r\u{1B}[K")
        drawn = false
    }
}
