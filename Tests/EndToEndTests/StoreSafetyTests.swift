import Foundation
import StructureModel
import XCTest

/// Hostile and damaged Hyperbasis stores: ids that are not UUIDs, the same anchor in two
/// files, lower-case file names, binary plists with lengths near 2^63. Every store here is
/// a copy made in a temporary folder; the shared sample is only read.
final class StoreSafetyTests: XCTestCase {
    static let spaceA = SpaceTests.spaceA
    static let spaceB = SpaceTests.spaceB
    static let anchor1 = "0D9E8F7A-6B5C-4D3E-8F2A-1B0C9D8E7F6A"
    static let anchor2 = "7C6B5A49-3827-4165-9F8E-7D6C5B4A3928"

    static func sampleStore() throws -> String {
        let path = Harness.samples.deletingLastPathComponent().appendingPathComponent("hyperbasis/store").path
        guard FileManager.default.fileExists(atPath: path + "/spaces") else {
            throw XCTSkip("the sample Hyperbasis store \(path) is absent (../shared/samples is not beside this checkout)")
        }
        return path
    }

    /// A writable copy of the sample store at `folder/store`.
    static func copy(into folder: URL) throws -> String {
        let target = folder.appendingPathComponent("store").path
        try FileManager.default.copyItem(atPath: try sampleStore(), toPath: target)
        _ = try Harness.run(["-R", "u+w", target], executable: URL(fileURLWithPath: "/bin/chmod"))
        return target
    }

