"""Machine-readable results for Scripts/bench: each benchmark prints its own report for
people and, when WB_BENCH_RESULTS names a file, also appends one JSON line per measure to it:

  {"bench": "codec", "measure": "...", "wb": "262 ms", "peer": "575 ms", "ratio": 0.46,
   "target": "<= 0.5", "pass": true}

`ratio` is a number or null; `pass` is true, false, or null when the measure has no target.
"""
import json
import os


def record(bench, measure, wb, peer, ratio, target, passed):
    path = os.environ.get("WB_BENCH_RESULTS")
    if not path:
        return
    with open(path, "a") as results:
        results.write(json.dumps({"bench": bench, "measure": measure, "wb": wb, "peer": peer,
                                  "ratio": None if ratio is None else round(ratio, 3),
                                  "target": target, "pass": passed}) + "\n")


def ms(seconds):
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"
