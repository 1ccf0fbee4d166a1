#!/usr/bin/env bash
# Time per `find` over all objects of a generated 100-room structure (release build),
# beside the time to open the file, in the same run. Target: well under 10 ms a query.
source "$(dirname "$0")/bench-common.sh" wb wbgen
.build/release/wbgen --rooms 100 --stories 3 --core-model-kb 160 --seed 8 --out "$work/b" >/dev/null
python3 - .build/release/wb "$work/b/structure.json" "$work" <<'PY'
import statistics, subprocess, sys, time
sys.path.insert(0, "Scripts")
from bench_results import ms, record
wb, structure, work = sys.argv[1:4]
queries = ["find objects where category = chair and confidence != high",
           "find objects where width > 80cm or (ChairType = dining and not confidence = low)",
           "find objects where category = s* and story >= 1"]
n = 300
with open(f"{work}/q.wb", "w") as f:
    for i in range(n):
        f.write(queries[i % len(queries)] + "\n")
def run(args):
    start = time.perf_counter()
    subprocess.run([wb, "-q"] + args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start
opens, withq = [], []
for _ in range(5):
    opens.append(run([structure, "-c", "quit"]))
    withq.append(run([structure, "-f", f"{work}/q.wb"]))
objects = subprocess.run([wb, "-q", "--json", structure, "-c", "ls objects"], capture_output=True, text=True).stdout.count('"handle"')
o, q = statistics.median(opens), statistics.median(withq)
print(f"{objects} objects in 100 rooms; open: {o * 1000:.0f} ms; {n} finds: {(q - o) * 1000:.0f} ms beyond opening")
print(f"per find (listing included): {(q - o) / n * 1000:.2f} ms; open / find: {o / ((q - o) / n):.0f}x")
per = (q - o) / n
record("query", "one find over 437 objects (listing included) / opening the file", f"{per * 1000:.2f} ms", f"open {ms(o)}",
       per / o, "< 10 ms a find", per < 0.010)
PY
