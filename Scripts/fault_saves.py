#!/usr/bin/env python3
"""Fault tests of wb's saves that are too slow for the unit suite.

  Scripts/fault_saves.py [--wb PATH] [--wbgen PATH] [--pairs N] [--kills N] [--rooms N]

1. Pairs of wb processes save one large file at the same moment, one moving the first room
   by 1 m, the other by 2 m. Never may both succeed unless the file moved 3 m (the second
   read the first's file); the file must always hold exactly the successful edits.
2. wb is killed with SIGKILL at a random moment during many saves of a large file with a
   sidecar (a name per save). After each kill the file is the old or the new version, never
   a mix, and the names wb opens it with are those of that version. After the next
   successful save no temporary file is left.
3. A file-size limit below the file's size (ulimit -f): the save fails with a message, the
   file is whole, no temporary file is left.

Prints the counts; exits 1 on any violation.
"""
import argparse, hashlib, json, os, random, shutil, signal, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--wb", default=os.path.join(here, "..", ".build", "debug", "wb"))
parser.add_argument("--wbgen", default=os.path.join(here, "..", ".build", "debug", "wbgen"))
parser.add_argument("--pairs", type=int, default=20)
parser.add_argument("--kills", type=int, default=100)
parser.add_argument("--rooms", type=int, default=60)
args = parser.parse_args()
problems = []

def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()

def first_x(path):
    with open(path) as f:
        data = json.load(f)
    rooms = data.get("rooms") or [data]
    return rooms[0]["walls"][0]["transform"][12]

def leftovers(folder):
    return [n for n in os.listdir(folder) if ".wb-" in n]

def names(path):
    out = subprocess.run([args.wb, "-q", "--json", path, "-c", "ls rooms"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr
    return [r.get("name") for r in json.loads(out.stdout)][0], out.stderr

work = tempfile.mkdtemp(prefix="wb-fault-")
try:
    subprocess.run([args.wbgen, "--rooms", str(args.rooms), "--seed", "7", "--out", work + "/gen"], check=True,
                   stdout=subprocess.DEVNULL)
    source = work + "/gen/structure.json"
    size = os.path.getsize(source)
    print(f"file: a {args.rooms}-room structure, {size / 1e6:.1f} MB")

    # 1. Concurrent pairs.
    target = work + "/pair.json"
    both = one = lost = 0
    for pair in range(args.pairs):
        shutil.copy(source, target)
        start = first_x(target)
        procs = [subprocess.Popen([args.wb, "-q", target, "-c", f"move r1 {dx} 0", "-c", "save"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for dx in (1, 2)]
        results = [(p.wait(), p.stderr.read()) for p in procs]
        won = [dx for dx, (code, _) in zip((1, 2), results) if code == 0]
        moved = round(first_x(target) - start, 3)
        for code, err in results:
            if code not in (0, 1) or (code == 1 and "changed on disk" not in err and "another process" not in err):
                problems.append(f"pair {pair}: exit {code}: {err.strip()}")
        if len(won) == 2:
            both += 1
            if moved != 3:
                lost += 1
                problems.append(f"pair {pair}: both saved but the file moved {moved} m (an edit lost)")
        elif len(won) == 1:
            one += 1
            if moved != won[0]:
                lost += 1
                problems.append(f"pair {pair}: {won[0]} m saved but the file moved {moved} m")
        else:
            problems.append(f"pair {pair}: neither saved")
    print(f"concurrent pairs: {args.pairs} runs; one refused in {one}, both saved in sequence in {both}, "
          f"edits lost silently: {lost}")

    # 2. SIGKILL at random moments of saves with a sidecar.
    target = work + "/kill.json"
    shutil.copy(source, target)
    subprocess.run([args.wb, "-q", target, "-c", "name r1 v0; save"], check=True)
    versions = {digest(target): "v0"}
    rng = random.Random(11)
    old_kept = new_made = mixed = name_mismatch = killed = finished = 0
    timings = []
    for run in range(args.kills):
        before = digest(target)
        expected_before = versions[before]
        label = f"v{run + 1}"
        t0 = time.time()
        proc = subprocess.Popen([args.wb, "-q", target, "-c", f"name r1 {label}; move r1 0.5 0; save"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        delay = rng.uniform(0.5, 1.5) * (sum(timings) / len(timings)) if timings else 60.0
        try:
            proc.wait(timeout=delay)
            finished += 1
            timings.append(time.time() - t0)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            killed += 1
        after = digest(target)
        name, err = names(target)
        if name is None:
            mixed += 1
            problems.append(f"kill {run}: the file does not open: {err.strip()}")
            break
        if after == before:
            old_kept += 1
            if name != expected_before:
                name_mismatch += 1
                problems.append(f"kill {run}: old file with name {name}, expected {expected_before}")
        else:
            new_made += 1
            versions[after] = label
            if name != label:
                name_mismatch += 1
                problems.append(f"kill {run}: new file with name {name}, expected {label}")
    subprocess.run([args.wb, "-q", target, "-c", "name r1 final; save"], check=True)
    left = leftovers(work)
    if left:
        problems.append(f"temporary files left after the next save: {left}")
    print(f"SIGKILL during saves: {args.kills} runs ({killed} killed, {finished} finished); old version kept {old_kept}, "
          f"new version {new_made}, unreadable/mixed {mixed}, names not matching their file {name_mismatch}, "
          f"temporary files after the next save {len(left)}")

    # 3. A file-size limit.
    target = work + "/limit.json"
    shutil.copy(source, target)
    before = digest(target)
    out = subprocess.run(["/bin/sh", "-c", 'ulimit -f 64 && exec "$0" -q "$1" -c "move r1 1 0" -c save', args.wb, target],
                         capture_output=True, text=True)
    ok = out.returncode == 1 and "file-size limit" in out.stderr and digest(target) == before and not leftovers(work)
    if not ok:
        problems.append(f"file-size limit: exit {out.returncode}, {out.stderr.strip()}, left {leftovers(work)}")
    print(f"file-size limit: {'reported, file whole, nothing left' if ok else 'FAILED'}")
finally:
    shutil.rmtree(work, ignore_errors=True)

for problem in problems:
    print("PROBLEM:", problem)
sys.exit(1 if problems else 0)
