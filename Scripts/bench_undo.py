"""Peak RSS with a 10,000-step undo history against the RSS of the opened document."""
import os
import resource
import subprocess
import sys

from bench_results import record

wb, structure, work = sys.argv[1], sys.argv[2], sys.argv[3]
labels = ["livingRoom", "bedroom", "bathroom", "kitchen", "diningRoom", "unidentified"]
lines = []
for i in range(10_000):
    room = f"r{i % 100 + 1}"
    kind = i % 5
    if kind == 0:
        lines.append(f"move {room} 0.01 -0.01")
    elif kind == 1:
        lines.append(f"rotate {room} 1")
    elif kind == 2:
        lines.append(f"label {room} {labels[i % len(labels)]}")
    elif kind == 3:
        lines.append(f"set o{i % 400 + 1} confidence {['low', 'medium', 'high'][i % 3]}")
    else:
        lines.append(f"elevate {room} 0.001")
lines.append("history")
script = "\n".join(lines) + "\n"


def peak_kib(arguments, stdin=""):
    """Runs wb as a child and returns the child's peak RSS in KiB (getrusage)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([wb] + arguments, input=script if stdin == "script" else "", text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if done.returncode not in (0,):
        sys.exit(f"wb failed: {done.stderr[:500]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest of any child so far: run the larger one last.
    return after, done


empty, _ = peak_kib(["-q", "-c", "quit"])
opened, _ = peak_kib(["-q", structure, "-c", "quit"])
edited, done = peak_kib(["-q", structure], stdin="script")
steps = sum(1 for line in done.stdout.splitlines() if line.strip() and line.strip().split()[0].isdigit())
size = os.path.getsize(structure) / 1024
document = opened - empty
history = edited - opened
print(f"structure: {size / 1024:.1f} MiB on disk, 100 rooms")
print(f"{len(lines) - 1} edits; {steps} changed something (a label or confidence already set is no step)")
print(f"RSS: wb alone {empty / 1024:.1f} MiB, after opening {opened / 1024:.1f} MiB, "
      f"peak after {steps} undo steps {edited / 1024:.1f} MiB")
print(f"the history adds {history / 1024:.1f} MiB; the document takes {document / 1024:.1f} MiB in memory "
      f"({size / 1024:.1f} MiB on disk): ratio {history / document:.2f} (target < 1)")
record("undo", "10,000-step history / document in memory", f"+{history / 1024:.1f} MiB", f"document {document / 1024:.1f} MiB",
       history / document, "< 1", history / document < 1 and steps >= 9_900)
if steps < 9_900:
    sys.exit(f"expected about 10,000 steps in the history, found {steps}")
