#!/usr/bin/env python3
"""Checks a floor plan that `wb export svg` wrote against the RoomPlan JSON it came from.

usage: svg_check.py PLAN.svg SOURCE.json [--objects] [--out DIR]

Independently of wb's code, from the JSON alone (transforms, dimensions, polygonCorners):
  * the SVG parses as XML and keeps to SVG 1.1: the elements and attributes used are SVG 1.1's,
    foreign markup only inside <metadata>, ids unique, path data well formed, page size in mm
    with a matching viewBox;
  * one wall path per wall of each story drawn, one door group (with an arc) per door, one
    window group per window, one opening per opening (and one object outline per object with
    --objects); one room label per room whose area text is the room's floor area (shoelace
    of its floor polygons, or its walls' hull without floors) to 0.1 m², each label inside a
    room's floor;
  * rendered by librsvg (rsvg-convert) and by Chromium's Blink (chromium-headless-shell) at
    96 dpi: both pictures have the page's proportions, differ in few pixels, each wall is
    dark where it is not cut by a door or window, and each room is floor-coloured away from
    its walls and texts.
Prints one JSON object: {"errors": [...], "stats": {...}}. Exit status 0 unless it could not run.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
WB = "{urn:x-wb:floor-plan}"
DPI = 96.0
FLOOR_RGB = (0xF4, 0xF1, 0xEA)

# SVG 1.1 elements and (presentation or core) attributes this checker accepts.
ELEMENTS = {"svg", "g", "defs", "title", "desc", "metadata", "path", "rect", "circle", "ellipse", "line",
            "polyline", "polygon", "text", "tspan", "use", "style"}
ATTRIBUTES = {"id", "class", "style", "transform", "x", "y", "width", "height", "viewBox", "version", "d", "cx", "cy", "r",
              "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linejoin", "stroke-linecap",
              "stroke-dasharray", "stroke-opacity", "opacity", "font-family", "font-size", "font-weight", "font-style",
              "text-anchor", "points", "x1", "y1", "x2", "y2", "preserveAspectRatio"}
PATH_TOKEN = re.compile(r"\s*([MLHVCSQTAZmlhvcsqtaz]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*")


def surface_plan(s):
    t = s["transform"]
    w = s["dimensions"][0]
    cx, cz = t[12], t[14]
    ux, uz = t[0], t[2]
    n = math.hypot(ux, uz) or 1.0
    ux, uz = ux / n, uz / n
    return (cx - ux * w / 2, cz - uz * w / 2), (cx + ux * w / 2, cz + uz * w / 2)


def floor_polygon(f):
    t = f["transform"]
    pts = []
    for x, y, z in f.get("polygonCorners") or []:
        pts.append((t[0] * x + t[4] * y + t[8] * z + t[12], t[2] * x + t[6] * y + t[10] * z + t[14]))
    return pts


def area(poly):
    return abs(sum(poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1]
                   for i in range(len(poly)))) / 2


def hull(points):
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def inside(poly, p):
    x, z = p
    result = False
    j = len(poly) - 1
    for i in range(len(poly)):
        (xi, zi), (xj, zj) = poly[i], poly[j]
        if (zi > z) != (zj > z) and x < xi + (z - zi) / (zj - zi) * (xj - xi):
            result = not result
        j = i
    return result


def segment_distance(p, a, b):
    dx, dz = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dz * dz
    t = 0 if length2 == 0 else max(0, min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dz) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dz)


def free_spans(wall, inserts, margin, end, shortest):
    """The stretches (metres along the wall) no door, window or opening in it covers."""
    a, b = wall
    length = math.dist(a, b)
    ux, uz = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    taken = []
    for (p, q) in inserts:
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        if abs((mid[0] - a[0]) * uz - (mid[1] - a[1]) * ux) > 0.4 or abs((q[0] - p[0]) * ux + (q[1] - p[1]) * uz) < 0.9 * math.dist(p, q):
            continue
        t0 = (p[0] - a[0]) * ux + (p[1] - a[1]) * uz
        t1 = (q[0] - a[0]) * ux + (q[1] - a[1]) * uz
        taken.append((min(t0, t1) - margin, max(t0, t1) + margin))
    free, cursor = [], end
    for lo, hi in sorted([(max(lo, 0), min(hi, length)) for lo, hi in taken if hi > 0 and lo < length] + [(length - end, length)]):
        if lo > cursor:
            free.append((cursor, lo))
        cursor = max(cursor, hi)
    return [f for f in free if f[1] - f[0] >= shortest]


def story_of(element, default):
    s = element.get("story")
    return default if s is None else s


def load_source(path):
    """Per story: walls, doors, windows, openings, objects, and rooms (floor polygons, area)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    stories = {}

    def story(n):
        return stories.setdefault(n, {"walls": [], "doors": [], "windows": [], "openings": [], "objects": [], "rooms": []})
    if "rooms" in doc:
        top, rooms = doc, doc["rooms"]
    else:
        top, rooms = doc, [doc]
    for room in rooms:
        n = room.get("story") or 0
        polys = [p for p in (floor_polygon(f) for f in room.get("floors") or []) if len(p) >= 3]
        if polys:
            a = sum(area(p) for p in polys)
        else:
            h = hull([e for w in room.get("walls", []) for e in surface_plan(w)])
            polys = [h] if len(h) >= 3 else []
            a = area(h) if len(h) >= 3 else 0.0
        story(n)["rooms"].append({"polygons": polys, "area": a})
    default = rooms[0].get("story") or 0 if rooms else 0
    for key in ["walls", "doors", "windows", "openings", "objects"]:
        for element in top.get(key) or []:
            story(story_of(element, default))[key].append(element)
    return stories


