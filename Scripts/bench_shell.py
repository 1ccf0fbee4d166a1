"""Batch throughput and start-up time of wb, each measured beside a peer in one run."""
import statistics
import subprocess
import sys
import time

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

# Start-up: alternate the two so that machine noise hits both.
wb_times, py_times = [], []
for _ in range(30):
    wb_times.append(timed([wb, "-q", "-c", "quit"], 1))
    py_times.append(timed([sys.executable, "-c", "pass"], 1))
wb_start, py_start = statistics.median(wb_times), statistics.median(py_times)
print(f"start-up: wb -c quit {wb_start * 1000:.1f} ms, python3 -c pass {py_start * 1000:.1f} ms, ratio {wb_start / py_start:.2f}")
