import Foundation
import StructureModel
import XCTest

/// `merge` from the shell: separately scanned rooms aligned and merged into a structure
/// that matches the building's, exported and reopened; a structure re-merged in place.
final class MergeCommandTests: XCTestCase {
    func testAlignedRoomsMergeIntoTheBuildingsStructure() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 4))
        // Put every room where the ground truth says (each capture moved by its placement),
        // as a chain of aligns would; then name one, merge, export.
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        var commands = placing
        let exported = folder.appendingPathComponent("home.json").path
        commands += ["name r2 Kitchen", "merge --into home", "export structure \(exported)"]
        let result = try Harness.run(["-q", "--json"] + paths + ["-c", commands.joined(separator: "; ")])
        XCTAssertEqual(result.status, 0, result.stderr)
        guard case .structure(let merged) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: exported)))) else {
            return XCTFail("a structure")
        }
        let truth = building.structure.merged
        XCTAssertEqual(merged.rooms.count, building.captures.count)
        // The same walls as merging the exact rooms: the scans' noise changes nothing.
        XCTAssertEqual(merged.merged.walls.count, StructureMerger.merge(building.structure.rooms).structure.merged.walls.count)
        XCTAssertEqual(merged.merged.doors.count, truth.doors.count)
        XCTAssertEqual(merged.merged.windows.count, truth.windows.count)
        XCTAssertEqual(merged.merged.objects.count, truth.objects.count)
        XCTAssertEqual(merged.merged.floors.count, 1)
        // The union of the rooms' floors: the footprint, less what rooms scanned on the outside
        // walls' inner faces leave out (at most half an outside wall, 20 cm, along the perimeter).
        let area = polygonArea(merged.merged.floors[0].planPolygon), footprint = truth.floors[0].planPolygon
        let perimeter = footprint.indices.reduce(0) { $0 + footprint[$1].distance(to: footprint[($1 + 1) % footprint.count]) }
        XCTAssertLessThanOrEqual(area, polygonArea(footprint) + 0.5)
        XCTAssertGreaterThanOrEqual(area, polygonArea(footprint) - perimeter * 0.2)
        // Apple's top-level keys: no coreModel, story or identifier at the top.
        let top = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exported))) as? [String: Any])
        XCTAssertEqual(Set(top.keys), ["doors", "floors", "objects", "openings", "rooms", "sections", "version", "walls", "windows"])
        // wb reopens it losslessly, and the room's name went with it.
        let copy = folder.appendingPathComponent("copy.json").path
        let reopened = try Harness.run(["-q", exported, "-c", "save \(copy)"])
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), try Data(contentsOf: URL(fileURLWithPath: exported)))
        let named = try Harness.run(["-q", "--json"] + paths + ["-c", "name r2 Kitchen; merge --into home; ls rooms where name = Kitchen"])
        let rooms = try Harness.jsonArray(named.stdout).compactMap { $0["handle"] as? String }
        XCTAssertEqual(rooms, ["r2", "r\(building.captures.count + 2)"], "the merged copy of the room keeps its name")
    }

    /// A merge result written after a room it was merged from was moved or named is without
    /// that edit: `export structure`, `export svg` and `save` wrote it unsaid (a room moved 2 m
    /// after `merge --into m` was exported where it had been). Undone, the edit is no edit.
    func testAMergeResultWrittenAfterItsRoomsWereEditedSaysSo() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 3))
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        let out = folder.appendingPathComponent("m-out.json").path
        let warning = "wb: warning: m was merged before the latest edits of room-02-"
        for write in ["export structure \(out)", "export svg \(folder.appendingPathComponent("m.svg").path)", "save"] {
            let stale = try Harness.run(["-q"] + paths + ["-c", (placing + ["merge --into m", "move r2 2 0", write]).joined(separator: "; ")])
            XCTAssertEqual(stale.status, 0, stale.stderr)
            XCTAssertTrue(stale.stderr.contains(warning), "\(write): \(stale.stderr)")
        }
        let undone = try Harness.run(["-q"] + paths + ["-c", (placing + ["merge --into m", "move r2 2 0", "undo", "export structure \(out)"]).joined(separator: "; ")])
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertFalse(undone.stderr.contains("was merged before"), undone.stderr)
        let fresh = try Harness.run(["-q"] + paths + ["-c", (placing + ["merge --into m", "export structure \(out)"]).joined(separator: "; ")])
        XCTAssertFalse(fresh.stderr.contains("was merged before"), fresh.stderr)
    }

    /// With a merged structure open and edited, a bare `merge` merges the open room files, not
    /// that structure, and says so: the new structure lacks the edits (an adversarial pass
    /// exported it as s.json, a deleted refrigerator back). `merge s` says s is a structure and
    /// names its rooms, not that nothing is called s.
    func testABareMergeSaysItDoesNotCarryAnEditedStructuresEdits() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 4))
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        let commands = placing + ["merge --into s", "delete o\(building.captures.reduce(0) { $0 + $1.room.objects.count } + 1)", "merge"]
        let result = try Harness.run(["-q"] + paths + ["-c", commands.joined(separator: "; ")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("wb: warning: s was edited, and this merge of the open room files does not carry its edits "
                                             + "(merge r5 r6 r7 r8 rebuilds s itself)"), result.stderr)
        // A structure from disk open beside room files is merged with them, its edited rooms
        // too: it was said not to be.
        let saved = folder.appendingPathComponent("s.json").path
        _ = try Harness.run(["-q"] + paths + ["-c", (placing + ["merge --into s", "export structure \(saved)"]).joined(separator: "; ")])
        let beside = try Harness.run(["-q", saved, paths[0], "-c", "move r1 0.1 0; merge"])
        XCTAssertEqual(beside.status, 0, beside.stderr)
        XCTAssertFalse(beside.stderr.contains("does not carry its edits"), beside.stderr)
        // Unedited, nothing is said.
        let plain = try Harness.run(["-q"] + paths + ["-c", (placing + ["merge --into s", "merge"]).joined(separator: "; ")])
        XCTAssertFalse(plain.stderr.contains("was edited"), plain.stderr)
        // Merged twice into one name, the second is s-2, and neither was edited (the warning
        // named s-2, which it had taken for the s before it: an adversarial pass).
        let twice = try Harness.run(paths + ["-c", (placing + ["merge --into s", "merge --into s"]).joined(separator: "; ")])
        XCTAssertEqual(twice.status, 0, twice.stderr)
        XCTAssertTrue(twice.stderr.contains("merged into new structure s-2 (unsaved)"), twice.stderr)
        XCTAssertFalse(twice.stderr.contains("was edited"), twice.stderr)
        // Exported whole to its own path, a merge result is saved: it was still said to be unsaved.
        let exported = try Harness.run(paths + ["-c", (placing + ["merge --into s"]).joined(separator: "; "),
                                                "-c", "export structure \(folder.appendingPathComponent("s.json").path)", "-c", "save"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertFalse(exported.stderr.contains("unsaved changes in s "), exported.stderr)
        XCTAssertEqual(exported.stderr.components(separatedBy: "/s.json (").count - 1, 1, "written once, by the export: \(exported.stderr)")
        let named = try Harness.run(["-q"] + paths + ["-c", (placing + ["merge --into s", "merge s"]).joined(separator: "; ")])
        XCTAssertTrue(named.stderr.contains("error: 's' is an open structure, not a room: ROOM is a room (its rooms are r5, r6, r7, r8)"),
                      named.stderr)
    }

    /// Rooms of one story whose floors lie 40 cm apart (scanned apart, not yet levelled) get
    /// one floor between them; `check` found every object of the higher room floating above
    /// it, though that room's own check found nothing (an adversarial pass). A structure's
    /// objects are its rooms', and are judged there.
    func testCheckDoesNotBlameAStructuresObjectsOnItsOneFloor() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 3, noise: 0))
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        let result = try Harness.run(["-q", "--json"] + paths + ["-c", (placing + ["elevate r2 0.4", "merge --into s"]).joined(separator: "; "), "-c", "check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let findings = try Harness.jsonArray(result.stdout)
        XCTAssertFalse(findings.contains { $0["kind"] as? String == "floating" }, "\(findings)")
        // A room's own object floating is still found in its room, and not again at the structure level.
        var lifting = building
        let sofa = try XCTUnwrap(lifting.captures[0].room.objects.firstIndex { $0.parentIdentifier == nil && $0.category.name == "sofa" })
        lifting.captures[0].room.objects[sofa].transform.translation.y += 0.5
        _ = try Harness.captures(of: lifting, in: folder)
        let lifted = try Harness.run(["-q", "--json"] + paths + ["-c", (placing + ["merge --into s"]).joined(separator: "; "), "-c", "check"])
        XCTAssertEqual(lifted.status, 0, lifted.stderr)
        let found = try Harness.jsonArray(lifted.stdout)
        // (Once in the room file, once in the structure's copy of that room.)
        XCTAssertEqual(found.filter { $0["kind"] as? String == "floating" }.count, 2, "\(found)")
    }

    func testReMergeRebuildsTheStructureInPlaceAndUndoes() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 9, rooms: 5))
        let path = folder.appendingPathComponent("home.json").path
        try Data(RoomPlanCodec.encode(.structure(building.structure))).write(to: URL(fileURLWithPath: path))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let out = folder.appendingPathComponent("out.json").path
        let moved = try Harness.run(["-q", path, "-c", "move r1 2 0; merge; save \(out)"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertFalse(moved.stderr.contains("no longer agree"), "rebuilt, the structure agrees with its rooms: \(moved.stderr)")
        // Merged again, nothing changes: said, no step in the history, nothing to save.
        let again = try Harness.run([path, "-c", "move r1 2 0; merge", "-c", "merge", "-c", "history"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("nothing changed: the structure's own arrays already are the merge of its rooms"), again.stderr)
        XCTAssertEqual(again.stdout.split(separator: "\n").filter { $0.contains("merge") }.count, 1, again.stdout)
        let undone = try Harness.run(["-q", path, "-c", "move r1 2 0; merge; undo; undo; save \(out)"])
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), original)
        // A story set by hand that the floor heights overrule is said, and `--stories keep` keeps it.
        let restoried = try Harness.run([path, "-c", "story r1 -1; merge", "-c", "ls rooms where room = r1"])
        XCTAssertEqual(restoried.status, 0, restoried.stderr)
        XCTAssertTrue(restoried.stderr.contains("stories by floor height: r1 from -1 to 0 (merge --stories keep keeps the rooms' own)"),
                      restoried.stderr)
        let kept = try Harness.run(["-q", "--json", path, "-c", "story r1 -1; merge --stories keep; ls rooms where room = r1"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(try Harness.jsonArray(kept.stdout).first?["story"] as? Int, -1)
        XCTAssertFalse(kept.stderr.contains("stories by floor height"), kept.stderr)
    }

    /// A structure none of whose rooms was edited is left as it was merged: a fix-up script's
    /// `merge` replaced a real Apple structure's floor (with a room's identifier, corners
    /// rounded to a centimetre) and its sections' centres, unsaid. `--rebuild` rebuilds it.
    func testAnUneditedStructureIsNotRebuiltUnlessAsked() throws {
        let folder = try Harness.temporaryFolder(self)
        var structure = BuildingGenerator.generate(BuildingSpec(seed: 9, rooms: 5)).structure
        // As Apple writes it: the story's floor under an identifier of its own, sections at the floor's height.
        for i in structure.merged.floors.indices { structure.merged.floors[i].identifier = "F100D000-0000-4000-8000-00000000000\(i)" }
        for i in structure.merged.sections.indices { structure.merged.sections[i].center.y += 0.41 }
        let path = folder.appendingPathComponent("apple.json").path
        try Data(RoomPlanCodec.encode(.structure(structure))).write(to: URL(fileURLWithPath: path))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let left = try Harness.run([path, "-c", "merge", "-c", "save", "-c", "history"])
        XCTAssertEqual(left.status, 0, left.stderr)
        XCTAssertTrue(left.stderr.contains("nothing to re-merge: no room of apple was edited since it was opened"), left.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "the file is as it was")
        XCTAssertFalse(left.stdout.contains("merge"), left.stdout)
        // Any edit lets it rebuild (a deleted floor leaves the story's floor to be rebuilt,
        // which no structure-level disagreement shows).
        let edited = try Harness.run(["-q", path, "-c", "delete f1", "-c", "merge", "-c", "history"])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertTrue(edited.stdout.contains("merge"), edited.stdout)
        // A room moved and saved leaves the structure's own copies behind (save warns, "merge
        // rebuilds them"): then merge rebuilds in that session, without --rebuild (it said
        // "nothing to re-merge: no room ... was edited"). Reopened, the copies no longer stand
        // for the moved room's elements by their geometry: the warning says to use --rebuild.
        let moved = folder.appendingPathComponent("moved.json").path
        try original.write(to: URL(fileURLWithPath: moved))
        let saved = try Harness.run([moved, "-c", "move r2 2 0", "-c", "save", "-c", "merge"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertTrue(saved.stderr.contains("no longer agree with the rooms"), saved.stderr)
        XCTAssertFalse(saved.stderr.contains("nothing to re-merge"), saved.stderr)
        XCTAssertTrue(saved.stderr.contains("merge rebuilds them (merge --rebuild once the file is opened again)"), saved.stderr)
        XCTAssertTrue((saved.stdout + saved.stderr).contains("the structure's own arrays, rebuilt"), saved.stdout + saved.stderr)
        let rebuilt = try Harness.run(["-q", path, "-c", "merge --rebuild", "-c", "save"])
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "rebuilt when asked")
    }

    func testAMergeResultNeverReplacesAFileAndBadMergesAreRefused() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, name: "room.json")
        let existing = folder.appendingPathComponent("merged.json").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let result = try Harness.run(["-q", room, "-c", "merge", "-c", "save"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("exists and is not merged"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "keep me")
        let nothing = try Harness.run(["-q", "-c", "merge"])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("nothing to merge"), nothing.stderr)
        let twice = try Harness.run(["-q", room, "-c", "merge r1 r1"])
        XCTAssertEqual(twice.status, 1)
        XCTAssertTrue(twice.stderr.contains("named twice"), twice.stderr)
        // Option values out of range or unknown are refused, not merged with (they were).
        for (option, said) in [("--stories bogus", "--stories takes auto or keep (not 'bogus')"),
                               ("--wall-gap -5", "--wall-gap takes a distance of 0 or more"),
                               ("--corner-gap -3", "--corner-gap takes a distance of 0 or more"),
                               ("--tolerance -1", "--tolerance must be more than 0"),
                               ("--into .", "--into takes a name that does not start with a dot"),
                               ("--into ..", "--into takes a name that does not start with a dot"),
                               // A handle's shape would shadow the handle (export and close took it for room r2).
                               ("--into r2", "--into r2 reads as a handle"),
                               ("--into w17", "--into w17 reads as a handle"),
                               ("--into ''", "--into takes a name (it names the file NAME.json)"),
                               // Blank: it wrote " .json".
                               ("--into ' '", "--into takes a name (it names the file NAME.json)"),
                               // Saved as flat.wb.json, the names file of flat.json: a save of flat.json
                               // replaced the merge result with its names.
                               ("--into flat.wb", "--into flat.wb would name the file flat.wb.json, a names file's name")] {
            let bad = try Harness.run(["-q", room, "-c", "merge \(option)"])
            XCTAssertEqual(bad.status, 1, option)
            XCTAssertTrue(bad.stderr.contains(said), bad.stderr)
            XCTAssertFalse(bad.stderr.contains("unsaved changes in merged"), "nothing was merged: \(bad.stderr)")
        }
        // Nor is a structure exported under a names file's name, as a copy is never saved under one.
        let names = folder.appendingPathComponent("room2.wb.json").path
        let export = try Harness.run(["-q", room, "-c", "merge", "-c", "export structure \(names)"])
        XCTAssertEqual(export.status, 1)
        XCTAssertTrue(export.stderr.contains("is a names file's name (NAME.wb.json goes with NAME.json)"), export.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: names), "nothing was written")
    }

    /// Keys wb does not model on a structure's own walls and objects survive a re-merge on the
    /// element that keeps its identifier (they were dropped: the arrays are rebuilt from the
    /// rooms' copies).
    func testARemergeKeepsUnknownKeysOfTheStructuresOwnElements() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 3))
        let path = folder.appendingPathComponent("home.json").path
        var json = try JSONSerialization.jsonObject(with: Data(RoomPlanCodec.encode(.structure(building.structure)))) as! [String: Any]
        var walls = json["walls"] as! [[String: Any]], objects = json["objects"] as! [[String: Any]]
        walls[0]["vendorNote"] = ["kept": true]
        objects[0]["vendorNote"] = "kept too"
        json["walls"] = walls
        json["objects"] = objects
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let out = folder.appendingPathComponent("out.json").path
        let result = try Harness.run(["-q", path, "-c", "move r1 0.02 0; merge; save \(out)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as! [String: Any]
        let wall = (saved["walls"] as! [[String: Any]]).first { $0["identifier"] as? String == walls[0]["identifier"] as? String }
        XCTAssertEqual((wall?["vendorNote"] as? [String: Any])?["kept"] as? Bool, true, "the wall kept its identifier and its key")
        let object = (saved["objects"] as! [[String: Any]]).first { $0["identifier"] as? String == objects[0]["identifier"] as? String }
        XCTAssertEqual(object?["vendorNote"] as? String, "kept too")
    }

    /// A re-merge rebuilds the structure's own arrays from the rooms, so an edit of a
    /// structure-level element goes to the room elements it stands for (it was undone by the
    /// next re-merge: a `set` reverted, a deleted television back), and an element no room
    /// stands for is kept (it was dropped, and a structure with empty rooms lost every wall).
    func testARemergeKeepsWhatWasEditedOrAddedAtStructureLevel() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 14, rooms: 4))
        let path = folder.appendingPathComponent("home.json").path
        var json = try JSONSerialization.jsonObject(with: Data(RoomPlanCodec.encode(.structure(building.structure)))) as! [String: Any]
        var objects = json["objects"] as! [[String: Any]]
        XCTAssertGreaterThanOrEqual(objects.count, 2)
        var added = objects[0]
        added["identifier"] = "4EDDEAE7-77B8-441B-8585-A113B575C792"
        var transform = added["transform"] as! [Double]
        transform[12] += 0.5
        added["transform"] = transform
        objects.append(added)
        json["objects"] = objects
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let listed = try Harness.jsonArray(try Harness.run(["-q", "--json", path, "-c", "ls objects where level = structure"]).stdout)
        func handle(_ identifier: String) -> String { listed.first { $0["identifier"] as? String == identifier }?["handle"] as? String ?? "?" }
        let setOn = objects[0]["identifier"] as! String, deleted = objects[1]["identifier"] as! String
        let confidence = objects[0]["confidence"] as? [String: Any]
        let to = confidence?["low"] != nil ? "high" : "low"
        let out = folder.appendingPathComponent("out.json").path
        let result = try Harness.run([path, "-c", "set \(handle(setOn)) confidence \(to); delete \(handle(deleted)); move r1 0.02 0; merge; save \(out)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("also set on the room element it stands for"), result.stderr)
        XCTAssertTrue(result.stderr.contains("the room element it stands for went with it"), result.stderr)
        XCTAssertTrue(result.stderr.contains("kept 1 object that no room element stands for (\(handle(added["identifier"] as! String)))"), result.stderr)
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as! [String: Any]
        let top = saved["objects"] as! [[String: Any]]
        let rooms = (saved["rooms"] as! [[String: Any]]).flatMap { $0["objects"] as! [[String: Any]] }
        func confidences(_ list: [[String: Any]]) -> [String] {
            list.filter { $0["identifier"] as? String == setOn }.compactMap { ($0["confidence"] as? [String: Any])?.keys.first }
        }
        XCTAssertEqual(confidences(top), [to], "the structure-level edit survives the re-merge")
        XCTAssertEqual(confidences(rooms), [to], "and the room's copy has it")
        XCTAssertFalse((top + rooms).contains { $0["identifier"] as? String == deleted }, "the deleted object stays deleted")
        // Elements nobody edited keep their identifiers (the copy with the structure's own is the
        // survivor: a re-merge renamed doors and turned them about), and walls their thickness.
        let before = try JSONSerialization.jsonObject(with: original) as! [String: Any]
        for key in ["doors", "walls", "windows"] {
            let was = Set((before[key] as! [[String: Any]]).compactMap { $0["identifier"] as? String })
            let now = Set((saved[key] as! [[String: Any]]).compactMap { $0["identifier"] as? String })
            // (wb's merge joins one pair of walls the generator's structure keeps as two: 24 walls, 23.)
            if key != "walls" { XCTAssertTrue(was.isSubset(of: now), "\(key): \(was.subtracting(now).count) identifiers lost") }
            XCTAssertTrue(now.isSubset(of: was), "\(key): \(now.subtracting(was).count) identifiers taken from another copy")
        }
        let depths = (saved["walls"] as! [[String: Any]]).compactMap { ($0["dimensions"] as? [Double])?[2] }
        XCTAssertTrue((before["walls"] as! [[String: Any]]).allSatisfy { (($0["dimensions"] as? [Double])?[2] ?? 0) > 0 }, "the premise: walls with a thickness")
        XCTAssertFalse(depths.contains(0), "every structure-level wall keeps its thickness: \(depths)")
        let kept = top.filter { $0["identifier"] as? String == added["identifier"] as? String }
        XCTAssertEqual(kept.count, 1)
        let written = ((try JSONSerialization.jsonObject(with: original) as! [String: Any])["objects"] as! [[String: Any]]).last!
        XCTAssertEqual(kept.first?["transform"] as? [Double], written["transform"] as? [Double], "the object no room stands for, as it was")
        // Restored, the structure-level object and its room copy are back where they were.
        let restored = folder.appendingPathComponent("restored.json").path
        let back = try Harness.run(["-q", path, "-c", "delete \(handle(deleted)); restore \(handle(deleted)); save \(restored)"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: restored)), original)
        let said = try Harness.run([path, "-c", "delete \(handle(deleted)); restore \(handle(deleted))"])
        XCTAssertTrue(said.stderr.contains("the room element it stands for came back with it"), said.stderr)
        // A structure whose rooms are empty: `merge --rebuild` has nothing to rebuild from and keeps every array.
        var empty = try JSONSerialization.jsonObject(with: original) as! [String: Any]
        empty["rooms"] = (empty["rooms"] as! [[String: Any]]).map { room in
            var room = room
            for key in ["walls", "doors", "windows", "openings", "floors", "objects", "sections"] { room[key] = [Any]() }
            return room
        }
        let emptyPath = folder.appendingPathComponent("empty.json").path
        try JSONSerialization.data(withJSONObject: empty).write(to: URL(fileURLWithPath: emptyPath))
        let emptyBytes = try Data(contentsOf: URL(fileURLWithPath: emptyPath))
        let rebuilt = try Harness.run([emptyPath, "-c", "merge --rebuild; save"])
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertTrue(rebuilt.stderr.contains("walls") && rebuilt.stderr.contains("that no room element stands for"), rebuilt.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: emptyPath)), emptyBytes, "nothing lost, nothing rewritten")
    }

    /// A merge result named like an open file (`--into kitchen` beside kitchen.json) is
    /// kitchen-2 and saves to kitchen-2.json, not over the open room's file; a second `merge`
    /// naming no rooms merges the room files again, not also the first result's copies.
    func testAMergeResultSavesUnderItsOwnNameAndIsNotMergedAgain() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 31, rooms: 3))
        let paths = try Harness.captures(of: building, in: folder).paths
        let before = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let second = URL(fileURLWithPath: paths[1]).deletingPathExtension().lastPathComponent
        let named = try Harness.run(["-q", paths[0], paths[1], "-c", "merge r1 r2 --into \(second)", "-c", "save"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[1])), before, "the open room's own file")
        let saved = folder.appendingPathComponent("\(second)-2.json").path
        let structure = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: saved))) as? [String: Any]
        XCTAssertEqual((structure?["rooms"] as? [Any])?.count, 2)

        let twice = try Harness.run(["-q", "--json"] + paths + ["-c", "merge", "-c", "merge", "-c", "save", "-c", "ls rooms"])
        XCTAssertEqual(twice.status, 0, twice.stderr)
        for name in ["merged", "merged-2"] {
            let file = folder.appendingPathComponent("\(name).json")
            let rooms = (try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])?["rooms"] as? [Any]
            XCTAssertEqual(rooms?.count, 3, name)
        }
    }

    /// `export structure` of a room: a structure of that one room, its arrays the room's own
    /// elements (identifiers kept), the open file left as it is; with several rooms open and
    /// no structure, a room must be named.
    /// `export structure PATH` wrote no names file: reopened alone, the export had lost every
    /// room's name (and a merge's provenance). The names go beside it as `save` puts them; an
    /// earlier export's names file there is replaced, not left to name the new rooms.
    func testAnExportedStructureKeepsItsNamesBesideIt() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 4))
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        let exported = folder.appendingPathComponent("home.json").path
        let sidecar = folder.appendingPathComponent("home.wb.json").path
        func names(_ path: String) throws -> [String] {
            let listed = try Harness.run(["-q", "--json", path, "-c", "ls rooms"])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            return try Harness.jsonArray(listed.stdout).compactMap { $0["name"] as? String }
        }
        let first = try Harness.run(["-q"] + paths + ["-c", (placing + ["name r2 Kitchen", "merge --into home",
                                                                        "export structure \(exported)"]).joined(separator: "; ")])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar))
        XCTAssertEqual(try names(exported), ["Kitchen"])
        // Exported again from a merge without names: no name is left over from the first.
        let again = try Harness.run(["-q"] + paths + ["-c", (placing + ["merge --into home", "export structure \(exported)"]).joined(separator: "; ")])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try names(exported), [])
        // One room of several, wrapped as a structure of one room, with its own name only.
        let one = folder.appendingPathComponent("one.json").path
        let wrapped = try Harness.run(["-q"] + paths + ["-c", "name r2 Kitchen; name r3 Den; export structure \(one) r3"])
        XCTAssertEqual(wrapped.status, 0, wrapped.stderr)
        XCTAssertEqual(try names(one), ["Den"])
        // To standard output: the structure alone, no names file anywhere.
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let printed = try Harness.run(["-q"] + paths + ["-c", "name r3 Den; export structure - r3"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.hasPrefix("{"), String(printed.stdout.prefix(80)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), before)
    }

    /// The structure's own sections stand for their rooms' ones, as its walls and doors do:
    /// `ls sections` named no room for them ("(-)"), after the merge and after reopening.
    func testTheStructuresSectionsStandForTheirRooms() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 12, rooms: 3))
        let (paths, placing) = try Harness.captures(of: building, in: folder)
        let saved = folder.appendingPathComponent("flat.json").path
        func rooms(_ output: String) throws -> [[String]] {
            try Harness.jsonArray(output).filter { $0["level"] as? String == "structure" }.map { $0["rooms"] as? [String] ?? [] }
        }
        let merged = try Harness.run(["-q", "--json"] + paths + ["-c", (placing + ["merge --into flat", "ls sections", "save"]).joined(separator: "; ")])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        let count = building.captures.reduce(0) { $0 + $1.room.sections.count }
        let first = building.captures.count + 1
        let expected = building.captures.indices.flatMap { index in
            Array(repeating: ["r\(first + index)"], count: building.captures[index].room.sections.count)
        }
        XCTAssertEqual(try rooms(merged.stdout), expected)
        XCTAssertEqual(expected.count, count)
        let reopened = try Harness.run(["-q", "--json", saved, "-c", "ls sections"])
        XCTAssertEqual(reopened.status, 0, reopened.stderr)
        XCTAssertEqual(try rooms(reopened.stdout), building.captures.indices.flatMap { index in
            Array(repeating: ["r\(index + 1)"], count: building.captures[index].room.sections.count)
        })
    }

    func testARoomExportsAsAStructureOfOneRoom() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 31, rooms: 3))
        let paths = try Harness.captures(of: building, in: folder).paths
        let before = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let alone = folder.appendingPathComponent("alone.json").path
        let one = try Harness.run(["-q", paths[1], "-c", "export structure \(alone)"])
        XCTAssertEqual(one.status, 0, one.stderr)
        let named = folder.appendingPathComponent("named.json").path
        let several = try Harness.run(paths + ["-c", "export structure \(named) r3"])
        XCTAssertEqual(several.status, 0, several.stderr)
        XCTAssertTrue(several.stderr.contains("as a structure of one room"), several.stderr)
        for (path, room) in [(alone, building.captures[1].room), (named, building.captures[2].room)] {
            guard case .structure(let structure) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) else {
                return XCTFail("\(path) is a structure")
            }
            XCTAssertEqual(structure.rooms.count, 1)
            XCTAssertEqual(structure.rooms[0].walls.map(\.identifier), room.walls.map(\.identifier))
            XCTAssertEqual(Set(structure.merged.walls.map(\.identifier)), Set(room.walls.map(\.identifier)))
            XCTAssertEqual(Set(structure.merged.doors.map(\.identifier)), Set(room.doors.map(\.identifier)))
            XCTAssertEqual(Set(structure.merged.objects.map(\.identifier)), Set(room.objects.map(\.identifier)))
            XCTAssertEqual(structure.merged.floors.count, room.floors.isEmpty ? 0 : 1)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[1])), before, "the room file is not touched")
        let refused = try Harness.run(paths + ["-c", "export structure \(folder.appendingPathComponent("x.json").path)"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("3 rooms are open; name one"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.json").path))
    }

    /// Two rooms whose copies of their common wall lie 55 cm apart (a thick old wall): the
    /// default merge keeps them apart, `--wall-gap 0.6` joins them. The structure saved from
    /// that merge keeps its provenance in the sidecar: reopened, the structure's wall still
    /// stands for both rooms' copies, where matching by place with the default tolerances
    /// would find only one; without the sidecar, only one.
    func testProvenanceOfAWiderMergeSurvivesSaveAndReopen() throws {
        let folder = try Harness.temporaryFolder(self)
        func wall(_ a: PlanPoint, _ b: PlanPoint, _ id: String) -> Surface {
            let d = b - a, mid = (a + b) * 0.5
            let motion = RigidMotion(yaw: atan2(-d.z, d.x), translation: SIMD3(mid.x, 1.25, mid.z))
            return Surface(category: .wall, identifier: id, dimensions: SIMD3(Float(d.length), 2.5, 0), transform: motion.transform)
        }
        func room(x0: Double, x1: Double, tag: String) -> CapturedRoom {
            let corners = [PlanPoint(x: x0, z: 0), PlanPoint(x: x1, z: 0), PlanPoint(x: x1, z: 3), PlanPoint(x: x0, z: 3)]
            var room = CapturedRoom()
            room.walls = corners.indices.map { i in
                wall(corners[i], corners[(i + 1) % 4], String(format: "\(tag)%07d-0000-4000-8000-000000000000", i))
            }
            return room
        }
        let paths = [("west.json", room(x0: 0, x1: 3, tag: "A")), ("east.json", room(x0: 3.55, x1: 6.55, tag: "B"))].map { name, room in
            let path = folder.appendingPathComponent(name).path
            _ = FileManager.default.createFile(atPath: path, contents: Data(RoomPlanCodec.encode(.room(room))))
            return path
        }
        let home = folder.appendingPathComponent("home.json").path
        func sharedWalls(_ arguments: [String]) throws -> [[String]] {
            let result = try Harness.run(["-q", "--json"] + arguments + ["-c", "find walls where level = structure"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try Harness.jsonArray(result.stdout).compactMap { $0["rooms"] as? [String] }.filter { $0.count > 1 }
        }
        XCTAssertEqual(try sharedWalls(paths + ["-c", "merge"]), [], "55 cm apart is more than a wall's thickness by default")
        XCTAssertEqual(try sharedWalls(paths + ["-c", "merge --wall-gap 0.6 --into home"]).count, 1)
        let saved = try Harness.run(paths + ["-c", "merge --wall-gap 0.6 --into home; save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let sidecar = Sidecar.path(for: home)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar), "the provenance place matching would lose is kept")
        XCTAssertEqual(try sharedWalls([home]).count, 1, "reopened, the wall still stands for both rooms' copies")
        try FileManager.default.removeItem(atPath: sidecar)
        XCTAssertEqual(try sharedWalls([home]), [], "without the sidecar, matching by place finds one copy")
        // A merge with the default tolerances needs no sidecar: its provenance is found again.
        let plain = folder.appendingPathComponent("plain.json").path
        let again = try Harness.run(paths + ["-c", "merge --into plain; save"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: Sidecar.path(for: plain)))
        let bad = try Harness.run(paths + ["-c", "merge --wall-gap 3"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("--wall-gap above 2 m"), bad.stderr)
    }
}
