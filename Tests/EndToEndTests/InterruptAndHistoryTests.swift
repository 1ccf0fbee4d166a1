import Foundation
import XCTest

/// Ctrl-C during a running script, and history files wb did not write, through a
/// pseudo-terminal (Python's `pty`), as a person at a keyboard would meet them.
final class InterruptAndHistoryTests: XCTestCase {
    /// Runs wb on a pty: argv[1] wb, argv[2] JSON of the arguments, argv[3] JSON of extra
    /// environment, argv[4] JSON of [keys, text to wait for] steps. Prints JSON: the
    /// output, the exit status, and what went wrong.
    static let driver = #"""
    import json, os, pty, select, sys, time
    wb, args, extra, steps = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, TERM="xterm", NO_COLOR="1", **extra)
        os.execve(wb, [wb] + args, env)
    out = b""
    def pump(until, timeout):
        global out
        end = time.time() + timeout
        while time.time() < end:
            if until is not None and until in out:
                return True
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return until is None
                if not chunk:
                    return until is None
                out += chunk
        return until is None or until in out
    problem = None
    for keys, wait in steps:
        os.write(fd, keys.encode("latin-1"))
        if wait is not None and not pump(wait.encode("utf-8"), 60.0):
            problem = "timed out waiting for %r after %r" % (wait, keys)
            break
    status = None
    end = time.time() + 30
    while time.time() < end:
        pump(None, 0.2)
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.WEXITSTATUS(code) if os.WIFEXITED(code) else -1
            break
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        problem = problem or "wb did not exit"
    print(json.dumps({"out": out.decode("utf-8", "replace"), "status": status, "problem": problem}))
    """#

    private func drive(_ arguments: [String], environment: [String: String], steps: [(String, String?)]) throws -> (out: String, status: Int?, problem: String?) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is needed to drive a pseudo-terminal")
        }
        func json(_ value: Any) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self) }
        let result = try Harness.run(["-c", Self.driver, Harness.wb.path, try json(arguments), try json(environment),
                                      try json(steps.map { [$0.0, $0.1 as Any? ?? NSNull()] })],
                                     executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        return (report["out"] as? String ?? "", report["status"] as? Int, report["problem"] as? String)
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
        XCTAssertTrue(device.out.contains("/dev/zero (WB_HISTORY) is not a regular file"), device.out)
    }
}
