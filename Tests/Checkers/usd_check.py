#!/usr/bin/env python3
"""Checks a USD file wb exported against the RoomPlan JSON it came from, with Pixar's USD.

usage: usd_check.py FILE --json SOURCE.json [--json ...] [--wall-thickness T] [--parametric]
                    [--compliance-checker PATH [--compliance-only]]

Prints one JSON report on stdout. Expected boxes are computed here from the JSON alone
(transform columns and dimensions, floor polygon corners), never from wb's scene code:
walls take their depth, or T when RoomPlan gave none; doors, windows, openings and objects
their own box; floors their polygon. Every element must be one prim (found by the
identifier in its customData) whose world bounds (UsdGeom.BBoxCache) match within 1 mm.
"""
import argparse
import contextlib
import importlib.util
import json
import math
import sys

import numpy as np
from pxr import Gf, Sdf, Usd, UsdGeom, UsdValidation

KINDS = ["walls", "doors", "windows", "openings", "floors", "objects"]
TOLERANCE = 0.001


def elements(paths):
    """Every element of the files' own (top-level) arrays, by identifier."""
    result = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for kind in KINDS:
            for element in data.get(kind) or []:
                result[element["identifier"]] = (kind, element)
    return result


def columns(element):
    t = element["transform"]
    return [np.array(t[i * 4:i * 4 + 3], dtype=float) for i in range(4)]


def local_to_world(element, local):
    c0, c1, c2, c3 = columns(element)
    return np.array([c0 * p[0] + c1 * p[1] + c2 * p[2] + c3 for p in local])


