import Foundation
import StructureModel
import XCTest

/// Ctrl-C during a running script, and history files wb did not write, through a
/// pseudo-terminal (`Terminal`), as a person at a keyboard would meet them.
final class InterruptAndHistoryTests: XCTestCase {
    private func drive(_ arguments: [String], environment: [String: String], steps: [(String, String?)]) throws -> (out: String, status: Int?, problem: String?) {
        let session = try Terminal.run(arguments, environment: environment, steps: steps.map { Terminal.Step($0.0, $0.1) })
        return (session.out, session.status, session.problem)
    }

    /// Ctrl-C while a long script runs stops it between two commands and gives the prompt
    /// back; the commands it ran stay done as one undo step.
    func testCtrlCStopsARunningScriptAndReturnsToThePrompt() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        // 2 000 sources of 2 000 renames each: far longer than any test waits.
        let inner = folder.appendingPathComponent("inner.wb").path
        try String(repeating: "name r1 Busy\n", count: 2000).write(toFile: inner, atomically: true, encoding: .utf8)
        let outer = folder.appendingPathComponent("outer.wb").path
        try ("name r1 First\necho started\n" + String(repeating: "source '\(inner)'\n", count: 2000)).write(toFile: outer, atomically: true, encoding: .utf8)
        let history = folder.appendingPathComponent("history").path
        let run = try drive([room], environment: ["WB_HISTORY": history, "HOME": folder.path], steps: [
            ("", "wb room> "),
            ("source '\(outer)'\r", "\r\nstarted\r\n"),
            ("\u{03}", "interrupted (Ctrl-C)"),
            ("", "wb room*> "),
            ("undo\r", "undid: source"),
            ("echo alive\r", "\r\nalive\r\n"),
            ("quit\r", nil),
        ])
        XCTAssertNil(run.problem, run.out)
        XCTAssertEqual(run.status, 0, "quit without --force: one undo took the whole script back, nothing is unsaved: \(run.out)")
    }

    /// Ctrl-C during `align --all auto` (a building of hundreds of rooms takes minutes) stops
    /// the search itself, not only what comes after it: no room moves, nothing is to undo, and
    /// the shell goes on. Before, the search ran to its end.
    func testCtrlCStopsAnAssemblyMidSearch() throws {
        let folder = try Harness.temporaryFolder(self)
        let building = BuildingGenerator.generate(BuildingSpec(seed: 3, rooms: 120, coreModelBytes: 0))
        let paths = try Harness.captures(of: building, in: folder).paths
        let before = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let started = Date()
        let run = try drive(paths, environment: ["HOME": folder.path], steps: [
            ("", "> "),
            ("align --all auto\r", nil),
            ("\u{03}", "interrupted (Ctrl-C): no room was moved"),
            ("undo\r", "nothing to undo"),
            ("save\r", "nothing to save"),
            ("quit\r", nil),
        ])
        XCTAssertNil(run.problem, run.out)
        XCTAssertEqual(run.status, 0, run.out)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "stopped at once, not at the search's end")
        XCTAssertEqual(try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, before)
    }

    /// A `$WB_HISTORY` that is not libedit's history (another program's file) is read for
    /// nothing and never rewritten; wb says so once. A device there does not hang wb.
    func testAHistoryFileWbDidNotWriteIsLeftAlone() throws {
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        let history = folder.appendingPathComponent("notes.txt")
        let foreign = Data(String(repeating: "precious notes, not a history\n", count: 20_000).utf8)
        try foreign.write(to: history)
        let run = try drive([room], environment: ["WB_HISTORY": history.path, "HOME": folder.path], steps: [
            ("", "wb room> "),
            ("echo one\r", "\r\none\r\n"),
            ("echo two\r", "\r\ntwo\r\n"),
            ("quit\r", nil),
        ])
        XCTAssertNil(run.problem, run.out)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(try Data(contentsOf: history), foreign, "the file is exactly as it was")
        XCTAssertEqual(run.out.components(separatedBy: "is not a history file wb wrote").count, 2, "said once: \(run.out)")

        let device = try drive([room], environment: ["WB_HISTORY": "/dev/zero", "HOME": folder.path], steps: [
            ("", "wb room> "),
            ("quit\r", nil),
        ])
        XCTAssertNil(device.problem, device.out)
        XCTAssertTrue(device.out.contains("/dev/zero (WB_HISTORY) is not a regular file; wb leaves it as it is"), device.out)

        // A reason that asks a question ends its sentence ("…meant?; wb leaves" read badly).
        let huge = folder.appendingPathComponent("huge.txt")
        try Data(count: 17 << 20).write(to: huge)
        let big = try drive([room], environment: ["WB_HISTORY": huge.path, "HOME": folder.path], steps: [
            ("", "wb room> "),
            ("quit\r", nil),
        ])
        XCTAssertNil(big.problem, big.out)
        XCTAssertTrue(big.out.contains("is it the file you meant? wb leaves it as it is"), big.out)
    }
}
