"""Speed of putting rooms together (issue 10's targets), release build, each figure the best
of a few runs:
- merge of generated buildings of 10, 100 and 1,000 rooms on three stories (the structure's own
  arrays rebuilt from its nested rooms): wb's merge against wb opening the same file, and the
  growth from 100 to 1,000 rooms against n log n;
- align --all auto of 10- and 30-room buildings, rooms opened in name order;
- align ROOM auto of a room's own scan beside the 30 rooms of its building's structure
  (tried 20 times, undone each time).
A command's own time is the run with it less the run that only opens the same files.

    python3 Scripts/bench_merge.py WB WORK
WORK holds m10, m100, m1000 (wbgen --stories 3) and a10, a30 (wbgen: rooms in their own frames,
and the structure they make).
"""
import math
import os
import subprocess
import sys
import time

from bench_results import ms, record

wb, work = sys.argv[1], sys.argv[2]


def best(arguments, runs, stdin=None):
    """The shortest wall time of `runs` runs of wb with these arguments (exit 0 or 1 only)."""
    fastest = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([wb] + arguments, input=stdin, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        fastest = min(fastest, time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit(f"wb {' '.join(arguments[:3])} ... exited {done.returncode}: {done.stderr[-500:]}")
    return fastest, done


print("merge (the structure's own arrays rebuilt from its nested rooms):")
merges = {}
for rooms in (10, 100, 1000):
    path = os.path.join(work, f"m{rooms}", "structure.json")
    runs = 7 if rooms <= 100 else 3
    opened, _ = best(["-q", path, "-c", "quit"], runs)
    merged, done = best([path, "-c", "merge --rebuild", "-c", "quit"], runs)
    if "merged into" not in done.stderr + done.stdout:
        sys.exit(f"merge of {rooms} rooms said nothing of what it merged: {done.stderr[-500:]}")
    merges[rooms] = max(merged - opened, 1e-4)
    size = os.path.getsize(path) / 1e6
    print(f"  {rooms:>5} rooms ({size:.1f} MB): open {ms(opened)}, open+merge {ms(merged)}, merge {ms(merges[rooms])}")
growth = merges[1000] / merges[100]
bound = 10 * math.log(1000) / math.log(100)
print(f"  1,000 rooms / 100 rooms: {growth:.1f} times (n log n: {bound:.0f}; n^2: 100)")
for rooms, target in ((100, 0.1), (1000, 2.0)):
    path = os.path.join(work, f"m{rooms}", "structure.json")
    opened, _ = best(["-q", path, "-c", "quit"], 3)
    record("merge", f"merge {rooms:,} rooms (3 stories) / opening them", ms(merges[rooms]), f"open {ms(opened)}",
           merges[rooms] / opened, f"merge < {ms(target)}", merges[rooms] < target)
record("merge", "merge 1,000 rooms / merge 100 rooms", ms(merges[1000]), ms(merges[100]), growth,
       f"<= {bound:.0f} (n log n)", growth <= bound)


def room_files(folder):
    rooms = os.path.join(folder, "rooms")
    return [os.path.join(rooms, name) for name in sorted(os.listdir(rooms))]


print("align --all auto (rooms in their own frames, opened in name order):")
aligned = {}
for rooms in (10, 30):
    files = room_files(os.path.join(work, f"a{rooms}"))
    opened, _ = best(["-q"] + files + ["-c", "quit"], 3)
    total, done = best(files + ["-c", "align --all auto", "-c", "quit"], 3)
    placed = next((line for line in done.stderr.splitlines() if line.startswith("placed ")), "placed nothing")
    aligned[rooms] = total - opened
    print(f"  {rooms} rooms: {total - opened:.2f} s ({placed})")
record("merge", "align --all auto, 30 rooms / 10 rooms", f"{aligned[30]:.2f} s", f"{aligned[10]:.2f} s",
       aligned[30] / max(aligned[10], 1e-3), "30 rooms < 5 s", aligned[30] < 5)

# One room beside 30 placed: the 30-room building as one structure (every room where it
# belongs) and its last room's own scan opened beside it, which lands on that room as a scan
# made again would. Tried 20 times in one session, undone each time, so its time is not lost
# in opening's.
folder = os.path.join(work, "a30")
structure = os.path.join(folder, "structure.json")
again = room_files(folder)[-1]
handle = "r31"
repeats = 20
tries = []
for _ in range(repeats):
    tries += ["-c", f"align {handle} auto --best", "-c", "undo"]
opened, _ = best(["-q", structure, again, "-c", "quit"], 5)
total, done = best([structure, again] + tries + ["-c", "quit"], 3)
single = (total - opened) / repeats
said = next((line for line in done.stderr.splitlines() if line.startswith("best:")), done.stderr[-200:])
print(f"align {handle} auto (a room's scan beside the 30 rooms of its building's structure): {ms(single)} ({said.strip()})")
record("merge", "align ROOM auto beside 30 rooms / opening them", ms(single), f"open {ms(opened)}",
       single / opened, "< 200 ms", single < 0.2)
