"""Batch fix-ups (see bench-batch.sh): time and memory of `wb --each` beside Python peers.

1. 1,000 generated room files, each fixed the same way (its first section relabelled, the
   room and everything in it put on story 2, saved atomically: a temporary file renamed
   over the target; wb --each flushes everything to the disk once, at its end), by
     - wb --each --jobs 2 -f fix.wb (release build),
     - a sequential Python json script making the same edits, saved the same way,
     - the same Python under multiprocessing with 2 workers.
   The files are restored from a pristine copy before every run; each contender runs 3
   times, alternating; medians are compared. Every contender's output is checked.
2. Peak RSS of wb --each --jobs 2 over SMALL files against over 100 (the same small room,
   copied), paths from --files-from: memory must follow the jobs, not the files.
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

from bench_results import ms, record

wb, room_dir, work = sys.argv[1], sys.argv[2], sys.argv[3]
many = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000

FIX_WB = "label r1 bedroom\nstory r1 2\nsave\n"

PY_FIX = r'''
import json, os, sys
from multiprocessing import Pool

def save(path, data):
    # Atomic, as wb's saves are: a temporary file renamed over the target. Not flushed file
    # by file (wb --each flushes once, at its end, and that is in its time).
    temporary = os.path.join(os.path.dirname(path) or ".", "." + os.path.basename(path) + ".tmp")
    with open(temporary, "w") as f:
        f.write(data)
    os.chmod(temporary, os.stat(path).st_mode & 0o7777)
    os.replace(temporary, path)

def fix(path):
    room = json.load(open(path))
    room["sections"][0]["label"] = "bedroom"
    room["story"] = 2
    for key in ("sections", "walls", "doors", "windows", "openings", "floors", "objects"):
        for element in room.get(key, []):
            if "story" in element:
                element["story"] = 2
    save(path, json.dumps(room, indent=2, sort_keys=True, separators=(",", " : ")))
    return path

if __name__ == "__main__":
    paths = [line.strip() for line in open(sys.argv[2]) if line.strip()]
    if sys.argv[1] == "sequential":
        for path in paths:
            fix(path)
    else:
        with Pool(int(sys.argv[1])) as pool:
            for _ in pool.imap_unordered(fix, paths, chunksize=16):
                pass
'''


def prepare(count, folder, sources):
    """count files in folder, copies of the source rooms in turn; returns the list file."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(count):
        path = os.path.join(folder, f"scan-{i:06d}.json")
        shutil.copyfile(sources[i % len(sources)], path)
        paths.append(path)
    listing = folder + ".txt"
    with open(listing, "w") as f:
        f.write("\n".join(paths) + "\n")
    return paths, listing


def restore(folder, pristine):
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(pristine, folder)
    # The copies reach the disk now, not inside the next contender's time (wb's flush at
    # its end would otherwise wait for them too).
    os.sync()


def check(paths):
    import json
    for path in paths[:: max(1, len(paths) // 50)]:
        room = json.load(open(path))
        assert room["sections"][0]["label"] == "bedroom" and room["story"] == 2, path


sources = sorted(os.path.join(room_dir, name) for name in os.listdir(room_dir) if name.endswith(".json"))
fix_wb = os.path.join(work, "fix.wb")
with open(fix_wb, "w") as f:
    f.write(FIX_WB)
py_fix = os.path.join(work, "fix.py")
with open(py_fix, "w") as f:
    f.write(PY_FIX)

# 1. 1,000 files ------------------------------------------------------------------------------
files = os.path.join(work, "files")
pristine = os.path.join(work, "pristine")
paths, listing = prepare(1000, pristine, sources)
paths = [p.replace(pristine, files) for p in paths]
with open(listing, "w") as f:
    f.write("\n".join(paths) + "\n")
contenders = {
    "wb --each --jobs 2": [wb, "--each", "--jobs", "2", "-q", "-f", fix_wb, "--files-from", listing],
    "python sequential": [sys.executable, py_fix, "sequential", listing],
    "python multiprocessing (2)": [sys.executable, py_fix, "2", listing],
}
times = {name: [] for name in contenders}
for _ in range(3):
    for name, command in contenders.items():
        restore(files, pristine)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - start)
        check(paths)
median = {name: statistics.median(values) for name, values in times.items()}
wb_time = median["wb --each --jobs 2"]
sequential = median["python sequential"]
pool = median["python multiprocessing (2)"]
size = sum(os.path.getsize(p) for p in paths) / len(paths)
print(f"1,000 room files ({size / 1024:.1f} KiB each): relabel, story 2, atomic save; medians of 3")
for name, value in median.items():
    print(f"  {value * 1000:8.0f} ms  {name}  ({1000 / value:,.0f} files/s)")
ratio_sequential = wb_time / sequential
ratio_pool = wb_time / pool
print(f"ratio wb / python sequential: {ratio_sequential:.2f} (target <= 0.2)")
print(f"ratio wb / python multiprocessing with 2 workers: {ratio_pool:.2f} (target < 1)")
record("batch", "1,000 files fixed: wb --each --jobs 2 / python sequential", ms(wb_time), ms(sequential),
       ratio_sequential, "<= 0.2", ratio_sequential <= 0.2)
record("batch", "1,000 files fixed: wb --each --jobs 2 / python multiprocessing(2)", ms(wb_time), ms(pool),
       ratio_pool, "< 1", ratio_pool < 1)
shutil.rmtree(files)
shutil.rmtree(pristine)

# 2. Memory: few files against many -----------------------------------------------------------
MEASURE = ("import resource, subprocess, sys\n"
           "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
           "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def peak_kib(listing):
    """wb's peak RSS over the files of listing, in a Python of its own (RUSAGE_CHILDREN
    keeps the largest child's, so each measure needs a fresh parent)."""
    out = subprocess.run([sys.executable, "-c", MEASURE, wb, "--each", "--jobs", "2", "-q", "-f", fix_wb,
                          "--files-from", listing], capture_output=True, text=True, check=True).stdout.split()
    if out[0] != "0":
        sys.exit(f"wb --each failed over {listing}")
    return int(out[1])


small = [s for s in sources][:1]
few_paths, few_list = prepare(100, os.path.join(work, "few"), small)
started = time.perf_counter()
many_paths, many_list = prepare(many, os.path.join(work, "many"), small)
made = time.perf_counter() - started
few_peak = peak_kib(few_list)
start = time.perf_counter()
many_peak = peak_kib(many_list)
many_seconds = time.perf_counter() - start
check(many_paths)
ratio = many_peak / few_peak
print(f"memory: {os.path.getsize(few_paths[0]) / 1024:.1f} KiB files, wb --each --jobs 2 over --files-from; "
      f"{many:,} files made in {made:.0f} s, fixed in {many_seconds:.1f} s ({many / many_seconds:,.0f} files/s)")
print(f"  peak RSS over 100 files {few_peak / 1024:.1f} MiB, over {many:,} files {many_peak / 1024:.1f} MiB: "
      f"ratio {ratio:.2f} (target <= 1.5)")
record("batch", f"peak RSS: {many:,} files / 100 files", f"{many_peak / 1024:.1f} MiB", f"100 files {few_peak / 1024:.1f} MiB",
       ratio, "<= 1.5", ratio <= 1.5)
