"""The best placement the captures allow: a yardstick for `align --all auto`.

For one home wbgen wrote (FOLDER, with its ground truth) and the same home written exactly
(EXACT: the same seed and size at --noise 0), the rooms are placed by one weighted least
squares over every pair of capture elements the ground truth says are one: the two copies of
a shared wall (across it and in heading), a doorway seen from both sides (along its wall), and
walls of two rooms on one line (a facade along rooms). Nothing is searched: the pairing is the
truth's, so what is left is how far the captures' own noise lets any placement come.

Two bounds:
  fair      what a placement could know from the captures: each capture's habit (walls on
            their faces or on centre lines) is given, but not the walls' thicknesses (one
            unknown per wall line, about 14 +- 3.5 cm between rooms, 30 +- 6 cm outside) nor
            where near its centre line a capture put a wall. Rooms whose walls are square to
            the first room's take their heading from their walls, as wb does.
  knowing   every thickness and every offset known exactly, and where shared walls end too:
            more than any capture carries (an upper bound on the upper bound).

Each room (not the first) reached from the first by a chain of doorways is scored as
Scripts/bench_align.py scores wb: the middle of its walls within 5 cm, its heading within 1
degree. Pure Python (a home is at most a few dozen unknowns).

    python3 Scripts/align_bound.py FOLDER EXACT [fair|knowing] [NOISE]
"""

import json
import math
import os
import sys

# One copy's error at the phone's noise (wbgen's ScanNoise, uniform ranges as standard
# deviations): across a wall 2 cm -> 1.15 cm, heading 0.5 degree -> 0.29, a doorway's middle
# along its wall 1 cm and its wall's 1.5 cm -> 1.04 cm, a wall's middle along 1.5 cm -> 0.87.
ACROSS, HEADING, ALONG, WALL_ALONG = 0.0115, math.radians(0.29), 0.0104, 0.0087
# Where near its centre line a capture put a wall it shares: 0 to 1.5 cm (0.43 cm spread), not
# known to the fair bound.
CENTRE = 0.0043
INTERIOR, INTERIOR_SPREAD = 0.14, 0.0346
EXTERIOR, EXTERIOR_SPREAD = 0.30, 0.0577
SQUARE_TOLERANCE = math.radians(2)


def plan(transform):
    """(direction, middle) in plan of a column-major 4x4."""
    return (transform[0], transform[2]), (transform[12], transform[14])


def rotation(transform):
    """The plan rotation of a capture's placement as (cos, sin) of the angle used by `turn`."""
    return math.atan2(-transform[2], transform[0])


def turn(angle, v):
    c, s = math.cos(angle), math.sin(angle)
    return (c * v[0] + s * v[1], -s * v[0] + c * v[1])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


def normal(d):
    return (-d[1], d[0])


def wrap(angle):
    return (angle + math.pi) % (2 * math.pi) - math.pi


def heading(d):
    return math.atan2(d[1], d[0])


def off_square(angle, axis):
    return wrap(4 * (angle - axis)) / 4


def solve(matrix, vector):
    """Least squares min |A x - b| by the normal equations (A small and well posed)."""
    n = len(matrix[0]) if matrix else 0
    ata = [[0.0] * n for _ in range(n)]
    atb = [0.0] * n
    for row, value in zip(matrix, vector):
        nonzero = [(k, a) for k, a in enumerate(row) if a != 0]
        for k, a in nonzero:
            atb[k] += a * value
            for m, b in nonzero:
                ata[k][m] += a * b
    for k in range(n):
        ata[k][k] += 1e-9
    # Gaussian elimination with partial pivoting.
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(ata[r][col]))
        ata[col], ata[pivot] = ata[pivot], ata[col]
        atb[col], atb[pivot] = atb[pivot], atb[col]
        p = ata[col][col]
        if abs(p) < 1e-15:
            continue
        for r in range(col + 1, n):
            f = ata[r][col] / p
            if f:
                row_r, row_c = ata[r], ata[col]
                for m in range(col, n):
                    row_r[m] -= f * row_c[m]
                atb[r] -= f * atb[col]
    x = [0.0] * n
    for col in reversed(range(n)):
        p = ata[col][col]
        if abs(p) < 1e-15:
            continue
        x[col] = (atb[col] - sum(ata[col][m] * x[m] for m in range(col + 1, n))) / p
    return x


