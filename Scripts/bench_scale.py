"""How wb's costs grow with the size of the work, each measured beside a peer in one run.

  1. open+save of generated structures of 10 to 5,000 rooms against Python's json module,
     and how opening grows from 1,000 to 5,000 rooms;
  2. the cost of one move by building size (10,000 moves less 1 move, piped on stdin so that
     the cost of reading a -f script, measured in 3 and 4, stays out of it);
  3. a -f script moving each of 1,000 rooms once, against the same script on stdin;
  4. a 100,000-line script of moves with -f against the same on stdin;
  5. 1,000 to 3,000 files all named room.json against as many with distinct names;
  6. check and merge of a room holding 1,000 and 4,000 copies of one wall (an exporter's loop
     gone wrong): how their time grows, against the growth of Python's json load of the same.

Every contender runs as a whole process; the contenders of one measure alternate so that
machine noise hits both, and medians are compared. wb is slow at scale today, so runs are
capped: a measure stops repeating once it has spent SPEND seconds; one run may take LIMIT
seconds (it is then killed and reported as "> LIMIT"; if opening a structure alone takes
longer, the other wb runs on it are skipped); all measuring stops after BUDGET seconds and
what is left is reported as skipped. The costliest runs (moves on 5,000 rooms) go last.
"""
import math
import os
import shutil
import statistics
import subprocess
import sys
import time

from bench_results import record

wb, work, room = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
LIMIT = float(os.environ.get("WB_SCALE_LIMIT", "60"))
BUDGET = float(os.environ.get("WB_SCALE_BUDGET", "280"))
SPEND = 15.0
began = time.monotonic()
deadline = began + BUDGET

# The peer of bench_codec.py: the same pretty, sorted form wb writes.
PY_PRETTY = (
    "import json,sys\n"
    "d=json.load(open(sys.argv[1]))\n"
    "open(sys.argv[2],'w').write(json.dumps(d, indent=2, sort_keys=True, separators=(',', ' : ')))\n"
)


class V:
    """A measured value: exact ('='), a lower bound ('>') or an upper bound ('<'); or no
    value at all (x is None), with a note saying why."""

    def __init__(self, x=None, op="=", note=""):
        self.x, self.op, self.note = x, op, note

    def known(self):
        return self.x is not None

    def __truediv__(self, other):
        return combine(self, other, lambda a, b: a / b, flip=True)


def combine(a, b, f, flip):
    """f(a, b) where f grows with a and (flip) shrinks with b, carrying bounds along."""
    if not (a.known() and b.known()):
        return V(note=a.note or b.note)
    if b.op == "=" or not flip:
        op = a.op
    elif a.op == "=":
        op = {">": "<", "<": ">"}[b.op]
    else:
        op = a.op if a.op != b.op else None
    if op is None:
        return V(note="both bounds")
    return V(f(a.x, b.x), op)


def seconds(v):
    """Milliseconds under 10 s, seconds above."""
    if not v.known():
        return "-"
    prefix = "" if v.op == "=" else v.op + " "
    if v.x >= 10:
        return f"{prefix}{v.x:.1f} s"
    if v.x >= 0.1:
        return f"{prefix}{v.x * 1000:,.0f} ms"
    return f"{prefix}{v.x * 1000:.1f} ms"


def number(v, digits=2):
    if not v.known():
        return "-"
    return ("" if v.op == "=" else v.op + " ") + f"{v.x:.{digits}f}"


def verdict(v, low=None, high=None):
    """PASS / FAIL when the value (or its bound) decides it, '?' when a bound does not."""
    if not v.known():
        return "skipped"
    if v.op == "=":
        ok = (low is None or v.x >= low) and (high is None or v.x <= high)
        return "PASS" if ok else "FAIL"
    if v.op == ">":
        return "FAIL" if high is not None and v.x >= high else "?"
    return "FAIL" if low is not None and v.x <= low else "?"


