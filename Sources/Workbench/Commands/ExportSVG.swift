import Foundation
import StructureModel

extension Shell {
    /// `export svg PATH [ROOM|NAME] [--story N] [--dimensions] [--objects] [--north DEG] [--one-page]`:
    /// a floor plan at 1:50, one file per story when several are drawn (PATH `plan.svg` gives
    /// `plan-story0.svg`, `plan-story1.svg`, …), or every story on one page with `--one-page`.
    func exportSVG(_ invocation: Invocation) throws {
        let path = invocation.positionals[1]
        try checkExportPath(path, text: true, format: "svg")
        var plan = SVGPlan.Options(dimensions: invocation.flag("--dimensions"), objects: invocation.flag("--objects"))
        if let word = invocation.values["--north"] {
            guard let degrees = Double(word.text), degrees.isFinite, abs(degrees) <= 360 else {
                throw CommandFailure("--north takes the compass bearing of the plan's up direction in degrees, like --north 30", at: word)
            }
            plan.north = degrees
            plan.northSource = "--north"
        }
        let scene = try exportScene(invocation)
        if invocation.values["--north"] == nil {
            if let azimuth = scene.azimuth {
                plan.north = azimuth
                plan.northSource = "from the file"
            } else {
                plan.northSource = "assumed"
            }
        }
        guard !scene.stories.isEmpty else {
            throw CommandFailure("there is nothing to draw: no rooms or walls in what is exported", at: invocation.positionals[0])
        }
        let toStandardOutput = path.text == "-" || path.text == "/dev/stdout"
        let pages: [[ExportScene.Story]] = invocation.flag("--one-page") || scene.stories.count == 1
            ? [scene.stories] : scene.stories.map { [$0] }
        if pages.count > 1 && toStandardOutput {
            throw CommandFailure("\(pages.count) stories make \(pages.count) files; to print them add --one-page "
                                 + "(one page) or --story N (one story)", at: path)
        }
        // A page per story is named after PATH: a folder there (`export svg .`) would have
        // given files beside it named `.-story0`, with no extension.
        var folder: ObjCBool = false
        if pages.count > 1, path.text.hasSuffix("/") || FileManager.default.fileExists(atPath: path.text, isDirectory: &folder) && folder.boolValue {
            throw CommandFailure("cannot write \(path.text): it is a folder; give a file name (plan.svg writes plan-story0.svg, …)", at: path)
        }
        let targets = pages.count == 1 ? [path.text] : pages.map { Self.storyPath(path.text, story: $0[0].number) }

        let progress = ProgressBar(shell: self, label: "export svg", total: pages.count)
        var written: [(path: String, page: SVGPlan.Page)] = []
        for (index, stories) in pages.enumerated() {
            written.append((targets[index], SVGPlan.page(scene, stories: stories, options: plan)))
            progress.update(index + 1)
        }
        progress.finish()

        for (_, page) in written {
            for wall in page.skippedWalls { warn("\(wall) has no width; it is left out of the plan") }
        }
        for story in scene.stories {
            for room in story.rooms where room.outlines.isEmpty {
                warn("\(room.handle) has no floor and too few walls to outline; it is drawn without a label")
            }
        }
        for story in scene.stories where !scene.isStructure {
            let walled = Set(story.elements(of: .wall).compactMap(\.room))
            for (index, room) in story.rooms.enumerated() where !walled.contains(index) && !room.outlines.isEmpty {
                warn("\(room.handle) has no walls; only its floor is drawn")
            }
        }
        for (target, page) in written where max(page.width, page.height) > 20_000 {
            warn("\(target) is \(magnitude(page.width / 1000)) × \(magnitude(page.height / 1000)) m of paper: "
                 + "something lies far from the rest (ls walls, show … to find a transform that is off)")
        }
        if plan.northSource == "assumed" {
            inform("north: the plan's up direction is taken as 0° (north), as neither --north nor the file gives a bearing")
        }
        if options.dryRun && !toStandardOutput {
            for (target, _) in written { try preflightExport(Argument(text: target, location: path.location, quoted: path.quoted)) }
            for (target, page) in written {
                inform("would write \(target.escapingControls) (\(page.text.utf8.count) bytes, \(describe(page, scene, objects: plan.objects)); --dry-run)")
            }
            return
        }
        // Every page's path is checked before the first is written: a refused second page must
        // not leave the first written alone.
        for (target, _) in written where target != "-" && target != "/dev/stdout" {
            let argument = Argument(text: target, location: path.location, quoted: path.quoted)
            try checkNotOpen(argument, by: "an export")
            try checkReplaceable(argument, writing: nil, force: exportReplaces.force, by: "export")
            // In a batch, a page another file's path holds is refused before any page is written.
            try claimWrites([target], at: path)
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: target, isDirectory: &folder), folder.boolValue {
                throw CommandFailure("cannot write \(target): it is a folder; nothing was written", at: path)
            }
        }
        guard written.count > 1 else {
            for (target, page) in written {
                let argument = Argument(text: target, location: path.location, quoted: path.quoted)
                if try export(Array(page.text.utf8), to: argument) { continue }
                inform("wrote \(target.escapingControls) (\(page.text.utf8.count) bytes, \(describe(page, scene, objects: plan.objects)))")
            }
            return
        }
        // The pages of one plan are written as one save: every page complete before any is
        // renamed into place. (Page by page, a full disk at the second page left the first
        // new and the others as an earlier export drew them.)
        let linked = hardLinks(written.map(\.path))
        do {
            _ = try FileIO.commit(written.map { FileWrite(path: $0.path, bytes: Array($0.page.text.utf8)) },
                                  faults: options.faults, flushes: !options.defersFlush)
        } catch {
            throw CommandFailure("cannot write \(error.path): \(error.message); none of the \(written.count) pages was written", at: path)
        }
        filesWritten += written.count
        warnHardLinks(linked)
        for (target, page) in written {
            inform("wrote \(target.escapingControls) (\(page.text.utf8.count) bytes, \(describe(page, scene, objects: plan.objects)))")
        }
    }

    /// "story 0: 4 rooms, 23 walls, 3 doors, 2 windows, 1 opening; 210 × 148 mm at 1:50".
    private func describe(_ page: SVGPlan.Page, _ scene: ExportScene, objects: Bool) -> String {
        let part = ExportScene(title: scene.title, isStructure: scene.isStructure,
                               stories: scene.stories.filter { page.stories.contains($0.number) })
        let counts = part.counts
        var parts: [String] = []
        for kind in [ElementKind.room, .wall, .door, .window, .opening] + (objects ? [.object] : []) {
            let n = counts[kind] ?? 0
            if n > 0 || kind == .room { parts.append("\(n) \(n == 1 ? kind.rawValue : kind.plural)") }
        }
        let stories = page.stories.count == 1 ? "story \(page.stories[0])" : "stories \(page.stories.map(String.init).joined(separator: ", "))"
        return "\(stories): \(parts.joined(separator: ", ")); \(formatted(page.width, digits: 0)) × \(formatted(page.height, digits: 0)) mm"
    }

    /// `plan.svg` → `plan-story1.svg`; `plan` → `plan-story1`.
    static func storyPath(_ path: String, story: Int) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[slash...].lastIndex(of: "."), dot != slash {
            return String(path[..<dot]) + "-story\(story)" + String(path[dot...])
        }
        return path + "-story\(story)"
    }
}
