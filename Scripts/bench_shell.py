"""Batch throughput, a long script of edits with -f against stdin, and start-up time of wb,
each measured beside a peer in one run."""
import os
import statistics
import subprocess
import sys
import time

from bench_results import ms, record

wb, room, work = sys.argv[1], sys.argv[2], sys.argv[3]

# Cheap commands that do real work: listings of a small room, an edit with undo/redo
# pairs, variables and output, a comment.
lines = ["move r1 0.01 0"]
for i in range(99_999):
    kind = i % 6
    if kind == 0:
        lines.append("ls walls")
    elif kind == 1:
        lines.append("undo")
    elif kind == 2:
        lines.append("redo")
    elif kind == 3:
        lines.append(f"define n{i % 10} {i}")
    elif kind == 4:
        lines.append(f"echo $n{(i - 1) % 10} done")
    else:
        lines.append("# a comment line ; ignored")
script = f"{work}/bench.wb"
with open(script, "w") as f:
    f.write("\n".join(lines) + "\n")

def timed(command, runs):
    values = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        values.append(time.perf_counter() - start)
    return statistics.median(values)

batch = timed([wb, "-q", room, "-f", script], 3)
commands = sum(1 for line in lines if not line.startswith("#"))
print(f"batch: {len(lines)} lines ({commands} commands) in {batch * 1000:.0f} ms: {commands / batch:,.0f} commands/s")
record("shell", "100,000-line script of cheap commands", f"{commands / batch:,.0f} commands/s", "-", None, "-", None)

# A long script of edits: 100,000 moves with -f against the same lines piped on stdin,
# alternated; the two should cost the same (ratio about 1). A run is killed after 60 s.
edits = f"{work}/edits.wb"
with open(edits, "w") as f:
    f.write("move r1 0.001 0\n" * 100_000)
contenders = {"-f": ([wb, "-q", room, "-f", edits], None), "stdin": ([wb, "-q", room], edits)}
edit_times = {name: [] for name in contenders}
killed = set()
for _ in range(3):
    for name, (command, stdin) in contenders.items():
        if name in killed:
            continue
        start = time.perf_counter()
        try:
            with open(stdin or os.devnull, "rb") as source:
                subprocess.run(command, check=True, stdin=source, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60)
        except subprocess.TimeoutExpired:
            killed.add(name)
            continue
        edit_times[name].append(time.perf_counter() - start)
shown = {name: "over 60 s (killed)" if name in killed else f"{statistics.median(edit_times[name]) * 1000:.0f} ms"
         for name in contenders}
if not killed:
    ratio = f"{statistics.median(edit_times['-f']) / statistics.median(edit_times['stdin']):.2f}"
elif "stdin" not in killed:
    ratio = f"over {60 / statistics.median(edit_times['stdin']):.1f}"
else:
    ratio = "unknown"
print(f"100,000 moves: -f {shown['-f']}, piped on stdin {shown['stdin']}, ratio {ratio} (target about 1)")
try:
    ratio_value = float(ratio)
except ValueError:
    ratio_value = None
record("shell", "100,000 moves: -f / stdin", shown["-f"], f"stdin {shown['stdin']}", ratio_value, "0.8 - 1.25",
       ratio_value is not None and 0.8 <= ratio_value <= 1.25)

# Start-up: alternate the two so that machine noise hits both.
wb_times, py_times = [], []
for _ in range(30):
    wb_times.append(timed([wb, "-q", "-c", "quit"], 1))
    py_times.append(timed([sys.executable, "-c", "pass"], 1))
wb_start, py_start = statistics.median(wb_times), statistics.median(py_times)
print(f"start-up: wb -c quit {wb_start * 1000:.1f} ms, python3 -c pass {py_start * 1000:.1f} ms, ratio {wb_start / py_start:.2f}")
record("shell", "start-up: wb -c quit / python3 -c pass", ms(wb_start), ms(py_start), wb_start / py_start, "<= 1.0",
       wb_start / py_start <= 1.0)
