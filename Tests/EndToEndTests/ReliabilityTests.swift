#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StructureModel
import XCTest

/// What wb does when the world misbehaves: another process saving the same file, a crash
/// between a save's renames, a file-size limit, devices where files belong, a full
/// standard output, numbers beyond Float's range. Each test fails on the behaviour the
/// reliability issue reported.
final class ReliabilityTests: XCTestCase {
    private var folder: URL!
    private var path: String!

    override func setUpWithError() throws {
        folder = try Harness.temporaryFolder(self)
        path = try Harness.generatedRoom(in: folder)
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".wb-") }
    }

    private func roomName(_ path: String) throws -> (name: String?, stderr: String) {
        let result = try Harness.run(["-q", "--json", path, "-c", "ls rooms"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return (try Harness.jsonArray(result.stdout).first?["name"] as? String, result.stderr)
    }

    // MARK: An export onto an open file

    /// `export usda flat.json` with flat.json open wrote USD text over the scan (and `export
    /// csv` over its names file): an export onto an open file, or the names file beside it,
    /// is refused with the file named, and the scan stays byte for byte; an SVG of two
    /// stories whose second page is refused writes neither.
    func testAnExportNeverReplacesAnOpenFileOrItsNamesFile() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let sidecar = String(path.dropLast(5)) + ".wb.json"
        let relative = "./" + URL(fileURLWithPath: path).lastPathComponent
        for (command, target) in [("export usda \(path!)", path!), ("export csv \(sidecar) rooms", sidecar),
                                  ("export structure \(relative)", relative)] {
            let result = try Harness.run(["-q", path, "-c", "name r1 Den", "-c", command], in: folder)
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains("\(target) is ") && result.stderr.contains("open in wb"), result.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, command)
            XCTAssertFalse(FileManager.default.fileExists(atPath: sidecar), command)
        }
        let elsewhere = folder.appendingPathComponent("plan.usda").path
        XCTAssertEqual(try Harness.run(["-q", path, "-c", "export usda \(elsewhere)"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: elsewhere, encoding: .utf8).hasPrefix("#usda"))

        let structure = folder.appendingPathComponent("two.json").path
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 4, stories: 2))
        try Data(RoomPlanCodec.encode(.structure(building.structure))).write(to: URL(fileURLWithPath: structure))
        let pages = folder.appendingPathComponent("p").path
        try FileManager.default.createDirectory(atPath: pages + "-story1.svg", withIntermediateDirectories: false)
        let svg = try Harness.run(["-q", structure, "-c", "export svg \(pages).svg"])
        XCTAssertEqual(svg.status, 1, svg.stderr)
        XCTAssertTrue(svg.stderr.contains("p-story1.svg: it is a folder; nothing was written"), svg.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: pages + "-story0.svg"), "the first page was written alone")
        for target in [folder.path, folder.path + "/", "."] {
            let intoFolder = try Harness.run(["-q", structure, "-c", "export svg \(target)"], in: folder)
            XCTAssertEqual(intoFolder.status, 1, target)
            XCTAssertTrue(intoFolder.stderr.contains("it is a folder; give a file name"), intoFolder.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("story") }, ["p-story1.svg"])
    }

    // MARK: Item 3: two processes saving one file

    /// The changed-on-disk check and the rename happen under the folder's lock: a save
    /// that has to wait for it checks again after the wait, and refuses a file another
    /// process replaced meanwhile (without the lock it would overwrite that file).
    func testASaveWaitingForTheFolderLockRefusesAFileReplacedMeanwhile() throws {
        let lock = open(folder.path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(lock, 0)
        XCTAssertEqual(flock(lock, LOCK_EX), 0)
        var released = false
        defer { if !released { close(lock) } }

        let process = Process()
        process.executableURL = Harness.wb
        process.arguments = ["-q", path, "-c", "move r1 1 0", "-c", "save"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // wb has read the file and written its temporary file once one appears; it then
        // waits for the lock before it may rename.
        var waited = 0
        while try leftovers().isEmpty && process.isRunning && waited < 2000 {
            usleep(10_000)
            waited += 1
        }
        XCTAssertTrue(process.isRunning, "wb waits for the lock another process holds")
        let theirs = Data("{\"other\": \"process\"}\n".utf8)
        try theirs.write(to: URL(fileURLWithPath: path), options: .atomic)
        close(lock)
        released = true
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        XCTAssertTrue(stderr.contains("changed on disk since it was opened"), stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), theirs, "the other process's file is kept")
        XCTAssertEqual(try leftovers(), [], "the refused save removed its temporary file")
    }

    /// Pairs of processes saving one file at once, one moving the room 1 m, the other 2 m:
    /// never both succeed unless the second read the first's file (then the room moved
    /// 3 m); never an edit lost silently.
    func testTwoProcessesSavingOneFileNeverLoseAnEditSilently() throws {
        func firstWallX() throws -> Double {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
            return ((json["walls"] as! [[String: Any]])[0]["transform"] as! [Double])[12]
        }
        let start = try firstWallX()
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for pair in 0..<6 {
            try original.write(to: URL(fileURLWithPath: path))
            let processes = [1, 2].map { dx -> (Process, Pipe) in
                let process = Process()
                process.executableURL = Harness.wb
                process.arguments = ["-q", path, "-c", "move r1 \(dx) 0", "-c", "save"]
                let errors = Pipe()
                process.standardError = errors
                process.standardOutput = FileHandle.nullDevice
                return (process, errors)
            }
            for (process, _) in processes { try process.run() }
            var succeeded: [Double] = []
            for ((process, errors), dx) in zip(processes, [1.0, 2.0]) {
                let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                if process.terminationStatus == 0 {
                    succeeded.append(dx)
                } else {
                    XCTAssertEqual(process.terminationStatus, 1, stderr)
                    XCTAssertTrue(stderr.contains("changed on disk") || stderr.contains("being saved by another process"), stderr)
                }
            }
            let moved = try firstWallX() - start
            switch succeeded.count {
            case 2: XCTAssertEqual(moved, 3, accuracy: 1e-3, "pair \(pair): both saved, so both edits are in the file")
            case 1: XCTAssertEqual(moved, succeeded[0], accuracy: 1e-3, "pair \(pair): the file has the winner's edit")
            default: XCTFail("pair \(pair): neither saved")
            }
        }
    }

    // MARK: Item 8: a file and its sidecar, as one save

    /// A save interrupted between renaming the sidecar and renaming the file leaves the old
    /// file and the new sidecar: opening finds the names that go with the old file.
    func testACrashBetweenTheTwoRenamesIsFoundAndTheMatchingNamesAreUsed() throws {
        let named = try Harness.run(["-q", path, "-c", "name r1 Old; save"])
        XCTAssertEqual(named.status, 0, named.stderr)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        let crashed = try Harness.run(["-q", path, "-c", "name r1 New; move r1 1 0; save"],
                                      environment: ["WB_TEST_CRASH_BETWEEN_RENAMES": "1"])
        XCTAssertEqual(crashed.status, 70, "wb died between the sidecar's rename and the file's")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "the file is still the old one")
        let (name, warnings) = try roomName(path)
        XCTAssertEqual(name, "Old", "the names of the old file, not those of the save that did not finish")
        XCTAssertTrue(warnings.contains("interrupted"), warnings)

        let saved = try Harness.run(["-q", path, "-c", "name r1 New; move r1 1 0; save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let (after, quiet) = try roomName(path)
        XCTAssertEqual(after, "New")
        XCTAssertEqual(quiet, "", "a sidecar that matches its file opens without a word")
        XCTAssertEqual(try leftovers(), [], "the temporary file of the crashed save was removed by the next save")
    }

    /// A scan opened through a link to its own folder spelled otherwise (`scan.json ->
    /// /abs/folder/room.json`), saved with its names file: the save locked that folder under
    /// both spellings, so it waited 30 s on its own lock and failed, saying another process
    /// was saving. Folders are now told apart by what they are, not how they are spelled.
    func testASaveThroughALinkToItsOwnFolderDoesNotWaitOnItself() throws {
        let link = folder.appendingPathComponent("scan.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = Date()
        let result = try Harness.run(["-q", "scan.json", "-c", "name r1 Den; move r1 1 0; save"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "the save waited on its own lock")
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the file the link points at is saved")
        XCTAssertEqual(try roomName(link).name, "Den")
        XCTAssertEqual(try leftovers(), [])
    }

    /// A sidecar that cannot be written (a folder in its place) fails the whole save before
    /// anything is renamed: the RoomPlan file is untouched.
    func testASidecarThatCannotBeWrittenLeavesTheFileUntouched() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let sidecar = folder.appendingPathComponent("room.wb.json")
        try FileManager.default.createDirectory(at: sidecar, withIntermediateDirectories: false)
        let result = try Harness.run(["-q", path, "-c", "name r1 Kitchen; move r1 1 0; save"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("cannot save \(path!): \(sidecar.path): is a folder, not a file"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "the file was not rewritten")
        XCTAssertEqual(try leftovers(), [])
    }

    /// A names file wb cannot read (one stray comma from a hand edit) or that a newer wb wrote
    /// (keys this one does not know) was replaced by the next save of an unrelated edit, and
    /// every name in it was lost: a copy is kept beside the new one, once, and the save says so.
    func testANamesFileThisWbCannotReadInFullIsKeptBesideTheNewOne() throws {
        let sidecar = folder.appendingPathComponent("room.wb.json")
        XCTAssertEqual(try Harness.run(["-q", path, "-c", "name r1 Kitchen; save"]).status, 0)
        let good = try String(contentsOf: sidecar, encoding: .utf8)
        let broken = good.replacingOccurrences(of: "\"Kitchen\",", with: "\"Kitchen\",,")
        XCTAssertNotEqual(broken, good)
        try broken.write(to: sidecar, atomically: true, encoding: .utf8)
        let opened = try Harness.run(["-q", path, "-c", "name r1 Hall; save"])
        XCTAssertEqual(opened.status, 0, opened.stderr)
        XCTAssertTrue(opened.stderr.contains("its names were not read"), opened.stderr)
        let aside = folder.appendingPathComponent("room.wb.json.unreadable")
        XCTAssertTrue(opened.stderr.contains("a copy of it was kept as \(aside.path)"), opened.stderr)
        XCTAssertEqual(try String(contentsOf: aside, encoding: .utf8), broken, "the names file as it was")
        XCTAssertEqual(try roomName(path).name, "Hall")
        // Saved again, the new names file reads: nothing more is kept.
        XCTAssertEqual(try Harness.run(["-q", path, "-c", "name r1 Den; save"]).stderr, "")
        // A newer wb's names file: read, said so, and kept under its version.
        var newer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as? [String: Any])
        newer["version"] = 99
        newer["futureThing"] = ["x": 1]
        let newerBytes = try JSONSerialization.data(withJSONObject: newer)
        try newerBytes.write(to: sidecar)
        let later = try Harness.run(["-q", path, "-c", "name r1 Study; save"])
        XCTAssertEqual(later.status, 0, later.stderr)
        XCTAssertTrue(later.stderr.contains("written by a newer wb (version 99"), later.stderr)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("room.wb.json.v99")), newerBytes)
        XCTAssertEqual(try roomName(path).name, "Study")
        // Another program's file of that name, JSON but with no key of wb's: it was taken for
        // an empty names file and replaced, unsaid. Kept aside as one this wb cannot read.
        let foreign = Data(#"{"format":"other-tool","keep":"me"}"#.utf8)
        try FileManager.default.removeItem(at: aside)
        try foreign.write(to: sidecar)
        let other = try Harness.run(["-q", path, "-c", "name r1 Lounge; save"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertTrue(other.stderr.contains("a copy of it was kept as \(aside.path)"), other.stderr)
        XCTAssertEqual(try Data(contentsOf: aside), foreign, "the other program's file as it was")
        XCTAssertEqual(try roomName(path).name, "Lounge")
        try FileManager.default.removeItem(at: aside)
        XCTAssertEqual(try leftovers(), [])
    }

    /// A scan its owner write-protected (as the shipped samples are) was replaced by a plain
    /// `save`: the atomic rename needs only a writable folder. Refused now, with the mode, and
    /// nothing written; `save --force` replaces it and keeps the mode. A write-protected
    /// names file is refused the same way.
    func testAWriteProtectedFileIsReplacedOnlyWithForce() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let refused = try Harness.run(["-q", path, "-c", "move r1 1 0; save"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("\(path!) is write-protected (mode 444): save --force replaces it anyway"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        let forced = try Harness.run(["-q", path, "-c", "move r1 1 0; save --force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue, 0o444)
        // The names file.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        XCTAssertEqual(try Harness.run(["-q", path, "-c", "name r1 Den; save"]).status, 0)
        let sidecar = folder.appendingPathComponent("room.wb.json").path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sidecar)
        let names = try Harness.run(["-q", path, "-c", "name r1 Hall; save"])
        XCTAssertEqual(names.status, 1)
        XCTAssertTrue(names.stderr.contains("\(sidecar) is write-protected"), names.stderr)
        XCTAssertEqual(try roomName(path).name, "Den")
        XCTAssertEqual(try leftovers(), [])
    }

    /// Another user's scan in another user's folder: wb said "write-protected (mode 644): save
    /// --force replaces it anyway", and --force then failed. It says the folder is not writable
    /// and suggests nothing. (Run as root, wb is run as nobody through setpriv.)
    func testAnotherUsersFileInAnotherUsersFolderIsNotOfferedForce() throws {
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let scan = locked.appendingPathComponent("room.json").path
        try FileManager.default.copyItem(atPath: path, toPath: scan)
        let original = try Data(contentsOf: URL(fileURLWithPath: scan))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scan)
        let result: (status: Int32, stdout: String, stderr: String)
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                throw XCTSkip("run as root, and setpriv (util-linux) is absent to run wb as another user")
            }
            let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv"), asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
            // (A checkout in a folder only root may enter, as mktemp -d makes: nobody cannot run wb there.)
            let reach = try Harness.run(asNobody + ["/bin/sh", "-c", "test -x \"$0\" && test -r \"$1\"", Harness.wb.path, scan], executable: setpriv)
            guard reach.status == 0 else { throw XCTSkip("run as root, and nobody may not run \(Harness.wb.path) or read \(scan) here") }
            let run = try Harness.run(asNobody + [Harness.wb.path, "-q", scan, "-c", "move r1 1 0; save"], executable: setpriv)
            result = (run.status, run.stdout, run.stderr)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: scan)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            addTeardownBlock { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            let run = try Harness.run(["-q", scan, "-c", "move r1 1 0; save"])
            result = (run.status, run.stdout, run.stderr)
        }
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot save \(scan): cannot write in \(locked.path): permission denied"), result.stderr)
        XCTAssertFalse(result.stderr.contains("--force"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: scan)), original)
    }

    /// `save PATH` over another scan left that scan's names file beside it: reopened, the new
    /// file's room took the old one's name. And `save other.wb.json` wrote a scan over another
    /// scan's names file. The names file beside PATH is now replaced with this file's (empty
    /// here), and a names file's name is refused as PATH.
    func testSavingOverAnotherScanLeavesNoStrayNames() throws {
        let other = folder.appendingPathComponent("other.json").path
        try FileManager.default.copyItem(atPath: path, toPath: other)
        XCTAssertEqual(try Harness.run(["-q", other, "-c", "name r1 Attic; save"]).status, 0)
        XCTAssertEqual(try roomName(other).name, "Attic")
        let over = try Harness.run(["-q", path, "-c", "move r1 1 0; save \(other)"])
        XCTAssertEqual(over.status, 0, over.stderr)
        XCTAssertNil(try roomName(other).name, "the old scan's name does not stay with the new one")
        let names = folder.appendingPathComponent("other.wb.json").path
        let before = try Data(contentsOf: URL(fileURLWithPath: names))
        let refused = try Harness.run(["-q", path, "-c", "save \(names)"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("is a names file's name"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: names)), before)
    }

    // MARK: Item 18: file-size limits and stale temporary files

    func testAFileSizeLimitIsReportedAndLeavesNoTemporaryFile() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertGreaterThan(original.count, 8192)
        // 8 blocks: at most 8 KiB (4 KiB where a block is 512 bytes), less than the file.
        let result = try Harness.run(["-c", "ulimit -f 8 && exec \"$0\" -q \"$1\" -c 'move r1 1 0' -c save", Harness.wb.path, path],
                                     executable: URL(fileURLWithPath: "/bin/sh"))
        XCTAssertEqual(result.status, 1, "a failed save, not death by SIGXFSZ: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("file-size limit"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
        XCTAssertEqual(try leftovers(), [])
    }

    func testTemporaryFilesLeftByAKillAreRemovedByTheNextSave() throws {
        let crashed = try Harness.run(["-q", path, "-c", "move r1 5 5; save"], environment: ["WB_TEST_CRASH_BEFORE_RENAME": "1"])
        XCTAssertEqual(crashed.status, 70)
        XCTAssertEqual(try leftovers().count, 1)
        // One being written by a live process (it holds its lock) is not touched.
        let live = folder.appendingPathComponent(".room.json.wb-LiveLive").path
        let fd = open(live, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        defer { close(fd) }
        let saved = try Harness.run(["-q", path, "-c", "move r1 1 0; save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertEqual(try leftovers(), [".room.json.wb-LiveLive"])
    }

    // MARK: Items 13, 14, 20

    /// Coordinates near 3e38, turned 45°, would go beyond Float's range: refused before
    /// anything changes; `plan` of such a room draws instead of trapping.
    func testEditsBeyondFloatRangeAreRefusedAndHugeCoordinatesDoNotTrap() throws {
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        for key in ["walls", "doors", "windows", "openings", "floors", "objects"] {
            guard var items = json[key] as? [[String: Any]] else { continue }
            for index in items.indices {
                var transform = items[index]["transform"] as! [Double]
                transform[12] += 3.0e38
                transform[14] += 3.0e38
                items[index]["transform"] = transform
            }
            json[key] = items
        }
        if var sections = json["sections"] as? [[String: Any]] {
            for index in sections.indices {
                var centre = sections[index]["center"] as! [Double]
                centre[0] += 3.0e38
                centre[2] += 3.0e38
                sections[index]["center"] = centre
            }
            json["sections"] = sections
        }
        let huge = folder.appendingPathComponent("huge.json").path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: huge))
        let before = try Data(contentsOf: URL(fileURLWithPath: huge))
        let result = try Harness.run(["-q", "-k", huge, "-c", "rotate r1 45 --about 0 0", "-c", "plan --width 60", "-c", "save"])
        XCTAssertEqual(result.status, 1, "the rotation failed; nothing trapped: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("refused: this would give a transform a number a RoomPlan file cannot hold"), result.stderr)
        XCTAssertTrue(result.stdout.contains("story 0"), "the plan was drawn: \(result.stdout)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: huge)), before)
    }

    func testDevicesAndPipesAreRefusedWhereAFileIsExpected() throws {
        let open = try Harness.run(["/dev/zero"])
        XCTAssertEqual(open.status, 1)
        XCTAssertTrue(open.stderr.contains("/dev/zero: error: is not a regular file"), open.stderr)
        let script = try Harness.run(["-f", "/dev/urandom"])
        XCTAssertEqual(script.status, 2)
        XCTAssertTrue(script.stderr.contains("cannot read script /dev/urandom: is not a regular file"), script.stderr)
        let sourced = try Harness.run(["-c", "source /dev/zero"])
        XCTAssertEqual(sourced.status, 1)
        XCTAssertTrue(sourced.stderr.contains("cannot read script /dev/zero: is not a regular file"), sourced.stderr)
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let piped = try Harness.run([fifo])
        XCTAssertEqual(piped.status, 1, "a FIFO with no writer is refused, not waited on")
        XCTAssertTrue(piped.stderr.contains("is not a regular file"), piped.stderr)
        let explicit = try Harness.run(["-q", "-f", "-", path], stdin: "echo from stdin\n")
        XCTAssertEqual(explicit.status, 0, explicit.stderr)
        XCTAssertEqual(explicit.stdout, "from stdin\n")
    }

    func testEndlessStandardInputIsCutAtTheScriptLimit() throws {
        let process = Process()
        process.executableURL = Harness.wb
        process.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertTrue(stderr.contains("larger than wb reads"), stderr)
    }

    func testAListingThatCannotBeWrittenExitsOne() throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("no /dev/full here") }
        let process = Process()
        process.executableURL = Harness.wb
        process.arguments = ["-q", path, "-c", "ls walls"]
        process.standardOutput = full
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertTrue(stderr.contains("cannot write to standard output: no space left on the device"), stderr)
    }

    // MARK: Faults: a read-only folder, a file replaced or removed under a session

    func testAReadOnlyFolderFailsTheSaveAndKeepsTheFile() throws {
        guard geteuid() != 0 else { throw XCTSkip("root writes into read-only folders; run as another user") }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let result = try Harness.run(["-q", path, "-c", "move r1 1 0; save"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("permission denied"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }
}
