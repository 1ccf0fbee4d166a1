import StructureModel

/// Putting rooms where they belong: `align ROOM using WALL to WALL`, `align ROOM using DOOR
/// to DOOR`, and stories by floor height (`story --auto`).
extension Shell {
    static func alignCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "align",
                arguments: [ArgumentSpec("ROOM", .reference([.room])), ArgumentSpec("using A to B", .text, .variadic)],
                options: [OptionSpec("--flip", help: "put the room on the same side as the other (a rescan of the same room)"),
                          OptionSpec("--offset", value: .number, valueName: "D",
                                     help: "keep the two planes D apart (a wall's thickness, when the scans saw its two faces)"),
                          OptionSpec("--along", value: .number, valueName: "D",
                                     help: "shift the room D along the other's wall or door from centred"),
                          OptionSpec("--all", help: "align --all auto: every room that is not placed yet"),
                          OptionSpec("--best", help: "with auto: move even when too close to call or too little agrees (with --all: around an unsure first room)")],
                summary: "put a room where it belongs: a wall or door onto another room's, or automatically",
                details: """
                    align ROOM using WALL to WALL: turns and moves ROOM (and everything in it) so that its WALL and
                    the other room's WALL are one wall seen from both sides: the same plane, each room on its own
                    side, centred along each other, floors level. align ROOM using DOOR to DOOR does the same
                    through a door or opening seen from both rooms (a door may be an opening in the other scan).
                    Only ROOM moves; one undo takes it back. wb says how far it moved and how well the two agree.
                    --offset D keeps the planes D apart (the wall's thickness, when one scan saw each face);
                    --along D slides the room along the wall; --flip puts it on the same side (a rescan).
                    align ROOM auto finds where ROOM fits beside the rooms already placed (a structure's rooms, the
                    first room file opened, rooms found in place, rooms aligned since): every doorway pair and wall
                    pair is tried at any yaw and scored by how much wall and how many doorways then agree and how
                    little the rooms overlap.
                    wb prints the winner and the runner-up; when they are too close to call, or too little agrees
                    with the winner (a score under 6: a doorway and a metre or two of wall, which a look-alike doorway
                    gives as well), it moves nothing unless --best. align ROOM next moves it to the next candidate
                    (after a room was put where its scan session puts it, the search's best other place);
                    undo takes a placement back.
                    align --all auto places every other room, the most certain first, as one step, and lists the
                    rooms it could not place with certainty. It sets each room across its walls by where its scan
                    laid the walls it shares (on their faces or centre lines, as the whole building tells) and says
                    which. When the first room (it stays) meets the others about as well in another place, nothing
                    is placed around it unless --best. Rooms that already meet the placed rooms where they are (rooms
                    of one session share its frame) stay exactly there; other rooms that meet one another where they
                    lie (another session's) are searched for and moved as one piece.
                    """,
                edits: true
            ) { invocation in
                try invocation.shell.align(invocation)
            }.forms(["align ROOM using A to B [--flip] [--offset D] [--along D]", "align ROOM auto [--best]", "align ROOM next",
                     "align --all auto [--best]"]),
            CommandSpec(
                "merge",
                arguments: [ArgumentSpec("ROOM", .reference([.room]), .variadic)],
                options: [OptionSpec("--into", value: .text, valueName: "NAME", help: "the new structure's name (default merged)"),
                          OptionSpec("--rebuild", help: "rebuild a structure's own arrays even when none of its rooms was edited"),
                          OptionSpec("--stories", value: .choice(["auto", "keep"]), valueName: "auto|keep",
                                     help: "stories from floor heights (auto, the default) or the rooms' own (keep)"),
                          OptionSpec("--tolerance", value: .number, valueName: "D",
                                     help: "with --stories auto: floors within D are one story (default 1m)"),
                          OptionSpec("--wall-gap", value: .number, valueName: "D",
                                     help: "two rooms' copies of one wall are at most D apart across it (default 0.45m, a thick wall)"),
                          OptionSpec("--corner-gap", value: .number, valueName: "D",
                                     help: "wall ends within D of another wall are made to meet it (default 0.3m; 0 leaves them)")],
                summary: "build one structure from rooms (or rebuild an edited structure's own arrays)",
                details: """
                    merge [ROOM ...] builds a RoomPlan CapturedStructure from the rooms (by default every open room):
                    they must already share one frame (scanned in one session, or put together with align). The rooms
                    are nested as Apple nests them; a wall seen from two rooms (up to a wall's thickness apart) becomes
                    one structure-level wall, as tall as the taller and as long as both; a door or opening seen from
                    both sides becomes one; an object seen twice becomes one; windows and sections are kept; each story
                    gets one floor whose outline is the union of its rooms' floors. Surviving elements keep their
                    identifiers. Stories come from floor heights unless --stories keep.
                    Rooms from room files (or a structure plus room files) make a new, unsaved structure named
                    by --into (saved next to the first room's file; export structure PATH writes it anywhere). All
                    the rooms of one structure rebuild that structure's own arrays in place (a re-merge after edits),
                    keeping the identifiers it has, and the structure-level elements no room element stands for; a
                    structure none of whose rooms was edited since it was opened is left as RoomPlan merged it
                    unless --rebuild (a fix-up script's merge replaced Apple's floor and sections in every such file).
                    One undo takes a merge back. wb reports what it merged and anything suspicious.
                    """,
                edits: true
            ) { invocation in
                try invocation.shell.merge(invocation)
            },
        ]
    }

    func merge(_ invocation: Invocation) throws {
        let rooms = try invocation.positionals.map { try resolve($0, allowed: [.room], what: "ROOM") }
        let name = invocation.values["--into"]?.text ?? "merged"
        // (Blank: `--into " "` wrote a file called " .json", named by nothing a person sees.)
        guard !name.allSatisfy(\.isWhitespace) else {
            throw CommandFailure("--into takes a name (it names the file NAME.json)", at: invocation.values["--into"])
        }
        // A name of a handle's shape (a letter and a number) would shadow the handle: after
        // `merge --into r2`, `export ... r2` and `close r2` took the new structure for room r2.
        if let letter = name.first, letter.isLetter, name.count > 1, name.dropFirst().allSatisfy(\.isASCII), Int(name.dropFirst()) != nil {
            throw CommandFailure("--into \(name) reads as a handle (\(letter)N names an element): choose another name, like flat-\(name)",
                                 at: invocation.values["--into"])
        }
        guard !name.contains("/") else {
            throw CommandFailure("--into takes a name, not a path (export structure PATH writes it anywhere)", at: invocation.values["--into"])
        }
        // `--into .` saved as a hidden "..json".
        guard !name.unicodeScalars.contains(where: \.isTerminalControl), !name.contains(where: \.isNewline) else {
            throw CommandFailure("--into takes a name without line breaks or control characters (it names the file NAME.json)", at: invocation.values["--into"])
        }
        guard !name.hasPrefix(".") else {
            throw CommandFailure("--into takes a name that does not start with a dot (it names the file NAME.json)", at: invocation.values["--into"])
        }
        // Saved as NAME.wb.json, the names file of NAME.json: saving NAME.json with names replaced
        // the merge result (kept aside as unreadable names), and NAME.json's names read it as theirs.
        guard !name.hasSuffix(".wb") else {
            throw CommandFailure("--into \(name) would name the file \(name).json, a names file's name (NAME.wb.json goes with NAME.json): "
                                 + "choose another name", at: invocation.values["--into"])
        }
        let tolerance = try invocation.values["--tolerance"].map { try length($0, name: "--tolerance") } ?? 1
        // As `stories --tolerance` takes it.
        guard tolerance > 0 else { throw CommandFailure("--tolerance must be more than 0", at: invocation.values["--tolerance"]) }
        var rule = Workspace.StoryRule.byHeight(tolerance: tolerance)
        if invocation.values["--stories"]?.text == "keep" { rule = .keep }
        var options = MergeOptions()
        if let word = invocation.values["--wall-gap"] {
            options.wallGap = try length(word, name: "--wall-gap")
            guard options.wallGap >= 0 else { throw CommandFailure("--wall-gap takes a distance of 0 or more", at: word) }
            guard options.wallGap <= 2 else { throw CommandFailure("--wall-gap above 2 m would join walls of different rooms", at: word) }
        }
        if let word = invocation.values["--corner-gap"] {
            options.cornerGap = try length(word, name: "--corner-gap")
            guard options.cornerGap >= 0 else { throw CommandFailure("--corner-gap takes a distance of 0 or more", at: word) }
            guard options.cornerGap <= 1 else { throw CommandFailure("--corner-gap above 1 m would bend walls that are not meant to meet", at: word) }
        }
        let workspace = session.workspace
        let first = rooms.first ?? session.files.first.flatMap { $0.rooms.first }
        let folder = first.flatMap { workspace.file(id: $0.file) }.map { FileIO.parentFolder(of: $0.path) } ?? "."
        let plan: EditPlan
        let report: MergeReport
        do {
            (plan, report) = try workspace.planMerge(rooms: rooms, into: name, folder: folder, stories: rule, options: options)
        } catch {
            throw CommandFailure(error.message, at: invocation.positionals.first ?? invocation.name)
        }
        var parts: [String] = []
        for kind in [ElementKind.wall, .door, .window, .opening, .object, .floor] {
            guard let count = report.counts[kind] else { continue }
            parts.append("\(count.rooms) \(kind.plural) → \(count.structure)")
        }
        if plan.changes.isEmpty {
            // A re-merge that gives what the structure holds: said, and no step in the history.
            inform("nothing changed: the structure's own arrays already are the merge of its rooms (" + parts.joined(separator: ", ") + ")")
            for note in plan.notes { inform("note: " + note) }
            return
        }
        let opened = plan.changes.contains { if case .openFile = $0 { return true } else { return false } }
        // A structure as it is on disk, none of its rooms edited: its own arrays are the merge
        // RoomPlan (or an earlier merge) made, and rebuilding them changes what nobody asked to.
        if !opened, !invocation.flag("--rebuild"),
           let file = (rooms.first ?? session.files.first(where: \.isStructure)?.rooms.first).flatMap({ workspace.file(id: $0.file) }),
           file.isStructure, !file.isModified, workspace.structureDisagreements(file: file.id).isEmpty {
            inform("nothing to re-merge: no room of \(file.name) was edited since it was opened, so its own arrays stay as they were merged "
                   + "(merge --rebuild rebuilds them with wb's merge: " + parts.joined(separator: ", ") + ")")
            return
        }
        let filesBefore = Set(session.files.map(\.id))
        // The files merged (worked out before the merge adds its own).
        let sources = Set(session.workspace.roomsToMerge(rooms).map(\.file))
        let target = opened ? "new structure \(workspace.shortName(for: name)) (unsaved)" : "the structure's own arrays, rebuilt"
        try perform(plan, text: invocation.text, done: "merged into \(target): " + parts.joined(separator: ", ")
                    + (report.joinedWalls > 0 ? "; \(counted(report.joinedWalls, "wall")) joined from several rooms" : "")
                    + (report.joinedParts > 0 ? "; \(counted(report.joinedParts, "wall")) a room saw in parts made whole" : "")
                    + (report.closedCorners > 0 ? "; \(counted(report.closedCorners, "wall end")) moved to meet the wall \(report.closedCorners == 1 ? "it" : "they")"
                        + " nearly met (up to \(formatted(report.longestCornerMove * 100, digits: 0)) cm)" : ""))
        // A bare `merge` with an edited structure open merges the open room files, not that
        // structure: its edits are not in the new one, and `export structure PATH` writes the
        // new one (an adversarial pass lost a deletion and an edit that way, said only as
        // "wrote merged to s.json").
        // (The file this merge made: a name taken already makes it NAME-2, and an earlier NAME
        // was then warned about as this one.)
        let made = opened ? session.files.filter { !filesBefore.contains($0.id) }.last : nil
        if let made {
            mergedStates[made.id] = made.state
            mergedFrom[made.id] = Dictionary(uniqueKeysWithValues: sources.compactMap { id in session.workspace.file(id: id).map { (id, $0.state) } })
        }
        if opened && rooms.isEmpty {
            // (A structure whose rooms were merged too, opened from disk beside room files, is
            // in the merge with its edited rooms: it was warned about as left out.)
            for file in session.files where file.isStructure && file.id != made?.id && !sources.contains(file.id)
                && (mergedStates[file.id].map { $0 != file.state } ?? file.isModified) {
                let handles = roomHandles(of: file)
                let again = handles.isEmpty ? "" : " (merge " + handles.joined(separator: " ") + " rebuilds \(file.name) itself)"
                warn("\(file.name) was edited, and this merge of the open room files does not carry its edits" + again)
            }
        }
    }

    /// "1 wall", "2 walls".
    private func counted(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(count) \(count == 1 ? one : many ?? one + "s")"
    }

    /// Doorways that agree though one side saw them wider (a double door seen as one).
    private func wider(_ placement: Placement) -> String {
        let (wider, all) = (placement.widerDoorways, placement.doorways)
        guard wider > 0 else { return "" }
        let which = wider == all ? (all == 1 ? "the doorway" : "each doorway") : "\(wider) of the doorways"
        return ", \(which) seen wider from one side"
    }

    /// `meeting`: the room as it was when the placement was found, and the rooms it was put
    /// beside, to name the doorways that meet (a person who knows the home can tell a look-alike
    /// by them, and take another pair by hand).
    private func describe(_ placement: Placement, meeting: (room: Identity, capture: CapturedRoom, placed: [Identity])? = nil) -> String {
        "score \(formatted(placement.score, digits: 2)): \(counted(placement.walls, "wall")) and \(counted(placement.doorways, "doorway"))"
            + (meeting.map { doorwayPairs(placement, $0.room, $0.capture, beside: $0.placed) } ?? "") + " agree"
            + wider(placement)
            + (placement.overlap > 0.05 ? ", overlapping \(formatted(placement.overlap, digits: 2)) m²" : "")
            + (placement.contradictions > 0 ? ", \(counted(placement.contradictions, "doorway or window", "doorways or windows")) against a wall" : "")
            + " (turn \(formatted(placement.motion.yaw * 180 / .pi, digits: 1))°)"
    }

    /// The rooms ROOM is aligned against, as captures.
    private func placedCaptures(except room: Identity) -> [CapturedRoom] {
        placedRooms(except: room).map(\.capture)
    }

    private func placedRooms(except room: Identity) -> [(room: Identity, capture: CapturedRoom)] {
        session.placedRooms.filter { $0 != room }.compactMap { identity in session.workspace.capture(identity).map { (identity, $0) } }
    }

    /// " (d8 on d3, p1 on p2)": the room's doorways and the placed rooms' they meet, by handle.
    private func doorwayPairs(_ placement: Placement, _ room: Identity, _ capture: CapturedRoom, beside placed: [Identity]) -> String {
        let captures = placed.compactMap { identity in session.workspace.capture(identity).map { (identity, $0) } }
        func handle(_ room: Identity, _ capture: CapturedRoom, _ index: Int) -> String? {
            guard let file = session.workspace.file(id: room.file) else { return nil }
            let (kind, position) = index < capture.doors.count ? (ElementKind.door, index) : (.opening, index - capture.doors.count)
            let identities = file.identities(room.scope, kind)
            return identities.indices.contains(position) ? session.workspace.handles.handle(for: identities[position]) : nil
        }
        let pairs = AutoAligner.doorwayMeetings(placement, room: capture, beside: captures.map(\.1)).compactMap { meeting -> String? in
            guard let mine = handle(room, capture, meeting.doorway),
                  let theirs = handle(captures[meeting.placedRoom].0, captures[meeting.placedRoom].1, meeting.placedDoorway) else { return nil }
            return "\(mine) on \(theirs)"
        }
        return pairs.isEmpty ? "" : " (" + pairs.joined(separator: ", ") + ")"
    }

    /// Automatic alignment scores every doorway and wall of a room against every one of the
    /// rooms it meets, so its cost grows with their squares: a room far beyond any scan's (tens
    /// of each) is refused with its counts rather than left to run for minutes. (At 1,024 walls a
    /// room of 400 piled walls beside its copy ran 198 s; with only its longest walls paired,
    /// 15 s, and 256 walls 6 s. Doorways cost more: two rooms of 250 narrow doors each took
    /// 190 s and 350 MB, of 128 16 s, of 64 1.5 s; a real room has a handful.)
    static let wallLimit = 256, doorwayLimit = 64
    func refuseOversizedRooms(_ rooms: [Identity], at name: Argument) throws {
        for room in rooms {
            guard let capture = session.workspace.capture(room) else { continue }
            let doorways = capture.doors.count + capture.openings.count
            if doorways > Self.doorwayLimit || capture.walls.count > Self.wallLimit {
                throw CommandFailure("\(handleText(room)) has \(capture.walls.count) walls and \(doorways) doors and openings; automatic "
                                     + "alignment takes rooms of up to \(Self.wallLimit) walls and \(Self.doorwayLimit) doorways (a scan has tens of walls and a handful of doorways): place it by hand "
                                     + "(align \(handleText(room)) using DOOR to DOOR)", at: name)
            }
        }
    }

    func alignAuto(_ room: Identity, invocation: Invocation) throws {
        guard let capture = session.workspace.capture(room) else { throw CommandFailure("not a room", at: invocation.positionals[0]) }
        try refuseOversizedRooms([room] + session.placedRooms.filter { $0 != room }, at: invocation.positionals[0])
        let placed = placedCaptures(except: room)
        guard !placed.isEmpty else {
            // The first room file open is the one the others are put beside: it was told
            // "no room is placed yet", as if align --all auto would not keep it where it is.
            if session.placedRooms.contains(room) {
                throw CommandFailure("\(handleText(room)) is the room the others are put beside (the first room file open): it stays where "
                                     + "it is; align another room to it, or move it by hand (align \(handleText(room)) using A to B)",
                                     at: invocation.positionals[0])
            }
            throw CommandFailure("no room is placed yet to align \(handleText(room)) beside (open a structure, or align another room first)",
                                 at: invocation.positionals[0])
        }
        // A room of the placed rooms' session in a frame of its own (iOS 26): where the session
        // puts it, when it meets the placed rooms there or lies a story over or under them, as
        // align --all auto puts it.
        let bySession = session.workspace.sessionMotions(anchors: session.placedRooms.filter { $0 != room }, waiting: [room])
        let sessionMotion = bySession.sameLevel[room].flatMap { motion in
            AutoAligner.isInPlace(capture.moved(by: motion), beside: placed) && Workspace.searchAgrees(capture.moved(by: motion), beside: placed) ? motion : nil
        } ?? bySession.otherLevel.first?.1
        if sessionMotion == .identity, let anchor = session.placedRooms.first(where: { $0 != room }) {
            // On another level, already where the session puts it (placed so and saved):
            // `next` tries the search's best other place, as after a move there.
            lastAutoAlignment = (room, [], nil, session.revision, .identity)
            session.keepInPlace([room])
            inform("\(handleText(room)) already lies where its scan session puts it beside \(handleText(anchor)) (referenceOriginTransform): "
                   + "left exactly there")
            return
        }
        if let sessionMotion, let anchor = session.placedRooms.first(where: { $0 != room }) {
            let plan = try session.workspace.planMove(room: room, by: sessionMotion)
            lastAutoAlignment = nil
            let after = capture.moved(by: sessionMotion).floorHeight
            let level = session.workspace.capture(anchor)?.floorHeight.flatMap { first in
                after.map { abs($0 - first) >= 1 ? " (\(formatted(abs($0 - first), digits: 2)) m \($0 < first ? "below" : "above") \(handleText(anchor)))" : "" }
            } ?? ""
            try perform(plan, text: invocation.text, done: "\(handleText(room)) put where its scan session puts it beside \(handleText(anchor))\(level) "
                        + "(referenceOriginTransform: one session with it)" + (level.isEmpty ? ", and doorways or walls meet there" : ""),
                        placing: [room])
            // `align ROOM next` then tries the search's best place instead.
            lastAutoAlignment = (room, [], nil, session.revision, sessionMotion)
            // Said even under -q: nothing confirms a place on another level.
            if !level.isEmpty { warn("\(handleText(room)) is on another level\(level): nothing beside it confirms its session's record; undo if it is wrong") }
            return
        }
        let result = AutoAligner.search(capture, beside: placed)
        guard let best = result.candidates.first, best.score > 0 else {
            lastAutoAlignment = nil
            // A room is put only beside placed rooms of its own story: say so when there are none.
            if let story = capture.effectiveStory, !placed.contains(where: { AutoAligner.onOneStory($0, capture) }) {
                throw CommandFailure("no placed room is on \(handleText(room))'s story (\(story)): it is put only beside rooms of its own story "
                                     + "(story \(handleText(room)) N moves it to another; or align a room of story \(story) first)",
                                     at: invocation.positionals[0])
            }
            if capture.walls.isEmpty {
                throw CommandFailure("\(handleText(room)) has no walls, and rooms are put beside others by their walls and doorways: "
                                     + "move and rotate put it by hand", at: invocation.positionals[0])
            }
            throw CommandFailure("found no place where \(handleText(room))'s walls or doorways meet the placed rooms'", at: invocation.positionals[0])
        }
        let meeting = (room, capture, placedRooms(except: room).map(\.room))
        inform("best: " + describe(best, meeting: meeting))
        if result.candidates.count > 1 {
            // Where it lies from the best, in the room's middle: two places a few centimetres
            // apart along one wall read alike otherwise.
            let other = result.candidates[1]
            let apart = AutoAligner.separation(of: other, from: best, for: capture)
            inform("runner-up: " + describe(other, meeting: meeting) + ", \(formatted(apart.metres, digits: 2)) m from the best"
                   + (apart.degrees >= 0.05 ? " and turned \(formatted(apart.degrees, digits: 1))° from it" : ""))
        }
        // A room already where its session put it beside the placed rooms stays exactly there, as
        // `align --all auto` keeps it, when the best place found (set across its walls, as it would
        // be placed) is that place give or take noise: aligning such a room nudged it by up to
        // 9 mm. A room put by hand on a look-alike doorway, 30 cm off, or half a metre too high
        // also meets the placed rooms, but the best place is elsewhere, and it goes there. (Set
        // across its walls by where its capture lays them, as the rooms it meets tell: once, for
        // this test and for placing it.)
        let (chosen, habit) = AutoAligner.settle(best, room: capture, beside: placed)
        let offset = AutoAligner.distance(of: chosen, for: capture)
        if !invocation.flag("--best"), offset.metres < AutoAligner.Tolerances().samePlace,
           offset.degrees < AutoAligner.Tolerances().sameTurn * 180 / .pi, AutoAligner.isInPlace(capture, beside: placed) {
            lastAutoAlignment = (room, result.candidates, nil, session.revision, nil)
            session.keepInPlace([room])
            let away = offset.metres < 0.0005 && offset.degrees < 0.005 ? "the best place found is where it is"
                : "the best place found is \(formatted(offset.metres * 1000, digits: 0)) mm and \(formatted(offset.degrees, digits: 2))° away "
                    + "(align \(handleText(room)) auto --best or next moves it there)"
            inform("\(handleText(room)) already meets the placed rooms where it is (doorways or walls meet, nothing contradicts): left exactly "
                   + "there; " + away)
            return
        }
        if result.isAmbiguous && !invocation.flag("--best") {
            lastAutoAlignment = (room, result.candidates, nil, session.revision, nil)
            // A refusal to move is said even under -q (it was silent there, with exit status 0),
            // as align --all auto says which rooms it left.
            warn("too close to call: \(handleText(room)) was not moved (align \(handleText(room)) auto --best takes the best, "
                   + "align \(handleText(room)) next tries the next)")
            return
        }
        if result.isWeak && !invocation.flag("--best") {
            lastAutoAlignment = (room, result.candidates, nil, session.revision, nil)
            warn("too little agrees: \(handleText(room)) was not moved (a place needs a score of "
                   + "\(formatted(AutoAligner.Tolerances().minimumScore, digits: 1)), about 3 m of wall and a doorway agreeing; "
                   + "align \(handleText(room)) auto --best takes the best, align \(handleText(room)) next tries the next)")
            return
        }
        var applied = result.candidates
        applied[0] = chosen
        switch habit {
        case .face?: inform("its shared walls lie on the faces it saw (told by where its walls meet the placed rooms')")
        case .centreLine?: inform("its shared walls lie near their centre lines (told by where its walls meet the placed rooms')")
        case .untold?: inform("note: nothing tells whether \(handleText(room)) put shared walls on their faces or centre lines: it may sit up to "
                              + "a wall's thickness off across them (align \(handleText(room)) using WALL to WALL --offset D sets it)")
        case nil: break
        }
        let plan = try self.plan({ () throws(EditError) in try session.workspace.planMove(room: room, by: chosen.motion) }, at: invocation.positionals[0])
        let travel = movement(of: room, by: chosen.motion)
        try perform(plan, text: invocation.text, done: "\(handleText(room)) placed (candidate 1 of \(result.candidates.count))\(travel)", placing: [room])
        lastAutoAlignment = (room, applied, 0, session.revision, nil)
    }

    /// How far a motion takes a room, for the message that it was placed: its middle's travel
    /// and its turn (a placement far beyond the home, onto a broken number, said only "placed").
    func movement(of room: Identity, by motion: RigidMotion) -> String {
        guard let centre = session.workspace.capture(room)?.planCentre else { return "" }
        let point = SIMD3(centre.x, 0, centre.z)
        let travel = PlanPoint(motion.apply(toPoint: point)).distance(to: centre)
        return ": its middle moved \(readable(travel, digits: 2)) m, turned \(formatted(motion.yaw * 180 / .pi, digits: 1))°"
    }

    func alignNext(_ room: Identity, invocation: Invocation) throws {
        guard var last = lastAutoAlignment, last.room == room else {
            throw CommandFailure("align \(handleText(room)) auto first (next tries its next candidate)", at: invocation.positionals[0])
        }
        guard last.revision == session.revision else {
            throw CommandFailure("the session changed since align \(handleText(room)) auto (an undo, or another edit): align \(handleText(room)) auto "
                                 + "again, then next", at: invocation.positionals[0])
        }
        if let bySession = last.bySession, last.candidates.isEmpty, let capture = session.workspace.capture(room) {
            // Put by its session's record: the other places are the search's, from where the
            // room was before, less the record's own place (the search confirmed it there).
            let before = capture.moved(by: bySession.inverse)
            let placed = placedCaptures(except: room)
            last.candidates = AutoAligner.search(before, beside: placed).candidates.filter {
                !AutoAligner.samePlace($0.motion, bySession, for: before)
            }
            guard !last.candidates.isEmpty else {
                throw CommandFailure("no other place: the search finds none for \(handleText(room)) beside the placed rooms but where its scan "
                                     + "session puts it (undo takes it back to where it was)", at: invocation.positionals[0])
            }
        }
        let next = (last.applied ?? -1) + 1
        guard next < last.candidates.count else {
            throw CommandFailure("no more candidates for \(handleText(room)) (there were \(last.candidates.count))", at: invocation.positionals[0])
        }
        // Candidates are motions from where the room was; undo the one applied, then apply the
        // next, set across its walls as `align ROOM auto` sets the best (beside the placed rooms
        // as they were then: the room itself is not among them).
        let back = last.applied.map { last.candidates[$0].motion.inverse } ?? last.bySession?.inverse ?? .identity
        var candidates = last.candidates
        if let capture = session.workspace.capture(room) {
            let original = capture.moved(by: back)
            candidates[next] = AutoAligner.settle(candidates[next], room: original, beside: placedCaptures(except: room)).placement
        }
        let motion = candidates[next].motion.composed(after: back)
        let plan = try self.plan({ () throws(EditError) in try session.workspace.planMove(room: room, by: motion) }, at: invocation.positionals[0])
        let meeting = session.workspace.capture(room).map { (room, $0.moved(by: back), placedRooms(except: room).map(\.room)) }
        inform("candidate \(next + 1): " + describe(candidates[next], meeting: meeting))
        let travel = movement(of: room, by: motion)
        try perform(plan, text: invocation.text, done: "\(handleText(room)) placed (candidate \(next + 1) of \(candidates.count))\(travel)", placing: [room])
        lastAutoAlignment = (room, candidates, next, session.revision, nil)
    }

    /// Every room not yet placed, the most certain first, as one step.
    func alignAll(_ invocation: Invocation) throws {
        let placed = session.placedRooms
        let waiting = session.files.flatMap(\.rooms).filter { !placed.contains($0) }
        guard !placed.isEmpty else { throw CommandFailure("no room is open", at: invocation.name) }
        // Nothing to place is not a failure: a fix-up script (align --all auto; merge; save) runs
        // on a one-room scan or a structure as on the rest (it stopped there, and in a batch
        // the file's save was refused).
        guard !waiting.isEmpty else {
            inform("every open room is placed already: nothing to align")
            return
        }
        try refuseOversizedRooms(placed + waiting, at: invocation.name)
        let workspace = session.workspace
        let result: AssemblyResult
        do {
            // Ctrl-C stops the search (a building of hundreds of rooms takes minutes).
            let interruptRequested = interruptRequested
            result = try workspace.planAssembly(placed: placed, waiting: waiting, best: invocation.flag("--best"),
                                                stop: interruptRequested)
        } catch {
            throw CommandFailure(error.message, at: invocation.name)
        }
        if !result.inPlace.isEmpty {
            let names = result.inPlace.map { handleText($0) }
            inform("\(names.joined(separator: ", ")) already \(names.count == 1 ? "meets" : "meet") the placed rooms where \(names.count == 1 ? "it is" : "they are") "
                   + "(doorways or walls meet, nothing contradicts: scanned in one session with them?): left exactly there")
            session.keepInPlace(result.inPlace)
        }
        if !result.notInPlace.isEmpty {
            let names = result.notInPlace.map { handleText($0) }
            inform("\(names.joined(separator: ", ")) lay along the placed rooms as if scanned in one session with them, but "
                   + "\(names.count == 1 ? "it was" : "they were") not kept there: placed elsewhere, more of the other rooms fit")
        }
        if !result.bySession.isEmpty, let first = placed.first {
            // Said with how far each lies from the first room's floor: another level has
            // nothing beside it to confirm the record, so the person should know.
            let firstFloor = workspace.capture(first)?.floorHeight
            var working = workspace
            _ = working.perform(result.plan.changes)
            // The first room's level (confirmed by what meets there) and other levels (nothing
            // confirms them: said even under -q), each in a sentence of its own.
            var sameLevel: [String] = [], otherLevels: [String] = []
            for room in result.bySession {
                if let floor = working.capture(room)?.floorHeight, let firstFloor, abs(floor - firstFloor) >= 1 {
                    otherLevels.append("\(handleText(room)) (\(formatted(abs(floor - firstFloor), digits: 2)) m \(floor < firstFloor ? "below" : "above"))")
                } else {
                    sameLevel.append(handleText(room))
                }
            }
            func sentence(_ rooms: [String]) -> String {
                "\(rooms.joined(separator: ", ")) put where \(rooms.count == 1 ? "its" : "their") scan session puts \(rooms.count == 1 ? "it" : "them") "
                    + "beside \(handleText(first)) (referenceOriginTransform: one session with it)"
            }
            if !sameLevel.isEmpty { inform(sentence(sameLevel) + ", and doorways or walls meet there") }
            if !otherLevels.isEmpty {
                warn(sentence(otherLevels) + "; another level has nothing beside it to confirm that: undo if it is wrong")
            }
        }
        for group in result.sessions {
            let names = group.map { handleText($0) }
            inform("\(names.joined(separator: ", ")) lie in one frame, meeting one another there as one scan session's rooms do: "
                   + "searched for as one piece")
        }
        // A piece's rooms moved together: one line for them, with what the piece met.
        var told = Set<Identity>()
        for (room, placement) in result.placed where !told.contains(room) {
            let piece = result.sessions.first { $0.contains(room) }.map { group in group.filter { member in result.placed.contains { $0.room == member } } } ?? [room]
            told.formUnion(piece)
            inform("\(piece.map { handleText($0) }.joined(separator: ", ")): " + describe(placement))
        }
        let settled = placed + result.inPlace + result.bySession + result.placed.map(\.room)
        let settledStories = Set(settled.compactMap { workspace.capture($0)?.effectiveStory })
        if result.firstRoomUnsure, invocation.flag("--best"), let first = placed.first {
            warn("\(handleText(first)), the first room, meets the others in more than one place about equally well: they were placed "
                 + "around its best (--best); if it is wrong, undo and put one room beside it by hand")
        } else if result.firstRoomUnsure, let first = placed.first {
            let waitingRooms = result.unplaced.map { handleText($0) }.sorted(by: naturalOrder)
            warn("\(handleText(first)), the first room (it stays where it is), meets the others in more than one place about equally well, "
                 + "so \(waitingRooms.joined(separator: ", ")) \(waitingRooms.count == 1 ? "was" : "were") not placed around it: open first a room with more doorways, "
                 + "or put one beside it by hand (align ROOM using DOOR to DOOR), then align --all auto again; "
                 + "align --all auto --best places them around its best place anyway")
        }
        var apart = Set(result.separateHomes.joined())
        for part in result.separateHomes where !result.firstRoomUnsure || invocation.flag("--best") {
            let names = part.map { handleText($0) }
            warn("\(names.joined(separator: ", ")) were not placed: they meet the others only through one pair of doors, and put "
                 + "together there neither part has a doorway left to the outside (two homes' front doors?): put one of them in place "
                 + "by hand (align \(names[0]) using WALL to WALL), then align --all auto again")
        }
        // A part on a story where nothing is placed yet is told below, with its story.
        for part in result.apart where (!result.firstRoomUnsure || invocation.flag("--best"))
            && part.contains(where: { room in workspace.capture(room)?.effectiveStory.map { settledStories.contains($0) } ?? true }) {
            let names = part.map { handleText($0) }
            // (Not "none meets a doorway of the placed rooms": in a real home scanned a room a session,
            // a bathroom opened first met the hallway's door, and this was said of the rest.)
            warn("\(names.joined(separator: ", ")) were not placed: their doorways meet one another, but nothing ties them to the "
                 + "placed rooms with certainty (another home, or a doorway one scan did not see?): put one of them in place by hand "
                 + "(align \(names[0]) using DOOR to DOOR, or WALL to WALL), then align --all auto again")
            apart.formUnion(part)
        }
        // Rooms of a story where nothing is placed yet: one line for each such story.
        var storyWaiting: [(story: Int, rooms: [String])] = []
        var uncertain: [String] = [], wallless: [String] = []
        for room in result.unplaced where (!result.firstRoomUnsure || invocation.flag("--best")) && !apart.contains(room) {
            // (Nothing to search by: said as such, not as a place too close to call.)
            if workspace.capture(room)?.walls.isEmpty ?? false {
                wallless.append(handleText(room))
                continue
            }
            if let story = workspace.capture(room)?.effectiveStory, !settledStories.contains(story),
               settled.allSatisfy({ workspace.capture($0)?.effectiveStory != nil }) {
                if let index = storyWaiting.firstIndex(where: { $0.story == story }) {
                    storyWaiting[index].rooms.append(handleText(room))
                } else {
                    storyWaiting.append((story, [handleText(room)]))
                }
                continue
            }
            uncertain.append(handleText(room))
        }
        // One line for them all (a real home's five rooms were five lines saying the same), in
        // handle order (r2 before r10).
        uncertain.sort(by: naturalOrder)
        // Nothing to be put beside: the rooms that stay have no walls (a room scanned as its floor alone).
        let bare = !placed.isEmpty && placed.allSatisfy { workspace.capture($0)?.walls.isEmpty ?? false }
        if bare, !uncertain.isEmpty {
            let stay = placed.map { handleText($0) }
            warn("\(uncertain.joined(separator: ", ")) \(uncertain.count == 1 ? "was" : "were") not placed: \(stay.joined(separator: ", ")), "
                 + "\(stay.count == 1 ? "the first room (it stays where it is), has" : "the rooms that stay where they are, have") no walls, and rooms "
                 + "are put beside others by their walls and doorways (open first a room with walls)")
        } else if let first = uncertain.first {
            let they = uncertain.count == 1 ? "\(first) was not placed: no place beside the others is certain enough"
                : "\(uncertain.joined(separator: ", ")) were not placed: no place beside the others is certain enough for any of them"
            warn("\(they) (align \(first) auto shows the candidates)")
        }
        wallless.sort(by: naturalOrder)
        if !wallless.isEmpty {
            warn("\(wallless.joined(separator: ", ")) \(wallless.count == 1 ? "was" : "were") not placed: \(wallless.count == 1 ? "it has" : "they have") "
                 + "no walls, and rooms are put beside others by their walls and doorways (move and rotate put \(wallless.count == 1 ? "it" : "them") by hand)")
        }
        for (story, rooms) in storyWaiting {
            let they = rooms.count == 1 ? "\(rooms[0]) was not placed: it is" : "\(rooms.joined(separator: ", ")) were not placed: they are"
            warn("\(they) on story \(story), where no room is placed yet, and rooms meet through no doorway across stories "
                 + "(put one of story \(story) in place, e.g. align \(rooms[0]) using WALL to WALL, then align --all auto again)")
        }
        let count = result.placed.count + result.bySession.count
        guard count > 0 else {
            inform("placed no room: nothing changed")
            return
        }
        try perform(result.plan, text: invocation.text, done: "placed \(count) room\(count == 1 ? "" : "s")",
                    placing: result.bySession + result.placed.map(\.room))
        // What no pair of scans can tell, and the whole building may: whether each scan put the
        // walls it shares on the face it saw or near the centre line.
        let faces = result.habits.filter { $0.habit == .face }.map { handleText($0.room) }
        let centres = result.habits.filter { $0.habit == .centreLine }.map { handleText($0.room) }
        let untold = result.habits.filter { $0.habit == .untold }.map { handleText($0.room) }
        if !faces.isEmpty || !centres.isEmpty {
            let parts = [faces.isEmpty ? nil : "on the faces they saw in " + faces.joined(separator: ", "),
                         centres.isEmpty ? nil : "near the centre lines in " + centres.joined(separator: ", ")].compactMap { $0 }
            inform("note: shared walls lie " + parts.joined(separator: ", ") + " (told by where the rooms' walls meet); "
                   + "rooms were set that far apart across them")
        }
        if !untold.isEmpty {
            inform("note: nothing tells whether " + untold.joined(separator: ", ") + " put shared walls on their faces or centre lines: "
                   + "each may sit up to a wall's thickness off across it (align ROOM using WALL to WALL --offset D sets it)")
        } else if result.habits.isEmpty && result.placed.contains(where: { $0.placement.doorways > 0 }) {
            inform("note: rooms are put doorway plane to doorway plane; where two scans saw the two faces of a wall, a room "
                   + "sits up to that wall's thickness too far across it (align ROOM using WALL to WALL --offset D sets it)")
        }
    }

    /// `export structure PATH [NAME]`: an open structure as it is; a room (a room file, or
    /// a room of a structure named by handle or name) wrapped as a structure of one room,
    /// the way `merge` of that room alone would build it. By default the latest merge
    /// result, else the only open structure, else the only open room file.
    func exportStructure(to path: Argument, name: Argument?) throws {
        let structures = session.files.filter(\.isStructure)
        var document: RoomPlanDocument
        var what: String
        // Where its names come from: the file, and (for a room of a structure) which room.
        var source: WorkspaceFile?
        var onlyRoom: Identity?
        if let name {
            if let file = session.file(named: name.text) ?? session.files.first(where: { $0.path == name.text }) {
                document = file.document
                what = file.name
                source = file
            } else {
                let room = try resolve(name, allowed: [.room], what: "what to export")
                guard let file = session.workspace.file(id: room.file), let capture = file.capture(room.scope) else {
                    throw CommandFailure("\(name.text) is no longer open", at: name)
                }
                document = .room(capture)
                what = session.workspace.handles.handle(for: room) ?? name.text
                source = file
                onlyRoom = room
            }
        } else if let latest = structures.last(where: { $0.stamp == nil }) ?? (structures.count == 1 ? structures.first : nil) {
            document = latest.document
            what = latest.name
            source = latest
        } else if structures.isEmpty, session.files.count == 1 {
            document = session.files[0].document
            what = session.files[0].name
            source = session.files[0]
        } else {
            throw CommandFailure(structures.isEmpty
                                 ? (session.files.isEmpty ? "nothing is open to export"
                                                          : "\(session.files.count) rooms are open; name one (export structure PATH NAME), or merge them first")
                                 : "\(structures.count) structures are open; name one: export structure PATH NAME", at: path)
        }
        // A structure written under a names file's name would be taken for one (as `save PATH` refuses it).
        guard !path.text.hasSuffix(".wb.json") else {
            throw CommandFailure("\(path.text) is a names file's name (NAME.wb.json goes with NAME.json): give another PATH", at: path)
        }
        var wrapped = false
        if case .room(let room) = document {
            document = .structure(StructureMerger.merge([room]).structure)
            wrapped = true
        }
        let bytes: [UInt8]
        do {
            bytes = try RoomPlanCodec.encodeChecked(document)
        } catch {
            throw CommandFailure("cannot write \(path.text): \(what) cannot be written so that it reads back the same "
                                 + "(\(error)); nothing was written", at: path)
        }
        let how = wrapped ? " as a structure of one room" : ""
        // What an export to PATH may replace: an earlier copy of this document (see `checkReplaceable`).
        exportReplaces.writing = document
        let toOutput = path.text == "-" || path.text == "/dev/stdout"
        // The names (and a merge's provenance) go beside the export as `save` puts them beside
        // a file: reopened alone, the export has its rooms' names. A names file already there
        // (an earlier export's) is replaced, never left to name the new file's rooms.
        let sidecarPath = Sidecar.path(for: path.text)
        var names = toOutput ? nil : source.map { exportedNames($0, room: onlyRoom, to: path.text) }
        if let current = names, current.rooms.isEmpty, current.models.isEmpty, !current.hasLinks, !FileIO.isRegularFile(sidecarPath) {
            names = nil
        }
        // Written as it is, as `save` writes it, and said as `save` says it.
        if let source, onlyRoom == nil { warnAboutWriting(source) }
        if options.dryRun && !toOutput {
            try preflightExport(path)
            if names != nil { try preflightExport(Argument(text: sidecarPath, location: path.location)) }
            inform("would write \(what)\(how) to \(path.text.escapingControls) (\(bytes.count) bytes; --dry-run)")
            if names != nil { inform("would write \(sidecarPath.escapingControls) (its names; --dry-run)") }
            return
        }
        // A merge result written to its own path: `save` may then replace that file as its own.
        // Written whole to its own path, it is saved: it was still said to be unsaved, and a
        // `save` wrote the same bytes again (an adversarial pass).
        func remember() {
            if let source, source.stamp == nil, onlyRoom == nil, FileIO.sameFile(path.text, source.path), let stamp = FileIO.stamp(of: path.text) {
                exportedUnsaved[source.path] = (source.id, stamp)
                if !wrapped { session.markSaved(id: source.id, stamp: stamp, digest: ContentDigest(bytes)) }
            }
        }
        guard var names else {
            if try export(bytes, to: path) { return }
            remember()
            inform("wrote \(what)\(how) to \(path.text.escapingControls) (\(bytes.count) bytes)")
            return
        }
        try checkNotOpen(path, by: "an export")
        try checkNotOpen(Argument(text: sidecarPath, location: path.location), by: "an export's names")
        try checkReplaceable(path, writing: document, force: exportReplaces.force, by: "export")
        // (Another scan's names, whose names file this is too, are not replaced without --force.)
        if !exportReplaces.force, let other = otherScanOfNamesFile(sidecarPath, than: path.text) {
            throw CommandFailure("\(sidecarPath) holds the names of \(FileIO.baseName(of: other)), whose names file it is too "
                                 + "(NAME.wb.json goes with NAME and NAME.json): the export's names would replace them "
                                 + "(give another PATH, or export --force to replace them); nothing was written", at: path)
        }
        var writes: [FileWrite] = []
        var keptAside: String?
        if let (aside, old) = sidecarToKeep(sidecarPath) {
            writes.append(FileWrite(path: aside, bytes: old))
            keptAside = aside
        }
        let digest = ContentDigest(bytes)
        names.contents = digest
        names.previous = namesOnDisk(for: path.text, known: nil)
        writes.append(FileWrite(path: sidecarPath, bytes: names.encoded(fileName: FileIO.baseName(of: path.text))))
        writes.append(FileWrite(path: path.text, bytes: bytes))
        try claimWrites(writes.map(\.path), at: path)
        let linked = hardLinks(writes.map(\.path))
        do {
            _ = try FileIO.commit(writes, faults: options.faults, flushes: !options.defersFlush)
            filesWritten += writes.count
            warnHardLinks(linked)
        } catch {
            throw CommandFailure("cannot write \(path.text): \(error.path == path.text ? "" : "\(error.path): ")\(error.message)", at: path)
        }
        if let keptAside { warn("\(sidecarPath) was one this wb cannot read in full: a copy of it was kept as \(keptAside)") }
        remember()
        inform("wrote \(what)\(how) to \(path.text.escapingControls) (\(bytes.count) bytes), with \(sidecarPath.escapingControls) beside it")
    }

    /// The sidecar that goes with an export of `file` (or of one `room` of it, wrapped as a
    /// structure of one room) to `path`.
    private func exportedNames(_ file: WorkspaceFile, room: Identity?, to path: String) -> Sidecar {
        var names = Sidecar(file: file, folder: FileIO.parentFolder(of: Sidecar.path(for: path)))
        guard let room, let capture = file.capture(room.scope) else { return names }
        // One room: its entry (matched by its walls) as the structure's only room, and the
        // models of its objects; the file's provenance is not this structure's.
        let walls = capture.walls.map(\.identifier)
        names.rooms = names.rooms.filter { $0.walls == walls }.map { entry in
            var entry = entry
            entry.index = 0
            return entry
        }
        let objects = Set(capture.objects.map(\.identifier))
        names.models = names.models.filter { objects.contains($0.object) }
        names.links = []
        names.hasLinks = false
        return names
    }

    func align(_ invocation: Invocation) throws {
        let roomWord = invocation.positionals[0]
        let words = Array(invocation.positionals.dropFirst())
        // An option of another form is refused, not ignored (`align --all auto --offset 3` went
        // into the history as given and did nothing with the offset).
        let form: (name: String, options: Set<String>)
        if invocation.flag("--all") {
            form = ("align --all auto", ["--all", "--best"])
        } else if words.count == 1, words[0].text == "auto" {
            form = ("align ROOM auto", ["--best"])
        } else if words.count == 1, words[0].text == "next" {
            form = ("align ROOM next", [])
        } else {
            form = ("align ROOM using A to B", ["--flip", "--offset", "--along"])
        }
        for option in (invocation.flags.union(invocation.values.keys)).sorted() where !form.options.contains(option) {
            let belongs = ["--flip": "align ROOM using A to B", "--offset": "align ROOM using A to B", "--along": "align ROOM using A to B",
                           "--best": "align ROOM auto and align --all auto", "--all": "align --all auto"][option] ?? "another form"
            throw CommandFailure("\(option) does nothing in \(form.name): it is for \(belongs)", at: invocation.values[option] ?? invocation.name)
        }
        if invocation.flag("--all") {
            guard roomWord.text == "auto" else { throw CommandFailure("usage: align --all auto [--best]", at: roomWord) }
            // The caret at what is too many (it pointed at auto).
            if let extra = words.first { throw CommandFailure("align --all auto takes nothing after auto (usage: align --all auto [--best])", at: extra) }
            try alignAll(invocation)
            return
        }
        if words.count == 1, words[0].text == "auto" || words[0].text == "next" {
            let room = try resolve(roomWord, allowed: [.room], what: "ROOM")
            try words[0].text == "auto" ? alignAuto(room, invocation: invocation) : alignNext(room, invocation: invocation)
            return
        }
        guard words.count == 4, words[0].text == "using", words[2].text == "to" else {
            throw CommandFailure("usage: align ROOM using WALL to WALL, or align ROOM using DOOR to DOOR", at: words.first ?? roomWord)
        }
        let room = try resolve(roomWord, allowed: [.room], what: "ROOM")
        let element = try resolve(words[1], allowed: [.wall, .door, .opening], what: "the first element (of ROOM)")
        let target = try resolve(words[3], allowed: [.wall, .door, .opening], what: "the second element (of another room)")
        let offset = try invocation.values["--offset"].map { try length($0, name: "--offset") } ?? 0
        let along = try invocation.values["--along"].map { try length($0, name: "--along") } ?? 0
        let workspace = session.workspace
        let flip = invocation.flag("--flip")
        let result: (EditPlan, Alignment)
        do {
            result = try workspace.planAlign(room: room, using: element, to: target, flip: flip, offset: offset, along: along)
        } catch {
            throw CommandFailure(error.message, at: words[1])
        }
        let (plan, alignment) = result
        let motion = alignment.motion
        let distance = (motion.translation * motion.translation).sum().squareRoot()
        let turned = motion.yaw * 180 / .pi
        let (a, b): (Double, Double) = alignment.widths
        let moved = "\(handleText(room)) moved \(formatted(distance, digits: 3)) m and turned \(formatted(turned, digits: 1))°"
        let pair = "(\(handleText(element)) onto \(handleText(target)))"
        // A negative offset puts the planes past one another: said, not shown as a distance apart alone.
        let crossed = offset <= -0.0005 && alignment.separation >= 0.0005 ? " the other way (past each other, as --offset \(formatted(offset, digits: 3)) asks)" : ""
        let agreement = "now \(formatted(alignment.separation, digits: 3)) m apart\(crossed), \(formatted(alignment.angle, digits: 1))° between them, "
            + "\(formatted(a, digits: 2)) and \(formatted(b, digits: 2)) m wide, overlapping \(Int((alignment.overlap * 100).rounded()))%"
        let done = moved + " " + pair + ": " + agreement
        try perform(plan, text: invocation.text, done: done, placing: [room])
        let difference: Double = abs(a - b)
        if difference > 0.05 && element.kind != .wall {
            inform("note: the two are \(formatted(difference * 100, digits: 0)) cm different in width: are they the same doorway?")
        }
    }
}

