#!/usr/bin/env bash
# export svg of a generated 100-room, 3-story structure (release build): the time beyond
# opening the file, for one file per story, for one page with objects and dimensions,
# and for rsvg-convert drawing that page, in the same run. Target: under 1 s.
source "$(dirname "$0")/bench-common.sh" wb wbgen
.build/release/wbgen --rooms 100 --stories 3 --core-model-kb 160 --seed 8 --out "$work/b" >/dev/null
python3 - .build/release/wb "$work/b/structure.json" "$work" <<'PY'
import os, shutil, statistics, subprocess, sys, time
wb, structure, work = sys.argv[1:4]
def run(args):
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start
opens, stories, page = [], [], []
for _ in range(5):
    opens.append(run([wb, "-q", structure, "-c", "quit"]))
    stories.append(run([wb, "-q", structure, "-c", f"export svg {work}/plan.svg"]))
    page.append(run([wb, "-q", structure, "-c", f"export svg {work}/all.svg --one-page --objects --dimensions"]))
o, s, p = (statistics.median(x) for x in (opens, stories, page))
files = sorted(f for f in os.listdir(work) if f.startswith("plan-story"))
sizes = ", ".join(f"{os.path.getsize(os.path.join(work, f)) // 1024} KiB" for f in files)
print(f"open: {o * 1000:.0f} ms ({os.path.getsize(structure) / 1e6:.1f} MB)")
print(f"export svg, {len(files)} files ({sizes}): {(s - o) * 1000:.0f} ms beyond opening")
print(f"export svg --one-page --objects --dimensions ({os.path.getsize(work + '/all.svg') // 1024} KiB): {(p - o) * 1000:.0f} ms beyond opening")
if shutil.which("rsvg-convert"):
    r = run(["rsvg-convert", "-o", f"{work}/all.png", f"{work}/all.svg"])
    print(f"rsvg-convert drawing that page to PNG: {r * 1000:.0f} ms")
PY