def expected_box(kind, element, thickness):
    w, h, d = (float(v) for v in element["dimensions"])
    if kind == "floors":
        # BBoxCache bounds the local box of the points, moved into the world: the same here.
        corners = np.array(element.get("polygonCorners") or [(-w / 2, -h / 2, 0), (w / 2, h / 2, 0)], dtype=float)
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        local = [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    else:
        if kind == "walls" and d <= 0:
            d = thickness
        local = [(sx * w / 2, sy * h / 2, sz * d / 2) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    world = local_to_world(element, local)
    return world.min(axis=0), world.max(axis=0)


def world_triangles(prim, xform_cache):
    """A mesh's faces as world-space triangles (fans), with each face's index."""
    mesh = UsdGeom.Mesh(prim)
    points = np.array(mesh.GetPointsAttr().Get(), dtype=float)
    counts = list(mesh.GetFaceVertexCountsAttr().Get())
    indices = list(mesh.GetFaceVertexIndicesAttr().Get())
    m = np.array(xform_cache.GetLocalToWorldTransform(prim), dtype=float)
    world = points @ m[:3, :3] + m[3, :3]
    triangles, owners, faces = [], [], []
    start = 0
    for face, n in enumerate(counts):
        ring = indices[start:start + n]
        faces.append(world[ring])
        for k in range(1, n - 1):
            triangles.append((world[ring[0]], world[ring[k]], world[ring[k + 1]]))
            owners.append(face)
        start += n
    return np.array(triangles), np.array(owners), faces, m


def ray_hits(triangles, origin, direction):
    """Distances along the ray at which it crosses each triangle (Moller-Trumbore), or nan."""
    if len(triangles) == 0:
        return np.array([])
    v0, v1, v2 = triangles[:, 0], triangles[:, 1], triangles[:, 2]
    e1, e2 = v1 - v0, v2 - v0
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inv = 1.0 / det
        s = origin - v0
        u = np.einsum("ij,ij->i", s, p) * inv
        q = np.cross(s, e1)
        v = np.einsum("j,ij->i", direction, q) * inv
        t = np.einsum("ij,ij->i", e2, q) * inv
        ok = (np.abs(det) > 1e-12) & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
        return np.where(ok, t, np.nan)


def newell(points):
    n = np.zeros(3)
    for i in range(len(points)):
        a, b = points[i], points[(i + 1) % len(points)]
        n += np.array([(a[1] - b[1]) * (a[2] + b[2]), (a[2] - b[2]) * (a[0] + b[0]), (a[0] - b[0]) * (a[1] + b[1])])
    return n / (np.linalg.norm(n) or 1)


def compliance(args, report):
    spec = importlib.util.spec_from_file_location("wb_compliance_checker", args.compliance_checker)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for arkit in (False, True):
        checker = module.ComplianceChecker(arkit=arkit)
        with contextlib.redirect_stdout(sys.stderr):
            checker.CheckCompliance(args.file)
        report["compliance" + ("ARKit" if arkit else "")] = checker.GetErrors() + checker.GetFailedChecks()
    return report


def check(args):
    if args.compliance_only:
        return compliance(args, {})
    report = {"boundsErrors": [], "missing": [], "duplicates": [], "normalErrors": [], "solidErrors": [],
              "holeErrors": [], "validationErrors": [], "counts": {}, "expectedCounts": {}}
    expected = elements(args.json)
    # An iOS 16 file names no parent wall: the hole test takes them from the iOS 17 original.
    parents = {i: e.get("parentIdentifier") for i, (_, e) in elements(args.parents_from).items()} if args.parents_from else {}
    for kind, _ in expected.values():
        report["expectedCounts"][kind] = report["expectedCounts"].get(kind, 0) + 1

    stage = Usd.Stage.Open(args.file)
    report["defaultPrim"] = str(stage.GetDefaultPrim().GetPath()) if stage.GetDefaultPrim() else None
    report["upAxis"] = UsdGeom.GetStageUpAxis(stage)
    report["metersPerUnit"] = UsdGeom.GetStageMetersPerUnit(stage)

    purposes = [UsdGeom.Tokens.default_, UsdGeom.Tokens.render, UsdGeom.Tokens.proxy, UsdGeom.Tokens.guide]
    bbox = UsdGeom.BBoxCache(Usd.TimeCode.Default(), purposes, useExtentsHint=False)
    xforms = UsdGeom.XformCache()
    found = {}
    for prim in stage.Traverse():
        data = prim.GetCustomData()
        identifier = data.get("identifier")
        if identifier is None or "category" not in data:
            continue
        if identifier in found:
            report["duplicates"].append(identifier)
        found[identifier] = prim
    report["prims"] = len(found)

    checked = 0
    for identifier, (kind, element) in expected.items():
        prim = found.get(identifier)
        if prim is None:
            report["missing"].append(f"{kind} {identifier}")
            continue
        report["counts"][kind] = report["counts"].get(kind, 0) + 1
        box = bbox.ComputeWorldBound(prim).ComputeAlignedRange()
        low, high = np.array(box.GetMin()), np.array(box.GetMax())
        want_low, want_high = expected_box(kind, element, args.wall_thickness)
        error = max(np.abs(low - want_low).max(), np.abs(high - want_high).max())
        checked += 1
        if error > TOLERANCE:
            report["boundsErrors"].append(f"{prim.GetPath()}: off by {error * 1000:.2f} mm "
                                          f"(got {low.round(4).tolist()}..{high.round(4).tolist()}, "
                                          f"want {want_low.round(4).tolist()}..{want_high.round(4).tolist()})")
    report["boundsChecked"] = checked

    # Normals: each face's authored normal agrees with its winding (right-handed), and
    # points out of the solid: for a closed mesh, a ray leaving the face along its normal
    # crosses the mesh an even number of times; a floor faces up.
    normals_checked = solids_checked = 0
    meshes = {}
    for identifier, prim in found.items():
        if not prim.IsA(UsdGeom.Mesh):
            continue
        kind = expected.get(identifier, ("?", None))[0]
        mesh = UsdGeom.Mesh(prim)
        if mesh.GetOrientationAttr().Get() not in (None, UsdGeom.Tokens.rightHanded):
            report["normalErrors"].append(f"{prim.GetPath()}: orientation {mesh.GetOrientationAttr().Get()}")
        triangles, owners, faces, m = world_triangles(prim, xforms)
        meshes[identifier] = (triangles, faces)
        authored = np.array(mesh.GetNormalsAttr().Get(), dtype=float) @ m[:3, :3]
        if len(authored) != len(faces):
            report["normalErrors"].append(f"{prim.GetPath()}: {len(authored)} normals for {len(faces)} faces")
            continue
        closed = not mesh.GetDoubleSidedAttr().Get()
        for face, points in enumerate(faces):
            geometric = newell(points)
            normal = authored[face] / np.linalg.norm(authored[face])
            normals_checked += 1
            if np.dot(geometric, normal) < 0.999:
                report["normalErrors"].append(f"{prim.GetPath()} face {face}: normal disagrees with winding")
            if kind == "floors" and normal[1] < 0.999:
                report["normalErrors"].append(f"{prim.GetPath()} face {face}: a floor face not facing up")
            if closed:
                centre = points.mean(axis=0)
                direction = normal + np.array([0.0123, 0.0171, -0.0137])
                direction /= np.linalg.norm(direction)
                others = owners != face
                hits = ray_hits(triangles[others], centre + normal * 1e-5, direction)
                crossings = int(np.sum(~np.isnan(hits)))
                solids_checked += 1
                if crossings % 2:
                    report["solidErrors"].append(f"{prim.GetPath()} face {face}: normal points into the solid")
    report["normalsChecked"] = normals_checked
    report["solidFacesChecked"] = solids_checked

    # Holes: a ray through the middle of every door, window and opening, across its wall,
    # meets no face of that wall (with --parametric, it must meet it). A wall whose centre
    # is in none of its doors' rectangles is met there (the ray test itself works).
    holes = 0
    walls_hit = 0
    for identifier, (kind, element) in expected.items():
        if kind not in ("doors", "windows", "openings"):
            continue
        parent = parents.get(identifier) or element.get("parentIdentifier")
        if parent not in meshes or expected.get(parent, ("",))[0] != "walls":
            continue
        triangles, _ = meshes[parent]
        wall = expected[parent][1]
        centre = columns(element)[3]
        normal = columns(wall)[2]
        hits = ray_hits(triangles, centre - normal * 2, normal)
        met = bool(np.any((~np.isnan(hits)) & (hits < 4)))
        holes += 1
        if met != args.parametric:
            report["holeErrors"].append(f"{kind[:-1]} {identifier}: the ray through its middle "
                                        f"{'meets' if met else 'misses'} wall {parent}")
    for identifier, (kind, wall) in expected.items():
        if kind != "walls" or identifier not in meshes:
            continue
        c0, c1, c2, c3 = columns(wall)
        covered = False
        for other_id, (other_kind, other) in expected.items():
            if other_kind in ("doors", "windows", "openings"):
                d = columns(other)[3] - c3
                w, h = float(other["dimensions"][0]), float(other["dimensions"][1])
                if abs(np.dot(d, c0)) < w / 2 + 0.01 and abs(np.dot(d, c1)) < h / 2 + 0.01 and abs(np.dot(d, c2)) < 0.5:
                    covered = True
        if covered:
            continue
        triangles, _ = meshes[identifier]
        hits = ray_hits(triangles, c3 - c2 * 2, c2)
        walls_hit += 1
        if not np.any((~np.isnan(hits)) & (hits < 4)):
            report["holeErrors"].append(f"wall {identifier}: the ray through its middle misses it")
    report["holesChecked"] = holes
    report["wallsHitChecked"] = walls_hit

    validators = UsdValidation.ValidationRegistry().GetOrLoadAllValidators()
    report["validators"] = len(validators)
    report["usdVersion"] = ".".join(str(v) for v in Usd.GetVersion())
    context = UsdValidation.ValidationContext(validators)
    for error in context.Validate(stage):
        if error.GetType() == UsdValidation.ValidationErrorType.Error:
            report["validationErrors"].append(f"{error.GetName()}: {error.GetMessage()}")

    if args.compliance_checker:
        compliance(args, report)
    return report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--json", action="append", default=[])
    parser.add_argument("--wall-thickness", type=float, default=0.1)
    parser.add_argument("--parametric", action="store_true")
    parser.add_argument("--compliance-checker")
    parser.add_argument("--parents-from", action="append", default=[], help="the file whose parentIdentifiers to test holes by")
    parser.add_argument("--compliance-only", action="store_true", help="only the package rules (a file USD cannot open)")
    args = parser.parse_args()
    json.dump(check(args), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
