import Foundation
import StructureModel
import XCTest

/// `align` from the shell: two separately scanned rooms put together through the door
/// they share, one undoable step, saved as the moved room's file.
final class AlignCommandTests: XCTestCase {
    /// A room on a story where nothing is placed is told so, not that nothing meets it.
    func testAutoAlignOfARoomOnAStoryWithNothingPlacedSaysSo() throws {
        let folder = try Harness.temporaryFolder(self)
        let paths = try Harness.captures(of: BuildingGenerator.generate(BuildingSpec(seed: 4, rooms: 3)), in: folder).paths
        let result = try Harness.run(["-q", paths[0], paths[1], "-c", "story r2 1", "-c", "align r2 auto"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no placed room is on r2's story (1)"), result.stderr)
    }

    /// A structure of no rooms open with room files leaves the first room file the one the
    /// others are put beside: align --all said "no room is open", and align ROOM auto that
    /// nothing was placed.
    func testAStructureOfNoRoomsDoesNotTakeThePlaceOfTheFirstRoom() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 4, rooms: 3, noise: 0))
        let paths = try Harness.captures(of: building, in: folder).paths
        var empty = building.structure
        empty.rooms = []
        let structure = folder.appendingPathComponent("empty.json").path
        try FileIO.writeAtomically(RoomPlanCodec.encode(.structure(empty)), to: structure)
        let all = try Harness.run(["-q", paths[0], structure, paths[1], paths[2], "-c", "align --all auto --best", "-c", "history"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertFalse(all.stderr.contains("no room is open"), all.stderr)
        XCTAssertTrue(all.stdout.contains("align --all auto --best"), "the others were placed beside r1: \(all.stdout)")
        let first = try Harness.run(["-q", paths[0], structure, paths[1], "-c", "align r1 auto"])
        XCTAssertEqual(first.status, 1)
        XCTAssertTrue(first.stderr.contains("r1 is the room the others are put beside (the first room file open)"), first.stderr)
    }

    func testAlignThroughADoorThenUndoAndSave() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 4, noise: 0))
        // Two rooms that share a door: the doors of each that land side by side once placed,
        // across at most the wall's thickness (each scan may have seen its own face).
        var found: (a: Int, b: Int, i: Int, j: Int, separation: Double)?
        for a in building.captures.indices {
            for b in building.captures.indices where b != a && found == nil {
                for (i, x) in building.captures[a].room.doors.enumerated() {
                    for (j, y) in building.captures[b].room.doors.enumerated() {
                        let s = x.moved(by: building.captures[a].placement).planSegment
                        let t = y.moved(by: building.captures[b].placement).planSegment
                        let overlap = s.overlap(with: t)
                        if overlap.angle < 1e-3, abs(overlap.offset) < 0.45, abs(s.length - t.length) < 1e-3, s.midpoint.distance(to: t.midpoint) < 0.45 {
                            found = (a, b, i, j, abs(overlap.offset))
                        }
                    }
                }
            }
        }
        let pair = try XCTUnwrap(found, "two rooms share a door")
        let captures = [building.captures[pair.a], building.captures[pair.b]]
        var paths: [String] = []
        for capture in captures {
            let path = folder.appendingPathComponent(capture.fileName).path
            try Data(RoomPlanCodec.encode(.room(capture.room))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let first = "d\(pair.i + 1)", second = "d\(captures[0].room.doors.count + pair.j + 1)"
        let command = "align r2 using \(second) to \(first) --offset \(pair.separation)"
        let original = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let result = try Harness.run(paths + ["-c", command, "-c", "history", "-c", "undo", "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("r2 moved") && result.stderr.contains("overlapping 100%"), result.stderr)
        XCTAssertTrue(result.stdout.contains("align r2 using"), "one step in the history")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[1])), original, "undone: nothing to save")
        let saved = try Harness.run(paths + ["-q", "-c", command, "-c", "save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        guard case .room(let moved) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[1])))) else {
            return XCTFail()
        }
        let relative = captures[0].placement.inverse.composed(after: captures[1].placement)
        let expected = captures[1].room.walls[0].moved(by: relative).transform.translation
        XCTAssertLessThan(moved.walls[0].transform.translation.distance(to: expected), 1e-3, "r2 is where the ground truth says")
        // A negative offset is said as one, not as a distance apart alone ("now 0.500 m apart").
        let crossed = try Harness.run(paths + ["-c", "align r2 using \(second) to \(first) --offset -0.5"])
        XCTAssertEqual(crossed.status, 0, crossed.stderr)
        XCTAssertTrue(crossed.stderr.contains("now 0.500 m apart the other way (past each other, as --offset -0.500 asks)"), crossed.stderr)
    }

    func testAlignRefusesWhatItCannotDo() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = try Harness.generatedRoom(in: folder)
        for (command, message) in [("align r1 using w1 to w2", "onto itself"), ("align r1 auto", "r1 is the room the others are put beside (the first room file open): it stays where it is"),
                                   ("align r1 using w1 w2", "usage: align ROOM using"), ("align r1 using w1 to d1", "wall with a wall")] {
            let result = try Harness.run(["-q", path, "-c", command])
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains(message), "\(command): \(result.stderr)")
        }
        // With the first room closed, the next room open is the one that stays, for align ROOM auto
        // as for align --all auto (it said no room was placed yet).
        let second = try Harness.generatedRoom(in: folder, seed: 22, name: "second.json")
        let closed = try Harness.run(["-q", path, second, "-c", "close room", "-c", "align r2 auto"])
        XCTAssertEqual(closed.status, 1)
        XCTAssertTrue(closed.stderr.contains("r2 is the room the others are put beside"), closed.stderr)
    }

    /// A ROOM that is not open is answered with rooms: `story --auto 3` offered d3, a door, and
    /// said a ROOM "is a handle like r1 or o3".
    func testARoomNotFoundIsAnsweredWithRooms() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = folder.appendingPathComponent("s.json").path
        try Data(RoomPlanCodec.encode(.structure(BuildingGenerator.generate(BuildingSpec(seed: 1, rooms: 4, noise: 0)).structure)))
            .write(to: URL(fileURLWithPath: path))
        let result = try Harness.run(["-q", path, "-c", "story --auto 3"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing open is called '3' (did you mean r3?); ROOM is a handle like r1, an identifier, or a name"),
                      result.stderr)
    }

    /// A structure-level wall that stands for one of the room's own walls is the room itself: it
    /// was taken, and the room turned about onto the far side of its own wall ("moved 15.956 m and
    /// turned -180.0°; the room now agrees with the structure there"). A structure-level wall of
    /// another room's is still a target.
    func testAlignOntoTheStructuresCopyOfItsOwnWallIsRefused() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = folder.appendingPathComponent("s.json").path
        try Data(RoomPlanCodec.encode(.structure(BuildingGenerator.generate(BuildingSpec(seed: 1, rooms: 4, noise: 0)).structure)))
            .write(to: URL(fileURLWithPath: path))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let listed = try Harness.jsonArray(try Harness.run(["-q", "--json", path, "-c", "ls walls"]).stdout)
        func handle(_ row: [String: Any]) -> String { row["handle"] as? String ?? "?" }
        let own = try XCTUnwrap(listed.first { $0["room"] as? String == "r2" })
        let copy = try XCTUnwrap(listed.first { $0["level"] as? String == "structure" && $0["identifier"] as? String == own["identifier"] as? String })
        let refused = try Harness.run([path, "-c", "align r2 using \(handle(own)) to \(handle(copy))", "-c", "save"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("\(handle(copy)) stands for \(handle(own)), the room's own: a room cannot be aligned onto itself"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        // Another room's structure-level wall is taken (it moves r2, and says where it is now).
        let other = try XCTUnwrap(listed.first { row in
            row["level"] as? String == "structure" && !((row["rooms"] as? [String]) ?? []).contains("r2")
        })
        let taken = try Harness.run(["-q", path, "-c", "align r2 using \(handle(own)) to \(handle(other))"])
        XCTAssertEqual(taken.status, 0, taken.stderr)
    }
}

/// Automatic alignment from the shell.
final class AutoAlignCommandTests: XCTestCase {
    func testAutoPlacesOrSaysItIsUnsureAndNextAndUndoWork() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 6, rooms: 5))
        let paths = try Harness.captures(of: building, in: folder).paths
        let result = try Harness.run(paths + ["-c", "align r2 auto --best", "-c", "align r2 next", "-c", "history", "-c", "undo", "-c", "undo"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("best: score") && result.stderr.contains("runner-up: score"), result.stderr)
        // The runner-up says how far from the best it lies: two places along one wall read alike otherwise.
        let runnerUp = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.hasPrefix("runner-up: ") })
        XCTAssertNotNil(runnerUp.range(of: #"\), [0-9]+\.[0-9]{2} m from the best"#, options: .regularExpression), String(runnerUp))
        XCTAssertTrue(result.stderr.contains("candidate 2"), result.stderr)
        XCTAssertEqual(result.stdout.components(separatedBy: "align r2").count - 1, 2, "auto and next are one step each: \(result.stdout)")
        let all = try Harness.run(paths + ["-c", "align --all auto", "-c", "history"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stderr.contains("placed ") || all.stderr.contains("nothing changed"), all.stderr)
        // Where each scan put the walls it shares, as the building tells it, is said, and is the truth.
        let note = try XCTUnwrap(all.stderr.components(separatedBy: "\n").first { $0.hasPrefix("note: shared walls lie") }, all.stderr)
        func rooms(after marker: String) -> [Int] {
            guard let range = note.range(of: marker) else { return [] }
            let rest = note[range.upperBound...].prefix { $0 != "(" }
            let list = rest.components(separatedBy: ", near the centre lines in ")[0]
            return list.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Int($0.dropFirst()) }
        }
        let faces = rooms(after: "on the faces they saw in "), centres = rooms(after: "near the centre lines in ")
        XCTAssertFalse(faces.isEmpty && centres.isEmpty, note)
        for room in faces { XCTAssertEqual(building.captures[room - 1].wallPlacement, .face, "r\(room): \(note)") }
        for room in centres { XCTAssertEqual(building.captures[room - 1].wallPlacement, .centreLine, "r\(room): \(note)") }
        // Once aligned into one frame, the room files' stories are checked against one another's
        // floors (only a structure's were); before, each file's floor height is its own scan's.
        let checked = try Harness.run(paths + ["-q", "--json", "-c", "align --all auto; story r1 7; check"])
        XCTAssertEqual(checked.status, 0, checked.stderr)
        XCTAssertEqual(try Harness.jsonArray(checked.stdout).filter { $0["kind"] as? String == "story-height" }.compactMap { $0["handle"] as? String },
                       ["r1"], checked.stdout)
        let unaligned = try Harness.run(paths + ["-q", "--json", "-c", "story r1 7; check"])
        XCTAssertFalse(unaligned.stdout.contains("story-height"), unaligned.stdout)
        // Nothing to place is said, not failed: a fix-up script goes on to its save.
        let alone = try Harness.run([paths[0], "-c", "align --all auto", "-c", "name r1 Den", "-c", "save"])
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertTrue(alone.stderr.contains("every open room is placed already: nothing to align"), alone.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: String(paths[0].dropLast(5)) + ".wb.json"), "the script went on to save")
        // `align --all` without auto was told it needs ROOM.
        let bare = try Harness.run(paths + ["-c", "align --all"])
        XCTAssertTrue(bare.stderr.contains("error: align --all needs auto (usage: align --all auto [--best])"), bare.stderr)
        let extra = try Harness.run(paths + ["-c", "align --all auto --best extra"])
        XCTAssertTrue(extra.stderr.contains("-c:1:25: error: align --all auto takes nothing after auto"), extra.stderr)
        let none = try Harness.run(["-c", "align --all auto"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no room is open"), none.stderr)
    }

    /// A doorway one side saw wider (real doorways: a double door seen as one) joins its rooms,
    /// and the report says which agreed so: the count of doorways alone would claim a pair. A
    /// room that meets the rest only through such a doorway is left, and said to be.
    func testADoorwaySeenWiderIsSaidSo() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 42, rooms: 5, coreModelBytes: 1000, noise: 1, realDoorways: true))
        let paths = try Harness.captures(of: home, in: folder).paths
        let result = try Harness.run(paths + ["-c", "align --all auto"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("placed 3 rooms"), result.stderr)
        XCTAssertTrue(result.stderr.contains("was not placed: no place beside the others is certain enough"), result.stderr)
        let said = result.stderr.components(separatedBy: "\n").filter { $0.contains("seen wider from one side") }
        for line in said { XCTAssertTrue(line.hasPrefix("r") && line.contains("of the doorways seen wider"), line) }
    }

    /// A place little agrees with (a doorway and a metre or two of wall: what a look-alike
    /// doorway gives as well) is not taken unasked. Two rooms of a generated home that meet
    /// through one opening along one wall: `align r2 auto` shows the best and the runner-up,
    /// does not move the room, and says why; `--best` takes the best (here the truth); `next`
    /// still walks the candidates; `align --all auto` leaves the room, said.
    func testAPlaceTooLittleAgreesWithIsNotTakenUnasked() throws {
        let folder = try Harness.temporaryFolder(self)
        // The README's session: `wbgen --rooms 3 --seed 12`, its first two rooms.
        let home = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 3))
        let paths = Array(try Harness.captures(of: home, in: folder).paths.prefix(2))
        let original = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let shy = try Harness.run(paths + ["-c", "align r2 auto", "-c", "history", "-c", "save"])
        XCTAssertEqual(shy.status, 0, shy.stderr)
        let best = try XCTUnwrap(shy.stderr.components(separatedBy: "\n").first { $0.hasPrefix("best: score ") }, shy.stderr)
        let score = try XCTUnwrap(Double(best.dropFirst("best: score ".count).prefix { $0 != ":" }), best)
        XCTAssertLessThan(score, AutoAligner.Tolerances().minimumScore, best)
        XCTAssertTrue(shy.stderr.contains("runner-up: score"), shy.stderr)
        XCTAssertTrue(shy.stderr.contains("too little agrees: r2 was not moved (a place needs a score of 6.0"), shy.stderr)
        // Said under -q too: it was silent there, exit status 0, as if the room had been placed.
        let quiet = try Harness.run(["-q"] + paths + ["-c", "align r2 auto"])
        XCTAssertTrue(quiet.stderr.contains("warning: too little agrees: r2 was not moved"), quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("best: score"), "the candidates are information: \(quiet.stderr)")
        XCTAssertFalse(shy.stdout.contains("align r2"), "no step in the history: \(shy.stdout)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[1])), original, "nothing moved, nothing saved")

        let stepped = try Harness.run(paths + ["-c", "align r2 auto", "-c", "align r2 next"])
        XCTAssertTrue(stepped.stderr.contains("r2 placed (candidate 1 of"), stepped.stderr)
        let all = try Harness.run(paths + ["-c", "align --all auto"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stderr.contains("r2 was not placed: no place beside the others is certain enough"), all.stderr)

        // All three rooms: neither other room is certain; said in one line, in handle order.
        let three = try Harness.run(try Harness.captures(of: home, in: folder).paths + ["-c", "align --all auto"])
        XCTAssertTrue(three.stderr.contains("warning: r2, r3 were not placed: no place beside the others is certain enough for any "
                                            + "of them (align r2 auto shows the candidates)"), three.stderr)

        let taken = try Harness.run(paths + ["-q", "-c", "align r2 auto --best", "-c", "save"])
        XCTAssertEqual(taken.status, 0, taken.stderr)
        guard case .room(let moved) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[1])))) else {
            return XCTFail()
        }
        let relative = home.captures[0].placement.inverse.composed(after: home.captures[1].placement)
        let expected = home.captures[1].room.walls[0].moved(by: relative).transform.translation
        XCTAssertLessThan(moved.walls[0].transform.translation.distance(to: expected), 0.45, "--best took the truth (within a wall's thickness)")
    }

    /// `align ROOM auto` names the doorways that meet in each place it shows (the room's on
    /// the placed room's), so a person who knows the home can tell a look-alike and take the
    /// right pair by hand: the best place's pair is the one that lies together once it is taken.
    func testTheDoorwaysThatMeetInAPlaceAreNamed() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 3))
        let paths = Array(try Harness.captures(of: home, in: folder).paths.prefix(2))
        let shown = try Harness.run(paths + ["-c", "align r2 auto", "-c", "align r2 next"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let lines = shown.stderr.components(separatedBy: "\n")
        let best = try XCTUnwrap(lines.first { $0.hasPrefix("best: score ") }, shown.stderr)
        let candidate = try XCTUnwrap(lines.first { $0.hasPrefix("candidate 1: score ") }, shown.stderr)

        let taken = try Harness.run(paths + ["-q", "-c", "align r2 auto --best", "-c", "save"])
        XCTAssertEqual(taken.status, 0, taken.stderr)
        let rooms = try paths.map { path -> CapturedRoom in
            guard case .room(let room) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) else {
                throw XCTSkip("not a room")
            }
            return room
        }
        // Handles run over the rooms in order: the first room's doors d1..., then the second's.
        func doorways(_ index: Int) -> [(handle: String, middle: PlanPoint)] {
            let doorsBefore = rooms[..<index].reduce(0) { $0 + $1.doors.count }
            let openingsBefore = rooms[..<index].reduce(0) { $0 + $1.openings.count }
            return rooms[index].doors.enumerated().map { ("d\(doorsBefore + $0.offset + 1)", $0.element.planSegment.midpoint) }
                + rooms[index].openings.enumerated().map { ("p\(openingsBefore + $0.offset + 1)", $0.element.planSegment.midpoint) }
        }
        let together = doorways(1).flatMap { mine in
            doorways(0).filter { $0.middle.distance(to: mine.middle) < 0.1 }.map { "\(mine.handle) on \($0.handle)" }
        }
        XCTAssertEqual(together.count, 1, "the place taken meets through one doorway: \(together)")
        XCTAssertTrue(best.contains("1 doorway (\(together[0])) agree"), best)
        XCTAssertTrue(candidate.contains("(\(together[0]))"), "next names it too: \(candidate)")
        // A place that meets through no doorway names none.
        let runnerUp = try XCTUnwrap(lines.first { $0.hasPrefix("runner-up: score ") }, shown.stderr)
        XCTAssertEqual(runnerUp.contains(" 0 doorways agree"), !runnerUp.contains(" on "), runnerUp)
    }

    /// The same rooms assembled twice give the same files, byte for byte: nothing the search
    /// chooses may follow the order a Set or a Dictionary happens to list things in, which
    /// Swift changes from run to run (this block of three flats, seed 35, placed four rooms of
    /// another flat wrongly in about half the runs and left them in the rest).
    func testAssemblyIsTheSameEveryRun() throws {
        let home = BuildingGenerator.generate(BuildingSpec(seed: 35, rooms: 15, coreModelBytes: 1000, noise: 1))
        var outputs: [[Data]] = []
        for run in 0..<3 {
            let folder = try Harness.temporaryFolder(self).appendingPathComponent("run\(run)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let paths = try Harness.captures(of: home, in: folder).paths
            let result = try Harness.run(paths + ["-q", "-c", "align --all auto", "-c", "save"])
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) })
        }
        XCTAssertEqual(outputs[1], outputs[0])
        XCTAssertEqual(outputs[2], outputs[0])
    }

    /// A room lying by chance along the first as one session's room would is said not to be
    /// kept there, and is placed where the rest of the home fits (seed 2's living room, r3).
    func testALoneRoomNotKeptInPlaceIsSaid() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 2, rooms: 12, stories: 1, coreModelBytes: 4_000, noise: 1))
        let paths = try Harness.captures(of: home, in: folder).paths
        let result = try Harness.run(paths + ["-c", "align --all auto"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let output = result.stdout + result.stderr
        XCTAssertTrue(output.contains("r3 lay along the placed rooms as if scanned in one session with them, but it was not kept there"), output)
        XCTAssertFalse(output.contains("already meets"), output)
        XCTAssertTrue(output.contains("\nr3: score"), output)
    }

    /// Room files `align` put in one frame are checked for floors overlapping across files, as
    /// a structure's rooms are: a rescan laid on its first scan is one room twice.
    func testCheckFindsRoomFilesAlignPutOverOneAnother() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 3, coreModelBytes: 1000, noise: 1, rescans: 1))
        let captures = try Harness.captures(of: home, in: folder)
        let rescan = try XCTUnwrap(home.captures.firstIndex { $0.rescanOf != nil })
        let first = try XCTUnwrap(home.captures.firstIndex { $0.fileName == home.captures[rescan].rescanOf })
        let before = try Harness.run(captures.paths + ["-q", "--json", "-c", "check"])
        XCTAssertFalse(before.stdout.contains("rooms-overlap"), "each in a frame of its own: nothing to say yet")
        let result = try Harness.run(captures.paths + ["-q", "-c", "align --all auto", "-c", "check --json"])
        let findings = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout + result.stderr)
        let overlaps = findings.filter { $0["kind"] as? String == "rooms-overlap" }
        XCTAssertEqual(overlaps.count, 1, result.stdout)
        XCTAssertEqual(Set(overlaps.first?["handles"] as? [String] ?? []), ["r\(first + 1)", "r\(rescan + 1)"], result.stdout)
        XCTAssertTrue((overlaps.first?["message"] as? String ?? "").contains("one room scanned twice?"), result.stdout)
    }

    /// Automatic alignment's cost grows with the squares of a room's doorways and walls: a
    /// hostile room of 300 doors (3,000 took minutes) is refused at once with its counts, by
    /// `align ROOM auto` beside it and by `align --all auto`; by hand it can still be placed.
    func testAutoRefusesARoomFarBeyondAnyScan() throws {
        let folder = try Harness.temporaryFolder(self)
        var home = BuildingGenerator.generate(BuildingSpec(seed: 6, rooms: 3, coreModelBytes: 1000, noise: 1))
        var room = home.captures[0].room
        let door = try XCTUnwrap(room.doors.first)
        // 65 doorways: two rooms of 250 each ran 190 s under the 256 allowed before, 128 16 s.
        room.doors = (0..<(65 - room.openings.count)).map { index in
            var copy = door
            copy.identifier = String(format: "%08X-0000-4000-8000-%012X", index, index)
            return copy
        }
        home.captures[0].room = room
        let paths = try Harness.captures(of: home, in: folder).paths
        for command in ["align --all auto", "align r2 auto"] {
            let result = try Harness.run(paths + ["-c", command])
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains("r1 has \(room.walls.count) walls and 65 doors and openings; automatic alignment takes rooms of up to 256 walls and 64 doorways"),
                          "\(command): \(result.stderr)")
        }
        // And a room of 257 walls (one of 400 piled walls beside its copy ran 198 s before the
        // cap came down from 1,024; pairing only its longest walls brought that to 15 s).
        var walled = home.captures[1].room
        let wall = try XCTUnwrap(walled.walls.first)
        walled.walls += (0..<(257 - walled.walls.count)).map { index in
            var copy = wall
            copy.identifier = String(format: "%08X-0000-4000-8000-%012X", index, index + 1000)
            return copy
        }
        home.captures[0].room = home.captures[2].room
        home.captures[1].room = walled
        let walledPaths = try Harness.captures(of: home, in: try Harness.temporaryFolder(self)).paths
        let refused = try Harness.run(walledPaths + ["-c", "align r2 auto"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("r2 has 257 walls and"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("takes rooms of up to 256 walls"), refused.stderr)
    }

    /// A first room that meets the rest about as well at another doorway: nothing is placed
    /// around it, and the person is told why and what to do; two rooms of different homes: the
    /// second is not placed, with the plain reason.
    func testAnUnsureFirstRoomIsSaidAndUnrelatedRoomsAreNotJoined() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 288, rooms: 7, coreModelBytes: 1000, noise: 1))
        let paths = try Harness.captures(of: home, in: folder).paths
        let result = try Harness.run(paths + ["-c", "align --all auto", "-c", "history"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("r1, the first room (it stays where it is), meets the others in more than one place"), result.stderr)
        // The rooms not placed around it, in handle order (they came in the order placed).
        let unsure = result.stderr.split(separator: "\n").first { $0.contains("meets the others in more than one place") }.map(String.init) ?? ""
        let named = unsure.components(separatedBy: "equally well, so ").last?.components(separatedBy: " were not placed")[0]
            .components(separatedBy: ", ").compactMap { Int($0.dropFirst()) } ?? []
        XCTAssertEqual(named, Array(2...paths.count), unsure)
        XCTAssertTrue(result.stderr.contains("placed no room: nothing changed"), result.stderr)
        XCTAssertFalse(result.stdout.contains("align --all auto"), "no step in the history: \(result.stdout)")
        let anyway = try Harness.run(paths + ["-c", "align --all auto --best"])
        XCTAssertEqual(anyway.status, 0, anyway.stderr)
        XCTAssertTrue(anyway.stderr.contains("they were placed around its best (--best)"), anyway.stderr)
        XCTAssertTrue(anyway.stderr.contains("placed ") && !anyway.stderr.contains("placed no room"), anyway.stderr)

        // Two flats that no doorway joins: the second is not put outside the first's front door.
        let flats = BuildingGenerator.generate(BuildingSpec(seed: 87, rooms: 10, coreModelBytes: 1000, noise: 1))
        let flatFolder = folder.appendingPathComponent("flats")
        try FileManager.default.createDirectory(at: flatFolder, withIntermediateDirectories: true)
        let flatPaths = try Harness.captures(of: flats, in: flatFolder).paths
        let two = try Harness.run(flatPaths + ["-c", "align --all auto"])
        XCTAssertEqual(two.status, 0, two.stderr)
        // Put together apart (its doorways meet one another, none the first flat's), or joined
        // front door to front door and then taken for another home: either is said in one line.
        let line = try XCTUnwrap(two.stderr.components(separatedBy: "\n").first {
            $0.contains("their doorways meet one another, but nothing ties them to the placed rooms with certainty")
                || $0.contains("meet the others only through one pair of doors") && $0.contains("neither part has a doorway left to the outside")
        }, two.stderr)
        // The second flat's rooms (r7 to r10), and only they.
        let listed = line.components(separatedBy: "warning: ").last!.components(separatedBy: " were not placed")[0].components(separatedBy: ", ")
        XCTAssertTrue(Set(listed).isSubset(of: ["r7", "r8", "r9", "r10"]) && listed.count >= 3, line)
        XCTAssertFalse(two.stderr.components(separatedBy: "\n").contains { $0.contains("no place beside the others") && $0.contains("r9") },
                       "one line for the part: \(two.stderr)")

        // A story where nothing is placed yet: its rooms wait, said once for the story.
        let house = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 14, stories: 2, coreModelBytes: 1000, noise: 1))
        let houseFolder = folder.appendingPathComponent("house")
        try FileManager.default.createDirectory(at: houseFolder, withIntermediateDirectories: true)
        let housePaths = try Harness.captures(of: house, in: houseFolder).paths
        let upstairs = house.captures.indices.filter { house.captures[$0].story == 1 }.map { "r\($0 + 1)" }
        XCTAssertFalse(upstairs.isEmpty)
        let stories = try Harness.run(housePaths + ["-c", "align --all auto"])
        XCTAssertEqual(stories.status, 0, stories.stderr)
        let storyLines = stories.stderr.components(separatedBy: "\n").filter { $0.contains("where no room is placed yet") }
        XCTAssertEqual(storyLines.count, 1, stories.stderr)
        XCTAssertTrue(storyLines.first?.contains("\(upstairs.joined(separator: ", ")) were not placed: they are on story 1") ?? false, stories.stderr)

        let flat = try Harness.sample("flat-4sections.json"), living = try Harness.sample("livingroom-1section.json")
        let apart = try Harness.run([flat, living, "-c", "align --all auto"])
        XCTAssertEqual(apart.status, 0, apart.stderr)
        XCTAssertTrue(apart.stderr.contains("r2 was not placed: no place beside the others is certain enough"), apart.stderr)
        XCTAssertFalse(apart.stderr.contains("the first room"), apart.stderr)
        // A merge result holds copies of the open rooms, and is no structure to place them beside:
        // the first room stays the one that does not move (both were left as "not placed").
        let merged = try Harness.run([flat, living, "-c", "merge", "-c", "align --all auto"])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertTrue(merged.stderr.contains("warning: r2 was not placed"), merged.stderr)
    }

    /// Room files exported from one session are already where they belong: `align --all auto`
    /// says so, moves none of them and leaves nothing to save.
    /// Two flats that no doorway joins, each room in a frame of its own: the second is named as a
    /// part apart, not placed, and its files are not rewritten by `save`.
    func testASecondHomeIsNamedApartAndLeft() throws {
        let folder = try Harness.temporaryFolder(self)
        let flats = BuildingGenerator.generate(BuildingSpec(seed: 7, rooms: 12, coreModelBytes: 1000, noise: 1))
        var paths: [String] = []
        for capture in flats.captures {
            let path = folder.appendingPathComponent(capture.fileName).path
            try Data(RoomPlanCodec.encode(.room(capture.room))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let result = try Harness.run(paths + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("r8, r9, r10, r11, r12 were not placed: their doorways meet one another, but nothing ties them to the placed rooms with certainty"),
                      result.stderr)
        XCTAssertTrue(result.stderr.contains("placed 6 rooms"), result.stderr)
        let after = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        XCTAssertEqual(Array(after[7...]), Array(before[7...]), "the second flat's files are not rewritten")
        XCTAssertTrue(zip(after[1..<7], before[1..<7]).allSatisfy { $0 != $1 }, "the first flat's rooms were moved and saved")
    }

    /// A block of two flats exported from one session: the second flat meets the first only
    /// along the party wall (one direction, which holds no single room), and its 15 rooms were
    /// left as unsure. Its rooms meet one another through doorways where they are and lie along
    /// the first flat's walls together: kept where they are, like the first flat's.
    func testTwoFlatsOfOneSessionStayWhereTheyAre() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 30, coreModelBytes: 1000, noise: 1))
        let paths = try oneSession(home, in: folder)
        let result = try Harness.run(paths + ["-c", "align --all auto"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let all = (2...home.captures.count).map { "r\($0)" }.joined(separator: ", ")
        XCTAssertTrue(result.stderr.contains("\(all) already meet the placed rooms where they are"), result.stderr)
        XCTAssertTrue(result.stderr.contains("placed no room: nothing changed"), result.stderr)
    }

    func testRoomsOfOneSessionStayWhereTheyAre() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 6, coreModelBytes: 1000, noise: 1))
        let paths = try oneSession(home, in: folder)
        let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let result = try Harness.run(paths + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("r2, r3, r4, r5, r6 already meet the placed rooms where they are"), result.stderr)
        XCTAssertTrue(result.stderr.contains("placed no room: nothing changed"), result.stderr)
        XCTAssertEqual(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, before, "no file rewritten")
        // They count as placed from then on: nothing is left for align --all auto.
        let again = try Harness.run(paths + ["-c", "align --all auto", "-c", "align --all auto"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("every open room is placed already"), again.stderr)
    }

    /// A room already where its session put it beside the placed rooms, aligned alone, stays
    /// exactly there (aligning such a room nudged it by up to 9 mm); `--best` still moves it to
    /// the best place found, and a room put elsewhere is aligned as ever.
    func testARoomAlreadyInPlaceAlignedAloneStaysExactlyThere() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 6, coreModelBytes: 1000, noise: 1))
        let paths = try oneSession(home, in: folder)
        let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        // Each aligned alone, beside the rooms kept so far: twice round, as a room is in place only
        // beside a room it meets.
        var commands: [String] = []
        for _ in 1...2 { for room in 2...paths.count { commands += ["-c", "align r\(room) auto"] } }
        let result = try Harness.run(paths + commands + ["-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for room in 2...paths.count {
            XCTAssertTrue(result.stderr.contains("r\(room) already meets the placed rooms where it is (doorways or walls meet, nothing contradicts): "
                                                 + "left exactly there"), "r\(room): " + result.stderr)
        }
        XCTAssertFalse(result.stderr.contains("placed (candidate"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing to save"), result.stderr)
        XCTAssertEqual(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, before, "no file rewritten")
        // Aligned by `next` from there, or with --best, it moves to the best place found.
        let moved = try Harness.run(paths + ["-c", "align r2 auto --best", "-c", "save"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertFalse(moved.stderr.contains("already meets"), moved.stderr)
        XCTAssertTrue(moved.stderr.contains("r2 placed (candidate 1 of"), moved.stderr)
        // And says how far: its middle's travel, as the saved file shows it (it said only "placed",
        // also when a broken number took a room 3.4e38 m away).
        let said = try XCTUnwrap(moved.stderr.components(separatedBy: "its middle moved ").dropFirst().first, moved.stderr)
        let metres = try XCTUnwrap(Double(said.prefix { $0 != " " }), said)
        func middle(_ data: Data) throws -> PlanPoint {
            guard case .room(let room) = try RoomPlanCodec.decode(Array(data)) else { throw XCTSkip("not a room") }
            return try XCTUnwrap(room.planCentre)
        }
        let travel = try middle(before[1]).distance(to: try middle(try Data(contentsOf: URL(fileURLWithPath: paths[1]))))
        XCTAssertGreaterThan(travel, 0.01)
        XCTAssertEqual(metres, travel, accuracy: 0.006, moved.stderr)
    }

    /// One session's rooms written in one frame, in `folder`.
    /// Rooms of one session, each in a frame of its own (its origin where that room's scan
    /// began, one heading for the session) with `referenceOriginTransform` saying where that
    /// frame lies, as an iOS 26 app export writes them. Returns the paths and the motion from
    /// the building into each room's frame.
    private func ownFramesOfOneSession(_ home: GeneratedBuilding, in folder: URL) throws -> ([String], [RigidMotion]) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String] = [], frames: [RigidMotion] = []
        for (index, capture) in home.captures.enumerated() {
            let frame = RigidMotion(yawDegrees: 37, translation: SIMD3(Double(index) * 1.7 - 4, Double(index % 3) * 0.4 - 0.3, 2.5 - Double(index)))
            var room = capture.room.moved(by: frame.composed(after: capture.placement))
            room.referenceOriginTransform = frame.apply(to: .identity)
            let path = folder.appendingPathComponent(capture.fileName).path
            try Data(RoomPlanCodec.encode(.room(room))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            frames.append(frame)
        }
        return (paths, frames)
    }

    /// Where each room's first wall is after `save`, against where the session puts it beside
    /// the first room: within a millimetre.
    private func assertWhereTheSessionPutsThem(_ home: GeneratedBuilding, _ paths: [String], _ frames: [RigidMotion],
                                               file: StaticString = #filePath, line: UInt = #line) throws {
        for (index, capture) in home.captures.enumerated() {
            guard case .room(let saved) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[index])))) else {
                return XCTFail("a room", file: file, line: line)
            }
            let expected = frames[0].composed(after: capture.placement).apply(toPoint: capture.room.walls[0].transform.translation)
            XCTAssertLessThan(saved.walls[0].transform.translation.distance(to: expected), 1e-3, "\(capture.fileName)", file: file, line: line)
        }
    }

    /// iOS 26 writes each room of a session in a frame of its own, with where that frame lies
    /// in the session (`referenceOriginTransform`): the rooms are put there, where doorways and
    /// walls then meet, rather than searched for (a real home's two levels, scanned in one
    /// session, were put side by side on one floor).
    func testRoomsInFramesOfTheirOwnArePutWhereTheirSessionPutsThem() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 6, coreModelBytes: 1000, noise: 1))
        let (paths, frames) = try ownFramesOfOneSession(home, in: folder.appendingPathComponent("one"))
        let result = try Harness.run(paths + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("r2, r3, r4, r5, r6 put where their scan session puts them beside r1 (referenceOriginTransform: "
                                             + "one session with it), and doorways or walls meet there"), result.stderr)
        try assertWhereTheSessionPutsThem(home, paths, frames)
        // A record 20 cm off on the first room's level is not followed: the search, run where it
        // puts the room, finds the room elsewhere (it was, and said to be confirmed).
        let (drifted, driftFrames) = try ownFramesOfOneSession(home, in: folder.appendingPathComponent("drifted"))
        guard case .room(var wrong) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: drifted[1])))) else {
            return XCTFail("a room")
        }
        wrong.referenceOriginTransform?.translation.x += 0.2
        try Data(RoomPlanCodec.encode(.room(wrong))).write(to: URL(fileURLWithPath: drifted[1]))
        let corrected = try Harness.run(drifted + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(corrected.status, 0, corrected.stderr)
        guard case .room(let placedRoom) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: drifted[1])))) else {
            return XCTFail("a room")
        }
        let truth = driftFrames[0].composed(after: home.captures[1].placement).apply(toPoint: home.captures[1].room.walls[0].transform.translation)
        XCTAssertLessThan(placedRoom.walls[0].transform.translation.distance(to: truth), 0.05, corrected.stderr)

        // The first room moved and turned by hand first: its record moved with it, so the rest
        // go where the session puts them beside it where it now is.
        let (handMoved, handFrames) = try ownFramesOfOneSession(home, in: folder.appendingPathComponent("hand"))
        let shifted = try Harness.run(handMoved + ["-c", "move r1 2 1", "-c", "rotate r1 30 --about 0 0", "-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(shifted.status, 0, shifted.stderr)
        XCTAssertTrue(shifted.stderr.contains("put where their scan session puts them beside r1"), shifted.stderr)
        guard case .room(let firstRoom) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: handMoved[0])))),
              case .room(let lastRoom) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: handMoved.last!)))) else {
            return XCTFail("rooms")
        }
        // Where the last room sits relative to the first is where the session says.
        let firstTruth = handFrames[0].composed(after: home.captures[0].placement)
        let lastTruth = handFrames[0].composed(after: home.captures[home.captures.count - 1].placement)
        let expected = lastTruth.apply(toPoint: home.captures[home.captures.count - 1].room.walls[0].transform.translation)
        let firstNow = firstRoom.walls[0].transform.translation, firstThen = firstTruth.apply(toPoint: home.captures[0].room.walls[0].transform.translation)
        XCTAssertGreaterThan(firstNow.distance(to: firstThen), 1, "the first room was moved by hand")
        let hand = RigidMotion(yawDegrees: 30).composed(after: RigidMotion(translation: SIMD3(2, 0, 1)))
        XCTAssertLessThan(lastRoom.walls[0].transform.translation.distance(to: hand.apply(toPoint: expected)), 1e-3)

        // One room alone is put there too, when it meets the first room there.
        let (single, _) = try ownFramesOfOneSession(home, in: folder.appendingPathComponent("single"))
        var alone = 0
        for k in 2...home.captures.count {
            let result = try Harness.run(single + ["-c", "align r\(k) auto"])
            XCTAssertEqual(result.status, 0, result.stderr)
            if result.stderr.contains("r\(k) put where its scan session puts it beside r1 (referenceOriginTransform: one session with it), "
                                      + "and doorways or walls meet there") { alone += 1 }
        }
        XCTAssertGreaterThan(alone, 0, "the rooms that meet the first one")

        // Two stories of one session: the upper one meets the lower through no doorway, and is
        // put where the session puts it, a story up, said so.
        let tall = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 6, stories: 2, coreModelBytes: 1000, noise: 1))
        XCTAssertEqual(Set(tall.captures.map(\.story)), [0, 1])
        let (levels, levelFrames) = try ownFramesOfOneSession(tall, in: folder.appendingPathComponent("tall"))
        let stacked = try Harness.run(levels + ["-c", "align --all auto", "-c", "story --auto", "-c", "save"])
        XCTAssertEqual(stacked.status, 0, stacked.stderr)
        XCTAssertTrue(stacked.stderr.contains(" m above) put where") || stacked.stderr.contains(" m above),"), stacked.stderr)
        XCTAssertTrue(stacked.stderr.contains("another level has nothing beside it to confirm that: undo if it is wrong"), stacked.stderr)
        XCTAssertTrue(stacked.stderr.contains("2 stories by floor height"), stacked.stderr)
        try assertWhereTheSessionPutsThem(tall, levels, levelFrames)
        // A record a metre off on the other level would put that room into its neighbours: not
        // followed (it went there, said only as a level nothing confirms).
        let (skewed, _) = try ownFramesOfOneSession(tall, in: folder.appendingPathComponent("skewed"))
        let upper = try XCTUnwrap(tall.captures.indices.last { tall.captures[$0].story == 1 })
        XCTAssertGreaterThan(tall.captures.filter { $0.story == 1 }.count, 1)
        guard case .room(var off) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: skewed[upper]))))
        else { return XCTFail("a room") }
        off.referenceOriginTransform?.translation.x += 1.1
        try Data(RoomPlanCodec.encode(.room(off))).write(to: URL(fileURLWithPath: skewed[upper]))
        let kept = try Harness.run(skewed + ["-c", "align --all auto", "-c", "merge", "-c", "check"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        let levelLine = try XCTUnwrap(kept.stderr.split(separator: "\n").first { $0.contains("another level has nothing beside it") }, kept.stderr)
        XCTAssertFalse(levelLine.contains("r\(upper + 1) ("), String(levelLine))
        XCTAssertFalse(kept.stdout.contains("rooms-overlap"), kept.stdout)

        // Saved there, each room's record moved with it: opened again, nothing moves a second time.
        let reopened = try Harness.run(levels + ["-c", "align --all auto"])
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        XCTAssertFalse(reopened.stderr.contains("another level has nothing beside it"), reopened.stderr)
        XCTAssertTrue(reopened.stderr.contains("placed no room: nothing changed"), reopened.stderr)
        // And a move by hand moves the record too: undone, the file is as it was.
        let original = try Data(contentsOf: URL(fileURLWithPath: levels[1]))
        let undone = try Harness.run(["-q", levels[1], "-c", "move r1 1 0; rotate r1 30; undo; undo; save"])
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: levels[1])), original)

        // Records of separate sessions (each room's own, near its own origin) pile the rooms up:
        // not followed, and the rooms are searched for as before.
        let apart = folder.appendingPathComponent("apart")
        try FileManager.default.createDirectory(at: apart, withIntermediateDirectories: true)
        let separate = try Harness.captures(of: home, in: apart)
        let searched = try Harness.run(separate.paths + ["-c", "align --all auto"])
        XCTAssertFalse(searched.stderr.contains("scan session puts"), searched.stderr)
    }

    /// A room put where its scan session puts it: `align ROOM next` tries the search's best
    /// place other than that one (it said "align r2 auto first"), and undo puts it back there.
    func testNextAfterASessionPlacementTriesTheSearch() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 6, coreModelBytes: 1000, noise: 1))
        let (paths, frames) = try ownFramesOfOneSession(home, in: folder.appendingPathComponent("one"))
        var tried = 0
        for k in 2...home.captures.count {
            let result = try Harness.run(paths + ["-c", "align r\(k) auto", "-c", "align r\(k) next"])
            guard result.stderr.contains("r\(k) put where its scan session puts it") else { continue }
            tried += 1
            XCTAssertFalse(result.stderr.contains("auto first"), result.stderr)
            if result.status == 0 {
                XCTAssertTrue(result.stderr.contains("r\(k) placed (candidate 1 of"), result.stderr)
                // Elsewhere than where the session puts it; undone, back there, saved.
                let moved = try Harness.run(paths + ["-c", "align r\(k) auto", "-c", "align r\(k) next", "-c", "save"])
                XCTAssertEqual(moved.status, 0, moved.stderr)
                guard case .room(let away) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[k - 1])))) else {
                    return XCTFail("a room")
                }
                let there = frames[0].composed(after: home.captures[k - 1].placement).apply(toPoint: home.captures[k - 1].room.walls[0].transform.translation)
                XCTAssertGreaterThan(away.walls[0].transform.translation.distance(to: there), 0.08, moved.stderr)
                let (again, _) = try ownFramesOfOneSession(home, in: folder.appendingPathComponent("again\(k)"))
                let undone = try Harness.run(again + ["-c", "align r\(k) auto", "-c", "align r\(k) next", "-c", "undo", "-c", "save"])
                XCTAssertEqual(undone.status, 0, undone.stderr)
                guard case .room(let back) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: again[k - 1])))) else {
                    return XCTFail("a room")
                }
                XCTAssertLessThan(back.walls[0].transform.translation.distance(to: there), 1e-3, undone.stderr)
            } else {
                XCTAssertTrue(result.stderr.contains("no other place: the search finds none for r\(k)"), result.stderr)
            }
        }
        XCTAssertGreaterThan(tried, 0, "rooms put where the session puts them")
        // A room of another level already where its session puts it (placed so and saved):
        // next searches too (it said "align r2 auto first").
        let tall = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 6, stories: 2, coreModelBytes: 1000, noise: 1))
        let (levels, _) = try ownFramesOfOneSession(tall, in: folder.appendingPathComponent("tall"))
        XCTAssertEqual(try Harness.run(levels + ["-c", "align --all auto", "-c", "save"]).status, 0)
        let upper = try XCTUnwrap(tall.captures.indices.first { tall.captures[$0].story == 1 }) + 1
        let again = try Harness.run(levels + ["-c", "align r\(upper) auto", "-c", "align r\(upper) next"])
        XCTAssertTrue(again.stderr.contains("already lies where its scan session puts it"), again.stderr)
        XCTAssertFalse(again.stderr.contains("auto first"), again.stderr)
    }

    /// Rooms of one session in its one frame, as an iOS 17 multi-room capture writes them, but
    /// meeting as real ones do: doorways seen from the two sides 15 cm apart along the wall and
    /// 6 cm apart in width (Apple's own 11-room sample meets its neighbours through doorways 4 to
    /// 25 cm apart along the wall, or seen once, and along a metre or two of wall). They stay where they are (Hallway1 of that sample was turned 89
    /// degrees onto Hallway2, and 9 rooms left as unsure); a room of them moved by hand is not
    /// kept where it was put, nor are rooms of separate sessions.
    func testRoomsOfOneFrameWhoseDoorwaysMeetLooselyStayWhereTheyAre() throws {
        let folder = try Harness.temporaryFolder(self)
        for seed: UInt64 in [11, 13] {
            let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 7, coreModelBytes: 1000, noise: 1))
            let paths = try oneSession(home, in: folder.appendingPathComponent("s\(seed)"))
            // The second room saw its doorways as real scans of one session do: 15 cm along the
            // wall from where the next room saw them, and 6 cm wider.
            for (index, path) in paths.enumerated() where index == 1 {
                guard case .room(var room) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) else {
                    return XCTFail("a room")
                }
                for k in room.doors.indices {
                    let along = room.doors[k].transform.column(0)
                    room.doors[k].transform.translation += SIMD3(along.x, 0, along.z) * 0.15
                    room.doors[k].dimensions.x += 0.06
                }
                for k in room.openings.indices {
                    let along = room.openings[k].transform.column(0)
                    room.openings[k].transform.translation += SIMD3(along.x, 0, along.z) * 0.15
                    room.openings[k].dimensions.x += 0.06
                }
                try Data(RoomPlanCodec.encode(.room(room))).write(to: URL(fileURLWithPath: path))
            }
            let kept = try Harness.run(paths + ["-c", "align --all auto"])
            XCTAssertEqual(kept.status, 0, kept.stderr)
            let others = (2...paths.count).map { "r\($0)" }.joined(separator: ", ")
            XCTAssertTrue(kept.stderr.contains("\(others) already meet the placed rooms where they are"), "seed \(seed): " + kept.stderr)
            XCTAssertTrue(kept.stderr.contains("placed no room: nothing changed"), kept.stderr)
            // One of them moved 30 cm by hand first is not left there.
            let moved = try Harness.run(paths + ["-c", "move r3 0.3 0", "-c", "align --all auto"])
            XCTAssertEqual(moved.status, 0, moved.stderr)
            let keptLine = moved.stderr.split(separator: "\n").first { $0.contains("already meet") }.map(String.init) ?? ""
            XCTAssertFalse(keptLine.replacingOccurrences(of: ",", with: " ").split(separator: " ").contains("r3"), moved.stderr)
            XCTAssertTrue(moved.stderr.contains("r3: score"), moved.stderr)
            // Nor one whose doorways open into its neighbours' walls, its walls on theirs: the
            // hallway turned about its middle, in its file.
            let turned = try oneSession(home, in: folder.appendingPathComponent("t\(seed)"))
            let hall = try XCTUnwrap(home.captures.indices.max { home.captures[$0].room.doors.count < home.captures[$1].room.doors.count })
            XCTAssertNotEqual(hall, 0)
            guard case .room(let hallway) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: turned[hall])))) else {
                return XCTFail("a room")
            }
            let ends = hallway.walls.flatMap { [$0.planSegment.start, $0.planSegment.end] }
            let middle = ends.reduce(PlanPoint.zero, +) * (1 / Double(ends.count))
            let about = RigidMotion(translation: SIMD3(middle.x, 0, middle.z)).composed(after: RigidMotion(yaw: .pi))
                .composed(after: RigidMotion(translation: SIMD3(-middle.x, 0, -middle.z)))
            try Data(RoomPlanCodec.encode(.room(hallway.moved(by: about)))).write(to: URL(fileURLWithPath: turned[hall]))
            let about180 = try Harness.run(turned + ["-c", "align --all auto"])
            let keptTurned = about180.stderr.split(separator: "\n").first { $0.contains("already meet") }.map(String.init) ?? ""
            XCTAssertFalse(keptTurned.replacingOccurrences(of: ",", with: " ").split(separator: " ").contains("r\(hall + 1)"), about180.stderr)
        }
    }

    /// A room met only through doorways seen wider from one side is left as unsure, not placed:
    /// real interior doors look alike (Apple's 11-room home put together from separate frames
    /// hung a living room and a dining room on such doorways alone, 6 and 7 m off).
    func testARoomMetOnlyThroughDoorwaysSeenWiderIsLeft() throws {
        let folder = try Harness.temporaryFolder(self)
        var left = 0
        for (seed, rooms) in [(9, 4), (10, 5), (15, 10), (26, 5)] {
            let out = folder.appendingPathComponent("s\(seed)")
            XCTAssertEqual(try Harness.run(["--rooms", "\(rooms)", "--seed", "\(seed)", "--real-doorways", "--out", out.path],
                                           executable: Harness.wbgen).status, 0)
            let paths = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("rooms").path).sorted()
                .map { out.appendingPathComponent("rooms").appendingPathComponent($0).path }
            let result = try Harness.run(paths + ["-c", "align --all auto"])
            XCTAssertEqual(result.status, 0, result.stderr)
            for line in result.stderr.split(separator: "\n") where line.contains(": score ") {
                XCTAssertFalse(line.contains("the doorway seen wider from one side") || line.contains("each doorway seen wider from one side"),
                               "seed \(seed): " + line)
            }
            if result.stderr.contains("not placed") { left += 1 }
        }
        XCTAssertGreaterThan(left, 0, "rooms met only so were left")
    }

    /// A home scanned in two sessions, each room exported to a file of its own: the second
    /// session's rooms share that session's frame, away from the first's. They meet one another
    /// where they lie, so they are searched for as one piece and each lands where it belongs
    /// (within a wall's thickness: nothing measures which face of a wall a scan saw). The same
    /// rooms each in a frame of their own make no piece.
    func testRoomsOfASecondSessionAreSearchedForAsOnePiece() throws {
        let folder = try Harness.temporaryFolder(self)
        var pieces = 0
        for seed: UInt64 in [11, 13, 21] {
            let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 8, coreModelBytes: 1000, noise: 1))
            let truth = try oneSession(home, in: folder.appendingPathComponent("truth\(seed)"))
            let paths = try oneSession(home, in: folder.appendingPathComponent("s\(seed)"))
            let second = Array(4..<paths.count)
            let session = RigidMotion(yaw: 2.1, translation: SIMD3(4, 0, -3))
            for index in second {
                guard case .room(let room) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[index])))) else {
                    return XCTFail("a room")
                }
                try Data(RoomPlanCodec.encode(.room(room.moved(by: session)))).write(to: URL(fileURLWithPath: paths[index]))
            }
            let result = try Harness.run(paths + ["-c", "align --all auto", "-c", "save"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let line = result.stderr.split(separator: "\n").first { $0.contains("lie in one frame, meeting") }.map(String.init) ?? ""
            let named = Set(line.components(separatedBy: " lie in")[0].components(separatedBy: ", ").filter { !$0.isEmpty })
            XCTAssertTrue(named.isSubset(of: Set(second.map { "r\($0 + 1)" })), "seed \(seed): only second-session rooms: " + result.stderr)
            if named.count >= 2 { pieces += 1 }
            // Every room of the second session placed lies at its place (within a wall's
            // thickness); none is placed elsewhere.
            var placed = 0
            for index in second {
                guard case .room(let now) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[index])))),
                      case .room(let then) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: truth[index])))) else {
                    return XCTFail("rooms")
                }
                let a = now.walls[0].planSegment, b = then.walls[0].planSegment
                let left = a.midpoint.distance(to: PlanPoint(session.apply(toPoint: SIMD3(b.midpoint.x, 0, b.midpoint.z)))) < 1e-4
                let off = a.midpoint.distance(to: b.midpoint)
                let turn = abs(a.direction.normalized.cross(b.direction.normalized))
                if off < 0.3 && turn < sin(2 * .pi / 180) {
                    placed += 1
                } else {
                    XCTAssertTrue(left, "seed \(seed): r\(index + 1) placed \(off) m off: " + result.stderr)
                }
            }
            if named.count >= 2 {
                XCTAssertGreaterThanOrEqual(placed, named.count, "seed \(seed): the piece placed: " + result.stderr)
                // Said once for the piece, with what it met.
                XCTAssertTrue(result.stderr.contains(line.components(separatedBy: " lie in")[0] + ": score "), "seed \(seed): " + result.stderr)
            }
            // Each room in a frame of its own: no piece.
            let apart = try oneSession(home, in: folder.appendingPathComponent("a\(seed)"))
            for (rank, index) in second.enumerated() {
                guard case .room(let room) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: apart[index])))) else {
                    return XCTFail("a room")
                }
                let own = RigidMotion(yaw: 0.7 + 1.3 * Double(rank), translation: SIMD3(3 * Double(rank), 0, -2))
                try Data(RoomPlanCodec.encode(.room(room.moved(by: own)))).write(to: URL(fileURLWithPath: apart[index]))
            }
            let separate = try Harness.run(apart + ["-c", "align --all auto"])
            XCTAssertFalse(separate.stderr.contains("lie in one frame, meeting"), "seed \(seed): " + separate.stderr)
        }
        XCTAssertGreaterThanOrEqual(pieces, 2, "second sessions were searched for as pieces")
    }

    /// The rooms of a second session lie in one frame: placed as a piece, they stay in it, each
    /// moved by the same motion, however each settles on its own walls. Settled one by one, the
    /// rooms of a real session (Apple's 11-room home, whose rooms disagree in heading by up to
    /// 3.3 degrees) were turned up to 2 degrees apart and slid along their walls, and some of
    /// them ended off their places.
    func testTheRoomsOfAPieceAreMovedAsOne() throws {
        let folder = try Harness.temporaryFolder(self)
        var compared = 0
        for seed: UInt64 in [11, 13, 21] {
            let home = BuildingGenerator.generate(BuildingSpec(seed: seed, rooms: 8, coreModelBytes: 1000, noise: 1))
            let paths = try oneSession(home, in: folder.appendingPathComponent("s\(seed)"))
            let second = Array(4..<paths.count)
            let session = RigidMotion(yaw: 2.1, translation: SIMD3(4, 0, -3))
            var before: [Int: PlanSegment] = [:]
            for index in second {
                guard case .room(let room) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[index])))) else {
                    return XCTFail("a room")
                }
                let moved = room.moved(by: session)
                before[index] = moved.walls[0].planSegment
                try Data(RoomPlanCodec.encode(.room(moved))).write(to: URL(fileURLWithPath: paths[index]))
            }
            let result = try Harness.run(paths + ["-c", "align --all auto", "-c", "save"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let line = result.stderr.split(separator: "\n").first { $0.contains("lie in one frame, meeting") }.map(String.init) ?? ""
            let piece = Set(line.components(separatedBy: " lie in")[0].components(separatedBy: ", ").filter { !$0.isEmpty })
            // Where each room of the piece was placed: the motion of its first wall.
            var motions: [(index: Int, yaw: Double, before: PlanSegment, after: PlanSegment)] = []
            for index in second where piece.contains("r\(index + 1)") {
                guard case .room(let now) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[index])))) else {
                    return XCTFail("a room")
                }
                let a = before[index]!.direction, b = now.walls[0].planSegment.direction
                let yaw = atan2(a.cross(b), a.dot(b))
                guard before[index]!.midpoint.distance(to: now.walls[0].planSegment.midpoint) > 1e-4 || abs(yaw) > 1e-5 else { continue }
                motions.append((index, yaw, before[index]!, now.walls[0].planSegment))
            }
            guard let first = motions.first else { continue }
            for other in motions.dropFirst() {
                compared += 1
                XCTAssertEqual(remainder(other.yaw - first.yaw, 2 * .pi), 0, accuracy: 1e-5, "seed \(seed): r\(other.index + 1) turned apart from r\(first.index + 1)")
                // The other room's wall, moved as the first room was, lies where the other was put.
                func moved(_ point: PlanPoint) -> PlanPoint {
                    let d = RigidMotion(yaw: first.yaw).apply(toPoint: SIMD3(point.x - first.before.midpoint.x, 0, point.z - first.before.midpoint.z))
                    return first.after.midpoint + PlanPoint(x: d.x, z: d.z)
                }
                XCTAssertLessThan(moved(other.before.midpoint).distance(to: other.after.midpoint), 1e-4,
                                  "seed \(seed): r\(other.index + 1) moved apart from r\(first.index + 1): " + result.stderr)
            }
        }
        XCTAssertGreaterThan(compared, 0, "pieces were placed")
    }

    /// A second session that began by scanning the first room again: its rescan lies in the
    /// piece's frame, on the first room when the piece is where it belongs. Searched for as a
    /// piece alone, whole homes were hung 3 to 20 m off, turned 90 degrees (an adversarial pass);
    /// now a room the two searches, by pieces and room by room, put in different places is left.
    func testARescanOfTheFirstRoomInsideASecondSessionHangsNothingWrongly() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 10, coreModelBytes: 1000, noise: 1, rescans: 3))
        XCTAssertEqual(home.captures.count, 13)
        /// A turn by `yaw` about (cx, cz), then a move by (tx, tz).
        func frame(_ yaw: Double, _ cx: Double, _ cz: Double, _ tx: Double, _ tz: Double) -> RigidMotion {
            RigidMotion(translation: SIMD3(tx, 0, tz)).composed(after: RigidMotion(yaw: yaw))
                .composed(after: RigidMotion(translation: SIMD3(-cx, 0, -cz)))
        }
        // The first room, four rooms each in a frame of its own, then the second session: the
        // first room's rescan (capture 10 or 11) and the other five, in one frame.
        let cases: [(order: [Int], frames: [RigidMotion])] = [
            ([5, 2, 3, 1, 0, 10, 9, 8, 7, 6, 4],
             [frame(0.7722, -6.948, -8.953, 0.484, 0.59), frame(2.78, -3.69, -11.241, 0.48, 0.845),
              frame(-2.9593, -9.762, -6.948, -0.069, 0.887), frame(0.936, -5.809, -6.091, 0.802, -0.774),
              frame(-0.1943, -13.748, -10.751, -0.507, 0.088)]),
            ([6, 5, 9, 3, 4, 11, 0, 2, 7, 8, 1],
             [frame(1.8431, -13.016, -7.625, 0.644, -0.03), frame(-1.4978, -16.635, -13.453, -0.999, 0.326),
              frame(-0.1869, -3.69, -11.241, 0.519, -0.254), frame(1.6973, -7.415, -11.738, -0.455, 0.604),
              frame(1.444, -11.388, -8.985, -0.172, 0.077)]),
        ]
        for (number, (order, frames)) in cases.enumerated() {
            let files = try writeSessions(home, order: order, in: folder.appendingPathComponent("c\(number)")) { rank in
                rank == 0 ? nil : frames[min(rank, 5) - 1]
            }
            let (result, _) = try alignAll(files)
            XCTAssertTrue(result.stderr.contains("r6, r7, r8, r9, r10, r11 lie in one frame, meeting"), result.stderr)
        }
    }

    /// A second session begun where the first began: its rooms lie over and beside the first
    /// session's, turned 1.7 degrees, one of them on a first-session room. Those that only lay
    /// along the first session's walls were kept there as its own ("already meet", 4 of 6 rooms,
    /// 2 to 5 m off); a room that cannot be where it is beside the rooms kept takes the rooms of
    /// its frame along (those meeting it as one session's rooms do), and the session is searched
    /// for as a piece instead.
    func testASecondSessionPiledOnTheFirstIsNotKeptInPlace() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 23, rooms: 10, coreModelBytes: 1000, noise: 1))
        let session = RigidMotion(yaw: 1.6872680942605 * .pi / 180, translation: SIMD3(-8.562828, 0, 10.723951))
        let files = try writeSessions(home, order: [0, 2, 5, 1, 6, 8, 9, 4, 7, 3], in: folder) { $0 < 4 ? nil : session }
        let (result, moved) = try alignAll(files)
        XCTAssertEqual(keptInPlace(result), ["r2", "r3", "r4"], "the first session's rooms only: " + result.stderr)
        XCTAssertGreaterThanOrEqual(moved.keys.filter { $0 >= 4 }.count, 4, "the second session placed: " + result.stderr)
    }

    /// A third session turned by chance within a fifth of a degree of a right angle from the
    /// first, its six rooms lying beside the first session's and meeting the first room along
    /// 1.25 m of wall: held by so little, they were kept there as the first session's own, and the
    /// first session's kitchen, its place taken, was placed wrongly. Rooms reached through one
    /// another are held to the rooms kept by 1.5 m of wall in all.
    func testASessionMeetingTheFirstAlongAMetreOfWallIsNotKeptInPlace() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 10, coreModelBytes: 1000, noise: 1))
        let second = RigidMotion(yaw: -78.53837601610662 * .pi / 180, translation: SIMD3(-4.357833, 0, 11.184362))
        let third = RigidMotion(yaw: -89.8177171095214 * .pi / 180, translation: SIMD3(-10.795157, 0, 13.027939))
        let files = try writeSessions(home, order: [0, 2, 5, 1, 6, 8, 9, 4, 7, 3], in: folder) { rank in
            rank < 3 ? nil : rank == 3 ? second : third
        }
        let (result, moved) = try alignAll(files)
        XCTAssertTrue(keptInPlace(result).isSubset(of: ["r2", "r3"]), "the first session's rooms only: " + result.stderr)
        XCTAssertGreaterThanOrEqual(moved.keys.filter { $0 >= 4 }.count, 4, "the third session placed: " + result.stderr)
    }

    /// A second session of seven rooms meeting the first room (alone in its session) through one
    /// doorway and three walls, score 5.4: counted with what its rooms agree in with one another,
    /// the piece passed the least score and was placed 90 degrees and 5 to 14 m off. Only what a
    /// piece meets among the placed rooms says where it goes.
    func testAPieceMeetingThePlacedRoomsTooLittleIsLeft() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 38, rooms: 8, noise: 1, realDoorways: true))
        let session = RigidMotion(yaw: 151.80722817312392 * .pi / 180, translation: SIMD3(-8.25372, 0, -15.087134))
        let files = try writeSessions(home, order: [0, 1, 2, 4, 6, 7, 3, 5], in: folder) { $0 == 0 ? nil : session }
        let (result, _) = try alignAll(files)
        XCTAssertTrue(result.stderr.contains("lie in one frame, meeting"), "the session is a piece: " + result.stderr)
    }

    /// A home of real-sized doorways scanned in two sessions: the dining room, in the first
    /// session's frame but not kept there (its doorway sides lie apart), stood alone in the
    /// search by pieces and was placed 0.33 m off on 11.6, overlapping its neighbour; the search
    /// room by room had it in doubt there. A room alone in both searches is placed only where
    /// the search room by room is sure of it; the second session's piece is placed still.
    func testALoneRoomTheSearchRoomByRoomDoubtsIsNotPlacedBySessions() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 22, rooms: 10, coreModelBytes: 1000, noise: 1, realDoorways: true))
        func frame(_ yaw: Double, _ cx: Double, _ cz: Double, _ tx: Double, _ tz: Double) -> RigidMotion {
            RigidMotion(translation: SIMD3(tx, 0, tz)).composed(after: RigidMotion(yaw: yaw))
                .composed(after: RigidMotion(translation: SIMD3(-cx, 0, -cz)))
        }
        let second = frame(3.1398257964047884, -7.909606277858367, -13.409981605590666, -10.04830232485441, -7.77450469715485)
        let files = try writeSessions(home, order: [2, 1, 0, 3, 6, 5, 8, 7, 4, 9], in: folder) { $0 < 3 ? nil : second }
        let (result, moved) = try alignAll(files)
        XCTAssertTrue(result.stderr.contains("r4, r6, r7, r8, r9, r10 lie in one frame, meeting"), result.stderr)
        XCTAssertNil(moved[2], "the dining room left where it is: " + result.stderr)
        XCTAssertGreaterThanOrEqual(moved.keys.filter { $0 >= 3 }.count, 5, "the second session placed: " + result.stderr)
    }

    /// A bedroom, its rescan, a bathroom and its rescan, with the hallway between them not
    /// opened: the bathroom and its rescan were hung together 11.6 m off on a look-alike door,
    /// each scoring 31 on what it agreed with the other, then 11.9 on the bedroom's wall and door
    /// counted twice (once in the bedroom's rescan): certain. A room is judged beside one scan of
    /// each other room and not its own other scans; a rescan is as sure as its first scan. The
    /// bedroom's rescan still lies on the bedroom.
    func testARoomAndItsRescanDoNotVouchForEachOther() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 101, rooms: 6, coreModelBytes: 1000, noise: 1, rescans: 2))
        let names = home.captures.map(\.fileName)
        let order = ["room-06-bedroom.json", "room-02-kitchen.json", "room-03-livingRoom.json", "room-05-bathroom.json",
                     "room-05-bathroom-rescan.json", "room-06-bedroom-rescan.json"].map { names.firstIndex(of: $0)! }
        let files = try writeSessions(home, order: order, in: folder) { rank in
            rank == 0 ? nil : RigidMotion(yaw: 0.9 * Double(rank), translation: SIMD3(2 * Double(rank), 0, -1))
        }
        let (result, moved) = try alignAll(files)
        XCTAssertNil(moved[3], "the bathroom left: " + result.stderr)
        XCTAssertNil(moved[4], "its rescan left: " + result.stderr)
        XCTAssertNotNil(moved[5], "the bedroom's rescan on the bedroom: " + result.stderr)
    }

    /// A living room and its rescan, one of which saw a door wider than the other did (as the
    /// two sides of a real doorway are seen): not taken for one room scanned twice, the living
    /// room was hung on a look-alike door 10.6 m off, its rescan placed right. A rescan's
    /// doorways may lie on its first scan's as one seen wider.
    func testARescanThatSawADoorWiderIsStillARescan() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 201, rooms: 7, stories: 2, noise: 1, rescans: 2, realDoorways: true))
        let paths = try Harness.captures(of: home, in: folder).paths
        let names = home.captures.map(\.fileName)
        let order = ["room-04-bathroom.json", "room-01-livingRoom-rescan.json", "room-01-livingRoom.json", "room-02-kitchen.json",
                     "room-03-unidentified.json", "room-05-bedroom.json", "room-06-bathroom.json", "room-07-bedroom-rescan.json",
                     "room-07-bedroom.json"].map { names.firstIndex(of: $0)! }
        let before = try order.map { try Data(contentsOf: URL(fileURLWithPath: paths[$0])) }
        let result = try Harness.run(order.map { paths[$0] } + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Every room moved lies where the truth puts it beside the first (within a wall's thickness).
        let anchor = home.captures[order[0]].placement
        for (rank, index) in order.enumerated().dropFirst() {
            let now = try Data(contentsOf: URL(fileURLWithPath: paths[index]))
            guard now != before[rank], case .room(let room) = try RoomPlanCodec.decode(Array(now)) else { continue }
            let truth = home.captures[index].room.moved(by: anchor.inverse.composed(after: home.captures[index].placement))
            let off = room.walls[0].planSegment.midpoint.distance(to: truth.walls[0].planSegment.midpoint)
            XCTAssertLessThan(off, 0.3, "r\(rank + 1) (\(names[index])) placed \(off) m off: " + result.stderr)
        }
    }

    /// An 11-room home of two look-alike living room and kitchen pairs, its first room and a
    /// kitchen one session, the other living room and kitchen a second, the rest each a session
    /// of its own: the second session's piece was hung on the first's look-alikes, 20 m off and
    /// turned 90 degrees, on 18.8 (an adversarial pass), where the search room by room had both
    /// its rooms in doubt at their places. A piece is placed only where that search does not
    /// doubt every one of its rooms.
    func testAPieceWhoseRoomsTheSearchRoomByRoomDoubtsIsNotPlaced() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 304, rooms: 11, noise: 1))
        func motion(_ yaw: Double, _ x: Double, _ y: Double, _ z: Double) -> RigidMotion {
            RigidMotion(translation: SIMD3(x, y, z)).composed(after: RigidMotion(yaw: yaw))
        }
        let frames: [Int: RigidMotion] = [
            0: motion(0.7584105104252157, -24.038872229522898, 0, 2.6326877893462797),
            1: motion(0.7584105104252157, -24.038872229522898, 0, 2.6326877893462797),
            2: motion(2.5901304787474126, -33.60444122356304, 0.236, 16.88973826210466),
            3: motion(0.27461309483647944, -15.990199079790242, -0.152, 4.418773905403403),
            4: motion(-0.4428755328060283, -14.571835421782772, 0.281, 5.485183398066433),
            5: motion(0.1226490723231233, -24.084769811245547, 0.353, 3.357191164909385),
            8: motion(-0.7702556306969911, -18.499451999640165, -0.322, 6.813231833037959),
            9: motion(1.7587349464662116, -28.423336414985386, -0.0999, 5.491721471601085),
            10: motion(1.8540812926158572, -25.864492722907766, 0.29, 2.2941162666152515),
        ]
        let order = [7, 0, 1, 2, 3, 4, 5, 6, 8, 9, 10]
        let files = try writeSessions(home, order: order, in: folder) { rank in frames[order[rank]] }
        let (result, _) = try alignAll(files)
        XCTAssertTrue(result.stderr.contains("r2, r3 lie in one frame, meeting"), "the second session is a piece: " + result.stderr)
    }

    /// A home scanned in sessions: `home`'s captures in `order`, each where the truth puts it in
    /// the first capture's frame and then moved by `frame(rank)` (nil: left there), written to
    /// `folder` as r01.json, r02.json, ...; with where each one's first wall belongs.
    private func writeSessions(_ home: GeneratedBuilding, order: [Int], in folder: URL,
                               frame: (Int) -> RigidMotion?) throws -> (paths: [String], truth: [PlanSegment]) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var truth: [PlanSegment] = []
        var paths: [String] = []
        for (rank, index) in order.enumerated() {
            let capture = home.captures[index]
            let placed = capture.room.moved(by: home.captures[0].placement.inverse.composed(after: capture.placement))
            truth.append(placed.walls[0].planSegment)
            let path = folder.appendingPathComponent(String(format: "r%02d.json", rank + 1)).path
            try Data(RoomPlanCodec.encode(.room(frame(rank).map { placed.moved(by: $0) } ?? placed))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        return (paths, truth)
    }

    /// `align --all auto` and `save` over the files: the run (asserted to succeed), and for each
    /// room it moved (by rank) how far its first wall's middle then lies from where it belongs
    /// (asserted under 0.3 m: right, or across its wall, never placed wrongly).
    private func alignAll(_ files: (paths: [String], truth: [PlanSegment]), file: StaticString = #filePath,
                          line: UInt = #line) throws -> (result: Harness.Result, moved: [Int: Double]) {
        let before = try files.paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let result = try Harness.run(files.paths + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        var moved: [Int: Double] = [:]
        for rank in 1..<files.paths.count {
            let now = try Data(contentsOf: URL(fileURLWithPath: files.paths[rank]))
            guard now != before[rank] else { continue }
            guard case .room(let room) = try RoomPlanCodec.decode(Array(now)) else {
                XCTFail("r\(rank + 1) is a room", file: file, line: line)
                continue
            }
            moved[rank] = room.walls[0].planSegment.midpoint.distance(to: files.truth[rank].midpoint)
            // Every room moved is placed right or across its wall, never further.
            XCTAssertLessThan(moved[rank]!, 0.3, "r\(rank + 1) placed \(moved[rank]!) m off: " + result.stderr, file: file, line: line)
        }
        return (result, moved)
    }

    /// The rooms a run said it kept where they were ("... already meet the placed rooms ...").
    private func keptInPlace(_ result: Harness.Result) -> Set<String> {
        let kept = result.stderr.split(separator: "\n").first { $0.contains("already meet") }.map(String.init) ?? ""
        return Set(kept.components(separatedBy: " already")[0].components(separatedBy: ", ").filter { !$0.isEmpty })
    }

    /// A room with no walls has nothing to be put beside others by: both `align ROOM auto` and
    /// `align --all auto` say that, not that no place is certain enough, and move nothing.
    func testARoomWithNoWallsIsSaidToHaveNone() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 3))
        let paths = try Harness.captures(of: home, in: folder).paths
        guard case .room(var bare) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[2])))) else {
            return XCTFail("a room")
        }
        bare.walls = []
        bare.doors = []
        bare.windows = []
        bare.openings = []
        try Data(RoomPlanCodec.encode(.room(bare))).write(to: URL(fileURLWithPath: paths[2]))
        let before = try Data(contentsOf: URL(fileURLWithPath: paths[2]))
        let all = try Harness.run(paths + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stderr.contains("r3 was not placed: it has no walls, and rooms are put beside others by their walls and doorways"),
                      all.stderr)
        XCTAssertFalse(all.stderr.contains("r3 was not placed: no place") || all.stderr.contains("r2, r3 were not placed"), all.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[2])), before, "the room without walls not moved")
        let one = try Harness.run(paths + ["-c", "align r3 auto"])
        XCTAssertNotEqual(one.status, 0)
        XCTAssertTrue(one.stderr.contains("error: r3 has no walls, and rooms are put beside others by their walls and doorways: "
                                          + "move and rotate put it by hand"), one.stderr)
        // Opened first, it stays, and the others have nothing to be put beside: said so.
        let first = try Harness.run([paths[2], paths[0], paths[1], "-c", "align --all auto"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("r2, r3 were not placed: r1, the first room (it stays where it is), has no walls, and rooms "
                                            + "are put beside others by their walls and doorways (open first a room with walls)"), first.stderr)
        XCTAssertFalse(first.stderr.contains("certain enough"), first.stderr)
    }

    private func oneSession(_ home: GeneratedBuilding, in folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try home.captures.map { capture in
            let room = capture.room.moved(by: home.captures[0].placement.inverse.composed(after: capture.placement))
            let path = folder.appendingPathComponent(capture.fileName).path
            try Data(RoomPlanCodec.encode(.room(room))).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// A room that meets the placed rooms but is visibly off its place (moved along, raised, turned,
    /// or hung on a look-alike doorway by hand) is not kept: it goes to the best place found. After
    /// a keep, `next` puts the room where `--best` does; after an undo, `next` is refused (it undid
    /// a move again that was already undone and put the room some 18 m off).
    func testARoomOffItsPlaceIsAlignedAndNextFollowsTheSession() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 11, rooms: 6, coreModelBytes: 1000, noise: 1))
        let paths = try oneSession(home, in: folder.appendingPathComponent("a"))
        let kept = try Harness.run(paths + ["-c", "align r4 auto"])
        XCTAssertTrue(kept.stderr.contains("r4 already meets the placed rooms where it is"), kept.stderr)
        for (edit, what) in [("move r4 0.3 0", "30 cm along"), ("move r4 0 0 0.5", "half a metre up"), ("rotate r4 3", "turned 3 degrees")] {
            // (The others kept where they are first: beside them all, the best place is certain.)
            let off = try Harness.run(paths + ["-c", "align --all auto", "-c", edit, "-c", "align r4 auto"])
            XCTAssertEqual(off.status, 0, off.stderr)
            XCTAssertFalse(off.stderr.contains("already meets"), what + ": " + off.stderr)
            XCTAssertTrue(off.stderr.contains("r4 placed (candidate 1 of"), what + ": " + off.stderr)
        }
        // After a keep, next and --best put the room in the same place.
        let other = try oneSession(home, in: folder.appendingPathComponent("b"))
        XCTAssertEqual(try Harness.run(paths + ["-c", "align r4 auto --best", "-c", "save"]).status, 0)
        let viaNext = try Harness.run(other + ["-c", "align r4 auto", "-c", "align r4 next", "-c", "save"])
        XCTAssertTrue(viaNext.stderr.contains("r4 placed (candidate 1 of"), viaNext.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[3])), try Data(contentsOf: URL(fileURLWithPath: other[3])))
        // After an undo, next is refused and nothing moves.
        let undone = try Harness.run(other + ["-c", "align r4 auto --best", "-c", "undo", "-c", "align r4 next"])
        XCTAssertEqual(undone.status, 1, undone.stderr)
        XCTAssertTrue(undone.stderr.contains("the session changed since align r4 auto (an undo, or another edit)"), undone.stderr)
    }

    /// A rescan merged with its first scan: merge names the two as one room scanned twice (and
    /// does not call the doorway they and the next room saw "more than two sides"), and `check`
    /// says their floors lie on one another over most of each, not that one is misplaced.
    func testARoomScannedTwiceIsNamedByMergeAndCheck() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 10, rooms: 5, coreModelBytes: 1000, noise: 1, rescans: 1))
        let paths = try oneSession(home, in: folder)
        let rescan = try XCTUnwrap(home.captures.firstIndex { $0.rescanOf != nil })
        let first = try XCTUnwrap(home.captures.firstIndex { $0.fileName == home.captures[rescan].rescanOf })
        let run = try Harness.run(paths + ["-c", "merge --into m", "-c", "check m"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let all = run.stdout + run.stderr
        XCTAssertTrue(all.contains("r\(first + 1) and r\(rescan + 1) lie on one another over most of their floors: one room scanned twice"), all)
        XCTAssertFalse(all.contains("more than the two sides"), all)
        let overlaps = run.stdout.split(separator: "\n").filter { $0.hasPrefix("rooms-overlap") }
        XCTAssertEqual(overlaps.count, 1, run.stdout)
        XCTAssertTrue(overlaps.first.map { $0.hasSuffix("(one room scanned twice?)") } == true, run.stdout)
        // --json: the same finding, its problem as `kind`, the rooms as `handles`, the first as `handle`.
        let json = try Harness.run(paths + ["-q", "--json", "-c", "merge --into m", "-c", "check m"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let findings = try Harness.jsonArray(json.stdout).filter { $0["kind"] as? String == "rooms-overlap" }
        XCTAssertEqual(findings.count, 1, json.stdout)
        let names = try XCTUnwrap(findings.first?["handles"] as? [String])
        // (The structure's own nested copies of the two rooms, as the table names them.)
        let row = try XCTUnwrap(overlaps.first)
        XCTAssertEqual(names.count, 2, json.stdout)
        XCTAssertTrue(names.allSatisfy { $0.hasPrefix("r") && row.contains($0) }, "\(names) in \(row)")
        XCTAssertEqual(findings.first?["handle"] as? String, names.first)
        XCTAssertTrue((findings.first?["message"] as? String)?.contains("one room scanned twice") == true, json.stdout)
    }

    /// A structure opened with room files of a second visit: the structure's rooms stay, and
    /// every room file is put beside them. The first room file was kept in its own scan's
    /// frame (an anchor as if no structure were open), 4.5 m off its place, and not a word.
    func testWithAStructureOpenEveryRoomFileIsPlaced() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 7, rooms: 4, coreModelBytes: 1000, noise: 1))
        let structure = folder.appendingPathComponent("structure.json").path
        try Data(RoomPlanCodec.encode(.structure(home.structure))).write(to: URL(fileURLWithPath: structure))
        let paths = try Harness.captures(of: home, in: folder).paths
        let run = try Harness.run(["-q", structure] + paths + ["-c", "align --all auto", "-c", "save"])
        XCTAssertEqual(run.status, 0, run.stderr)
        for (path, capture) in zip(paths, home.captures) {
            guard case .room(let room) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) else {
                return XCTFail(path)
            }
            let truth = capture.room.walls[0].moved(by: capture.placement).transform.translation
            XCTAssertLessThan(room.walls[0].transform.translation.distance(to: truth), 0.45, "\(capture.fileName) on its place")
        }
    }

    /// An option of another form of `align` is refused with what it is for: `align --all auto
    /// --offset 3` went into the history as given, the offset ignored.
    func testAlignRefusesOptionsOfAnotherForm() throws {
        let folder = try Harness.temporaryFolder(self)
        let home = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 3))
        let paths = try Harness.captures(of: home, in: folder).paths
        for (command, said) in [("align --all auto --offset 3", "--offset does nothing in align --all auto: it is for align ROOM using A to B"),
                                ("align r2 auto --flip", "--flip does nothing in align ROOM auto"),
                                ("align r2 next --best", "--best does nothing in align ROOM next"),
                                ("align r2 using w9 to w1 --best", "--best does nothing in align ROOM using A to B: it is for align ROOM auto")] {
            let run = try Harness.run(paths + ["-c", command, "-c", "history"])
            XCTAssertEqual(run.status, 1, command)
            XCTAssertTrue(run.stderr.contains(said), command + ": " + run.stderr)
            XCTAssertFalse(run.stdout.contains("align"), "nothing in the history: \(run.stdout)")
        }
        // Its forms, one a line (the synopsis read "align ROOM [using A to B ...]", as if pairs repeated).
        let help = try Harness.run(["-c", "help align"])
        XCTAssertTrue(help.stdout.hasPrefix("usage: align ROOM using A to B [--flip] [--offset D] [--along D]\n       align ROOM auto [--best]\n"
                                            + "       align ROOM next\n       align --all auto [--best]\n"), help.stdout)
    }
}
