"""Automatic alignment measured on a real home: rooms of ONE scan session, all in that
session's frame (an iOS 17 multi-room export, or the rooms a RoomPlan structure nests), so
where each room belongs is known. Each run keeps one room where it is (the first room, a
different one each run) and moves every other room into a frame of its own, as a separate
session would have written it (turned at random about its own middle, a metre or less from
the origin, where that session began); `wb align --all auto` then puts them back, and each
room is scored against its place in the folder:

  right   within 5 cm and 1 degree
  across  within 30 cm and 2 degrees (on the right wall, a wall's thickness or so across it)
  wrong   placed further off, said as certain
  kept    left where it was and said to be in place (wrong: its frame is a random one)
  left    not placed, and said so

    python3 Scripts/bench_real_align.py WB FOLDER [RUNS]

FOLDER holds the room files (*.json, CapturedRoom) or one CapturedStructure whose nested
rooms are used. Nothing in FOLDER is changed: the runs work on copies in a scratch folder.
The same FOLDER and RUNS give the same frames on every machine.
"""
import glob
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

wb, folder = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10


def matmul(a, b):
    """4x4 matrices as row-major lists of lists."""
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def from_column_major(values):
    return [[values[c * 4 + r] for c in range(4)] for r in range(4)]


def to_column_major(m):
    return [m[r][c] for c in range(4) for r in range(4)]


def yaw_about(yaw, cx, cz, tx, tz):
    """Turn by `yaw` about the vertical through (cx, cz), then move by (tx, tz)."""
    c, s = math.cos(yaw), math.sin(yaw)
    turn = [[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]]
    to_origin = [[1, 0, 0, -cx], [0, 1, 0, 0], [0, 0, 1, -cz], [0, 0, 0, 1]]
    shift = [[1, 0, 0, tx], [0, 1, 0, 0], [0, 0, 1, tz], [0, 0, 0, 1]]
    return matmul(shift, matmul(turn, to_origin))


def moved(room, m):
    for key in ("walls", "doors", "windows", "openings", "objects", "floors"):
        for element in room.get(key) or []:
            element["transform"] = to_column_major(matmul(m, from_column_major(element["transform"])))
    for section in room.get("sections") or []:
        x, y, z = section["center"]
        section["center"] = [m[r][0] * x + m[r][1] * y + m[r][2] * z + m[r][3] for r in range(3)]
    # A session record (iOS 26) would put the room back by itself: a separate session has its own.
    room.pop("referenceOriginTransform", None)
    return room


def reference(room):
    """Where a room lies: its first wall's transform (row-major)."""
    return from_column_major(room["walls"][0]["transform"])


def offset(now, then):
    metres = math.hypot(now[0][3] - then[0][3], now[2][3] - then[2][3])
    turn = math.degrees(math.atan2(now[0][2], now[0][0]) - math.atan2(then[0][2], then[0][0]))
    turn = abs((turn + 180) % 360 - 180)
    return metres, turn


rooms = []
for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
    if path.endswith(".wb.json"):
        continue
    document = json.load(open(path))
    if "rooms" in document:
        rooms += [(f"{os.path.basename(path)[:-5]}-{i + 1}", r) for i, r in enumerate(document["rooms"]) if r.get("walls")]
    elif document.get("walls"):
        rooms.append((os.path.basename(path)[:-5], document))
if len(rooms) < 2:
    sys.exit(f"{folder}: fewer than two rooms with walls")

totals = {"right": 0, "across": 0, "wrong": 0, "kept": 0, "left": 0}
scratch = tempfile.mkdtemp()
try:
    for run in range(runs):
        rng = random.Random(run)
        first = run % len(rooms)
        order = [first] + [i for i in range(len(rooms)) if i != first]
        work = os.path.join(scratch, f"run{run}")
        os.makedirs(work)
        paths, truth = [], []
        for rank, index in enumerate(order):
            name, room = rooms[index]
            room = json.loads(json.dumps(room))
            truth.append(reference(room))
            if rank > 0:
                walls = [w["transform"] for w in room["walls"]]
                cx = sum(t[12] for t in walls) / len(walls)
                cz = sum(t[14] for t in walls) / len(walls)
                room = moved(room, yaw_about(rng.uniform(-math.pi, math.pi), cx, cz, rng.uniform(-1, 1), rng.uniform(-1, 1)))
            path = os.path.join(work, f"r{rank + 1:02d}-{name}.json")
            json.dump(room, open(path, "w"))
            paths.append(path)
        before = [reference(json.load(open(p))) for p in paths]
        done = subprocess.run([wb, "--no-pager"] + paths + ["-c", "align --all auto", "-c", "save"],
                              capture_output=True, text=True)
        if done.returncode not in (0, 1):
            sys.exit(f"wb exited {done.returncode}: {done.stderr[-800:]}")
        kept_said = set()
        for line in done.stderr.splitlines():
            if "already meet" in line:
                kept_said |= {int(h[1:]) for h in line.split(" already")[0].replace(",", " ").split() if h[1:].isdigit()}
        letters = ""
        for rank in range(1, len(paths)):
            now = reference(json.load(open(paths[rank])))
            metres, turn = offset(now, truth[rank])
            if metres < 0.05 and turn < 1:
                kind = "right"
            elif metres < 0.3 and turn < 2:
                kind = "across"
            elif offset(now, before[rank]) == (0.0, 0.0):
                kind = "kept" if rank + 1 in kept_said else "left"
            else:
                kind = "wrong"
            totals[kind] += 1
            letters += kind[0]
        print(f"run {run + 1:2d} (first room {rooms[first][0]}): {letters}", flush=True)
finally:
    shutil.rmtree(scratch, ignore_errors=True)
count = sum(totals.values())
print("rooms: " + ", ".join(f"{k} {100 * v / count:.1f} %" for k, v in totals.items()) + f" (of {count})")
