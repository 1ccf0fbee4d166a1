#!/usr/bin/env python3
"""The crash journal under fire: RUNS interactive sessions (through a pseudo-terminal), each
typing a random sequence of edits (moves, turns, labels, stories, names, confidences,
deletes, restores, undo, redo; some of them failing on purpose) and killed with SIGKILL at
a random moment, sometimes at the prompt, sometimes while a command is running. After each:

  - the file on disk must be byte for byte the original (nothing is written until a save);
  - `wb --recover FILE -c save` must give exactly what the same commands give when run
    without a crash: every command whose result came back (the prompt returned) is there,
    and the one in flight, if any, is there either whole or not at all.

    Scripts/journal_kill.py [RUNS] [--json]        (default 200 runs; release build if built)

Prints the counts and exits 1 if any run lost a command or touched the file. With --json,
one line: {"runs", "recovered", "untouched", "commands", "in_flight", "seconds"}.
"""
import json
import os
import pty
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def product(name):
    for build in ("release", "debug"):
        path = os.path.join(ROOT, ".build", build, name)
        if os.path.exists(path):
            return path
    sys.exit(f"build wb first (swift build -c release): no {name} in .build/")


PROMPT = re.compile(rb"wb [^\r\n]*> ")
LABELS = ["livingRoom", "bedroom", "bathroom", "kitchen", "diningRoom", "unidentified"]


def random_command(rng):
    kind = rng.randrange(12)
    if kind == 0:
        return f"move r1 {rng.uniform(-2, 2):.3f} {rng.uniform(-2, 2):.3f}"
    if kind == 1:
        return f"rotate r1 {rng.randrange(-180, 180)}"
    if kind == 2:
        return f"label r1 {rng.choice(LABELS)}"
    if kind == 3:
        return f"story r1 {rng.randrange(0, 4)}"
    if kind == 4:
        return f"set o{rng.randrange(1, 5)} confidence {rng.choice(['low', 'medium', 'high'])}"
    if kind == 5:
        return f"delete o{rng.randrange(1, 5)}"
    if kind == 6:
        return f"restore o{rng.randrange(1, 5)}"
    if kind in (7, 8):
        return "undo"
    if kind == 9:
        return "redo"
    if kind == 10:
        return f"name r1 \"Room {rng.randrange(100)}\""
    return f"elevate r1 {rng.uniform(-0.5, 0.5):.3f}"


def interactive_run(wb, room, commands, kill_after, in_flight_delay, history):
    """Types commands[:kill_after] waiting for each prompt; then either kills at once
    (in_flight_delay None) or types one more and kills after that many seconds.
    Returns how many commands came back with a prompt."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(wb, [wb, room], dict(os.environ, TERM="xterm", WB_HISTORY=history, NO_COLOR="1"))
    out = b""

    def pump(seconds):
        nonlocal out
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

    def wait_prompts(count, seconds=20):
        end = time.time() + seconds
        while len(PROMPT.findall(out)) < count and time.time() < end:
            if not pump(0.02):
                break
        return len(PROMPT.findall(out)) >= count

    acknowledged = 0
    try:
        if not wait_prompts(1):
            raise RuntimeError("no prompt: " + out.decode(errors="replace")[-500:])
        for command in commands[:kill_after]:
            before = len(PROMPT.findall(out))
            os.write(fd, command.encode() + b"\r")
            if not wait_prompts(before + 1):
                raise RuntimeError(f"no prompt after {command!r}: " + out.decode(errors="replace")[-500:])
            acknowledged += 1
        if in_flight_delay is not None and kill_after < len(commands):
            os.write(fd, commands[kill_after].encode() + b"\r")
            time.sleep(in_flight_delay)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
    return acknowledged


def reference(wb, folder, original, commands):
    """The files the same commands give without a crash (stdin script, -k: as at the
    prompt, each command its own step and a failure does not stop the rest)."""
    os.makedirs(folder, exist_ok=True)
    room = os.path.join(folder, "room.json")
    shutil.copyfile(original, room)
    script = "".join(c + "\n" for c in commands) + "save\n"
    subprocess.run([wb, "-q", "-k", room], input=script.encode(), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return snapshot(folder)


def snapshot(folder):
    result = {}
    for name in ("room.json", "room.wb.json"):
        path = os.path.join(folder, name)
        result[name] = open(path, "rb").read() if os.path.exists(path) else None
    return result


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    as_json = "--json" in sys.argv[1:]
    runs = int(arguments[0]) if arguments else 200
    wb, wbgen = product("wb"), product("wbgen")
    work = tempfile.mkdtemp(prefix="wb-journal-kill-")
    started = time.time()
    try:
        subprocess.run([wbgen, "--rooms", "2", "--seed", "5", "--out", os.path.join(work, "home")],
                       check=True, stdout=subprocess.DEVNULL)
        original = os.path.join(work, "home", "rooms", sorted(os.listdir(os.path.join(work, "home", "rooms")))[0])
        original_bytes = open(original, "rb").read()
        rng = random.Random(13)
        recovered = untouched = commands_total = in_flight_runs = 0
        losses = []
        for run in range(runs):
            folder = os.path.join(work, f"run{run}")
            os.makedirs(folder)
            room = os.path.join(folder, "room.json")
            shutil.copyfile(original, room)
            commands = [random_command(rng) for _ in range(rng.randrange(1, 13))]
            kill_after = rng.randrange(0, len(commands) + 1)
            delay = None if rng.random() < 0.4 else rng.uniform(0, 0.03)
            acknowledged = interactive_run(wb, room, commands, kill_after, delay, os.path.join(folder, "history"))
            commands_total += acknowledged
            flying = delay is not None and kill_after < len(commands)
            in_flight_runs += flying
            if open(room, "rb").read() == original_bytes and not os.path.exists(os.path.join(folder, "room.wb.json")):
                untouched += 1
            else:
                losses.append(f"run {run}: the file changed before any save")
            subprocess.run([wb, "-q", "--recover", room, "-c", "save"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
            got = snapshot(folder)
            expected = [reference(wb, os.path.join(folder, "ref-a"), original, commands[:acknowledged])]
            if flying:
                expected.append(reference(wb, os.path.join(folder, "ref-b"), original, commands[:acknowledged + 1]))
            if got in expected:
                recovered += 1
            else:
                losses.append(f"run {run}: after {acknowledged} acknowledged commands {commands[:acknowledged + 1]} "
                              "the recovered file is not what they give")
            shutil.rmtree(folder)
        seconds = time.time() - started
        if as_json:
            print(json.dumps({"runs": runs, "recovered": recovered, "untouched": untouched, "commands": commands_total,
                              "in_flight": in_flight_runs, "seconds": round(seconds, 1)}))
        else:
            print(f"{runs} interactive sessions killed with SIGKILL ({in_flight_runs} while a command was running), "
                  f"{commands_total} commands acknowledged in all, in {seconds:.0f} s")
            print(f"every acknowledged command recovered: {recovered}/{runs} runs; "
                  f"file untouched until the save: {untouched}/{runs} runs")
        for loss in losses[:20]:
            print("LOST: " + loss, file=sys.stderr)
        sys.exit(1 if losses else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
