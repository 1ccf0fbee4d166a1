#!/usr/bin/env bash
# export usdz of a generated 100-room structure (release build), beside the time to open
# the file, and beside usd-core writing the same prims from Python (one mesh per element,
# each element's own box or floor polygon with its customData, packaged as a .usdz), in
# the same run. Target: every export of 100 rooms under 1 s, wb faster than usd-core.
source "$(dirname "$0")/bench-common.sh" wb wbgen
Scripts/setup-usd-check.sh
.build/release/wbgen --rooms 100 --stories 3 --core-model-kb 160 --seed 8 --out "$work/b" >/dev/null
python3 - .build/release/wb "$work/b/structure.json" "$work" <<'PY'
import json, os, statistics, subprocess, sys, time
wb, structure, work = sys.argv[1:4]
def run(args):
    start = time.perf_counter()
    subprocess.run([wb, "-q"] + args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start
opens, usdz, usda, flat = [], [], [], []
for _ in range(5):
    opens.append(run([structure, "-c", "quit"]))
    usdz.append(run([structure, "-c", f"export usdz {work}/wb.usdz"]))
    usda.append(run([structure, "-c", f"export usda {work}/wb.usda"]))
    flat.append(run([structure, "-c", f"export usdz {work}/wbp.usdz --parametric"]))
o = statistics.median(opens)

# usd-core: the same prims, authored through the Python API and packaged.
def python_export():
    from pxr import Sdf, Usd, UsdGeom, UsdUtils, Vt, Gf
    start = time.perf_counter()
    with open(structure) as f:
        data = json.load(f)
    layer = f"{work}/py.usdc"
    stage = Usd.Stage.CreateNew(layer)
    UsdGeom.SetStageUpAxis(stage, "Y"); UsdGeom.SetStageMetersPerUnit(stage, 1)
    root = UsdGeom.Xform.Define(stage, "/structure"); stage.SetDefaultPrim(root.GetPrim())
    n = 0
    for kind in ["walls", "doors", "windows", "openings", "floors", "objects"]:
        for e in data.get(kind, []):
            mesh = UsdGeom.Mesh.Define(stage, f"/structure/{kind}_{n}"); n += 1
            w, h, d = (v / 2 for v in e["dimensions"])
            if kind == "floors":
                pts = [Gf.Vec3f(*c) for c in e["polygonCorners"]]
                counts, idx = [len(pts)], list(range(len(pts)))
            else:
                pts = [Gf.Vec3f(x, y, z) for x in (-w, w) for y in (-h, h) for z in (-d, d)]
                counts = [4] * 6
                idx = [0, 1, 3, 2, 4, 6, 7, 5, 0, 4, 5, 1, 2, 3, 7, 6, 0, 2, 6, 4, 1, 5, 7, 3]
            mesh.CreatePointsAttr(pts); mesh.CreateFaceVertexCountsAttr(counts); mesh.CreateFaceVertexIndicesAttr(idx)
            mesh.CreateExtentAttr(UsdGeom.Mesh.ComputeExtent(pts))
            t = e["transform"]
            mesh.AddTransformOp().Set(Gf.Matrix4d(*t))
            mesh.GetPrim().SetCustomData({"identifier": e["identifier"], "category": next(iter(e["category"]))})
    stage.GetRootLayer().Save()
    UsdUtils.CreateNewUsdzPackage(Sdf.AssetPath(layer), f"{work}/py.usdz")
    return time.perf_counter() - start, n
py = [python_export() for _ in range(3)]
p = statistics.median(t for t, _ in py)
size = os.path.getsize(f"{work}/wb.usdz")
print(f"100 rooms, {py[0][1]} elements; open: {o * 1000:.0f} ms")
print(f"wb export usdz: {statistics.median(usdz) * 1000:.0f} ms ({size / 1e6:.2f} MB), usda: {statistics.median(usda) * 1000:.0f} ms, "
      f"usdz --parametric: {statistics.median(flat) * 1000:.0f} ms (each with opening the file)")
print(f"usd-core from Python, plain boxes: {p * 1000:.0f} ms; wb / usd-core: {statistics.median(usdz) / p:.2f}")
PY
