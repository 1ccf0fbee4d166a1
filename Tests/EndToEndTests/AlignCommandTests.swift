import Foundation
import StructureModel
import XCTest

/// `align` from the shell: two separately scanned rooms put together through the door
/// they share, one undoable step, saved as the moved room's file.
final class AlignCommandTests: XCTestCase {
    func testAlignThroughADoorThenUndoAndSave() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 5, rooms: 3))
        var paths: [String] = []
        for capture in building.captures.prefix(2) {
            let path = folder.appendingPathComponent(capture.fileName).path
            try Data(RoomPlanCodec.encode(.room(capture.room))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        // The door the two rooms share: the one of each that lands in the same place.
        let placed = building.captures.prefix(2).map { capture in capture.room.doors.map { $0.moved(by: capture.placement) } }
        var pair: (Int, Int)?
        for (i, a) in placed[0].enumerated() {
            for (j, b) in placed[1].enumerated() where a.transform.translation.distance(to: b.transform.translation) < 0.01 { pair = (i, j) }
        }
        let (i, j) = try XCTUnwrap(pair, "the first two rooms share a door")
        let first = "d\(i + 1)", second = "d\(building.captures[0].room.doors.count + j + 1)"
        let original = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        let result = try Harness.run(paths + ["-c", "align r2 using \(second) to \(first)", "-c", "history", "-c", "undo", "-c", "save"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("r2 moved") && result.stderr.contains("now 0.000 m apart"), result.stderr)
        XCTAssertTrue(result.stdout.contains("align r2 using"), "one step in the history")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[1])), original, "undone: nothing to save")
        let saved = try Harness.run(paths + ["-q", "-c", "align r2 using \(second) to \(first)", "-c", "save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        guard case .room(let moved) = try RoomPlanCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: paths[1])))) else {
            return XCTFail()
        }
        let relative = building.captures[0].placement.inverse.composed(after: building.captures[1].placement)
        let expected = building.captures[1].room.walls[0].moved(by: relative).transform.translation
        XCTAssertLessThan(moved.walls[0].transform.translation.distance(to: expected), 1e-3, "r2 is where the ground truth says")
    }

    func testAlignRefusesWhatItCannotDo() throws {
        let folder = try Harness.temporaryFolder(self)
        let path = try Harness.generatedRoom(in: folder)
        for (command, message) in [("align r1 using w1 to w2", "onto itself"), ("align r1 auto", "no room is placed yet"),
                                   ("align r1 using w1 w2", "usage: align ROOM using"), ("align r1 using w1 to d1", "wall with a wall")] {
            let result = try Harness.run(["-q", path, "-c", command])
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains(message), "\(command): \(result.stderr)")
        }
    }
}

/// Automatic alignment from the shell.
final class AutoAlignCommandTests: XCTestCase {
    func testAutoPlacesOrSaysItIsUnsureAndNextAndUndoWork() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 6, rooms: 5))
        var paths: [String] = []
        for capture in building.captures {
            let path = folder.appendingPathComponent(capture.fileName).path
            try Data(RoomPlanCodec.encode(.room(capture.room))).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let result = try Harness.run(paths + ["-c", "align r2 auto --best", "-c", "align r2 next", "-c", "history", "-c", "undo", "-c", "undo"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("best: score") && result.stderr.contains("runner-up: score"), result.stderr)
        XCTAssertTrue(result.stderr.contains("candidate 2"), result.stderr)
        XCTAssertEqual(result.stdout.components(separatedBy: "align r2").count - 1, 2, "auto and next are one step each: \(result.stdout)")
        let all = try Harness.run(paths + ["-c", "align --all auto", "-c", "history"])
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertTrue(all.stderr.contains("placed ") || all.stderr.contains("nothing changed"), all.stderr)
        let alone = try Harness.run([paths[0], "-c", "align --all auto"])
        XCTAssertEqual(alone.status, 1)
        XCTAssertTrue(alone.stderr.contains("every open room is placed already"), alone.stderr)
    }
}