def reached_by_doorways(truth):
    """The capture files a chain of doorways (doors and openings with sources in two files)
    joins to the first capture's, the first's included."""
    files = [c["file"] for c in truth["captures"]]
    part = {f: f for f in files}

    def find(name):
        while part[name] != name:
            name = part[name]
        return name
    for key in ("doors", "openings"):
        for element in truth["structure"][key]:
            members = [s["file"] for s in element["sources"]]
            for other in members[1:]:
                part[find(other)] = find(members[0])
    return {f for f in files if find(f) == find(files[0])}


def load(folder, captures="rooms"):
    truth = json.load(open(os.path.join(folder, "ground-truth.json")))
    rooms = {}
    for capture in truth["captures"]:
        room = json.load(open(os.path.join(folder, captures, capture["file"])))
        elements = {}
        for key in ("walls", "doors", "openings"):
            for element in room.get(key, []):
                d, m = plan(element["transform"])
                elements[element["identifier"]] = (key, d, m, element["dimensions"][0])
        rooms[capture["file"]] = elements
    return truth, rooms


def bound(folder, exact, mode="fair", noise=1.0, captures="rooms"):
    """[(file, metres off, degrees off)] for the rooms a doorway chain joins to the first.
    `captures`: the folder in FOLDER that holds the room files as captured."""
    knowing = mode == "knowing"
    truth, noisy = load(folder, captures)
    _, clean = load(exact)
    structure = json.load(open(os.path.join(exact, "structure.json")))
    captures = truth["captures"]
    files = [c["file"] for c in captures]
    index = {f: i for i, f in enumerate(files)}
    # True poses in the first capture's frame: angle and translation with world = turn(p) + t.
    anchor = captures[0]["transform"]
    a0 = rotation(anchor)
    t0 = (anchor[12], anchor[14])
    poses = []
    for capture in captures:
        t = capture["transform"]
        angle = rotation(t) - a0
        poses.append([angle, *turn(-a0, sub((t[12], t[14]), t0))])

    def world(pose, element, square=None):
        _, d, m, _ = element
        dw = turn(pose[0], d)
        if square is not None:
            off = off_square(heading(dw), square)
            if abs(off) <= SQUARE_TOLERANCE:
                a = heading(dw) - off
                dw = (math.cos(a), math.sin(a))
        mw = turn(pose[0], m)
        return dw, (mw[0] + pose[1], mw[1] + pose[2])

    # Wall lines (for thicknesses): from the exact structure's walls, at their centre lines.
    line_of = {}
    lines = {}
    centre_lines = {}
    for wall in structure["walls"]:
        d, m = plan(wall["transform"])
        centre_lines[wall["identifier"]] = (d, m, wall["dimensions"][2])
    for wall in truth["structure"]["walls"]:
        if wall["identifier"] not in centre_lines:
            continue
        d, m, thickness = centre_lines[wall["identifier"]]
        if wall.get("exterior"):
            key = "outside"
        else:
            a = heading(d) % math.pi
            if a > math.pi - 1e-3:
                a -= math.pi
            key = (round(a, 3), round(dot(normal((math.cos(a), math.sin(a))), m), 2))
        lines[key] = (thickness, key == "outside")
        for source in wall["sources"]:
            line_of[(source["file"], source["identifier"])] = (key, wall["identifier"])
    line_keys = sorted(lines, key=str)
    line_column = {k: n for n, k in enumerate(line_keys)}

    # Pairs: copies the truth says are one, in two captures.
    pairs = []
    for key in ("walls", "doors", "openings"):
        for element in truth["structure"][key]:
            sources = [(s["file"], s["identifier"]) for s in element["sources"]]
            for a in range(len(sources)):
                for b in range(a + 1, len(sources)):
                    (fa, ia), (fb, ib) = sources[a], sources[b]
                    if fa == fb or ia not in noisy[fa] or ib not in noisy[fb]:
                        continue
                    # A part of a split wall: its exact copy is its file's first source.
                    ea = ia if ia in clean[fa] else next((s for f, s in sources if f == fa and s in clean[fa]), None)
                    eb = ib if ib in clean[fb] else next((s for f, s in sources if f == fb and s in clean[fb]), None)
                    if ea and eb:
                        pairs.append((key, index[fa], ia, ea, index[fb], ib, eb))
    # Walls of two captures on one line (a facade along rooms, a hallway's side), exactly.
    known = {(p[1], p[3], p[4], p[6]) for p in pairs} | {(p[4], p[6], p[1], p[3]) for p in pairs}
    exact_walls = []
    for i, f in enumerate(files):
        for identifier, element in clean[f].items():
            if element[0] == "walls" and identifier in noisy[f]:
                d, m = world(poses[i], element)
                exact_walls.append((i, identifier, d, m, element[3]))
    for x in range(len(exact_walls)):
        i, ia, da, ma, la = exact_walls[x]
        for y in range(x + 1, len(exact_walls)):
            j, ib, db, mb, lb = exact_walls[y]
            if i == j or (i, ia, j, ib) in known:
                continue
            if abs(da[0] * db[1] - da[1] * db[0]) > 1e-3 or abs(dot(normal(da), sub(mb, ma))) > 0.45:
                continue
            if abs(dot(da, sub(mb, ma))) > la / 2 + lb / 2 + 0.3:
                continue
            pairs.append(("walls", i, ia, ia, j, ib, ib))

    # How each copy moves with its line's thickness: 0 on the centre line, half of it on a face.
    def thickness_factor(i, identifier, across):
        owner = line_of.get((files[i], identifier))
        if owner is None:
            return None
        key, wall = owner
        d, m, thickness = centre_lines[wall]
        dw, mw = world(poses[i], clean[files[i]][identifier])
        # Back in the absolute frame of the structure: the exact copy's middle.
        a = captures[i]["transform"]
        absolute = turn(rotation(a), clean[files[i]][identifier][2])
        absolute = (absolute[0] + a[12], absolute[1] + a[14])
        n = normal(d)
        offset = dot(n, sub(absolute, m))
        face = abs(offset) >= thickness / 4
        n_anchor = turn(-a0, n)
        return key, (math.copysign(0.5, offset) if face else 0.0) * dot(across, n_anchor), 0.0 if face else offset * dot(across, n_anchor)

    expected = []
    for key, i, ia, ea, j, ib, eb in pairs:
        da, ma = world(poses[i], clean[files[i]][ea])
        db, mb = world(poses[j], clean[files[j]][eb])
        across = normal(da)
        gap = dot(across, sub(mb, ma))
        along = dot(da, sub(mb, ma))
        angle = wrap(heading(db) - heading(da))
        angle = 0.0 if abs(angle) < math.pi / 2 else math.pi
        factors = None
        if key == "walls" and not knowing:
            fa = thickness_factor(i, ea, across)
            fb = thickness_factor(j, eb, across)
            if fa and fb:
                factors = (fa, fb)
        whole = (key == "walls" and abs(noisy[files[i]][ia][3] - clean[files[i]][ea][3]) < 0.04
                 and abs(noisy[files[j]][ib][3] - clean[files[j]][eb][3]) < 0.04)
        expected.append((gap, along, angle, factors, whole))

    # The home's square directions (an unknown, about the first room's walls as captured):
    # walls within 2 degrees of them are taken as square, as wb does.
    exact_axis = heading(next(e for e in clean[files[0]].values() if e[0] == "walls")[1])
    square_walls = []
    for i, f in enumerate(files):
        for e in noisy[f].values():
            if e[0] == "walls" and abs(off_square(heading(turn(poses[i][0], e[1])), exact_axis)) <= SQUARE_TOLERANCE:
                square_walls.append((i, e))
    estimate = [list(p) for p in poses]
    estimate.append([exact_axis, 0.0, 0.0])
    home = len(estimate) - 1
    scale = max(noise, 0)
    across_sigma = math.hypot(ACROSS * math.sqrt(2) * scale, 0 if knowing else CENTRE * math.sqrt(2)) or 0.002
    heading_sigma = HEADING * math.sqrt(2) * scale or math.radians(0.05)
    single_heading_sigma = HEADING * scale or math.radians(0.05)
    along_sigma = ALONG * math.sqrt(2) * scale or 0.002
    wall_along_sigma = WALL_ALONG * math.sqrt(2) * scale or 0.002
    free = [i for i in range(1, len(files))]
    thickness = {k: (EXTERIOR if lines[k][1] else INTERIOR) for k in line_keys}

    def residuals(estimate, thickness):
        out = []
        axis = estimate[home][0]
        for i, element in square_walls:
            out.append(off_square(heading(turn(estimate[i][0], element[1])), axis) / single_heading_sigma)
        for (key, i, ia, _, j, ib, _), (gap, along, angle, factors, whole) in zip(pairs, expected):
            da, ma = world(estimate[i], noisy[files[i]][ia], axis)
            db, mb = world(estimate[j], noisy[files[j]][ib], axis)
            square = (abs(off_square(heading(turn(estimate[i][0], noisy[files[i]][ia][1])), axis)) <= SQUARE_TOLERANCE
                      and abs(off_square(heading(turn(estimate[j][0], noisy[files[j]][ib][1])), axis)) <= SQUARE_TOLERANCE)
            if key == "walls":
                target = gap
                if factors:
                    (ka, fa, ca), (kb, fb, cb) = factors
                    target += fb * (thickness[kb] - lines[kb][0]) - fa * (thickness[ka] - lines[ka][0]) - cb + ca
                out.append((dot(normal(da), sub(mb, ma)) - target) / across_sigma)
                if not square:
                    out.append(wrap(heading(db) - heading(da) - angle) / heading_sigma)
                if knowing and whole:
                    out.append((dot(da, sub(mb, ma)) - along) / wall_along_sigma)
            else:
                out.append((dot(da, sub(mb, ma)) - along) / along_sigma)
        if not knowing:
            for k in line_keys:
                mean, spread = (EXTERIOR, EXTERIOR_SPREAD) if lines[k][1] else (INTERIOR, INTERIOR_SPREAD)
                out.append((thickness[k] - mean) / spread)
        return out

    unknowns = [(i, k) for i in free for k in range(3)] + [(home, 0)]
    line_unknowns = [] if knowing else line_keys
    for _ in range(10):
        r = residuals(estimate, thickness)
        columns = []
        for i, k in unknowns:
            estimate[i][k] += 1e-7
            columns.append([(a - b) / 1e-7 for a, b in zip(residuals(estimate, thickness), r)])
            estimate[i][k] -= 1e-7
        for key in line_unknowns:
            thickness[key] += 1e-7
            columns.append([(a - b) / 1e-7 for a, b in zip(residuals(estimate, thickness), r)])
            thickness[key] -= 1e-7
        matrix = [list(row) for row in zip(*columns)] if columns else []
        step = solve(matrix, [-v for v in r])
        for (i, k), s in zip(unknowns, step):
            estimate[i][k] += s
        for key, s in zip(line_unknowns, step[len(unknowns):]):
            thickness[key] += s
        if max((abs(s) for s in step), default=0) < 1e-8:
            break

    joined = reached_by_doorways(truth)
    results = []
    for i in free:
        if files[i] not in joined:
            continue
        middles = [e[2] for e in noisy[files[i]].values() if e[0] == "walls"]
        middle = (sum(m[0] for m in middles) / len(middles), sum(m[1] for m in middles) / len(middles))
        placed = turn(estimate[i][0], middle)
        true = turn(poses[i][0], middle)
        metres = math.hypot(placed[0] + estimate[i][1] - true[0] - poses[i][1], placed[1] + estimate[i][2] - true[1] - poses[i][2])
        results.append((files[i], metres, abs(math.degrees(wrap(estimate[i][0] - poses[i][0])))))
    return results


if __name__ == "__main__":
    folder, exact = sys.argv[1:3]
    mode = sys.argv[3] if len(sys.argv) > 3 else "fair"
    noise = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
    for name, metres, degrees in bound(folder, exact, mode, noise):
        kind = "right" if metres <= 0.05 and degrees <= 1 else "off"
        print(f"{name}: {kind} {metres:.3f} m {degrees:.2f} deg")