def luminance(rgb):
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def render(svg_path, width_px, height_px, out_dir):
    """Both renderers' pictures (PIL images), or raises with the reason."""
    from PIL import Image
    rsvg_png = os.path.join(out_dir, "rsvg.png")
    subprocess.run(["rsvg-convert", "--dpi-x", "96", "--dpi-y", "96", "-w", str(width_px), "-h", str(height_px), "-b", "white",
                    "-o", rsvg_png, svg_path],
                   check=True, capture_output=True, timeout=120)
    chrome = shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/lib/chromium/chromium-headless-shell"
    chrome_png = os.path.join(out_dir, "chrome.png")
    profile = tempfile.mkdtemp(prefix="svgcheck-chrome-")
    try:
        subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                        "--user-data-dir=" + profile, "--window-size=%d,%d" % (width_px, height_px),
                        "--screenshot=" + chrome_png, "file://" + os.path.abspath(svg_path)],
                       check=True, capture_output=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return Image.open(rsvg_png).convert("RGB"), Image.open(chrome_png).convert("RGB")


def main():
    args = sys.argv[1:]
    objects = "--objects" in args
    out_dir = None
    if "--out" in args:
        out_dir = args[args.index("--out") + 1]
        del args[args.index("--out"):args.index("--out") + 2]
    args = [a for a in args if not a.startswith("--")]
    svg_path, source_path = args
    errors, stats = [], {}

    try:
        tree = ET.parse(svg_path)
    except ET.ParseError as e:
        print(json.dumps({"errors": ["not XML: %s" % e], "stats": {}}))
        return
    root = tree.getroot()

    # --- SVG 1.1 structure ---
    if root.tag != SVG + "svg":
        errors.append("root is %s, not svg in the SVG namespace" % root.tag)
    if root.get("version") != "1.1":
        errors.append("version is %r, not 1.1" % root.get("version"))
    width_mm = float(root.get("width", "0mm").removesuffix("mm"))
    height_mm = float(root.get("height", "0mm").removesuffix("mm"))
    if root.get("viewBox") != "0 0 %s %s" % (root.get("width")[:-2], root.get("height")[:-2]):
        errors.append("viewBox %r does not match the page size" % root.get("viewBox"))
    ids = set()
    metadata_children = set()
    for meta in root.iter(SVG + "metadata"):
        metadata_children.update(id(e) for e in meta.iter() if e is not meta)
    for element in root.iter():
        if id(element) in metadata_children:
            continue
        if not element.tag.startswith(SVG) or element.tag[len(SVG):] not in ELEMENTS:
            errors.append("element %s is not SVG 1.1 (outside metadata)" % element.tag)
            continue
        for name, value in element.attrib.items():
            if name not in ATTRIBUTES:
                errors.append("attribute %s on %s is not one this checker knows from SVG 1.1" % (name, element.tag))
        if "id" in element.attrib:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-]*", element.get("id")):
                errors.append("id %r is not an XML name" % element.get("id"))
            if element.get("id") in ids:
                errors.append("id %r is used twice" % element.get("id"))
            ids.add(element.get("id"))
        if "d" in element.attrib:
            d = element.get("d")
            position, tokens = 0, []
            while position < len(d):
                m = PATH_TOKEN.match(d, position)
                if not m:
                    errors.append("path data not well formed near %r" % d[position:position + 20])
                    break
                tokens.append(m.group(1))
                position = m.end()
            if tokens and tokens[0] not in "Mm":
                errors.append("path data does not start with M")

    # Where each story is on the page.
    placements = {}
    for s in root.iter(WB + "story"):
        placements[int(s.get("number"))] = (float(s.get("mm-per-metre")), float(s.get("x-offset")), float(s.get("z-offset")))
    if not placements:
        errors.append("no wb:story placement in <metadata>")

    def classed(tag, cls):
        return [e for e in root.iter(SVG + tag) if cls in (e.get("class") or "").split()]

    story_groups = {}
    for g in classed("g", "story"):
        number = int(g.get("id").removeprefix("story-").replace("minus", "-"))
        story_groups[number] = g

    source = load_source(source_path)
    drawn = sorted(story_groups)
    stats["stories"] = drawn
    for number in drawn:
        if number not in source:
            errors.append("story %d is drawn but the JSON has nothing on it" % number)
    for number in drawn:
        if number not in source:
            continue
        src, g = source[number], story_groups[number]

        def within(tag, cls):
            return [e for e in g.iter(SVG + tag) if cls in (e.get("class") or "").split()]
        walls_drawn = within("path", "wall")
        nonzero = [w for w in src["walls"] if w["dimensions"][0] > 1e-3]
        # A wall wholly taken up by doors, windows and openings has no piece left to draw.
        inserts = [surface_plan(s) for key in ["doors", "windows", "openings"] for s in src[key]]
        covered = sum(1 for w in nonzero if not free_spans(surface_plan(w), inserts, margin=0.0, end=0.0, shortest=0.01))
        if not len(nonzero) - covered <= len(walls_drawn) <= len(nonzero):
            errors.append("story %d: %d wall paths for %d walls (%d wholly cut away)" % (number, len(walls_drawn), len(nonzero), covered))
        doors = within("g", "door")
        if len(doors) != len(src["doors"]):
            errors.append("story %d: %d doors drawn, %d in the JSON" % (number, len(doors), len(src["doors"])))
        arcs = sum(1 for door in doors for p in door.iter(SVG + "path") if "A" in (p.get("d") or ""))
        if arcs != len(src["doors"]):
            errors.append("story %d: %d door swing arcs for %d doors" % (number, arcs, len(src["doors"])))
        if len(within("g", "window")) != len(src["windows"]):
            errors.append("story %d: %d windows drawn, %d in the JSON" % (number, len(within("g", "window")), len(src["windows"])))
        if len(within("path", "opening")) != len(src["openings"]):
            errors.append("story %d: %d openings drawn, %d in the JSON" % (number, len(within("path", "opening")), len(src["openings"])))
        if objects and len(within("path", "object")) != len(src["objects"]):
            errors.append("story %d: %d objects drawn, %d in the JSON" % (number, len(within("path", "object")), len(src["objects"])))

        k, xo, zo = placements.get(number, (1, 0, 0))

        def world(x_mm, y_mm):
            return ((x_mm - xo) / k, (y_mm - zo) / k)

        # Room labels: one per room with an outline, each area within 0.1 m², inside a floor.
        labels = within("g", "room-label")
        rooms = [r for r in src["rooms"] if r["polygons"]]
        if len(labels) != len(rooms):
            errors.append("story %d: %d room labels for %d rooms" % (number, len(labels), len(rooms)))
        unmatched = [r["area"] for r in rooms]
        label_points = []
        for label in labels:
            texts = {t.get("class"): t for t in label.iter(SVG + "text")}
            area_text = texts.get("area").text if texts.get("area") is not None else ""
            m = re.fullmatch(r"(\d+(?:\.\d+)?) m²", area_text or "")
            if not m:
                errors.append("story %d: label %s has no area text (%r)" % (number, label.get("id"), area_text))
                continue
            value = float(m.group(1))
            best = min(unmatched, key=lambda a: abs(a - value), default=None)
            if best is None or abs(best - value) > 0.051:
                errors.append("story %d: label %s says %s m², no room of the JSON has that floor area (%s)"
                              % (number, label.get("id"), m.group(1), ", ".join("%.3f" % a for a in unmatched)))
            else:
                unmatched.remove(best)
            name = texts.get("name")
            stats.setdefault("names", []).append(" ".join(t.text or "" for t in label.iter(SVG + "text") if t.get("class") == "name"))
            point = world(float(name.get("x")), float(name.get("y")))
            label_points.append(point)
            if not any(inside(p, point) for r in rooms for p in r["polygons"]):
                errors.append("story %d: label %s (%.2f, %.2f) lies outside every room" % (number, label.get("id"), *point))
        stats.setdefault("labels", 0)
        stats["labels"] += len(labels)
        text_points = [world(float(t.get("x")), float(t.get("y"))) for t in g.iter(SVG + "text")]

        stats.setdefault("walls", 0)
        stats["walls"] += len(walls_drawn)
        stats.setdefault("doors", 0)
        stats["doors"] += len(doors)
        src["text_points"] = text_points
        src["placement"] = (k, xo, zo)

    # --- Rendering ---
    scale = DPI / 25.4
    width_px, height_px = round(width_mm * scale), round(height_mm * scale)
    work = out_dir or tempfile.mkdtemp(prefix="svgcheck-")
    os.makedirs(work, exist_ok=True)
    try:
        rsvg, chrome = render(svg_path, width_px, height_px, work)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        errors.append("rendering failed: %s %s" % (e, getattr(e, "stderr", b"")[-400:]))
        print(json.dumps({"errors": errors, "stats": stats}))
        return
    for name, image in [("rsvg", rsvg), ("chrome", chrome)]:
        if abs(image.size[0] - width_px) > 1 or abs(image.size[1] - height_px) > 1:
            errors.append("%s picture is %dx%d px, the page is %dx%d px" % (name, *image.size, width_px, height_px))
    stats["pixels"] = [width_px, height_px]
    stats["sizes"] = [list(rsvg.size), list(chrome.size)]
    if rsvg.size == chrome.size:
        a, b = rsvg.tobytes(), chrome.tobytes()
        different, total = 0, 0
        for i in range(0, len(a), 3):
            delta = max(abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2]))
            total += delta
            if delta > 64:
                different += 1
        count = len(a) // 3
        stats["differentPixels"] = different / count
        stats["meanDifference"] = total / count
        if different / count > 0.005:
            errors.append("rsvg and Chromium differ in %.2f%% of pixels (over 0.5%%)" % (100 * different / count))

    def pixel(image, point, placement):
        k, xo, zo = placement
        x, y = (point[0] * k + xo) * scale, (point[1] * k + zo) * scale
        xi, yi = int(x), int(y)
        if not (0 <= xi < image.size[0] and 0 <= yi < image.size[1]):
            return None
        return image.getpixel((xi, yi))

    checked_walls = checked_rooms = 0
    for number in drawn:
        if number not in source:
            continue
        src = source[number]
        placement = src["placement"]
        inserts = [surface_plan(s) for key in ["doors", "windows", "openings"] for s in src[key]]
        segments = [surface_plan(w) for w in src["walls"] if w["dimensions"][0] > 1e-3]
        for (a, b) in segments:
            free = free_spans((a, b), inserts, margin=0.08, end=0.05, shortest=0.1)
            if not free:
                continue
            length = math.dist(a, b)
            ux, uz = (b[0] - a[0]) / length, (b[1] - a[1]) / length
            lo, hi = max(free, key=lambda f: f[1] - f[0])
            t = (lo + hi) / 2
            centre = (a[0] + ux * t, a[1] + uz * t)
            for name, image in [("rsvg", rsvg), ("chrome", chrome)]:
                samples = [pixel(image, (centre[0] - uz * o, centre[1] + ux * o), placement) for o in (-0.03, 0.03)]
                samples = [s for s in samples if s is not None]
                if not samples or min(luminance(s) for s in samples) > 110:
                    errors.append("story %d: %s shows no wall at (%.2f, %.2f) on the wall from (%.2f, %.2f) to (%.2f, %.2f)"
                                  % (number, name, *centre, *a, *b))
            checked_walls += 1
        doors = [surface_plan(d) for d in src["doors"]]
        for room in src["rooms"]:
            polys = room["polygons"]
            if not polys:
                continue
            xs = [p[0] for poly in polys for p in poly]
            zs = [p[1] for poly in polys for p in poly]
            found = None
            steps = 24
            for i in range(1, steps):
                for j in range(1, steps):
                    p = (min(xs) + (max(xs) - min(xs)) * i / steps, min(zs) + (max(zs) - min(zs)) * j / steps)
                    if not any(inside(poly, p) for poly in polys):
                        continue
                    if any(segment_distance(p, a, b) < 0.4 for a, b in segments):
                        continue
                    if any(math.dist(p, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)) < math.dist(a, b) * 1.3 + 0.1 for a, b in doors):
                        continue
                    if any(math.dist(p, t) < 1.3 for t in src["text_points"]):
                        continue
                    found = p
                    break
                if found:
                    break
            if not found:
                continue
            for name, image in [("rsvg", rsvg), ("chrome", chrome)]:
                rgb = pixel(image, found, placement)
                if rgb is None or max(abs(rgb[c] - FLOOR_RGB[c]) for c in range(3)) > 12:
                    errors.append("story %d: %s shows %s, not the floor, inside a room at (%.2f, %.2f)" % (number, name, rgb, *found))
            checked_rooms += 1
    stats["wallsSampled"] = checked_walls
    stats["roomsSampled"] = checked_rooms
    print(json.dumps({"errors": errors, "stats": stats}))


if __name__ == "__main__":
    main()
