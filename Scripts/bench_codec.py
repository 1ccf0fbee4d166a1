"""Times wb against Python's json module on one file, in one run, and prints the ratio.

Each contender runs as a whole process (start-up included), several times in
alternation so that machine noise hits both; the medians are compared.
"""
import statistics
import subprocess
import sys
import time

from bench_results import ms, record

wb, source, work = sys.argv[1], sys.argv[2], sys.argv[3]
runs = 7

PY_PRETTY = (
    "import json,sys\n"
    "d=json.load(open(sys.argv[1]))\n"
    "open(sys.argv[2],'w').write(json.dumps(d, indent=2, sort_keys=True, separators=(',', ' : ')))\n"
)
PY_COMPACT = (
    "import json,sys\n"
    "d=json.load(open(sys.argv[1]))\n"
    "open(sys.argv[2],'w').write(json.dumps(d))\n"
)

contenders = {
    "wb open+save": [wb, "-q", source, "-c", f"save {work}/wb.json"],
    "python json load+dump (indent=2, sort_keys: the same form)": [sys.executable, "-c", PY_PRETTY, source, f"{work}/py.json"],
    "python json load+dump (compact, C encoder)": [sys.executable, "-c", PY_COMPACT, source, f"{work}/py-compact.json"],
}

times = {name: [] for name in contenders}
for _ in range(runs):
    for name, command in contenders.items():
        start = time.perf_counter()
        subprocess.run(command, check=True)
        times[name].append(time.perf_counter() - start)

same = open(source, "rb").read() == open(f"{work}/wb.json", "rb").read()
size = len(open(source, "rb").read())
print(f"file: {size / 1e6:.1f} MB generated structure; {runs} runs each, medians")
medians = {name: statistics.median(values) for name, values in times.items()}
for name, value in medians.items():
    print(f"  {value * 1000:8.1f} ms  {name}")
wb_time = medians["wb open+save"]
for name, value in medians.items():
    if name != "wb open+save":
        print(f"ratio wb / {name.split(' (')[0]} ({name.split('(')[1].rstrip(')')}): {wb_time / value:.2f}")
print(f"wb's output is byte-identical to its input: {same}")
pretty = medians["python json load+dump (indent=2, sort_keys: the same form)"]
compact = medians["python json load+dump (compact, C encoder)"]
record("codec", f"open+save {size / 1e6:.0f} MB: wb / python json (same form)", ms(wb_time), ms(pretty),
       wb_time / pretty, "<= 0.5", wb_time / pretty <= 0.5 and same)
record("codec", f"open+save {size / 1e6:.0f} MB: wb / python json (compact)", ms(wb_time), ms(compact),
       wb_time / compact, "< 1", wb_time / compact < 1 and same)
if not same:
    sys.exit(1)