    /// Every file under `folder` with its bytes.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileManager.default.enumerator(atPath: folder)!.compactMap({ $0 as? String }) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder) {
                files[path] = isFolder.boolValue ? Data("<folder>".utf8) : try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return files
    }

    static func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    // MARK: - Binary plists with lengths near 2^63 (item 11)

    /// A one-object binary plist: `object` at offset 8, a one-byte offset table, the trailer.
    static func plist(_ object: [UInt8], count: UInt64 = 1, top: UInt64 = 0, offsetSize: UInt8 = 1, referenceSize: UInt8 = 1,
                      tableStart: UInt64? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8) + object
        let table = UInt64(bytes.count)
        bytes.append(8)
        func be(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) } }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize] + be(count) + be(top) + be(tableStart ?? table)
        return bytes
    }

    static let huge: [UInt8] = [0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]

    func testObjectLengthsNear2To63AreErrorsNotTraps() {
        let cases: [(String, [UInt8])] = [
            ("data", [0x4F] + Self.huge),
            ("ASCII string", [0x5F] + Self.huge),
            ("UTF-16 string", [0x6F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 1]),
            ("array", [0xAF] + Self.huge),
            ("set", [0xCF] + Self.huge),
            ("dictionary", [0xDF] + Self.huge),
            ("dictionary of 2^62 entries", [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]),
            ("length of 2^15 bytes", [0x4F, 0x1F, 1, 2, 3]),
            ("integer of 2^15 bytes", [0x1F, 1, 2, 3]),
            ("real of 2^15 bytes", [0x2F, 1, 2, 3]),
            ("length with a negative integer", [0x4F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ]
        for (name, object) in cases {
            let bytes = Self.plist(object)
            XCTAssertThrowsError(try BinaryPlist(bytes).object(0), name) { error in
                let message = (error as? BinaryPlist.Failure)?.message ?? ""
                XCTAssertTrue(message.contains("object 0"), "\(name): \(message)")
            }
            XCTAssertThrowsError(try WorldMapArchive.inspect(bytes), name)
        }
        // Trailer fields near 2^64: the object count, the top object, the offset table's start.
        let object: [UInt8] = [0x08]
        for (name, bytes) in [("count", Self.plist(object, count: UInt64.max)), ("top", Self.plist(object, top: UInt64.max)),
                              ("table start", Self.plist(object, tableStart: UInt64.max)),
                              ("table start near 2^63", Self.plist(object, tableStart: 1 << 63 - 1)),
                              ("offset size 255", Self.plist(object, offsetSize: 255)),
                              ("reference size 0", Self.plist(object, referenceSize: 0))] {
            XCTAssertThrowsError(try BinaryPlist(bytes), name) { error in
                XCTAssertEqual((error as? BinaryPlist.Failure)?.message, "a property list with a damaged trailer", name)
            }
        }
    }

    /// The 120-byte HBSpace file of the issue: it crashed wb; now it opens with a warning
    /// that says what is wrong with its world map. A store whose world map is the same
    /// plist opens too, its other space intact.
    func testAHostileWorldMapIsReportedAndTheRestOpens() throws {
        let folder = try Harness.temporaryFolder(self)
        let hostile = Self.plist([0x4F] + Self.huge)
        let file = folder.appendingPathComponent("space.json").path
        try Self.write("{\"id\":\"\(Self.spaceA)\",\"worldMapData\":\"\(Data(hostile).base64EncodedString())\"}", file)
        let result = try Harness.run(["-q", file, "-c", "ls spaces"])
        XCTAssertEqual(result.status, 0, "opens, with a warning\n" + result.stderr)
        XCTAssertTrue(result.stderr.contains("its world map is not an ARWorldMap archive (object 0 runs past the end of the property list)"),
                      result.stderr)

        let store = try Self.copy(into: folder)
        try Data(hostile).write(to: URL(fileURLWithPath: store + "/worldmaps/\(Self.spaceB).bin"))
        let loaded = try HyperbasisStore.load(store)
        XCTAssertEqual(loaded.spaces.count, 2)
        XCTAssertNil(loaded.spaces[0].worldMap.problem)
        XCTAssertEqual(loaded.spaces[1].worldMap.problem, "its world map is not an ARWorldMap archive (object 0 runs past the end of the property list)")
    }

    // MARK: - Ids that become paths (item 5)

    func testIdsThatAreNotUUIDsAreRefusedAtOpen() throws {
        let folder = try Harness.temporaryFolder(self).appendingPathComponent("deep/er")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try Self.copy(into: folder)
        let pwned = store + "/anchors/FFFFFFFF-0000-4000-8000-000000000001.json"
        try Self.write("{\"id\":\"../../pwned\",\"spaceId\":\"\(Self.spaceA)\",\"transform\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],\"metadata\":{}}", pwned)
        let badSpaceId = store + "/anchors/FFFFFFFF-0000-4000-8000-000000000002.json"
        try Self.write("{\"id\":\"FFFFFFFF-0000-4000-8000-000000000002\",\"spaceId\":\"../../../evil\",\"transform\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],\"metadata\":{}}", badSpaceId)
        let badSpace = store + "/spaces/FFFFFFFF-0000-4000-8000-000000000003.json"
        try Self.write("{\"id\":\"../../../../etc/x\",\"isCompressed\":false}", badSpace)
        let outside = folder.deletingLastPathComponent().deletingLastPathComponent().path
        let before = try Self.snapshot(outside)

        let loaded = try HyperbasisStore.load(store)
        let problems = loaded.problems.joined(separator: "\n")
        XCTAssertTrue(problems.contains("\(pwned): \"id\" is not a UUID (\"../../pwned\"); this anchor is skipped"), problems)
        XCTAssertTrue(problems.contains("\(badSpaceId): \"spaceId\" is not a UUID (\"../../../evil\"); this anchor is skipped"), problems)
        XCTAssertTrue(problems.contains("\(badSpace): \"id\" is not a UUID (\"../../../../etc/x\"); this space is skipped"), problems)
        XCTAssertEqual(Set(loaded.anchors.map(\.id)), [Self.anchor1, Self.anchor2])
        XCTAssertEqual(loaded.spaces.map(\.id), [Self.spaceA, Self.spaceB])

        // Through wb: the records are not there to edit, and a save of what is writes inside.
        let result = try Harness.run(["-q", store, "-c", "move a3 1 0; move a4 1 0; save"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("a3"), result.stderr)
        let saved = try Harness.run(["-q", store, "-c", "move a1 1 0; save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let after = try Self.snapshot(outside)
        XCTAssertEqual(Set(after.keys).subtracting(before.keys).filter { !$0.hasPrefix("deep/er/store/") }, [],
                       "nothing is created outside the store")
    }

    /// Where the paths are built, an id that is not a UUID is refused even when a record
    /// got past the reader (built in code): the save writes nothing at all.
    func testTheSaveBuildsPathsOnlyFromUUIDs() throws {
        let folder = try Harness.temporaryFolder(self).appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try Self.copy(into: folder)
        let onDisk = try HyperbasisStore.load(store)
        let outside = folder.deletingLastPathComponent().deletingLastPathComponent().path
        let before = try Self.snapshot(outside)
        for (what, edit) in [("id", { (s: inout HyperbasisStore) in s.anchors[0].id = "../../pwned" }),
                             ("spaceId", { (s: inout HyperbasisStore) in s.anchors[0].spaceId = "../../../pwned" }),
                             ("space id", { (s: inout HyperbasisStore) in s.spaces[0].id = "../../pwned"; s.spaces[0].name = "x" })] {
            var edited = onDisk
            edit(&edited)
            edited.anchors[0].metadata["color"] = .string("blue")
            XCTAssertThrowsError(try edited.save(comparedWith: onDisk, now: Date(), dryRun: false), what) { error in
                XCTAssertTrue((error as? FileError)?.message.contains("is not a UUID") == true, "\(what): \(error)")
            }
            XCTAssertEqual(try Self.snapshot(outside), before, "\(what): nothing written anywhere")
        }
    }

    /// A folder or file of the store that is a symbolic link out of it is not written through.
    func testASaveNeverWritesThroughALinkOutOfTheStore() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        let elsewhere = folder.appendingPathComponent("elsewhere").path
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let target = elsewhere + "/target.json"
        try Self.write("{}", target)
        let anchorFile = store + "/anchors/\(Self.anchor1).json"
        try FileManager.default.copyItem(atPath: anchorFile, toPath: elsewhere + "/real.json")
        try FileManager.default.removeItem(atPath: anchorFile)
        try FileManager.default.createSymbolicLink(atPath: anchorFile, withDestinationPath: elsewhere + "/real.json")
        let events = store + "/events/\(Self.spaceB)"
        try FileManager.default.moveItem(atPath: events, toPath: elsewhere + "/events")
        try FileManager.default.createSymbolicLink(atPath: events, withDestinationPath: elsewhere + "/events")
        let before = try Self.snapshot(elsewhere)

        let linkedAnchor = try Harness.run(["-q", store, "-c", "move a1 1 0; save"])
        XCTAssertEqual(linkedAnchor.status, 1)
        XCTAssertTrue(linkedAnchor.stderr.contains("error: cannot save \(store): \(anchorFile): is not a plain file"), linkedAnchor.stderr)
        let linkedLog = try Harness.run(["-q", store, "-c", "restore a2; save"])
        XCTAssertEqual(linkedLog.status, 1)
        XCTAssertTrue(linkedLog.stderr.contains("error: cannot save \(store): \(events)/events.jsonl: lies outside the store"), linkedLog.stderr)
        XCTAssertEqual(try Self.snapshot(elsewhere), before, "nothing written outside the store")
    }

    // MARK: - The same anchor in two files (item 4)

    func testAnAnchorInTwoFilesIsReportedAndNeverChosenBetween() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        let original = store + "/anchors/\(Self.anchor1).json"
        let twin = store + "/anchors/\(Self.anchor1) 2.json"
        try FileManager.default.copyItem(atPath: original, toPath: twin)
        let before = try Self.snapshot(store)

        let loaded = try HyperbasisStore.load(store)
        XCTAssertEqual(loaded.anchors.filter { $0.id == Self.anchor1 }.count, 2, "both files are visible")
        let problems = loaded.problems.joined(separator: "\n")
        XCTAssertTrue(problems.contains("anchor \(Self.anchor1) is in 2 files: \(twin), \(original)"), problems)

        let listed = try Harness.run(["-q", "--json", store, "-c", "ls anchors"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual(rows.map { $0["handle"] as! String }, ["a1", "a2", "a3"], "each file has its own handle")
        XCTAssertTrue(listed.stderr.contains("is in 2 files"), listed.stderr)
        let shown = try Harness.run(["-q", store, "-c", "show a1"])
        XCTAssertTrue(shown.stdout.range(of: "file +\(NSRegularExpression.escapedPattern(for: twin))\n", options: .regularExpression) != nil, shown.stdout)
        XCTAssertTrue(shown.stdout.contains("same id in      \(original) (not saved: keep one file)"), shown.stdout)

        // Editing either twin is refused; so is naming it by its id; the store is untouched.
        for command in ["move a1 1 0", "move a2 1 0", "set a2 color blue", "delete a1", "move \(Self.anchor1) 1 0"] {
            let result = try Harness.run(["-q", store, "-c", command + "; save"])
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains("is in 2 files") || result.stderr.contains("several anchors"), command + "\n" + result.stderr)
        }
        // The other anchor still edits and saves.
        let other = try Harness.run(["-q", store, "-c", "restore a3; save"])
        XCTAssertEqual(other.status, 0, other.stderr)
        let after = try Self.snapshot(store)
        XCTAssertEqual(after["anchors/\(Self.anchor1).json"], before["anchors/\(Self.anchor1).json"])
        XCTAssertEqual(after["anchors/\(Self.anchor1) 2.json"], before["anchors/\(Self.anchor1) 2.json"])
        XCTAssertEqual(after["events/\(Self.spaceA)/events.jsonl"], before["events/\(Self.spaceA)/events.jsonl"], "no bogus events")

        // Saving an edited twin from code is refused too.
        var edited = loaded
        edited.anchors[0].metadata["color"] = .string("blue")
        XCTAssertThrowsError(try edited.save(comparedWith: loaded, now: Date(), dryRun: true)) { error in
            XCTAssertTrue((error as? FileError)?.message.contains("is in 2 files") == true, "\(error)")
        }
    }

    func testASpaceInTwoFilesIsReportedAndNotSaved() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        try FileManager.default.copyItem(atPath: store + "/spaces/\(Self.spaceA).json", toPath: store + "/spaces/\(Self.spaceA) (copy).json")
        let loaded = try HyperbasisStore.load(store)
        XCTAssertTrue(loaded.problems.contains { $0.contains("space \(Self.spaceA) is in 2 files") }, loaded.problems.joined(separator: "\n"))
        let result = try Harness.run(["-q", store, "-c", "name sp1 Hall; save"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("is in 2 files"), result.stderr)
    }

    // MARK: - Lower-case file names (item 6)

    /// A store save that cannot write everything writes nothing: under a file-size limit the
    /// event log's append failed after the anchor and space records were replaced, so the move
    /// had no event, and wb said nothing was written (an adversarial pass). Records and logs
    /// now go in one commit.
    func testAStoreSaveThatCannotWriteEverythingWritesNothing() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        let log = store + "/events/\(Self.spaceA)/events.jsonl"
        var padding = ""
        var index = 0
        while try Data(contentsOf: URL(fileURLWithPath: log)).count + padding.utf8.count < 9_100 {
            index += 1
            padding += #"{"anchorId":"11111111-1111-4111-8111-\#(String(format: "%012d", index))","id":"E1000000-0000-4000-8000-\#(String(format: "%012d", index))","spaceId":"\#(Self.spaceA)","timestamp":"2025-12-02T16:00:30Z","type":"created","version":1}"# + "\n"
        }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(padding.utf8))
        handle.closeFile()
        let before = try Self.snapshot(store)
        // 9 blocks of 1 KiB: the records fit, the log with one more line does not.
        let result = try Harness.run(["-c", "ulimit -f 9; exec \"$0\" -q \"$1\" -c 'move a1 1 0' -c 'name sp1 Z' -c save", Harness.wb.path, store],
                                     executable: URL(fileURLWithPath: "/bin/sh"))
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot save"), result.stderr)
        XCTAssertEqual(try Self.snapshot(store), before, "nothing written: not the records without their events")
    }

    /// Two processes saving one store at once: the second is refused under the locks of the
    /// folders written (both went ahead: one move lost, two events numbered alike, in 24 of 30
    /// trials of an adversarial pass). Whatever the timing, every save that succeeded is in
    /// the log once, each version once, and the anchor stands where its last event put it.
    func testTwoProcessesSavingOneStoreAtOnceLoseNothing() throws {
        let folder = try Harness.temporaryFolder(self)
        for trial in 0..<6 {
            let store = try Self.copy(into: folder.appendingPathComponent("t\(trial)"))
            let processes = [0.1, 0.2, 0.4].map { dx -> Process in
                let process = Process()
                process.executableURL = Harness.wb
                process.arguments = ["-q", "-c", "move a1 \(dx) 0", "-c", "save", store]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                return process
            }
            for process in processes { try process.run() }
            for process in processes { process.waitUntilExit() }
            let saved = processes.filter { $0.terminationStatus == 0 }.count
            XCTAssertGreaterThanOrEqual(saved, 1, "trial \(trial): one save at least goes through")
            let reopened = try HyperbasisStore.load(store)
            let events = (reopened.events[Self.spaceA] ?? []).filter { $0.anchorId.uppercased() == Self.anchor1 }
            XCTAssertEqual(events.map(\.version), Array(1...events.count), "trial \(trial): each version once")
            XCTAssertEqual(events.filter { $0.type == "moved" }.count, 1 + saved, "trial \(trial): every save that went through has its event")
            let anchor = try XCTUnwrap(reopened.anchors.first { $0.id.uppercased() == Self.anchor1 })
            guard case .array(let numbers)? = events.last(where: { $0.type == "moved" })?.json["transform"], case .number(let x) = numbers[12] else {
                return XCTFail("trial \(trial): a moved event with a transform")
            }
            XCTAssertEqual(anchor.transform?.translation.x ?? 0, Double(x.text) ?? .nan, accuracy: 1e-6,
                           "trial \(trial): the anchor stands where its last event put it (a lost update left it elsewhere)")
        }
    }

    func testALowerCaseAnchorFileIsRenamedNotDoubled() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        let lower = store + "/anchors/\(Self.anchor1.lowercased()).json"
        try FileManager.default.moveItem(atPath: store + "/anchors/\(Self.anchor1).json", toPath: lower)
        let result = try Harness.run(["-q", store, "-c", "move a1 1 0; save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/anchors").sorted(),
                       ["\(Self.anchor1).json", "\(Self.anchor2).json"], "renamed, not written beside the old file")
        let reopened = try HyperbasisStore.load(store)
        XCTAssertEqual(reopened.problems, [])
        XCTAssertEqual(reopened.anchors.count, 2)
        XCTAssertEqual(reopened.anchors.first { $0.id == Self.anchor1 }?.transform?.translation.x ?? 0, 1.75, accuracy: 1e-6)
        // A second save in the same session writes the renamed file.
        let again = try Harness.run(["-q", store, "-c", "move a1 1 0; save; move a1 1 0; save"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/anchors").count, 2)
    }

    func testALowerCaseSpaceFileIsRenamedNotDoubled() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        try FileManager.default.moveItem(atPath: store + "/spaces/\(Self.spaceB).json", toPath: store + "/spaces/\(Self.spaceB.lowercased()).json")
        let result = try Harness.run(["-q", store, "-c", "name sp2 Hall; save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/spaces").sorted(),
                       ["\(Self.spaceA).json", "\(Self.spaceB).json"])
        let reopened = try HyperbasisStore.load(store)
        XCTAssertEqual(reopened.spaces.map(\.name), ["Living Room", "Hall"])
    }

    /// A file whose name is not its id (other than by case) is not guessed at: the save
    /// refuses and says how to fix it, rather than write a second file for the anchor.
    func testAnAnchorFileNamedForAnotherIdIsNotSavedBeside() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        let odd = store + "/anchors/notes-backup.json"
        try FileManager.default.moveItem(atPath: store + "/anchors/\(Self.anchor1).json", toPath: odd)
        let loaded = try HyperbasisStore.load(store)
        XCTAssertTrue(loaded.problems.contains { $0.contains("notes-backup.json: its name is not its id \(Self.anchor1)") },
                      loaded.problems.joined(separator: "\n"))
        let result = try Harness.run(["-q", store, "-c", "move a2 1 0; save"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("error: cannot save \(store): \(odd): holds anchor \(Self.anchor1)"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store + "/anchors").sorted(),
                       ["\(Self.anchor2).json", "notes-backup.json"])
    }

    // MARK: - The event log's version numbers

    func testAnEventVersionAtTheLimitIsAnErrorNotATrap() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        let log = store + "/events/\(Self.spaceA)/events.jsonl"
        var text = try String(contentsOfFile: log, encoding: .utf8)
        text += "{\"anchorId\":\"\(Self.anchor1)\",\"id\":\"E0000000-0000-4000-8000-000000000009\",\"spaceId\":\"\(Self.spaceA)\","
            + "\"timestamp\":\"2025-12-02T16:05:00Z\",\"type\":\"updated\",\"version\":9223372036854775807}\n"
        try Self.write(text, log)
        let before = try Self.snapshot(store)
        let result = try Harness.run(["-q", store, "-c", "move a1 1 0; save"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("version"), result.stderr)
        XCTAssertEqual(try Self.snapshot(store), before)
    }

    /// The SDK compares ids as UUIDs: an anchor whose `spaceId` is in lower case is in its
    /// space, and an anchor whose space record is gone still has its log. A save numbered
    /// either's new events from 1 again, after the versions the log already had.
    func testAnAnchorsNewEventsFollowItsLogWhateverItsSpaceRecordSays() throws {
        let folder = try Harness.temporaryFolder(self)
        let lower = try Self.copy(into: folder.appendingPathComponent("lower"))
        let file = lower + "/anchors/\(Self.anchor1).json"
        try Self.write(try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: Self.spaceA, with: Self.spaceA.lowercased()), file)
        let orphan = try Self.copy(into: folder.appendingPathComponent("orphan"))
        try FileManager.default.removeItem(atPath: orphan + "/spaces/\(Self.spaceB).json")
        for (store, command, space, anchor) in [(lower, "move a1 1 0", Self.spaceA, Self.anchor1), (orphan, "restore a2", Self.spaceB, Self.anchor2)] {
            let result = try Harness.run(["-q", store, "-c", "\(command); save"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let log = try String(contentsOfFile: store + "/events/\(space)/events.jsonl", encoding: .utf8)
            let events = try log.split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.filter { $0["anchorId"] as? String == anchor }
            XCTAssertEqual(events.compactMap { $0["version"] as? Int }, (0..<events.count).map { $0 + 1 }, "\(store): each version once, in order")
            XCTAssertEqual(events.filter { $0["type"] as? String == "created" }.count, 1, "\(store): no second created event")
            XCTAssertEqual(events.count, command.hasPrefix("move") ? 4 : 3, "\(store): the log's events and the save's")
        }
        let listed = try Harness.run(["-q", lower, "-c", "ls spaces"])
        XCTAssertTrue(listed.stdout.contains("Living Room  \(Self.spaceA)"), listed.stdout)
        XCTAssertFalse(listed.stderr.contains("does not exist"), "a lower-case spaceId names its space: \(listed.stderr)")
    }

    /// A record or event log its owner made read-only is refused, as a write-protected scan
    /// is (it was replaced without a word: the rename needs only a writable folder); with
    /// --force it is replaced and keeps its mode. Nothing else is written either.
    func testAWriteProtectedRecordOrLogIsReplacedOnlyWithForce() throws {
        let folder = try Harness.temporaryFolder(self)
        for (trial, protected) in ["anchors/\(Self.anchor1).json", "events/\(Self.spaceA)/events.jsonl"].enumerated() {
            let store = try Self.copy(into: folder.appendingPathComponent("t\(trial)"))
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store + "/" + protected)
            let before = try Self.snapshot(store)
            for flags in [["--dry-run"], []] {
                let refused = try Harness.run(["-q"] + flags + [store, "-c", "move a1 1 0; save"])
                XCTAssertEqual(refused.status, 1, refused.stderr)
                XCTAssertTrue(refused.stderr.contains("\(store)/\(protected): is write-protected (mode 444): save --force"), refused.stderr)
                XCTAssertEqual(try Self.snapshot(store), before, "\(protected): nothing written")
            }
            let forced = try Harness.run(["-q", store, "-c", "move a1 1 0; save --force"])
            XCTAssertEqual(forced.status, 0, forced.stderr)
            XCTAssertNotEqual(try Self.snapshot(store), before)
            let mode = try FileManager.default.attributesOfItem(atPath: store + "/" + protected)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o444, "\(protected) keeps its mode")
        }
    }

    /// `show` lines its fields up by the names as printed: a metadata key holding a control
    /// character was cut short (`metadata.k\u{1` for `k\u{1B}ey`), padded by its raw length
    /// before its escape made it longer; a wide (CJK) key put its value out of line.
    func testShowPrintsEveryFieldNameWholeAndItsValueInLine() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try Self.copy(into: folder)
        let file = store + "/anchors/\(Self.anchor1).json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try Self.write(text.replacingOccurrences(of: "\"metadata\":{", with: "\"metadata\":{\"k\\u001bey\":\"v\","), file)
        let result = try Harness.run(["-q", store, "-c", "set a1 日本語 1; show a1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("metadata.k\\u{1B}ey  ") }, result.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("metadata.日本語  ") }, result.stdout)
        // Each value starts in one column: the widest name (in terminal columns) and two blanks.
        let starts = Set(lines.map { line -> Int in
            let name = line.components(separatedBy: "  ")[0]
            return name.reduce(0) { $0 + (($1.unicodeScalars.first?.value ?? 0) >= 0x3000 ? 2 : 1) }
                + line.dropFirst(name.count).prefix { $0 == " " }.count
        })
        XCTAssertEqual(starts.count, 1, result.stdout)
    }

    // MARK: - Messages (item 22)

    func testMessagesSayWhatIsWrongWithTheSpaceFile() throws {
        let folder = try Harness.temporaryFolder(self)
        let map = try Data(contentsOf: URL(fileURLWithPath: try Self.sampleStore() + "/worldmaps/\(Self.spaceA).bin"))
        let truncated = folder.appendingPathComponent("map.bin").path
        try map.prefix(map.count / 2).write(to: URL(fileURLWithPath: truncated))
        let state = HyperbasisStore.readWorldMap(truncated, compressed: true)
        XCTAssertEqual(state.problem, "isCompressed is true but its world map cannot be inflated: the DEFLATE data ends early (truncated)")

        let numeric = folder.appendingPathComponent("space.json").path
        try Self.write("{\"id\":\"\(Self.spaceA)\",\"worldMapData\":12}", numeric)
        let result = try Harness.run(["-q", numeric])
        XCTAssertFalse(result.stderr.contains("not a RoomPlan room or structure"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\"worldMapData\" is a number, not base64 text"), result.stderr)

        let noId = folder.appendingPathComponent("noid.json").path
        try Self.write("{\"worldMapData\":\"AAAA\"}", noId)
        let refused = try Harness.run(["-q", noId])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("an HBSpace file, but it has no \"id\""), refused.stderr)
    }

    func testFindAnchorsWhere() throws {
        let store = try Self.sampleStore()
        let result = try Harness.run(["-q", "--json", store, "-c", "find anchors where color = yellow"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual(rows.map { $0["handle"] as! String }, ["a1"])
        let bare = try Harness.run(["-q", store, "-c", "find anchors"])
        XCTAssertEqual(bare.status, 1)
        XCTAssertTrue(bare.stderr.contains("where"), bare.stderr)
    }
}

/// Many damaged copies of a small store, each read in this process: each opens (with
/// problems) or gives an error, and never traps, which would end the test run.
final class StoreRobustnessTests: XCTestCase {
    /// Values that make readers do arithmetic at the edges.
    static let hostileBytes: [UInt8] = [0x00, 0xFF, 0x7F, 0x80, 0x0F, 0x13, 0x1F, 0x4F, 0x5F, 0x6F, 0xAF, 0xDF, 0x8F]

    /// Every object of a plist, decoded, and the archive inspected: errors are fine.
    static func exercise(_ bytes: [UInt8]) {
        _ = try? WorldMapArchive.inspect(bytes)
        if let plist = try? BinaryPlist(bytes) {
            for index in 0..<plist.objectCount {
                _ = try? plist.object(index)
                _ = try? plist.dictionary(index)
            }
        }
    }

    func testEveryBytePositionOfAWorldMapTakesHostileValues() throws {
        let store = try StoreSafetyTests.sampleStore()
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: store + "/worldmaps/\(StoreSafetyTests.spaceB).bin")))
        let packed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: store + "/worldmaps/\(StoreSafetyTests.spaceA).bin")))
        let inflated = try RawDeflate.inflate(packed, limit: 1 << 20)
        for original in [plain, inflated] {
            for position in original.indices {
                for value in Self.hostileBytes {
                    var bytes = original
                    bytes[position] = value
                    Self.exercise(bytes)
                }
                // Eight bytes of a huge number from here on: lengths, counts, offsets, trailer fields.
                for pattern: [UInt8] in [[0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]] {
                    var bytes = original
                    for (i, byte) in pattern.enumerated() where position + i < bytes.count { bytes[position + i] = byte }
                    Self.exercise(bytes)
                }
            }
            for length in 0..<original.count { Self.exercise(Array(original.prefix(length))) }
        }
        for length in stride(from: 0, to: packed.count, by: 7) {
            _ = try? RawDeflate.inflate(Array(packed.prefix(length)), limit: 1 << 20)
        }
        var rng = SplitMix(seed: 7)
        for _ in 0..<2000 {
            var bytes = packed
            for _ in 0..<rng.int(1...4) { bytes[rng.int(0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: rng.int(0...255)) }
            if let raw = try? RawDeflate.inflate(bytes, limit: 1 << 20) { Self.exercise(raw) }
        }
    }

    func testMutatedStoresOpenOrFailButNeverTrap() throws {
        let folder = try Harness.temporaryFolder(self)
        let store = try StoreSafetyTests.copy(into: folder)
        var files: [String] = []
        for sub in ["spaces", "anchors", "worldmaps"] {
            files += try FileManager.default.contentsOfDirectory(atPath: store + "/" + sub).sorted().map { "\(sub)/\($0)" }
        }
        files += ["events/\(StoreSafetyTests.spaceA)/events.jsonl", "events/\(StoreSafetyTests.spaceB)/events.jsonl", "pending_operations.json"]
        let originals = try files.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: store + "/" + $0))) }
        let spliced = ["9223372036854775807", "-9223372036854775809", "1e400", "\"../../x\"", "null", "[]", "{}",
                       "18446744073709551616", "\"\(StoreSafetyTests.anchor1.lowercased())\"", "\"\"", "\"\\ud800\""]
        var rng = SplitMix(seed: 2024)
        var opened = 0, failed = 0
        for round in 0..<600 {
            let which = rng.int(0...(files.count - 1))
            var bytes = originals[which]
            switch round % 5 {
            case 0:
                bytes = Array(bytes.prefix(rng.int(0...bytes.count)))
            case 1:
                for _ in 0..<rng.int(1...6) where !bytes.isEmpty {
                    bytes[rng.int(0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: rng.int(0...255))
                }
            case 2:
                // A JSON value replaced by a hostile one (for a plist, bytes overwritten).
                let text = Array(spliced[rng.int(0...(spliced.count - 1))].utf8)
                let start = rng.int(0...max(0, bytes.count - 1))
                let end = min(bytes.count, start + rng.int(1...24))
                bytes.replaceSubrange(start..<end, with: text)
            case 3:
                // Huge big-endian numbers where a plist keeps lengths and offsets.
                let start = rng.int(0...max(0, bytes.count - 8))
                for i in 0..<8 where start + i < bytes.count { bytes[start + i] = i == 0 ? 0x7F : 0xFF }
            default:
                // A world map replaced by a deflated hostile plist, or a file by nothing.
                if files[which].hasPrefix("worldmaps/") {
                    bytes = RawDeflate.deflate(StoreSafetyTests.plist([0xDF] + StoreSafetyTests.huge))
                } else {
                    bytes = []
                }
            }
            let path = store + "/" + files[which]
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                let loaded = try HyperbasisStore.load(store)
                opened += 1
                // A save of an edit, planned but not written, must not trap either.
                var edited = loaded
                if !edited.anchors.isEmpty { edited.anchors[0].metadata["fuzz"] = .string("x") }
                if !edited.spaces.isEmpty { edited.spaces[0].name = "fuzz" }
                _ = try? edited.save(comparedWith: loaded, now: Date(), dryRun: true)
            } catch {
                failed += 1
            }
            // The same bytes as an HBSpace file's inline world map.
            if files[which].hasPrefix("worldmaps/") {
                let single = folder.appendingPathComponent("single.json").path
                try StoreSafetyTests.write("{\"id\":\"\(StoreSafetyTests.spaceA)\",\"worldMapData\":\"\(Data(bytes).base64EncodedString())\"}", single)
                _ = try? HyperbasisStore.loadSpaceFile(single)
            }
            try Data(originals[which]).write(to: URL(fileURLWithPath: path))
        }
        XCTAssertEqual(opened + failed, 600)
        XCTAssertGreaterThan(opened, 500, "a damaged file is reported and the store still opens")
        XCTAssertEqual(try HyperbasisStore.load(store).problems, [], "every file was put back")
    }
}
