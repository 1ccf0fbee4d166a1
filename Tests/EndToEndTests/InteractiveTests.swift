import Foundation
import XCTest

/// Drives the interactive shell through a pseudo-terminal with Python's `pty`, as a person
/// at a keyboard would: line editing keys, tab completion, Ctrl-C, Ctrl-D, and the history
/// file across two sessions.
final class InteractiveTests: XCTestCase {
    static let driver = #"""
    import json, os, pty, select, sys, time

    wb, room, history, home = sys.argv[1:5]

    def session(keys):
        pid, fd = pty.fork()
        if pid == 0:
            env = dict(os.environ, TERM="xterm", WB_HISTORY=history, HOME=home, NO_COLOR="1")
            os.execve(wb, [wb, room], env)
        out = b""
        def pump(until=None, timeout=5.0):
            nonlocal out
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
        if not pump(b"wb room> ", 20.0):
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return out, None, "no prompt within 20 s"
        prompt = b"wb room> "
        for key, wait in keys:
            prompts = out.count(prompt)
            os.write(fd, key)
            if wait:
                if not pump(wait, 15.0):
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                    return out, None, "timed out waiting for %r after %r" % (wait, key)
            else:
                time.sleep(0.3)
                pump(None, 0.2)
            # A finished line is followed by the next prompt: only then is the line editor
            # reading again (keys typed before that race with its switch to raw mode).
            if key.endswith(b"\r") or key == b"\x03":
                end = time.time() + 15
                while out.count(prompt) <= prompts and time.time() < end:
                    pump(None, 0.05)
        # wb must leave by itself; never wait for ever.
        end = time.time() + 15
        while time.time() < end:
            pump(None, 0.2)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return out, os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1, None
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return out, None, "wb did not exit within 15 s of the last key"

    first, status1, problem1 = session([
        (b"sum\t", b"mary"),                      # complete a command name (redrawn as "sum" + "mary")
        (b"\r", b"floor area"),
        # Each step waits for the command's own output line (not the terminal's echo of
        # what was typed) so that the next keys reach a waiting prompt.
        (b"echo helo\x1b[Dl\r", b"\r\nhello\r\n"),   # Left arrow, insert a letter
        (b"world\x01echo \r", b"\r\nworld\r\n"),     # Ctrl-A: to the start of the line
        (b"echo abandoned", None),
        (b"\x03", b"^C\r\n"),                          # Ctrl-C abandons the line
        (b"echo after\r", b"\r\nafter\r\n"),
        (b"help sav\t", None),                    # complete an argument from the table
        (b"\r", b"usage: save"),
        (b"\x04", None),                          # Ctrl-D on an empty line leaves
    ])
    second, status2, problem2 = session([
        (b"\x1b[A\r", b"usage: save"),          # Up arrow: the last command of the last session
        (b"quit\r", None),
    ])
    print(json.dumps({
        "first": first.decode("utf-8", "replace"), "status1": status1, "problem1": problem1,
        "second": second.decode("utf-8", "replace"), "status2": status2, "problem2": problem2,
        "history": open(history, encoding="utf-8", errors="replace").read() if os.path.exists(history) else None,
    }))
    """#

    func testLineEditingCompletionAndHistory() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is needed to drive a pseudo-terminal")
        }
        let folder = try Harness.temporaryFolder(self)
        let room = try Harness.generatedRoom(in: folder)
        let history = folder.appendingPathComponent("history").path
        let result = try Harness.run(["-c", Self.driver, Harness.wb.path, room, history, folder.path],
                                     executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let first = report["first"] as? String ?? ""
        let second = report["second"] as? String ?? ""
        XCTAssertNil(report["problem1"] as? String, first)
        XCTAssertNil(report["problem2"] as? String, second)
        XCTAssertEqual(report["status1"] as? Int, 0)
        XCTAssertEqual(report["status2"] as? Int, 0)

        XCTAssertTrue(first.contains("wb \(try Harness.run(["--version"]).stdout.dropFirst(3).trimmingCharacters(in: .whitespacesAndNewlines))"),
                      "banner with the version")
        XCTAssertTrue(first.contains("mary"), "tab completed 'sum' to 'summary'")
        XCTAssertTrue(first.contains("floor area"), "the completed command ran")
        XCTAssertTrue(first.contains("\r\nhello\r\n"), "Left arrow moved the cursor back one letter")
        XCTAssertTrue(first.contains("\r\nworld\r\n"), "Ctrl-A moved to the start of the line")
        XCTAssertFalse(first.contains("\r\nabandoned\r\n"), "Ctrl-C abandoned the line")
        XCTAssertTrue(first.contains("usage: save"), "argument completion")

        let saved = report["history"] as? String ?? ""
        XCTAssertTrue(saved.contains("echo\\040hello"), saved)
        XCTAssertTrue(saved.contains("echo\\040after"), saved)
        XCTAssertFalse(saved.contains("abandoned"), "an abandoned line is not history")
        XCTAssertTrue(second.contains("usage: save"), "Up arrow recalled the last session's command (help save)")
    }
}
