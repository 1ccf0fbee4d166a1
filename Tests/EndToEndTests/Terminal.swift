import Foundation
import XCTest

/// wb on a pseudo-terminal (Python's `pty`), as a person at a keyboard meets it: one driver
/// for every test that needs a terminal. The terminal has a size (`TIOCSWINSZ`), TERM=xterm,
/// and whatever environment the test adds (NO_COLOR=1 and PAGER empty unless it says otherwise).
enum Terminal {
    struct Session {
        var out: String
        var status: Int?
        var problem: String?

        /// The output's lines with wb's colour codes and libedit's cursor movements taken out.
        var lines: [String] {
            // "\r\n" is one Character to Swift: take the carriage returns out as scalars first.
            String(String.UnicodeScalarView(Terminal.plain(out).unicodeScalars.filter { $0 != "\r" }))
                .components(separatedBy: "\n")
        }
    }

    struct Step {
        var keys: String
        /// Text to wait for after the keys (up to 60 s); nil: a short pause.
        var wait: String?
        /// Whether keys that end a line also wait for the next prompt (false: a step that
        /// leaves wb busy on purpose, such as a pager that never ends).
        var thenPrompt: Bool

        init(_ keys: String, _ wait: String? = nil, thenPrompt: Bool = true) {
            self.keys = keys
            self.wait = wait
            self.thenPrompt = thenPrompt
        }
    }

    /// argv[1] wb, then JSON: the arguments, extra environment, [keys, wait, then prompt] steps, and
    /// {columns, rows, prompt}. With a prompt, a step whose keys end a line (Enter, Ctrl-C)
    /// also waits for the next prompt: keys typed before libedit is reading again race with
    /// its switch to raw mode. Prints JSON: the output, the exit status, what went wrong.
    static let driver = #"""
    import fcntl, json, os, pty, select, struct, sys, termios, time
    wb = sys.argv[1]
    args, extra, steps, shape = (json.loads(a) for a in sys.argv[2:6])
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", shape["rows"], shape["columns"], 0, 0))
        env = dict(os.environ, TERM="xterm")
        for key in ("COLUMNS", "LINES", "NO_COLOR", "PAGER"):
            env.pop(key, None)
        env.update(extra)
        env = {k: v for k, v in env.items() if v is not None}
        os.execve(wb, [wb] + args, env)
    out = b""
    closed = False
    started = time.time()
    def pump(until, timeout):
        global out, closed
        end = time.time() + timeout
        while time.time() < end and not closed:
            if until is not None and until in out:
                return True
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    closed = True
                    break
                out += chunk
        return until is None or until in out
    prompt = shape.get("prompt")
    problem = None
    # 60 s, like every other wait: a debug wb opening a structure on a machine busy with a
    # release build and a benchmark once took more than 20 s to its first prompt.
    if prompt is not None and not pump(prompt.encode(), 60.0):
        if closed:
            problem = "wb closed the terminal after %.1f s without a prompt" % (time.time() - started)
        else:
            problem = "no prompt within 60 s"
        steps = []
    for keys, wait, then_prompt in steps:
        prompts = out.count(prompt.encode()) if prompt else 0
        try:
            os.write(fd, keys.encode("utf-8"))
        except OSError:
            problem = "wb closed the terminal before %r" % keys
            break
        if wait is not None:
            if not pump(wait.encode("utf-8"), 60.0):
                problem = "timed out waiting for %r after %r" % (wait, keys)
                break
        else:
            time.sleep(0.3)
            pump(None, 0.2)
        if prompt and then_prompt and (keys.endswith("\r") or keys == "\x03"):
            end = time.time() + 15
            while out.count(prompt.encode()) <= prompts and time.time() < end and not closed:
                pump(None, 0.05)
    status = None
    end = time.time() + 30
    while time.time() < end:
        pump(None, 0.2)
        if closed:
            time.sleep(0.02)
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.WEXITSTATUS(code) if os.WIFEXITED(code) else -1
            break
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        problem = problem or "wb did not exit within 30 s of the last key"
    elif problem is not None and "prompt" in problem:
        problem += " (exit status %s)" % status
    print(json.dumps({"out": out.decode("utf-8", "replace"), "status": status, "problem": problem}))
    """#

    /// Runs wb with `arguments` on a terminal `columns` × `rows`, typing `steps`. An
    /// environment value of nil removes the variable.
    static func run(_ arguments: [String], environment: [String: String?] = [:], columns: Int = 80, rows: Int = 24,
                    prompt: String? = nil, steps: [Step] = []) throws -> Session {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is needed to drive a pseudo-terminal")
        }
        var environment = environment
        if environment["NO_COLOR"] == nil { environment["NO_COLOR"] = "1" }
        // No pager unless the test asks for one: a real less would take the keys typed next.
        if environment["PAGER"] == nil { environment["PAGER"] = "" }
        // History in a file of the run's own unless the test gives one: the suite wrote every
        // line it typed into the person's ~/.wb_history, and each run read what the last left.
        if environment["WB_HISTORY"] == nil {
            let own = FileManager.default.temporaryDirectory.appendingPathComponent("wb-terminal-history-\(UUID().uuidString)").path
            environment["WB_HISTORY"] = own
        }
        defer {
            if case let own?? = environment["WB_HISTORY"], own.contains("wb-terminal-history-") { try? FileManager.default.removeItem(atPath: own) }
        }
        func json(_ value: Any) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self) }
        var shape: [String: Any] = ["columns": columns, "rows": rows]
        if let prompt { shape["prompt"] = prompt }
        let result = try Harness.run(["-c", driver, Harness.wb.path, try json(arguments),
                                      try json(environment.mapValues { $0 as Any? ?? NSNull() }),
                                      try json(steps.map { [$0.keys, $0.wait as Any? ?? NSNull(), $0.thenPrompt] }), try json(shape)],
                                     executable: URL(fileURLWithPath: "/usr/bin/python3"))
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                   result.stdout + result.stderr)
        return Session(out: report["out"] as? String ?? "", status: report["status"] as? Int, problem: report["problem"] as? String)
    }

    /// `text` without CSI escape sequences (colours, libedit's cursor moves) and bells.
    static func plain(_ text: String) -> String {
        var result = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\u{7}" { continue }
            guard scalar == "\u{1B}" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            guard let next = scalars.next(), next == "[" else { continue }
            while let byte = scalars.next(), !(0x40...0x7E).contains(byte.value) {}
        }
        return result
    }

    /// Terminal columns a line takes, by a rule of its own (not wb's): CJK and emoji two,
    /// combining marks and variation selectors none.
    static func columns(_ line: String) -> Int {
        line.unicodeScalars.reduce(0) { sum, scalar in
            switch scalar.value {
            case 0x300...0x36F, 0xFE00...0xFE0F, 0x200B...0x200F: return sum
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x1F300...0x1FAFF,
                 0x20000...0x3FFFD: return sum + 2
            default: return sum + 1
            }
        }
    }
}
