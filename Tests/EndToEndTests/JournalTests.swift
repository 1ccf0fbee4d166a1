import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The crash journal, through a pseudo-terminal: an interactive session killed with SIGKILL
/// leaves its edits in `.NAME.wb-journal`; the file stays as it was; `--recover` (or a yes
/// at the next interactive start) brings them back, and a file changed since is refused.
final class JournalTests: XCTestCase {
    /// Runs one interactive session: `steps` are lines to type (each waits for the next
    /// prompt), `KILL` (SIGKILL, then stop), `SEGV` (as a crash, then stop), or `ANSWER:text` (typed at a [y/N] question).
    static let driver = #"""
    import json, os, pty, re, select, sys, time

    wb, room, history = sys.argv[1:4]
    steps = json.loads(sys.argv[4])
    flags = json.loads(sys.argv[5]) if len(sys.argv) > 5 else []
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(wb, [wb] + flags + [room], dict(os.environ, TERM="xterm", WB_HISTORY=history, NO_COLOR="1", SWIFT_BACKTRACE="enable=no"))
    out = b""
    prompt = re.compile(rb"wb [^\r\n]*> ")

    def pump(seconds):
        global out
        r, _, _ = select.select([fd], [], [], seconds)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return False
            if not chunk:
                return False
            out += chunk
        return True

    def wait_for(test, seconds=20):
        end = time.time() + seconds
        while time.time() < end:
            if test():
                return True
            if not pump(0.05):
                return test()
        return test()