extension Shell {
    static func checkCommands() -> [CommandSpec] {
        [
            CommandSpec(
                "check",
                arguments: [ArgumentSpec("NAME", .openFile, .optional)],
                options: [wideOption],
                summary: "quality problems to look at: duplicated or gapped walls, doors off their wall, ...",
                details: """
                    Lists, with the handles involved and a reason: sizes and places no scan gives (an element over 100 m,
                    further than 10 km from the origin, a transform that is no rotation, a wall of width 0, a story
                    beyond 200: a broken number), elements of one room that share an identifier, walls of one room that
                    overlap (one wall scanned twice), wall ends that nearly meet (a gap of 8 to 30 cm), doors, windows and openings off their
                    wall, objects through a wall or floating, parents that point nowhere, rooms whose floors overlap
                    (of one file, or room files align put in one frame), sections whose centre lies outside their room, rooms whose story disagrees
                    with their floor height (a structure's rooms, and room files align put in one frame), elements on
                    another story than their room's, and a structure's copy of a room's element lying apart from it
                    (the two under one identifier). Nothing is changed. --json gives one object per finding: kind (the
                    problem, as in the table), handle (the first element named), handles (all of them), message.
                    """
            ) { invocation in
                let shell = invocation.shell
                // With nothing open there is nothing to vouch for: "no problems found" (and `[]`,
                // exit status 0) passed a script's check whose files never opened.
                guard !shell.session.files.isEmpty else {
                    throw CommandFailure("nothing is open to check (open a room or structure first"
                                         + (shell.session.workspace.stores.isEmpty ? ")" : "; validate SPACE checks a space's world map)"),
                                         at: invocation.name)
                }
                let files = try invocation.positional(0).map { [try shell.fileArgument($0).id] }
                // Room files that align put in one frame are checked as one building's stories.
                let findings = shell.session.workspace.check(files: files, together: shell.session.placedRooms)
                let handles = shell.session.workspace.handles
                if shell.options.json {
                    // `handle` is the first element named (as every listing's rows carry one, for
                    // `jq '.[].handle'`); `handles` names them all; `kind` is the problem's.
                    shell.output.write(renderJSON(.array(findings.map { finding in
                        let named = finding.elements.map { handles.handle(for: $0) ?? "?" }
                        return .object(JSONObject([JSONMember("kind", .string(finding.kind.rawValue)),
                                                   JSONMember("handle", named.first.map { .string($0) } ?? .null),
                                                   JSONMember("handles", .array(named.map { .string($0) })),
                                                   JSONMember("message", .string(finding.reason))]))
                    })))
                    return
                }
                if findings.isEmpty {
                    shell.inform("no problems found")
                    return
                }
                // A finding of many elements (copies of one wall) names the first few in the table;
                // --json lists them all.
                let rows = findings.map { finding in
                    let named = finding.elements.prefix(finding.elements.count > 6 ? 4 : 6).map { handles.handle(for: $0) ?? "?" }
                    let more = finding.elements.count - named.count
                    return [finding.kind.rawValue, (named + (more > 0 ? ["+\(more)"] : [])).joined(separator: " "), finding.reason]
                }
                shell.output.writeStyled(shell.tableText(Table(["problem", "where", "why"], rows, flexible: [1, 2]),
                                                         wide: invocation.flag("--wide")))
            },
        ]
    }
}