def exponent(t1, t2, n1, n2):
    return combine(t2, t1, lambda b, a: math.log(b / a) / math.log(n2 / n1), flip=True)


class OverBudget(Exception):
    pass


failures = []


def run(command, stdin=None, cwd=None):
    """One run of a whole process: its seconds, or a V lower bound when it was killed at its
    time limit. A failed command ends the benchmark."""
    timeout = min(LIMIT, deadline - time.monotonic())
    if timeout < 1:
        raise OverBudget
    source = open(stdin, "rb") if stdin else subprocess.DEVNULL
    start = time.perf_counter()
    try:
        done = subprocess.run(command, stdin=source, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, cwd=cwd, timeout=timeout)
    except subprocess.TimeoutExpired:
        why = f"killed at the {LIMIT:.0f} s limit" if timeout == LIMIT else "killed: time budget spent"
        return V(timeout, ">", why)
    finally:
        if stdin:
            source.close()
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        shown = " ".join(command if len(command) < 12 else command[:6] + ["..."])
        sys.exit(f"failed ({done.returncode}): {shown}\n{done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def measure(contenders, runs):
    """contenders: {name: (command, stdin, cwd) or a V saying why it is not run}. Alternates
    them for up to `runs` rounds (no new round past SPEND seconds); returns {name: V}."""
    times = {name: [] for name in contenders}
    out = {name: spec for name, spec in contenders.items() if isinstance(spec, V)}
    spent = 0.0
    for round_ in range(runs):
        if round_ > 0 and spent > SPEND:
            break
        for name, spec in contenders.items():
            if name in out:
                continue
            try:
                result = run(*spec)
            except OverBudget:  # keep what earlier rounds measured
                if not times[name]:
                    out[name] = V(note="skipped: time budget spent")
                continue
            if isinstance(result, V):
                out[name] = result if not times[name] else V(statistics.median(times[name] + [result.x]))
                spent += result.x
            else:
                times[name].append(result)
                spent += result
    for name, values in times.items():
        if name not in out:
            out[name] = V(statistics.median(values)) if values else V(note="skipped: time budget spent")
    return out


def say(text=""):
    print(text, flush=True)


def note_of(*values):
    notes = [v.note for v in values if v.note]
    return f"   ({'; '.join(dict.fromkeys(notes))})" if notes else ""


table = {}  # section number -> rows (measure, wb, peer, ratio, target, verdict)
too_slow = {}  # rooms -> why wb runs on that structure are skipped


def structure(rooms):
    return f"{work}/b{rooms}/structure.json"


# 1. Open+save against Python ------------------------------------------------------------
def open_and_save():
    say("1. open+save against Python json.load + json.dump (pretty, sorted keys)")
    rows, opened, peer = [], {}, {}
    for rooms in (10, 100, 1000, 5000):
        runs = {10: 5, 100: 5, 1000: 3, 5000: 1}[rooms]
        source = structure(rooms)
        megabytes = os.path.getsize(source) / 1e6
        if rooms <= 100:  # the generator made what it says
            listing = subprocess.run([wb, "-q", source, "-c", "ls"], capture_output=True, text=True, check=True)
            found = sum(1 for line in listing.stdout.splitlines() if line[:1] == "r" and line[1:2].isdigit())
            if found != rooms:
                failures.append(f"{rooms}-room structure lists {found} rooms")
        opened[rooms] = measure({"open": ([wb, "-q", source, "-c", "quit"], None, None)}, runs)["open"]
        if opened[rooms].op != "=":
            too_slow[rooms] = f"opening {rooms:,} rooms alone: {opened[rooms].note}"
        saved = f"{work}/wb-{rooms}.json"
        results = measure({
            "wb": V(opened[rooms].x, ">", too_slow[rooms]) if rooms in too_slow
            else ([wb, "-q", source, "-c", f"save {saved}"], None, None),
            "python": ([sys.executable, "-c", PY_PRETTY, source, f"{work}/py-{rooms}.json"], None, None),
        }, runs)
        wb_time, peer[rooms] = results["wb"], results["python"]
        if os.path.exists(saved):
            with open(source, "rb") as a, open(saved, "rb") as b:
                same = a.read() == b.read()
            if not same:
                failures.append(f"wb's no-edit save of {rooms} rooms differs from its input")
            identical = "byte-identical" if same else "DIFFERS from its input"
        else:
            identical = "not saved"
        for path in (saved, f"{work}/py-{rooms}.json"):
            if os.path.exists(path):
                os.remove(path)
        ratio = wb_time / peer[rooms]
        say(f"  {rooms:>5,} rooms ({megabytes:5.1f} MB): wb open {seconds(opened[rooms])}, open+save "
            f"{seconds(wb_time)} (output {identical}); python {seconds(peer[rooms])}; ratio {number(ratio)}"
            f" (target <= 0.5){note_of(opened[rooms], wb_time, peer[rooms])}")
        rows.append((f"open+save {rooms:,} rooms ({megabytes:.{0 if megabytes >= 10 else 1}f} MB)", seconds(wb_time), seconds(peer[rooms]),
                     number(ratio), "<= 0.5", verdict(ratio, high=0.5)))
    growth = exponent(opened[1000], opened[5000], 1000, 5000)
    peer_growth = exponent(peer[1000], peer[5000], 1000, 5000)
    say(f"  growth exponent of wb's open, 1,000 -> 5,000 rooms: {number(growth)} (target <= 1.1); "
        f"python's load+dump: {number(peer_growth)}")
    rows.append(("open growth exp. 1k->5k rooms", number(growth), number(peer_growth), "-", "<= 1.1",
                 verdict(growth, high=1.1)))
    table[1] = rows


# 2. One move by building size ---------------------------------------------------------------
def one_move():
    say("2. one move by building size (10,000 moves of r1 less 1 move, on stdin)")
    one, many = f"{work}/move-1.wb", f"{work}/move-10000.wb"
    with open(one, "w") as f:
        f.write("move r1 0.001 0\n")
    with open(many, "w") as f:
        f.write("move r1 0.001 0\n" * 10_000)
    per_move = {}
    for rooms in (10, 1000, 5000):
        runs = {10: 5, 1000: 3, 5000: 3}[rooms]
        if rooms in too_slow:
            per_move[rooms] = V(note=f"skipped: {too_slow[rooms]}")
        else:
            results = measure({
                "1": ([wb, "-q", structure(rooms)], one, None),
                "10000": ([wb, "-q", structure(rooms)], many, None),
            }, runs)
            per_move[rooms] = combine(results["10000"], results["1"], lambda a, b: (a - b) / 9_999, flip=True)
            say(f"  {rooms:>5,} rooms: 1 move {seconds(results['1'])}, 10,000 moves {seconds(results['10000'])}"
                f"{note_of(results['1'], results['10000'])}")
        say(f"  {rooms:>5,} rooms: {milliseconds(per_move[rooms])} per move{note_of(per_move[rooms])}")
    # Flat: no more than twice the cost on 10 rooms (floored at 0.01 ms, below the noise).
    base = per_move[10]
    floored = V(max(base.x, 0.00001), base.op) if base.known() else base
    rows = []
    for rooms in (1000, 5000):
        ratio = per_move[rooms] / floored
        rows.append((f"one move, {rooms:,} rooms", milliseconds(per_move[rooms]),
                     f"10 rooms: {milliseconds(base)}", number(ratio), "<= 2 (flat)", verdict(ratio, high=2)))
    table[2] = rows


def milliseconds(v):
    if not v.known():
        return "-"
    return ("" if v.op == "=" else v.op + " ") + f"{v.x * 1000:.3f} ms"


# 3. A -f script moving each of 1,000 rooms ----------------------------------------------------
def each_room():
    say("3. a script moving each of 1,000 rooms once, on a 1,000-room structure: -f against stdin")
    script = f"{work}/each.wb"
    with open(script, "w") as f:
        f.write("".join(f"move r{k} 0.01 0\n" for k in range(1, 1001)))
    if 1000 in too_slow:
        skipped = V(note=f"skipped: {too_slow[1000]}")
        results = {"-f": skipped, "stdin": skipped}
    else:
        results = measure({
            "-f": ([wb, "-q", structure(1000), "-f", script], None, None),
            "stdin": ([wb, "-q", structure(1000)], script, None),
        }, 3)
    ratio = results["-f"] / results["stdin"]
    say(f"  -f {seconds(results['-f'])}, stdin {seconds(results['stdin'])}, ratio {number(ratio)} "
        f"(target: -f under 1 s, ratio <= 1.25){note_of(results['-f'], results['stdin'])}")
    under = verdict(results["-f"], high=1.0)
    close = verdict(ratio, high=1.25)
    both = ("FAIL" if "FAIL" in (under, close) else "PASS" if under == close == "PASS"
            else "skipped" if "skipped" in (under, close) else "?")
    table[3] = [("-f moving each of 1,000 rooms", seconds(results["-f"]), f"stdin {seconds(results['stdin'])}",
                 number(ratio), "-f < 1 s, <= 1.25", both)]


# 4. A 100,000-line script: -f against stdin ----------------------------------------------------
def long_script():
    say("4. a 100,000-line script (move r1 0.001 0) on a small room: -f against stdin")
    script = f"{work}/long.wb"
    with open(script, "w") as f:
        f.write("move r1 0.001 0\n" * 100_000)
    results = measure({
        "-f": ([wb, "-q", room, "-f", script], None, None),
        "stdin": ([wb, "-q", room], script, None),
    }, 3)
    ratio = results["-f"] / results["stdin"]
    say(f"  -f {seconds(results['-f'])}, stdin {seconds(results['stdin'])}, ratio {number(ratio)} "
        f"(target about 1: 0.8 to 1.25){note_of(results['-f'], results['stdin'])}")
    table[4] = [("100,000-line script: -f/stdin", seconds(results["-f"]), f"stdin {seconds(results['stdin'])}",
                 number(ratio), "0.8 - 1.25", verdict(ratio, low=0.8, high=1.25))]


# 5. Many files named alike ---------------------------------------------------------------------
def named_alike():
    counts = (1000, 2000, 3000)
    say("5. many small room files opened in one process: all named room.json (one per folder) "
        "against distinct names in one folder")
    for i in range(1, counts[-1] + 1):
        os.makedirs(f"{work}/alike/d{i}", exist_ok=True)
        shutil.copyfile(room, f"{work}/alike/d{i}/room.json")
    os.makedirs(f"{work}/distinct", exist_ok=True)
    for i in range(1, counts[-1] + 1):
        shutil.copyfile(room, f"{work}/distinct/room-{i}.json")

    def command(paths, name):
        """wb opening paths: on the command line, or through an open script when the
        command line would come near ARG_MAX."""
        if sum(len(p) + 1 for p in paths) < os.sysconf("SC_ARG_MAX") // 4:
            return [wb, "-q"] + paths + ["-c", "quit"]
        script = f"{work}/open-{name}.wb"
        with open(script, "w") as f:
            for start in range(0, len(paths), 100):
                f.write("open " + " ".join(paths[start:start + 100]) + "\n")
        return [wb, "-q", "-f", script, "-c", "quit"]

    # The files really open, and as many rooms as files.
    for name, paths in (("alike", [f"alike/d{i}/room.json" for i in range(1, 101)]),
                        ("distinct", [f"distinct/room-{i}.json" for i in range(1, 101)])):
        listing = subprocess.run(command(paths, name)[:-1] + ["ls"], capture_output=True, text=True, cwd=work)
        found = sum(1 for line in listing.stdout.splitlines() if line[:1] == "r" and line[1:2].isdigit())
        if listing.returncode != 0 or found != 100:
            failures.append(f"100 files {name}: wb lists {found} rooms (exit {listing.returncode})")
    rows = []
    for count in counts:
        alike = [f"alike/d{i}/room.json" for i in range(1, count + 1)]
        distinct = [f"distinct/room-{i}.json" for i in range(1, count + 1)]
        results = measure({
            "alike": (command(alike, f"alike-{count}"), None, work),
            "distinct": (command(distinct, f"distinct-{count}"), None, work),
        }, 3)
        ratio = results["alike"] / results["distinct"]
        say(f"  {count:,} files: named alike {seconds(results['alike'])}, distinct {seconds(results['distinct'])}, "
            f"ratio {number(ratio)} (target <= 2){note_of(results['alike'], results['distinct'])}")
        rows.append((f"{count:,} files named alike", seconds(results["alike"]),
                     f"distinct {seconds(results['distinct'])}", number(ratio), "<= 2", verdict(ratio, high=2)))
    table[5] = rows


# 6. Thousands of walls stacked in one place -----------------------------------------------------
def stacked_walls():
    say("6. check and merge of a room with 1,000 and 4,000 copies of one wall stacked in one place")
    import json
    import uuid
    base = json.load(open(room))
    paths = {}
    for count in (1000, 4000):
        copy = json.loads(json.dumps(base))
        for index in range(count):
            wall = json.loads(json.dumps(base["walls"][0]))
            wall["identifier"] = str(uuid.UUID(int=index + 1)).upper()
            copy["walls"].append(wall)
        paths[count] = f"{work}/stack-{count}.json"
        with open(paths[count], "w") as f:
            json.dump(copy, f)
    rows = []
    times = {}
    for count in (1000, 4000):
        times[count] = measure({
            "check": ([wb, "-q", paths[count], "-c", "check"], None, None),
            "merge": ([wb, "-q", paths[count], "-c", "merge --into m"], None, None),
            "python": (["python3", "-c", "import json,sys; json.load(open(sys.argv[1]))", paths[count]], None, None),
        }, 3)
        say(f"  {count:,} copies: check {seconds(times[count]['check'])}, merge {seconds(times[count]['merge'])}, "
            f"python load {seconds(times[count]['python'])}")
    peer = exponent(times[1000]["python"], times[4000]["python"], 1000, 4000)
    for name in ("check", "merge"):
        growth = exponent(times[1000][name], times[4000][name], 1000, 4000)
        say(f"  growth exponent of {name}, 1,000 -> 4,000 walls: {number(growth)} (target <= 1.3; "
            f"python's load {number(peer)})")
        rows.append((f"{name} of stacked walls, growth 1k->4k", seconds(times[4000][name]), f"python load {number(peer)}",
                     number(growth), "<= 1.3", verdict(growth, high=1.3)))
    table[6] = rows


say(f"wb scale benchmark: one run may take {LIMIT:.0f} s, all of it {BUDGET:.0f} s")
open_and_save()
each_room()
long_script()
named_alike()
stacked_walls()
one_move()

say()
header = ("measure", "wb", "peer", "ratio", "target", "result")
rows = [row for section in sorted(table) for row in table[section]]
for row in rows:
    ratio_value = None
    try:
        ratio_value = float(str(row[3]).lstrip("<> "))
    except ValueError:
        pass
    record("scale", row[0], row[1], row[2], ratio_value, row[4],
           {"PASS": True, "FAIL": False}.get(row[5]))
widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
for row in [header] + rows:
    say("  ".join(str(cell).ljust(width) if i == 0 else str(cell).rjust(width) if i < 4 else str(cell).ljust(width)
                  for i, (cell, width) in enumerate(zip(row, widths))).rstrip())
say(f"measured in {time.monotonic() - began:.0f} s (limits: {LIMIT:.0f} s a run, {BUDGET:.0f} s in all); "
    "'> x' is a run killed at the limit, '?' a bound that does not decide")
if failures:
    for failure in failures:
        say(f"CHECK FAILED: {failure}")
    sys.exit(1)