    problem = None
    status = None
    first = steps[0] if steps else ""
    if not (isinstance(first, str) and first.startswith("ANSWER:")):
        if not wait_for(lambda: prompt.search(out)):
            problem = "no prompt"
    for step in steps:
        if problem:
            break
        if step == "KILL":
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            status = "killed"
            break
        if step == "SEGV":
            # (Swift's backtracer, at a terminal, may wait for a key after the crash.)
            os.kill(pid, 11)
            end = time.time() + 10
            while time.time() < end and os.waitpid(pid, os.WNOHANG)[0] == 0:
                pump(0.1)
            else:
                if time.time() >= end:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
            status = "crashed"
            break
        if step.startswith("ANSWER:"):
            if not wait_for(lambda: b"[y/N] " in out):
                problem = "no question"
                break
            os.write(fd, step[len("ANSWER:"):].encode() + b"\r")
            if not wait_for(lambda: prompt.search(out)):
                problem = "no prompt after the answer"
            continue
        before = len(prompt.findall(out))
        os.write(fd, step.encode() + b"\r")
        if step.startswith("quit"):
            break
        if not wait_for(lambda: len(prompt.findall(out)) > before):
            problem = "no prompt after %r" % step
    if status is None:
        end = time.time() + 15
        while time.time() < end:
            pump(0.1)
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.WEXITSTATUS(code) if os.WIFEXITED(code) else -1
                break
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            problem = problem or "wb did not leave"
    print(json.dumps({"out": out.decode("utf-8", "replace"), "status": status, "problem": problem}))
    """#

    var folder: URL!
    var room = ""
    var journal = ""

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is needed to drive a pseudo-terminal")
        }
        folder = try Harness.temporaryFolder(self)
        room = try Harness.generatedRoom(in: folder)
        journal = folder.appendingPathComponent(".room.json.wb-journal").path
    }

    /// `fileSizeLimit`: wb runs under `ulimit -f` of that many blocks (0: no file can grow).
    private func session(_ steps: [String], flags: [String] = [], fileSizeLimit: Int? = nil) throws -> (out: String, status: Any?) {
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let extra = String(decoding: try JSONSerialization.data(withJSONObject: flags), as: UTF8.self)
        let arguments = [Self.driver, Harness.wb.path, room, folder.appendingPathComponent("history").path, encoded, extra]
        let result = try fileSizeLimit.map { limit in
            try Harness.run(["-c", "ulimit -f \(limit) && exec /usr/bin/python3 -c \"$0\" \"$@\""] + arguments,
                            executable: URL(fileURLWithPath: "/bin/sh"))
        } ?? Harness.run(["-c"] + arguments, executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let out = report["out"] as? String ?? ""
        XCTAssertNil(report["problem"] as? String, out)
        return (out, report["status"])
    }

    private func roomJSON() throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: room))) as? [String: Any])
    }

    func testEditsSurviveAKillAndComeBackWithRecover() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: room))
        let killed = try session(["label r1 bedroom", "move r1 1 0", "undo", "story r1 2", "name r1 Den", "ls rooms", "KILL"])
        XCTAssertEqual(killed.status as? String, "killed")
        XCTAssertTrue(killed.out.contains("r1 is on story 2"), killed.out)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: room)), original, "the file is untouched until a save")
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal))

        // A run that is not interactive and not --recover says so and leaves the journal.
        let told = try Harness.run([room, "-c", "history"])
        XCTAssertEqual(told.status, 0, told.stderr)
        XCTAssertTrue(told.stderr.contains("has a journal of a session that ended without quitting"), told.stderr)
        XCTAssertTrue(told.stderr.contains("'wb --recover \(room)' replays it"), told.stderr)
        XCTAssertTrue(told.stderr.contains("no edits yet"), "nothing was replayed: \(told.stderr)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal))

        // Replayed without saving: the file stays, and so does the journal.
        let looked = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertEqual(looked.status, 0, looked.stderr)
        XCTAssertEqual(looked.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) },
                       ["1  label r1 bedroom", "2  story r1 2", "3  name r1 Den"], "the same history, the move undone")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: room)), original)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "unsaved: the journal stays")

        let saved = try Harness.run(["-q", "--recover", room, "-c", "save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let json = try roomJSON()
        XCTAssertEqual(json["story"] as? Int, 2)
        XCTAssertEqual((json["sections"] as! [[String: Any]]).first?["label"] as? String, "bedroom")
        let sidecar = try String(contentsOfFile: folder.appendingPathComponent("room.wb.json").path, encoding: .utf8)
        XCTAssertTrue(sidecar.contains("Den"), sidecar)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal), "saved: the journal is gone")
    }

    /// A command that failed in the session is not run again on replay: `open` of a file made
    /// later in the session opened on replay, every later handle shifted, and a name and a move
    /// landed on the wrong room (and a Ctrl-C'd `align --all auto` moved rooms on replay).
    func testACommandThatFailedIsNotReplayed() throws {
        let other = folder.appendingPathComponent("other.json").path
        let killed = try session(["open \(other)", "export structure \(other)", "name r1 Den", "move r1 1 0", "KILL"])
        XCTAssertTrue(killed.out.contains("no such file"), killed.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: other), "the export made the file the failed open looked for")
        let looked = try Harness.run(["-q", "--json", "--recover", room, "-c", "ls rooms"])
        XCTAssertEqual(looked.status, 0, looked.stderr)
        XCTAssertFalse(looked.stderr.contains("failed"), looked.stderr)
        let rooms = try Harness.jsonArray(looked.stdout)
        XCTAssertEqual(rooms.count, 1, "other.json was not opened: \(rooms)")
        XCTAssertEqual(rooms.first?["name"] as? String, "Den")
    }

    /// A command wb crashed in is not replayed: replayed, it crashed every `--recover` again,
    /// so the edits before it could not be had back (an adversarial pass). It is named instead.
    /// A command killed half way (no mark) is replayed whole, as before.
    func testTheCommandWbCrashedInIsNotReplayed() throws {
        _ = try session(["name r1 Den", "move r1 1 0", "KILL"])
        // What the journal holds when wb crashes inside a command: the command, then the mark
        // its signal handler writes.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"run":"label","args":["r1","kitchen"],"text":"label r1 kitchen"}"#.utf8 + [0x0A]))
        handle.write(Data(#"{"crashed":true}"#.utf8 + [0x0A]))
        handle.closeFile()
        let looked = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertEqual(looked.status, 0, looked.stderr)
        XCTAssertEqual(looked.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) },
                       ["1  name r1 Den", "2  move r1 1 0"], "the commands before the crash, and not the one it crashed in")
        XCTAssertTrue(looked.stderr.contains("'label r1 kitchen' was not replayed: wb crashed while it ran"), looked.stderr)
    }

    /// A whole line of the journal that does not read stops the replay there, and it is said
    /// (the commands after it were dropped in silence: an adversarial pass).
    func testAnUnreadableLineIsSaid() throws {
        _ = try session(["name r1 Den", "KILL"])
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(("not json\n" + #"{"run":"move","args":["r1","1","0"],"text":"move r1 1 0"}"# + "\n").utf8))
        handle.closeFile()
        let looked = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertEqual(looked.status, 0, looked.stderr)
        XCTAssertEqual(looked.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1  name r1 Den")
        XCTAssertTrue(looked.stderr.contains("this line of the journal does not read, so it and the 1 line after it were not replayed"),
                      looked.stderr)
    }

    /// A journal whose only command line does not read (a whole line, not one a crash cut
    /// short) was taken for one that never held a command, and removed: what the session did
    /// was forgotten without a word (an adversarial pass). It is said, and the journal left.
    func testAJournalWhoseOnlyCommandDoesNotReadIsKept() throws {
        _ = try session(["KILL"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "an interactive session keeps a journal")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data((#"{"run":"move","args":[["r1"],1],"text":"move r1 1 0"}"# + "\n").utf8))
        handle.closeFile()
        let looked = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertTrue(looked.stderr.contains("this line of the journal does not read"), looked.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "the journal is kept")
        let plain = try Harness.run(["-q", room, "-c", "history"])
        XCTAssertTrue(plain.stderr.contains("does not read"), plain.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "the journal is kept")
    }

    /// wb never journals `save` or `export`: such a line was written by hand, and `--recover`
    /// does not write files on its say (an adversarial pass: a hand-made line saved the file
    /// elsewhere). The edits around it are replayed.
    func testAJournalLineWbNeverWritesIsNotReplayed() throws {
        _ = try session(["name r1 Den", "KILL"])
        let elsewhere = (journal as NSString).deletingLastPathComponent + "/elsewhere.json"
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data((#"{"run":"save","args":["\#(elsewhere)"],"text":"save \#(elsewhere)"}"# + "\n").utf8))
        handle.closeFile()
        let looked = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertTrue(looked.stderr.contains("was not replayed: wb never journals 'save'"), looked.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere), "nothing was written elsewhere")
        XCTAssertTrue(looked.stdout.contains("name r1 Den"), looked.stdout)
    }

    /// A crash's signal marks the journal; a crash after a command ran to its end (here at the
    /// prompt) leaves that command replayed.
    func testACrashMarksTheJournalAndACommandThatRanToItsEndIsReplayed() throws {
        let crashed = try session(["name r1 Den", "SEGV"])
        XCTAssertEqual(crashed.status as? String, "crashed")
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.suffix(3)), [#"{"run":"name","args":["r1","Den"],"text":"name r1 Den"}"#, #"{"done":true}"#,
                                                #"{"crashed":true}"#], "\(lines)")
        let looked = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertEqual(looked.status, 0, looked.stderr)
        XCTAssertEqual(looked.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1  name r1 Den")
        XCTAssertFalse(looked.stderr.contains("not replayed"), looked.stderr)
    }

    /// A save that writes the file while the session goes on editing it (inside a script that
    /// edits on): a replay from the files as the journal began is no longer possible. wb says
    /// so at the save, and recovery gives that reason (it said "changed on disk"). A copy
    /// saved elsewhere changes nothing for the journal.
    func testASaveLeavingEditsIsSaidAtOnce() throws {
        let copy = folder.appendingPathComponent("copy.json").path
        let script = folder.appendingPathComponent("fix.wb").path
        try "move r1 1 0\nsave\nname r1 Den\n".write(toFile: script, atomically: true, encoding: .utf8)
        let killed = try session(["label r1 bedroom", "save \(copy)", "source \(script)", "KILL"])
        XCTAssertFalse(killed.out.components(separatedBy: "source")[0].contains("crash journal cannot"), "a copy elsewhere: \(killed.out)")
        XCTAssertTrue(killed.out.contains("after this save the crash journal cannot bring back"), killed.out)
        let recovered = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertEqual(recovered.status, 1)
        XCTAssertTrue(recovered.stderr.contains("a save wrote files while other edits stayed unsaved"), recovered.stderr)
    }

    /// `--dry-run` writes no file: a journal neither (one appeared beside the scan at the first edit).
    func testADryRunKeepsNoJournal() throws {
        let killed = try session(["move r1 1 0", "KILL"], flags: ["--dry-run"])
        XCTAssertTrue(killed.out.contains("r1 moved"), killed.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal))
        _ = try session(["move r1 1 0", "KILL"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "without --dry-run there is one")
    }

    /// A journal whose header could not be written (a full disk, a file-size limit) is not left
    /// behind empty: every later session took such a file for a crashed session's journal it
    /// could not read, and kept no journal of its own until someone removed it.
    func testAJournalThatCouldNotBeStartedIsNotLeftBehind() throws {
        let starved = try session(["move r1 1 0", "KILL"], fileSizeLimit: 0)
        XCTAssertTrue(starved.out.contains("this session keeps no crash journal: cannot write"), starved.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal), "no empty journal left")
        let next = try session(["move r1 1 0", "KILL"])
        XCTAssertFalse(next.out.contains("keeps no crash journal"), next.out)
        let recorded = try String(contentsOfFile: journal, encoding: .utf8)
        XCTAssertTrue(recorded.contains("\"text\":\"move r1 1 0\""), "the next session keeps one: \(recorded)")
    }

    /// A journal with no header, no session holding it: what a wb killed between making its
    /// journal and writing the header leaves (an empty file, or a header cut short). It
    /// holds no command; it was left as it was, and every later session kept no journal
    /// until someone removed it by hand. It is removed, and the session keeps its own.
    /// One a live session holds is still left alone.
    func testAJournalLeftWithoutAHeaderIsRemovedAndTheSessionKeepsItsOwn() throws {
        for leftover in ["", "{\"format\":\"wb-jour"] {
            try Data(leftover.utf8).write(to: URL(fileURLWithPath: journal))
            let next = try session(["move r1 1 0", "KILL"])
            XCTAssertFalse(next.out.contains("keeps no crash journal"), next.out)
            XCTAssertTrue(next.out.contains("removed \(journal): a journal a wb was killed before it had started"), next.out)
            let recorded = try String(contentsOfFile: journal, encoding: .utf8)
            XCTAssertTrue(recorded.contains("\"text\":\"move r1 1 0\""), "the session keeps one: \(recorded)")
            try FileManager.default.removeItem(atPath: journal)
        }
        // Held by a live session (its lock taken), an empty journal is that session's.
        XCTAssertTrue(FileManager.default.createFile(atPath: journal, contents: nil))
        let held = open(journal, O_RDONLY)
        defer { close(held) }
        XCTAssertEqual(flock(held, LOCK_EX), 0)
        let beside = try session(["move r1 1 0", "quit --force"])
        XCTAssertTrue(beside.out.contains("is the journal of another wb session"), beside.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal))
    }

    func testAnInteractiveStartAsksAndAYesReplays() throws {
        _ = try session(["label r1 kitchen", "rotate r1 90", "KILL"])
        let resumed = try session(["ANSWER:y", "history", "quit --force"])
        XCTAssertTrue(resumed.out.contains("has a journal of a session that ended without quitting"), resumed.out)
        XCTAssertTrue(resumed.out.contains("Replay it?"), resumed.out)
        XCTAssertTrue(resumed.out.contains("rotate r1 90"), "the history holds the replayed command: \(resumed.out)")
        XCTAssertTrue(resumed.out.contains("wb room*> "), "the session has the unsaved edits")
        XCTAssertEqual(resumed.status as? Int, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal), "a clean quit removes the journal")
    }

    func testANoLeavesTheJournalForLater() throws {
        _ = try session(["label r1 kitchen", "KILL"])
        let declined = try session(["ANSWER:", "history", "quit"])
        XCTAssertTrue(declined.out.contains("no edits yet"), declined.out)
        XCTAssertTrue(declined.out.contains("wb --recover \(room) replays it later"), declined.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "left for later")
        let recovered = try Harness.run(["-q", "--recover", room, "-c", "history"])
        XCTAssertTrue(recovered.stdout.contains("label r1 kitchen"), recovered.stdout + recovered.stderr)
    }

    func testAFileChangedOnDiskIsNotReplayedOnto() throws {
        _ = try session(["label r1 kitchen", "KILL"])
        let other = try Harness.generatedRoom(in: folder, seed: 77, name: "other.json")
        try FileManager.default.removeItem(atPath: room)
        try FileManager.default.copyItem(atPath: other, toPath: room)
        let changed = try Data(contentsOf: URL(fileURLWithPath: room))
        let refused = try Harness.run(["-q", "--recover", room, "-c", "save"])
        XCTAssertEqual(refused.status, 1, "nothing ran")
        XCTAssertTrue(refused.stderr.contains("it cannot be replayed: \(room) changed on disk since the journal was started"),
                      refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: room)), changed)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal), "left to read")

        // At an interactive start it is moved aside, and the new session has a journal of its own.
        let fresh = try session(["history", "KILL"])
        XCTAssertTrue(fresh.out.contains("it is not replayed"), fresh.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal + ".stale"))
    }

    func testASaveStartsTheJournalAfreshAndAQuitRemovesIt() throws {
        let killed = try session(["move r1 2 0", "save", "label r1 bathroom", "KILL"])
        XCTAssertTrue(killed.out.contains("wrote \(room)"), killed.out)
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 3, "a header and the one command since the save, marked done: \(lines)")
        XCTAssertTrue(lines[1].contains("\"label\""), String(lines[1]))
        XCTAssertEqual(lines[2], #"{"done":true}"#)
        let saved = try Harness.run(["-q", "--recover", room, "-c", "save"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let json = try roomJSON()
        XCTAssertEqual((json["sections"] as! [[String: Any]]).first?["label"] as? String, "bathroom")

        _ = try session(["label r1 kitchen", "save", "quit"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal))
    }

    func testScriptsAreNotJournalled() throws {
        let result = try Harness.run(["-q", room, "-c", "label r1 kitchen"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal), "-c runs keep no journal")
    }
}
