import Foundation
import StructureModel
import XCTest

/// Editing through the built wb: each command, undo and history, and saving without risk.
final class EditingTests: XCTestCase {
    var folder: URL!
    var path = ""
    var original = Data()

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
        // A generated structure: rooms with sections, doors, windows, chairs with tables.
        let building = BuildingGenerator.generate(BuildingSpec(seed: 31, rooms: 6, stories: 2))
        path = folder.appendingPathComponent("home.json").path
        original = Data(RoomPlanCodec.encode(.structure(building.structure)))
        try original.write(to: URL(fileURLWithPath: path))
    }

    private func document() throws -> RoomPlanDocument {
        try RoomPlanCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// A generated room, changed by `edit`, written as NAME in the test's folder: its path and bytes.
    private func writtenRoom(_ name: String, _ edit: (inout CapturedRoom) -> Void) throws -> (path: String, bytes: Data) {
        var room = BuildingGenerator.generate(BuildingSpec(seed: 31, rooms: 2)).captures[0].room
        edit(&room)
        let file = folder.appendingPathComponent(name).path
        let bytes = Data(RoomPlanCodec.encode(.room(room)))
        try bytes.write(to: URL(fileURLWithPath: file))
        return (file, bytes)
    }

    private func structure() throws -> CapturedStructure {
        guard case .structure(let structure) = try document() else { throw XCTSkip("not a structure") }
        return structure
    }

    func testEditsSaveAndReopen() throws {
        let result = try Harness.run(["-q", path, "-c", "label r2 bathroom; story r3 4; elevate r3 0.5; move r1 1 -2; rotate r1 90; save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let saved = try structure()
        XCTAssertEqual(saved.rooms[1].sections[0].label, "bathroom")
        XCTAssertEqual(saved.merged.sections[1].label, "bathroom", "the structure-level section follows its room")
        XCTAssertEqual(saved.rooms[2].story, 4)
        XCTAssertTrue(saved.rooms[2].walls.allSatisfy { $0.story == 4 })
        XCTAssertTrue(saved.rooms[2].objects.allSatisfy { $0.story == 4 })
        let before = try RoomPlanCodec.decode([UInt8](original))
        guard case .structure(let old) = before else { return XCTFail() }
        XCTAssertEqual(saved.rooms[2].walls[0].transform.translation.y, old.rooms[2].walls[0].transform.translation.y + 0.5, accuracy: 1e-5)
        XCTAssertEqual(remainder(saved.rooms[0].walls[0].transform.yaw - old.rooms[0].walls[0].transform.yaw, 2 * .pi),
                       .pi / 2, accuracy: 1e-5, "turned a quarter")
    }

    func testRotateAboutAPoint() throws {
        guard case .structure(let old) = try RoomPlanCodec.decode([UInt8](original)) else { return XCTFail() }
        let result = try Harness.run(["-q", path, "-c", "rotate r1 180 --about 0 0; save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let before = old.rooms[0].walls[0].transform.translation
        let after = try structure().rooms[0].walls[0].transform.translation
        XCTAssertEqual(after.x, -before.x, accuracy: 1e-5, "a half turn about the origin mirrors x")
        XCTAssertEqual(after.z, -before.z, accuracy: 1e-5)
        XCTAssertEqual(after.y, before.y, accuracy: 1e-6)
    }

    func testSetAndDeleteAndRestore() throws {
        guard case .structure(let old) = try RoomPlanCodec.decode([UInt8](original)) else { return XCTFail() }
        // Find a chair's handle: objects are numbered across rooms in order.
        let objects = old.rooms.flatMap(\.objects)
        let chairIndex = try XCTUnwrap(objects.firstIndex { $0.category == .chair })
        let chair = "o\(chairIndex + 1)"
        let result = try Harness.run(["-q", path, "-c", "set \(chair) ChairType stool; set \(chair) confidence low; "
                                      + "set d1 open true; delete w1; delete \(chair); restore \(chair); save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let saved = try structure()
        let savedChair = saved.rooms.flatMap(\.objects).first { $0.identifier == objects[chairIndex].identifier }!
        XCTAssertEqual(savedChair.attribute("ChairType"), "stool")
        XCTAssertEqual(savedChair.confidence, .low)
        XCTAssertEqual(saved.rooms[0].doors[0].category, .door(isOpen: true))
        XCTAssertEqual(saved.rooms[0].walls.count, old.rooms[0].walls.count - 1)
        XCTAssertFalse(saved.rooms[0].walls.contains { $0.identifier == old.rooms[0].walls[0].identifier })
        XCTAssertEqual(saved.rooms.flatMap(\.objects).map(\.identifier), objects.map(\.identifier), "restored in place")
    }

    func testUndoRedoHistoryAndTheRedoBranch() throws {
        let result = try Harness.run(["-q", path, "-c", "move r1 1 0; label r1 bedroom; undo; history; redo; history; undo 2; "
                                      + "story r2 1; redo"])
        XCTAssertEqual(result.status, 1, "redo after a new edit has nothing to redo")
        XCTAssertEqual(result.stdout, """
               1  move r1 1 0
               2  label r1 bedroom   (undone; redo brings it back)
               1  move r1 1 0
               2  label r1 bedroom

            """)
        XCTAssertTrue(result.stderr.contains("error: nothing to redo"), result.stderr)
        let nothing = try Harness.run(["-q", path, "-c", "undo"])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.hasPrefix("wb: -c:1:1: error: nothing to undo"), nothing.stderr)
    }

    func testUndoToTheStartAndSaveGivesTheOriginalBytes() throws {
        let doors = try Harness.jsonArray(try Harness.run(["-q", "--json", path, "-c", "ls doors"]).stdout)
        let isOpen = try XCTUnwrap(doors.first { $0["handle"] as? String == "d2" }?["open"] as? Bool)
        let result = try Harness.run(["-q", path, "-c", "move r1 1.5 2; rotate r2 33; story r3 2; delete w4; set d2 open \(!isOpen); "
                                      + "name r1 Hall; undo 6; save --force"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }

    func testAScriptIsOneUndoStep() throws {
        let script = folder.appendingPathComponent("fix.wb").path
        try "move r1 1 0\nlabel r2 kitchen\nstory r3 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Harness.run(["-q", path, "-f", script, "-c", "history; undo; history; diff"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "   1  -f \(script)\n   1  -f \(script)   (undone; redo brings it back)\n",
                       "after undoing the script nothing differs from the disk")
        let sourced = try Harness.run(["-q", path, "-c", "source \(script); undo; diff"])
        XCTAssertEqual(sourced.stdout, "")
        XCTAssertTrue(sourced.stderr.isEmpty, sourced.stderr)
    }

    func testUndoInsideAScriptTakesBackItsOwnLastCommand() throws {
        let script = folder.appendingPathComponent("fix.wb").path
        try "move r1 1 0\nundo\nlabel r2 unidentified\n".write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Harness.run(["-q", path, "-f", script, "-c", "history; diff"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "   1  -f \(script)")
        XCTAssertFalse(result.stdout.contains("moved"), "the script's own undo took the move back")
        XCTAssertTrue(result.stdout.contains("label kitchen → unidentified"), result.stdout)
    }

    func testNamesLiveInASidecarAndSurviveReopening() throws {
        let result = try Harness.run(["-q", path, "-c", "name r2 \"Guest bedroom\"; name s1 Lounge; save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "names never go into the RoomPlan file")
        let sidecar = folder.appendingPathComponent("home.wb.json").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar))
        let reopened = try Harness.run(["-q", path, "-c", "label \"Guest bedroom\" diningRoom; move Lounge 1 0; diff"])
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        XCTAssertTrue(reopened.stdout.contains("home: s2: label"), reopened.stdout)
        XCTAssertTrue(reopened.stdout.contains("home: w1: moved 1.000 m"), reopened.stdout)
    }

    func testDiffNamesWhatChanged() throws {
        let result = try Harness.run(["-q", path, "-c", "set d1 confidence low; delete n1; diff"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("home: d1: confidence") && $0.hasSuffix("→ low") }, result.stdout)
        XCTAssertTrue(lines.contains("home: n1: deleted"), result.stdout)
        // The structure-level copy of the window went with it, under its own handle.
        let listing = try Harness.run(["-q", "--json", path, "-c", "ls windows where level = structure and room = r1"])
        let twin = try XCTUnwrap(try Harness.jsonArray(listing.stdout).first?["handle"] as? String)
        XCTAssertTrue(lines.contains("home: \(twin): deleted"), result.stdout)
    }

    /// wb opens the file, then waits on its standard input; meanwhile another program
    /// rewrites the file. wb's save must refuse, and save --force must overwrite.
    private func runWhileFileChanges(_ commands: String) throws -> Harness.Result {
        let process = Process()
        process.executableURL = Harness.wb
        process.arguments = ["-q", path]
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        let other = BuildingGenerator.generate(BuildingSpec(seed: 99, rooms: 2))
        try Data(RoomPlanCodec.encode(.room(other.captures[0].room))).write(to: URL(fileURLWithPath: path))
        input.fileHandleForWriting.write(Data(commands.utf8))
        try input.fileHandleForWriting.close()
        let stderr = error.fileHandleForReading.readDataToEndOfFile()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Harness.Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                              stderr: String(decoding: stderr, as: UTF8.self))
    }

    func testSaveRefusesAFileChangedOnDisk() throws {
        let refused = try runWhileFileChanges("move r1 1 0\nsave\n")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("error: \(path) changed on disk since it was opened (save --force to overwrite it anyway)"),
                      refused.stderr)
        let theirs = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertNotEqual(theirs, original, "the other program's version is still there")

        try original.write(to: URL(fileURLWithPath: path))
        let forced = try runWhileFileChanges("move r1 1 0\nsave --force\n")
        XCTAssertEqual(forced.status, 0, forced.stderr)
        guard case .structure(let saved) = try document() else { return XCTFail("wb's structure replaced theirs") }
        XCTAssertEqual(saved.rooms.count, 6)
    }

    func testAtomicSaveSurvivesACrashBeforeTheRename() throws {
        let result = try Harness.run(["-q", path, "-c", "move r1 5 5; save"], environment: ["WB_TEST_CRASH_BEFORE_RENAME": "1"])
        XCTAssertEqual(result.status, 70, "wb died in the middle of saving")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "the original is intact")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".home.json.wb-") }
        XCTAssertEqual(leftovers.count, 1, "only a temporary file, never a half-written target")
    }

    func testSaveKeepsTheModeAndRefusesBadTargets() throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let result = try Harness.run(["-q", path, "-c", "move r1 1 0; save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o640)

        let missing = folder.appendingPathComponent("no/such/folder/out.json").path
        let bad = try Harness.run(["-q", path, "-c", "move r1 1 0; save \(missing)"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("cannot save \(missing): the folder \(folder.path)/no/such/folder does not exist"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
        // With names to write beside it, the message is the same: the names file's path is
        // wb's business, not the person's.
        let named = try Harness.run(["-q", path, "-c", "name r1 Hall; save \(missing)"])
        XCTAssertEqual(named.status, 1)
        XCTAssertTrue(named.stderr.contains("cannot save \(missing): the folder \(folder.path)/no/such/folder does not exist"), named.stderr)
        XCTAssertFalse(named.stderr.contains(".wb.json"), named.stderr)
    }

    func testSaveIntoAFolderThatCannotBeWritten() throws {
        let locked = folder.appendingPathComponent("locked").path
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let target = locked + "/out.json"
        var arguments = ["-q", path, "-c", "move r1 1 0; save \(target)"]
        var executable = Harness.wb
        if getuid() == 0 {
            // Root writes anywhere; run wb as an unprivileged user to see what a user sees.
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("running as root without setpriv(1): cannot drop privileges to test EACCES")
            }
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Harness.wb.path] + arguments
            executable = URL(fileURLWithPath: "/usr/bin/setpriv")
        }
        let result = try Harness.run(arguments, executable: executable)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("error: cannot save \(target): cannot write in \(locked): permission denied"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked), [], "no temporary file left behind")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }

    func testDryRunWritesNothing() throws {
        let copy = folder.appendingPathComponent("copy.json").path
        let result = try Harness.run(["--dry-run", path, "-c", "move r1 1 0; name r1 Hall; save; save \(copy)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("home.wb.json").path))
        XCTAssertTrue(result.stderr.contains("would write \(path)"), result.stderr)
        // What the real write refuses, the dry run refuses the same way (a script checked dry then
        // failed for real): a folder as the target, a missing folder, the open scan itself.
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for command in ["export structure \(sub.path)", "export csv /nonexistent-wb/x.csv", "export structure \(path)",
                        "export svg \(sub.path)", "save \(sub.path)"] {
            let dry = try Harness.run(["--dry-run", path, "-c", command])
            let real = try Harness.run([path, "-c", command])
            XCTAssertEqual(dry.status, 1, command + ": " + dry.stderr)
            XCTAssertEqual(real.status, 1, command + ": " + real.stderr)
            XCTAssertFalse(dry.stderr.contains("would write"), command + ": " + dry.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }

    func testBadEditsAreLocatedAndChangeNothing() throws {
        let result = try Harness.run(["-q", "-k", path, "-c", "story r1 1000000000; move r1 nan 0; move r1 1e9 0; label r1 garage; "
                                      + "set o1 SofaType round; move r99 1 0; set w1 open true; restore w1; diff"])
        XCTAssertEqual(result.status, 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("wb: -c:") }.map(String.init)
        XCTAssertEqual(errors.count, 8, result.stderr)
        XCTAssertTrue(errors[0].contains("error: story 1000000000 is out of range"), errors[0])
        XCTAssertTrue(errors[1].contains("error: DX must be a number, not 'nan'"), errors[1])
        XCTAssertTrue(errors[2].contains("error: DX 1e9 is out of range"), errors[2])
        XCTAssertTrue(errors[3].contains("error: 'garage' is not a RoomPlan section label"), errors[3])
        XCTAssertTrue(errors[5].contains("error: there is no r99 (rooms: r1 to r6)"), errors[5])
        // A unit wb does not know is named as such (it said "must be a number").
        let unit = try Harness.run(["-q", path, "-c", "move r1 10km 0"])
        XCTAssertEqual(unit.status, 1)
        XCTAssertTrue(unit.stderr.contains("error: DX takes a length: a number of metres, or with mm, cm, m, ft or in (not '10km')"), unit.stderr)
        XCTAssertTrue(errors[6].contains("error: only doors open"), errors[6])
        XCTAssertTrue(errors[7].contains("error: it is not deleted"), errors[7])
        XCTAssertEqual(result.stdout, "", "nothing changed, so diff prints nothing")
    }

    /// `--section N` on a room with no sections (every iOS 16 capture, or `"sections": []`) said
    /// the room has none, as the command without it does: it read past the end (an adversarial pass).
    func testPickingASectionOfARoomWithNoneIsAnError() throws {
        let (file, bytes) = try writtenRoom("bare.json") { $0.sections = [] }
        let result = try Harness.run(["-q", file, "-c", "label r1 kitchen --section 1; save"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("error: r1 has no sections (an iOS 16 capture)"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), bytes)
        // A handle of a kind nothing open has says so ("no openings are open" read oddly).
        let (bare, _) = try writtenRoom("bare.json") { $0.sections = []; $0.openings = [] }
        let none = try Harness.run(["-q", bare, "-c", "show p1"])
        XCTAssertTrue(none.stderr.contains("error: there is no p1 (nothing open has openings)"), none.stderr)
    }

    /// A UUID may be written in small letters (a file another tool rewrote): a door whose
    /// parent names its wall in capitals while the wall's identifier is in small letters was
    /// warned about on opening, found "dangling" by check, listed without its wall, and lost
    /// its wall in exports (an adversarial pass). The file keeps its own spelling.
    func testIdentifiersMatchTheirParentsInEitherCase() throws {
        var capitalParents = false
        let (file, bytes) = try writtenRoom("cases.json") { room in
            for index in room.walls.indices { room.walls[index].identifier = room.walls[index].identifier.lowercased() }
            capitalParents = room.doors.contains { $0.parentIdentifier.map { $0 != $0.lowercased() } ?? false }
        }
        XCTAssertTrue(capitalParents, "a door names its wall in capitals")
        let checked = try Harness.run(["--json", file, "-c", "check"])
        XCTAssertEqual(checked.status, 0, checked.stderr)
        XCTAssertFalse(checked.stderr.contains("is not an element"), checked.stderr)
        XCTAssertEqual(try Harness.jsonArray(String(checked.stdout[checked.stdout.range(of: "[")!.lowerBound...])).count, 0, checked.stdout)
        let doors = try Harness.run(["-q", "--json", file, "-c", "ls doors"])
        let rows = try Harness.jsonArray(doors.stdout)
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { ($0["parent"] as? String)?.hasPrefix("w") == true }, "\(rows)")
        let saved = folder.appendingPathComponent("cases-copy.json").path
        XCTAssertEqual(try Harness.run(["-q", file, "-c", "save \(saved)"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: saved)), bytes, "each identifier spelled as the file spells it")
    }

    /// Deleting a wall a door hangs on says, as a warning `-q` does not hide, which elements now
    /// point at nothing: the room's doors and windows and the structure-level copies on the
    /// structure's wall that went with it (a note, hidden by -q, counted the room's only, and
    /// `save` then wrote the dangling parents without a word).
    func testDeletingAWallWarnsWhichElementsPointAtNothing() throws {
        let walls = try Harness.jsonArray(try Harness.run(["-q", "--json", path, "-c", "ls walls"]).stdout)
        func children(_ handle: String) throws -> [String] {
            let shown = try JSONSerialization.jsonObject(with: Data(try Harness.run(["-q", "--json", path, "-c", "show \(handle)"]).stdout.utf8))
            return (shown as? [String: Any])?["children"] as? [String] ?? []
        }
        // A room's wall with children whose structure-level copy (same identifier) stands for that room alone.
        var picked: (wall: String, own: [String], copy: String, copies: [String])?
        for wall in walls where wall["level"] as? String == "room" {
            guard let identifier = wall["identifier"] as? String, let room = wall["room"] as? String,
                  let copy = walls.first(where: { $0["level"] as? String == "structure" && $0["identifier"] as? String == identifier
                                                  && $0["rooms"] as? [String] == [room] }),
                  let handle = wall["handle"] as? String, let copyHandle = copy["handle"] as? String else { continue }
            let own = try children(handle), copies = try children(copyHandle)
            if !own.isEmpty && !copies.isEmpty {
                picked = (handle, own, copyHandle, copies)
                break
            }
        }
        let (wall, own, copy, copies) = try XCTUnwrap(picked, "the generated home has a wall with a door or window")
        let saved = folder.appendingPathComponent("saved.json").path
        let result = try Harness.run(["-q", path, "-c", "delete \(wall)", "-c", "save \(saved)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let orphans = own + copies
        let warning = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.contains("now point") }, result.stderr)
        XCTAssertTrue(warning.hasPrefix("wb: warning: \(orphans.count) elements now point at a parent that is gone: "), String(warning))
        XCTAssertTrue(warning.contains(own.joined(separator: ", ") + " (on \(wall))"), String(warning))
        XCTAssertTrue(warning.contains(copies.joined(separator: ", ") + " (on \(copy), the structure-level wall that went with it)"), String(warning))
        let saveWarning = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.contains("at a parent that is not there") }, result.stderr)
        XCTAssertTrue(saveWarning.contains("(\(orphans.joined(separator: ", ")))"), String(saveWarning))
        // What the warnings said is what a reopen finds.
        let reopened = try Harness.run([saved, "-c", "echo"])
        XCTAssertEqual(reopened.stderr.components(separatedBy: "parentIdentifier: parent").count - 1, orphans.count, reopened.stderr)
    }

    /// Putting a door back while its wall is still deleted leaves it pointing at nothing, as the
    /// wall's delete did: `restore` says so (and which wall to restore), and says nothing once
    /// the wall is back.
    func testRestoringAChildWhoseParentIsDeletedWarns() throws {
        let walls = try Harness.jsonArray(try Harness.run(["-q", "--json", path, "-c", "ls doors"]).stdout)
        let door = try XCTUnwrap(walls.first { $0["level"] as? String == "room" && $0["parent"] as? String != nil })
        let handle = try XCTUnwrap(door["handle"] as? String), wall = try XCTUnwrap(door["parent"] as? String)
        let result = try Harness.run(["-q", path, "-c", "delete \(wall)", "-c", "delete \(handle)", "-c", "restore \(handle)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("wb: warning: \(handle) points at \(wall), which is deleted (restore \(wall) too)"), result.stderr)
        let fine = try Harness.run(["-q", path, "-c", "delete \(handle)", "-c", "restore \(handle)"])
        XCTAssertFalse(fine.stderr.contains("points at"), fine.stderr)
    }
}
