import Foundation
import StructureModel
import XCTest

final class OpenAndSaveTests: XCTestCase {
    /// With several files open, `save PATH` asks which and `save PATH NAME` writes that one
    /// (the message pointed at a form save did not take).
    func testSavePathNameWritesOneOfSeveralOpenFiles() throws {
        let folder = try Harness.temporaryFolder(self)
        let first = try Harness.generatedRoom(in: folder, seed: 21, name: "first.json")
        let second = try Harness.generatedRoom(in: folder, seed: 22, name: "second.json")
        let copy = folder.appendingPathComponent("copy.json").path
        let asked = try Harness.run(["-q", first, second, "-c", "save \(copy)"])
        XCTAssertEqual(asked.status, 1)
        XCTAssertTrue(asked.stderr.contains("name the one to write: save PATH NAME"), asked.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
        let named = try Harness.run(["-q", first, second, "-c", "save \(copy) second"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), try Data(contentsOf: URL(fileURLWithPath: second)))
        // A copy of one open file never lands on another.
        let before = try Data(contentsOf: URL(fileURLWithPath: first))
        let over = try Harness.run(["-q", first, second, "-c", "save \(first) second"])
        XCTAssertEqual(over.status, 1)
        XCTAssertTrue(over.stderr.contains("open in wb: a copy does not replace it"), over.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: first)), before)
    }

    /// A copy or an export replaces a file already at its PATH only when that file is what it
    /// writes (a notes file was replaced by `save notes.json` and `export structure
    /// notes.json`, and a scan that was not open by `export csv`); --force replaces it.
    /// A merge result exported to its own path is then saved there (save refused: "exists
    /// and is not ab", and kept every other changed file unsaved).
    func testACopyOrAnExportReplacesOnlyWhatItWrites() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 21, name: "room.json")
        let scan = try Harness.generatedRoom(in: folder, seed: 22, name: "scan.json")
        let notes = folder.appendingPathComponent("notes.json").path
        let words = Data(#"{"my":"notes"}"#.utf8)
        try words.write(to: URL(fileURLWithPath: notes))
        let scanBytes = try Data(contentsOf: URL(fileURLWithPath: scan))
        // JSON another program keeps that reads as a structure of no rooms, and a names file
        // holding only a model (both read as RoomPlan, and were replaced).
        let project = folder.appendingPathComponent("project.json").path
        let projectBytes = Data(#"{"rooms":[],"owner":"Alice"}"#.utf8)
        try projectBytes.write(to: URL(fileURLWithPath: project))
        let names = folder.appendingPathComponent("scan.wb.json").path
        XCTAssertEqual(try Harness.run(["-q", scan, "-c", "name r1 Den; save"]).status, 0)
        let namesBytes = try Data(contentsOf: URL(fileURLWithPath: names))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: scan)), scanBytes, "a names-only save leaves the scan")
        for (command, said) in [("save \(notes)", "is not a RoomPlan scan: a copy does not replace it (give another PATH, or save --force"),
                                ("export structure \(notes)", "or export --force to replace it"),
                                ("save \(project)", "is not a RoomPlan scan"),
                                ("export structure \(names)", "is a names file's name (NAME.wb.json goes with NAME.json)"),
                                ("export csv \(names)", "is a names file: an export does not replace it"),
                                // Another scan is not an earlier copy: a typo lost it.
                                ("save \(scan)", "is another scan (no element of it is in what is written)"),
                                ("export csv \(scan)", "is a RoomPlan scan: an export does not replace it"),
                                ("export svg \(scan)", "is a RoomPlan scan: an export does not replace it")] {
            let refused = try Harness.run(["-q", room, "-c", command])
            XCTAssertEqual(refused.status, 1, command)
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: notes)), words, command)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: scan)), scanBytes, command)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: project)), projectBytes, command)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: names)), namesBytes, command)
        }
        // A names file is not opened as a structure of no rooms.
        let opened = try Harness.run([names])
        XCTAssertEqual(opened.status, 1)
        XCTAssertTrue(opened.stderr.contains("it is a names file, which goes with scan.json (open that instead)"), opened.stderr)
        // An earlier run's output is replaced, as a script run twice needs.
        let copy = folder.appendingPathComponent("copy.json").path, listing = folder.appendingPathComponent("rooms.csv").path
        for _ in 0..<2 {
            let again = try Harness.run(["-q", room, "-c", "save \(copy); export csv \(listing)"])
            XCTAssertEqual(again.status, 0, again.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), try Data(contentsOf: URL(fileURLWithPath: room)))
        let forced = try Harness.run(["-q", room, "-c", "save --force \(notes)"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: notes)), try Data(contentsOf: URL(fileURLWithPath: room)))
        // A merge result exported to its own default path, then saved.
        let other = try Harness.generatedRoom(in: folder, seed: 23, name: "other.json")
        let merged = folder.appendingPathComponent("ab.json").path
        let saved = try Harness.run(["-q", room, other, "-c", "merge --into ab; export structure \(merged); save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertNotNil(try? RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: merged)))))
        // Exported whole to its own path, it is that file now, saved: nothing else replaces it.
        let changed = try Harness.run(["-q", room, other, "-c", "merge --into ab; export structure \(merged)",
                                       "-c", "export csv \(merged) --force", "-c", "save"])
        XCTAssertEqual(changed.status, 1, changed.stderr)
        XCTAssertTrue(changed.stderr.contains("is ab, open in wb: an export does not replace it"), changed.stderr)
        XCTAssertNotNil(try? RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: merged)))), "still the structure")
    }

    /// A file another tool wrote in its own layout (here one line, keys in another order) is
    /// left byte for byte by a save that changes only names, which go in the sidecar; it was
    /// respelled in Apple's layout. An edit of its content writes it.
    func testASaveOfNamesAloneLeavesTheFileAsItsWriterLaidItOut() throws {
        let folder = try Harness.temporaryFolder(self)
        let apple = try Harness.generatedRoom(in: folder, name: "apple.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: apple)))
        let path = folder.appendingPathComponent("compact.json").path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let named = try Harness.run([path, "-c", "name r1 Den", "-c", "save"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(named.stderr.contains("kept \(path) as it was"), named.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        let listed = try Harness.run(["-q", "--json", path, "-c", "ls rooms"])
        XCTAssertEqual(try Harness.jsonArray(listed.stdout).first?["name"] as? String, "Den", "the name is read back")
        // Saved unedited to another path, or with names alone: a copy byte for byte (it came
        // out pretty-printed and sorted, 5 % larger for a real app's compact file).
        let copy = folder.appendingPathComponent("copy.json").path
        for script in ["save \(copy)", "name r1 Study; save \(copy)"] {
            let copied = try Harness.run(["-q", path, "-c", script])
            XCTAssertEqual(copied.status, 0, copied.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), before, script)
        }
        let moved = try Harness.run(["-q", path, "-c", "move r1 1 0", "-c", "save"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "an edit of its content is written")
    }

    /// `save ./room.json` or `save /abs/room.json` for room.json is room.json itself: saved as
    /// it is (the session no longer calls it unsaved), with its changed-on-disk check (another
    /// program's edit was overwritten by these spellings alone).
    func testSavingAFileUnderAnotherSpellingOfItsPathIsSavingIt() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder, seed: 44, name: "room.json")
        for spelling in ["./room.json", room] {
            let saved = try Harness.run(["room.json", "-c", "move r1 1 0", "-c", "save \(spelling)"], in: folder)
            XCTAssertEqual(saved.status, 0, saved.stderr)
            XCTAssertFalse(saved.stderr.contains("unsaved changes"), spelling + ": " + saved.stderr)
        }
        XCTAssertTrue(FileIO.sameFile(folder.appendingPathComponent("./room.json").path, room))
        XCTAssertTrue(FileIO.sameFile(folder.appendingPathComponent("./new.json").path, folder.appendingPathComponent("new.json").path))
        XCTAssertFalse(FileIO.sameFile(folder.appendingPathComponent("new.json").path, room))
    }

    /// A structure's floor (its stories' outlines merged, gaps between rooms filled) and its
    /// rooms' floors differ: the summary says both (it gave the first, `stats` the second,
    /// 198.49 against 189.44 m² for Apple's 11-room home, with nothing to say why).
    func testAStructuresSummarySaysItsFloorAndItsRooms() throws {
        let folder = try Harness.temporaryFolder(self)
        let out = folder.appendingPathComponent("gen")
        XCTAssertEqual(try Harness.run(["--rooms", "5", "--seed", "3", "--out", out.path], executable: Harness.wbgen).status, 0)
        let structure = out.appendingPathComponent("structure.json").path
        let text = try Harness.run(["-q", structure, "-c", "summary"])
        XCTAssertTrue(text.stdout.contains("the structure's floor; its rooms' add up to"), text.stdout)
        let json = try Harness.run(["-q", "--json", structure, "-c", "summary"])
        let object = try XCTUnwrap(try Harness.jsonArray(json.stdout).first)
        let rooms = try XCTUnwrap(object["rooms"] as? [[String: Any]])
        let sum = rooms.compactMap { ($0["floorArea"] as? NSNumber)?.doubleValue }.reduce(0, +)
        XCTAssertEqual((object["roomsFloorArea"] as? NSNumber)?.doubleValue ?? -1, sum, accuracy: 0.01)
    }

    /// A summary fits 80 columns: a long path goes on a line of its own, a long list of
    /// objects on under itself (a real kitchen's 41 objects ran to 128 columns).
    func testASummaryFitsEightyColumns() throws {
        let folder = try Harness.temporaryFolder(self).appendingPathComponent(String(repeating: "deeply-nested-", count: 5))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let room = try Harness.generatedRoom(in: folder, seed: 44)
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: room))) as? [String: Any])
        var objects = try XCTUnwrap(json["objects"] as? [[String: Any]])
        for (index, category) in ["refrigerator", "stove", "sink", "dishwasher", "oven", "washerDryer", "bathtub", "toilet", "fireplace",
                                  "television", "stairs", "bed", "chair", "sofa", "table", "storage"].enumerated() {
            var copy = objects[0]
            copy["category"] = [category: [String: Any]()]
            copy["identifier"] = UUID().uuidString
            copy["attributes"] = nil
            objects.append(copy)
            if index % 2 == 0 { objects.append(copy.merging(["identifier": UUID().uuidString]) { $1 }) }
        }
        json["objects"] = objects
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: room))
        let summary = try Harness.run(["-q", room, "-c", "summary"])
        XCTAssertEqual(summary.status, 0, summary.stderr)
        let lines = summary.stdout.split(separator: "\n")
        // (All but the path, longer than a line by itself.)
        XCTAssertEqual(lines[1], "  (\(room))")
        XCTAssertTrue(lines.enumerated().allSatisfy { $0.offset == 1 || $0.element.count <= 80 }, summary.stdout)
        let objectLine = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  objects") })
        XCTAssertTrue(lines[objectLine + 1].hasPrefix(String(repeating: " ", count: 16)), summary.stdout)
    }

    /// With commands to run, the summaries of the files named on the command line go to stderr
    /// (none with --json): stdout carries only what the commands print, so it pipes. It held the
    /// summary before the exported JSON, and a --json summary before ls's array.
    func testWithCommandsStdoutCarriesOnlyTheirOutput() throws {
        let room = try Harness.generatedRoom(in: try Harness.temporaryFolder(self))
        let exported = try Harness.run([room, "-c", "export structure -"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any]
        XCTAssertNotNil(object?["rooms"], "one CapturedStructure on stdout")
        XCTAssertTrue(exported.stderr.contains("CapturedRoom, version 2"), "the summary is still said: \(exported.stderr)")
        let listed = try Harness.run(["--json", room, "-c", "ls walls"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any], listed.stdout)
        XCTAssertFalse(listed.stderr.contains("{"), "no JSON summary on stderr: \(listed.stderr)")
        // Opened by a command, the summary is that command's output, on stdout.
        let opened = try Harness.run(["-c", "open \(room)"])
        XCTAssertTrue(opened.stdout.contains("CapturedRoom, version 2"), opened.stdout)
    }

    func testSummaryOfTheRealSamples() throws {
        let living = try Harness.sample("livingroom-1section.json")
        let flat = try Harness.sample("flat-4sections.json")
        let result = try Harness.run([living, flat])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let out = result.stdout
        XCTAssertTrue(out.contains("livingroom-1section  CapturedRoom, version 2"), out)
        XCTAssertTrue(out.contains("sections    1  livingRoom"), out)
        XCTAssertTrue(out.contains("walls       4\n"), out)
        XCTAssertTrue(out.contains("floor area  15.37 m²"), out)
        XCTAssertTrue(out.contains("sections     4  bedroom ×2, bathroom, unidentified"), out)
        XCTAssertTrue(out.contains("walls       20\n"), out)
        XCTAssertTrue(out.contains("floor area  47.74 m²"), out)
    }

    func testJSONSummaryFields() throws {
        let flat = try Harness.sample("flat-4sections.json")
        let result = try Harness.run(["--json", flat])
        XCTAssertEqual(result.status, 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(object["kind"] as? String, "CapturedRoom")
        XCTAssertEqual(object["sections"] as? [String], ["bedroom", "bedroom", "bathroom", "unidentified"])
        let counts = object["counts"] as! [String: Int]
        XCTAssertEqual(counts["walls"], 20)
        XCTAssertEqual(counts["objects"], 13)
        XCTAssertEqual(Double(String(describing: object["floorArea"]!))!, 47.74, accuracy: 0.01)
    }

    func testSaveWritesTheSameBytes() throws {
        let folder = try Harness.temporaryFolder(self)
        for name in ["livingroom-1section.json", "flat-4sections.json"] {
            let source = try Harness.sample(name)
            let copy = folder.appendingPathComponent("copy-" + name).path
            let result = try Harness.run([source, "-q", "-c", "save '\(copy)'"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), try Data(contentsOf: URL(fileURLWithPath: source)))
        }
    }

    func testGeneratedStructureOpensWithItsRooms() throws {
        let folder = try Harness.temporaryFolder(self)
        let gen = try Harness.run(["--rooms", "9", "--stories", "2", "--seed", "5", "--out", folder.path], executable: Harness.wbgen)
        XCTAssertEqual(gen.status, 0, gen.stderr)
        let result = try Harness.run([folder.appendingPathComponent("structure.json").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("CapturedStructure, version 2"), result.stdout)
        XCTAssertTrue(result.stdout.contains("rooms        9\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("stories      2  0, 1\n"), result.stdout)
        let rooms = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("rooms").path)
        XCTAssertEqual(rooms.count, 9)
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("ground-truth.json")))
            as! [String: Any]
        XCTAssertEqual((truth["captures"] as! [Any]).count, 9)
    }

    func testGeneratorWritesRescansAndExactCapturesOnRequest() throws {
        let folder = try Harness.temporaryFolder(self)
        let exact = folder.appendingPathComponent("exact"), noisy = folder.appendingPathComponent("noisy")
        for (out, noise) in [(exact, "0"), (noisy, "1")] {
            let gen = try Harness.run(["--rooms", "5", "--seed", "3", "--rescans", "2", "--noise", noise, "--out", out.path],
                                      executable: Harness.wbgen)
            XCTAssertEqual(gen.status, 0, gen.stderr)
            XCTAssertEqual(gen.stdout, "wrote 5 rooms and 2 rescans over 1 story to \(out.path)\n")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: exact.appendingPathComponent("rooms").path)
        XCTAssertEqual(files.filter { $0.hasSuffix("-rescan.json") }.count, 2)
        XCTAssertEqual(files.count, 7)
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: exact.appendingPathComponent("ground-truth.json")))
            as! [String: Any]
        let captures = truth["captures"] as! [[String: Any]]
        XCTAssertEqual(captures.compactMap { $0["rescanOf"] as? String }.count, 2)
        XCTAssertEqual(try Data(contentsOf: exact.appendingPathComponent("structure.json")),
                       try Data(contentsOf: noisy.appendingPathComponent("structure.json")), "noise is only in the captures")
        let bad = try Harness.run(["--noise", "lots", "--out", folder.path], executable: Harness.wbgen)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--noise needs a number"), bad.stderr)
    }

    func testVersionAndHelp() throws {
        let version = try Harness.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("wb "), version.stdout)
        let help = try Harness.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for flag in ["--command", "--file", "--interactive", "--keep-going", "--echo", "--quiet", "--json", "--dry-run", "--define"] {
            XCTAssertTrue(help.stdout.contains(flag), "--help mentions \(flag)")
        }
    }

    func testBadInvocationExitsTwo() throws {
        let unknown = try Harness.run(["--frobnicate"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderr, "wb: unknown option '--frobnicate' (see wb --help)\n")
        let missingValue = try Harness.run(["-c"])
        XCTAssertEqual(missingValue.status, 2)
        XCTAssertEqual(missingValue.stderr, "wb: missing value for '-c' (see wb --help)\n")
        let missingScript = try Harness.run(["-f", "/nonexistent/fix.wb"])
        XCTAssertEqual(missingScript.status, 2)
        XCTAssertTrue(missingScript.stderr.contains("cannot read script /nonexistent/fix.wb: no such file or directory"),
                      missingScript.stderr)
    }
}
