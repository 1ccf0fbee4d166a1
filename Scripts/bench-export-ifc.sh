#!/usr/bin/env bash
# export ifc of a generated 100-room, 3-story structure (release build): wb's time to open
# the JSON alone and to open it and write the IFC (best of 5), the file's size and entity
# count, and IfcOpenShell's time to open the IFC (best of 3) beside it; the target is under
# 1 s for the export. Optional: the validator's time (WB_BENCH_VALIDATE=1; slow).
#   Scripts/bench-export-ifc.sh [ROOMS]
source "$(dirname "$0")/bench-common.sh" wb wbgen
Scripts/setup-ifc-check.sh
rooms=${1:-100}
.build/release/wbgen --rooms "$rooms" --stories 3 --seed 1 --noise 0 --out "$work/b" >/dev/null
python3 - .build/release/wb "$work" "$rooms" <<'PY'
import os, subprocess, sys, time
wb, work, rooms = sys.argv[1], sys.argv[2], sys.argv[3]
structure, target = f"{work}/b/structure.json", f"{work}/b.ifc"
def best(args, n):
    times = []
    for _ in range(n):
        started = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return min(times)
opened = best([wb, "-q", structure, "-c", "stats"], 5)
exported = best([wb, "-q", structure, "-c", f"export ifc {target}"], 5)
size = os.path.getsize(target)
import ifcopenshell
def ifc_open():
    started = time.perf_counter(); model = ifcopenshell.open(target); return time.perf_counter() - started, model
reads = [ifc_open() for _ in range(3)]
read, model = min(reads, key=lambda r: r[0])[0], reads[0][1]
print(f"{rooms} rooms, {os.path.getsize(structure) / 1e6:.1f} MB of JSON")
print(f"  wb open + stats          {opened * 1000:7.0f} ms")
print(f"  wb open + export ifc     {exported * 1000:7.0f} ms  (export alone about {(exported - opened) * 1000:.0f} ms; target < 1000 ms: {'pass' if exported - opened < 1 else 'FAIL'})")
print(f"  IFC file                 {size / 1e6:7.2f} MB, {len(list(model))} entities, "
      f"{len(model.by_type('IfcWall'))} walls, {len(model.by_type('IfcSpace'))} spaces, {len(model.by_type('IfcOpeningElement'))} openings")
print(f"  ifcopenshell.open        {read * 1000:7.0f} ms  (wb writes it {read / max(exported - opened, 1e-9):.1f}x as fast as IfcOpenShell reads it)")
if os.environ.get("WB_BENCH_VALIDATE"):
    import ifcopenshell.validate
    logger = ifcopenshell.validate.json_logger()
    started = time.perf_counter()
    ifcopenshell.validate.validate(model, logger, express_rules=True)
    errors = [s for s in logger.statements if s.get("level") == "error"]
    print(f"  ifcopenshell.validate    {(time.perf_counter() - started):7.1f} s, {len(errors)} errors")
PY
