#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import XCTest
@testable import StructureModel

/// Saves touch no process-wide state, fail cleanly where a test makes them fail, and
/// StructureModel can be used from several threads at once, one workspace per thread.
final class FileIOTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-fileio-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { [folder] in try? FileManager.default.removeItem(atPath: folder!) }
    }

    private func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// Another writer that rewrites a file in place, keeping its size, and puts its
    /// modification time back changes its stamp: `save` refuses to overwrite it ("changed on
    /// disk"), where it silently lost that writer's edit.
    func testARewriteInPlaceThatKeepsSizeAndTimeChangesTheStamp() throws {
        let path = folder + "/room.json"
        try FileIO.writeAtomically(Array("{\"label\":\"bedroom\"}".utf8), to: path)
        let before = try XCTUnwrap(FileIO.stamp(of: path))
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        usleep(20_000)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("{\"label\":\"BEDROOM\"}".utf8))
        try handle.close()
        #if canImport(Darwin)
        var times = [info.st_atimespec, info.st_mtimespec]
        #else
        var times = [info.st_atim, info.st_mtim]
        #endif
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        let after = try XCTUnwrap(FileIO.stamp(of: path))
        XCTAssertEqual(after.size, before.size)
        XCTAssertEqual(after.modificationSeconds, before.modificationSeconds)
        XCTAssertEqual(after.modificationNanoseconds, before.modificationNanoseconds)
        XCTAssertNotEqual(after, before)
    }

    func testAFailureBeforeTheRenameLeavesTheOldFileAndNoTemporaryFile() throws {
        let path = folder + "/room.json"
        try FileIO.writeAtomically(Array("old".utf8), to: path)
        let faults = WriteFaults(beforeRename: { () throws(FileError) in throw FileError(path: path, message: "injected") })
        XCTAssertThrowsError(try FileIO.writeAtomically(Array("new".utf8), to: path, faults: faults)) { error in
            XCTAssertEqual((error as? FileError)?.message, "injected")
        }
        XCTAssertEqual(try FileIO.read(path), Array("old".utf8))
        XCTAssertEqual(try entries(), ["room.json"], "no temporary file is left behind")
    }

    /// A save of several files renames none of them when one cannot be written, and its
    /// changed-on-disk check runs under the lock, before any rename.
    func testACommitRenamesNothingWhenOneFileOrTheCheckFails() throws {
        let names = folder + "/room.wb.json", room = folder + "/room.json"
        try FileIO.writeAtomically(Array("old".utf8), to: room)
        try FileManager.default.createDirectory(atPath: names, withIntermediateDirectories: false)
        XCTAssertThrowsError(try FileIO.commit([FileWrite(path: names, bytes: [1]), FileWrite(path: room, bytes: Array("new".utf8))]))
        XCTAssertEqual(try FileIO.read(room), Array("old".utf8))
        try FileManager.default.removeItem(atPath: names)
        XCTAssertThrowsError(try FileIO.commit([FileWrite(path: names, bytes: [1]), FileWrite(path: room, bytes: Array("new".utf8))]) {
            () throws(FileError) in throw FileError(path: room, message: "changed on disk")
        })
        XCTAssertEqual(try FileIO.read(room), Array("old".utf8))
        XCTAssertEqual(try entries(), ["room.json"], "neither file was renamed, no temporary file is left")
    }

    func testDevicesAndPipesAreNotRead() throws {
        XCTAssertThrowsError(try FileIO.read("/dev/zero")) { error in
            XCTAssertTrue((error as? FileError)?.message.hasPrefix("is not a regular file") == true, "\(error)")
        }
        let fifo = folder + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try FileIO.read(fifo))
        try FileIO.writeAtomically([UInt8](repeating: 65, count: 100), to: folder + "/big")
        XCTAssertThrowsError(try FileIO.read(folder + "/big", limit: 99)) { error in
            XCTAssertTrue((error as? FileError)?.message.hasPrefix("is larger than wb reads") == true, "\(error)")
        }
    }

    /// A symbolic link to nothing is named as one, with where it points: "no such file" for a
    /// file that plainly is there (`ls` lists it) sent people looking in the wrong place.
    func testALinkToNothingIsSaidToBeOne() throws {
        let link = folder + "/anchor.json"
        XCTAssertEqual(symlink(folder + "/gone.json", link), 0)
        XCTAssertThrowsError(try FileIO.read(link)) { error in
            XCTAssertEqual((error as? FileError)?.message, "is a symbolic link to \(folder!)/gone.json, which does not exist")
        }
        XCTAssertThrowsError(try FileIO.read(folder + "/missing.json")) { error in
            XCTAssertEqual((error as? FileError)?.message, "no such file or directory")
        }
    }

    func testHugeAndNonNumbersConvertToIntWithoutTrapping() {
        XCTAssertEqual(Int(saturating: 3.0e38), .max)
        XCTAssertEqual(Int(saturating: -Double.infinity), .min)
        XCTAssertEqual(Int(saturating: .nan), 0)
        XCTAssertEqual(Int(saturating: -2.7), -2)
    }

    /// A sidecar names the file it goes with; after a crash between the two renames of a
    /// save, the new sidecar's `previous` is what goes with the old file still there.
    func testASidecarResolvesToTheNamesOfTheFileBesideIt() throws {
        let old = ContentDigest(Array("old json".utf8)), new = ContentDigest(Array("new json".utf8))
        XCTAssertNotEqual(old, new)
        XCTAssertEqual(ContentDigest(old.description), old)
        var before = Sidecar()
        before.rooms = [.init(index: nil, walls: ["W1"], name: "Old")]
        before.contents = old
        var after = Sidecar()
        after.rooms = [.init(index: nil, walls: ["W1"], name: "New")]
        after.contents = new
        after.previous = before
        let decoded = try Sidecar.decode(after.encoded(fileName: "room.json"))
        XCTAssertEqual(decoded, after)
        XCTAssertEqual(decoded.resolved(for: new).0.rooms.map(\.name), ["New"])
        XCTAssertEqual(decoded.resolved(for: new).1, .matches)
        XCTAssertEqual(decoded.resolved(for: old).0.rooms.map(\.name), ["Old"])
        XCTAssertEqual(decoded.resolved(for: old).1, .interruptedSave)
        XCTAssertEqual(decoded.resolved(for: ContentDigest([1])).1, .otherVersion)
        XCTAssertNil(decoded.resolved(for: old).0.previous, "one level of history only")
    }

    func testANewFileGetsTheUmaskWithoutTheUmaskBeingChanged() throws {
        let previous = umask(0o027)
        defer { umask(previous) }
        try FileIO.writeAtomically(Array("x".utf8), to: folder + "/new.json")
        var info = stat()
        XCTAssertEqual(stat(folder + "/new.json", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o640, "0666 less the umask 027")
        let now = umask(0o027)
        XCTAssertEqual(now, 0o027, "the process-wide umask was left as it was")
        // An existing file keeps its mode, whatever the umask.
        chmod(folder + "/new.json", 0o604)
        try FileIO.writeAtomically(Array("y".utf8), to: folder + "/new.json")
        XCTAssertEqual(stat(folder + "/new.json", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o604)
    }

    func testFileNamesUpTo255BytesCanBeSaved() throws {
        let name = String(repeating: "é", count: 120) + "room.json"
        XCTAssertEqual(name.utf8.count, 249)
        try FileIO.writeAtomically(Array("x".utf8), to: folder + "/" + name)
        XCTAssertEqual(try entries(), [name])
        XCTAssertLessThanOrEqual(FileIO.temporaryPrefix(for: folder + "/" + name).utf8.count + 8, 255)
        XCTAssertTrue(String(decoding: Array(FileIO.temporaryPrefix(for: name).utf8), as: UTF8.self).hasSuffix(".wb-"),
                      "shortened on a character boundary")
    }

    /// Eight threads, each with its own workspace: open, edit, encode and save. The
    /// results are the bytes the same work gives on one thread.
    func testWorkspacesOnSeveralThreadsAtOnceGiveWhatOneThreadGives() throws {
        let count = 8
        let folder: String = folder
        @Sendable func work(_ index: Int, to path: String) throws -> [UInt8] {
            let building = BuildingGenerator.generate(BuildingSpec(seed: UInt64(index + 1), rooms: 5))
            var workspace = Workspace()
            workspace.add(path: path, document: .structure(building.structure), stamp: nil, diagnostics: [])
            let room = workspace.files[0].rooms[index % 5]
            _ = workspace.perform(try workspace.planMove(room: room, by: RigidMotion(yaw: 0.3, translation: SIMD3(1, 0, 2))).changes)
            _ = workspace.perform(try workspace.planStory(room: room, story: 2).changes)
            let bytes = RoomPlanCodec.encode(workspace.files[0].document)
            try FileIO.writeAtomically(bytes, to: path)
            return bytes
        }
        let expected = try (0..<count).map { try work($0, to: folder + "/serial-\($0).json") }
        let results = Results(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            results.set(index, Result { try work(index, to: folder + "/parallel-\(index).json") })
        }
        for index in 0..<count {
            XCTAssertEqual(try results.get(index), expected[index])
            XCTAssertEqual(try FileIO.read(folder + "/parallel-\(index).json"), expected[index])
        }
    }
}

/// Results written by several threads, read afterwards.
private final class Results: @unchecked Sendable {
    private var values: [Result<[UInt8], Error>?]
    private let lock = NSLock()

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Result<[UInt8], Error>) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }

    func get(_ index: Int) throws -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return try values[index]!.get()
    }
}
