import Foundation
import StructureModel
import XCTest
@testable import Workbench

/// A journal replayed gives the session it was written by: the same document bytes, the
/// same history, whatever mix of edits, failures, undo, redo and sourced scripts it holds.
final class JournalReplayTests: XCTestCase {
    private var folder = ""
    private var path = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wb-journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let created = folder
        addTeardownBlock { try? FileManager.default.removeItem(atPath: created) }
        path = folder + "/room.json"
        let building = BuildingGenerator.generate(BuildingSpec(seed: 21, rooms: 3))
        try FileIO.writeAtomically(RoomPlanCodec.encode(.room(building.captures[0].room)), to: path)
        try Data("rotate r1 5\nlabel r1 bathroom\nmove r9 1 1\n".utf8).write(to: URL(fileURLWithPath: folder + "/part.wb"))
    }

    /// A session started as the interactive shell starts one (with a journal).
    private func interactiveShell(recover: Bool = false) -> (Shell, JournalStart) {
        let shell = Shell(options: ShellOptions(), output: BufferedOutput())
        XCTAssertTrue(shell.openFile(path))
        let start = JournalStart.prepare(shell: shell, paths: [path], recover: recover, interactive: !recover) { _ in false }
        shell.journal = start.journal
        return (shell, start)
    }

    private func state(_ shell: Shell) throws -> ([UInt8], [String], [String]) {
        let file = shell.session.files[0]
        return (try RoomPlanCodec.encodeChecked(file.document, capacityHint: 1 << 16),
                shell.session.undoStack.map(\.text), shell.session.redoStack.map(\.text))
    }

    func testReplayGivesTheSameDocumentAndHistory() throws {
        let commands = ["move r1 0.5 0", "rotate r1 30", "label r1 kitchen", "set o1 confidence low", "delete o2",
                        "restore o2", "undo", "undo", "redo", "story r1 2", "elevate r1 0.1", "name r1 \"Big $x\"",
                        "move r7 1 1", "source \(folder)/part.wb", "undo", "redo", "delete w3", "define x y", "name s1 Nook",
                        "ls walls", "set d1 open true"]
        var generator = SplitMix(seed: 7)
        for round in 0..<12 {
            let (live, _) = interactiveShell()
            live.variables["x"] = "one"
            var typed: [String] = []
            for _ in 0..<(4 + Int(generator.next() % 14)) {
                let command = commands[Int(generator.next() % UInt64(commands.count))]
                typed.append(command)
                live.run(script: command, source: "-")
                live.journalCheckpoint()
            }
            let expected = try state(live)
            // The process dies: the journal stays, its lock goes with the descriptor.
            live.journal?.close()

            let (recovered, start) = interactiveShell(recover: true)
            XCTAssertNotNil(start.replayed, "round \(round): \(typed)")
            let got = try state(recovered)
            XCTAssertEqual(got.0, expected.0, "round \(round): the document after \(typed)")
            XCTAssertEqual(got.1, expected.1, "round \(round): the undo history after \(typed)")
            XCTAssertEqual(got.2, expected.2, "round \(round): the redo history after \(typed)")
            start.replayed?.remove()
        }
    }

    /// An undo back to what is on disk is not a save: the journal keeps what the redo needs.
    func testAnUndoToTheSavedStateKeepsTheJournal() throws {
        let (live, _) = interactiveShell()
        for command in ["rotate r1 30", "undo", "undo", "redo", "move r1 1 0"] {
            live.run(script: command, source: "-")
            live.journalCheckpoint()
        }
        let expected = try state(live)
        live.journal?.close()
        let (recovered, start) = interactiveShell(recover: true)
        XCTAssertNotNil(start.replayed)
        let got = try state(recovered)
        XCTAssertEqual(got.0, expected.0)
        XCTAssertEqual(got.1, expected.1)
        start.replayed?.remove()
    }

    /// A journal entry lost to a full disk stops the journal there, and the person is told: the
    /// commands after it, written once there was room again, were replayed without it, and
    /// recovery gave (and saved) a document the session never had, saying nothing.
    func testAJournalThatLostAnEntryStopsThereAndSaysSo() throws {
        let (live, _) = interactiveShell()
        live.run(script: "move r1 1 0", source: "-")
        live.journalCheckpoint()
        let beforeTheLoss = try state(live)
        // The journal's descriptor writes to /dev/full (ENOSPC) for one command.
        let journalPath = try XCTUnwrap(realpath(folder, nil).map { p in defer { free(p) }; return String(cString: p) }) + "/.room.json.wb-journal"
        let fd: Int32 = try XCTUnwrap((Int32(0)..<1024).first { fd -> Bool in
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
            return count > 0 && String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == journalPath
        }, "the journal's descriptor")
        let kept = dup(fd), full = open("/dev/full", O_WRONLY)
        XCTAssertEqual(dup2(full, fd), fd)
        live.run(script: "rotate r1 90", source: "-")
        live.journalCheckpoint()
        XCTAssertEqual(dup2(kept, fd), fd)
        close(kept)
        close(full)
        live.run(script: "move r1 0 2", source: "-")
        live.journalCheckpoint()
        let errors = ((live.output as? TerminalSafeOutput)?.base as? BufferedOutput)?.standardError ?? ""
        XCTAssertTrue(errors.contains("the crash journal") && errors.contains("cannot be written (no space left on the device)"), errors)
        live.journal?.close()

        let (recovered, start) = interactiveShell(recover: true)
        XCTAssertNotNil(start.replayed)
        let got = try state(recovered)
        XCTAssertTrue(got.0 == beforeTheLoss.0, "the session as it was when the journal stopped, not the later move without the turn")
        XCTAssertEqual(got.1, beforeTheLoss.1)
        start.replayed?.remove()
    }

    /// After a save the journal starts from the saved file; an undo of a step from before
    /// the save cannot be replayed from it, and recovery says so instead of guessing.
    func testAnUndoPastTheLastSaveIsRefusedNotGuessed() throws {
        let (live, _) = interactiveShell()
        for command in ["rotate r1 30", "save", "label r1 kitchen", "undo", "undo"] {
            live.run(script: command, source: "-")
            live.journalCheckpoint()
        }
        live.journal?.close()
        let (recovered, start) = interactiveShell(recover: true)
        XCTAssertTrue(start.refused)
        let errors = ((recovered.output as? TerminalSafeOutput)?.base as? BufferedOutput)?.standardError ?? ""
        XCTAssertTrue(errors.contains("'undo' took back a step from before the last save"), errors)
    }

    func testHandlesThatAFreshOpenWouldNumberOtherwiseAreRefused() throws {
        let (live, _) = interactiveShell()
        // w1 goes for good with the save; a fresh open numbers the other walls from w1 again.
        live.run(script: "delete w1; save", source: "-")
        live.journalCheckpoint()
        live.run(script: "move w3 1 0; label r1 kitchen", source: "-")
        live.journal?.close()
        let (recovered, start) = interactiveShell(recover: true)
        XCTAssertTrue(start.refused)
        XCTAssertTrue((recovered.output as? TerminalSafeOutput).map { ($0.base as! BufferedOutput).standardError }?
            .contains("the handles a fresh open gives are not the ones the session used") == true)
    }
}
