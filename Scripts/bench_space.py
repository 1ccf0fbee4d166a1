"""A generated store with a 50 MB world map, timed in wb and in Python on the same files."""
import os, plistlib, random, re, statistics, subprocess, sys, time, uuid, zlib

from bench_results import ms, record

wb, work = sys.argv[1], sys.argv[2]
store = os.path.join(work, "store")
for folder in ["spaces", "worldmaps", "anchors"]:
    os.makedirs(os.path.join(store, folder))
space = str(uuid.UUID(int=random.Random(5).getrandbits(128), version=4)).upper()

# An NSKeyedArchiver plist shaped like an ARWorldMap: tracking data that compresses
# about as well as real maps (a mix of random and repeated bytes), anchors with names.
rng = random.Random(7)
chunks = []
while sum(len(c) for c in chunks) < 50_000_000:
    chunks.append(rng.randbytes(600) + bytes(400))
tracking = b"".join(chunks)[:50_000_000]
objects = ["$null"]
def add(value):
    objects.append(value)
    return plistlib.UID(len(objects) - 1)
anchor_class = add({"$classname": "ARAnchor", "$classes": ["ARAnchor", "NSObject"]})
uuid_class = add({"$classname": "NSUUID", "$classes": ["NSUUID", "NSObject"]})
anchors = []
for i in range(20):
    ident = add({"NS.uuidbytes": uuid.UUID(int=i + 1).bytes, "$class": uuid_class})
    name = add(f"note {i}")
    matrix = b"".join(v.to_bytes(4, "little") for v in [0x3F800000, 0, 0, 0, 0, 0x3F800000, 0, 0, 0, 0, 0x3F800000, 0, 0, 0, 0, 0x3F800000])
    anchors.append(add({"identifier": ident, "name": name, "transform": matrix, "$class": anchor_class}))
array_class = add({"$classname": "NSMutableArray", "$classes": ["NSMutableArray", "NSArray", "NSObject"]})
anchor_list = add({"NS.objects": anchors, "$class": array_class})
map_class = add({"$classname": "ARWorldMap", "$classes": ["ARWorldMap", "NSObject"]})
root = add({"version": 3, "trackingData": tracking, "anchors": anchor_list, "$class": map_class})
objects.insert(1, None)
objects.pop(1)
archive = plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": root}, "$objects": objects},
                         fmt=plistlib.FMT_BINARY)
compressor = zlib.compressobj(5, zlib.DEFLATED, -15, 8)
stored = compressor.compress(archive) + compressor.flush()
open(os.path.join(store, "worldmaps", space + ".bin"), "wb").write(stored)
open(os.path.join(store, "spaces", space + ".json"), "w").write(
    '{"createdAt":"2025-12-02T16:00:00Z","id":"%s","isCompressed":true,"name":"Big","updatedAt":"2025-12-02T16:00:00Z"}' % space)

PY = (
    "import json,plistlib,sys,zlib\n"
    "s=sys.argv[1]; i=sys.argv[2]\n"
    "meta=json.load(open(s+'/spaces/'+i+'.json'))\n"
    "raw=zlib.decompressobj(-15).decompress(open(s+'/worldmaps/'+i+'.bin','rb').read())\n"
    "a=plistlib.loads(raw)\n"
    "root=a['$objects'][a['$top']['root'].data]\n"
    "anchors=a['$objects'][root['anchors'].data]['NS.objects']\n"
    "print(root['version'], len(root['trackingData']), len(anchors))\n"
)

def timed(command):
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, out.stdout

wb_times, py_times = [], []
for _ in range(5):
    t, wb_out = timed([wb, "-q", store, "-c", "show sp1"])
    wb_times.append(t)
    t, py_out = timed([sys.executable, "-c", PY, store, space])
    py_times.append(t)
assert re.search(r"trackingData +50000000 bytes", wb_out), wb_out
assert py_out.split() == ["3", "50000000", "20"], py_out
wb_t, py_t = statistics.median(wb_times), statistics.median(py_times)
peak = subprocess.run(["/usr/bin/time", "-f", "%M", wb, "-q", store, "-c", "show sp1"], capture_output=True, text=True).stderr.strip().splitlines()[-1]
print(f"world map: {len(archive) / 1e6:.1f} MB raw, {len(stored) / 1e6:.1f} MB stored (raw DEFLATE)")
print(f"open + inspect: wb {wb_t * 1000:.0f} ms, python zlib+plistlib {py_t * 1000:.0f} ms, ratio {wb_t / py_t:.2f}")
print(f"wb peak RSS {int(peak) / 1024:.0f} MiB = {int(peak) * 1024 / len(archive):.2f} x the raw map (target < 3)")
record("space", "50 MB world map, open + inspect: wb / python zlib+plistlib", ms(wb_t), ms(py_t), wb_t / py_t, "< 1",
       wb_t / py_t < 1)
memory = int(peak) * 1024 / len(archive)
record("space", "peak RSS / raw world map", f"{int(peak) / 1024:.0f} MiB", f"map {len(archive) / 2**20:.0f} MiB", memory,
       "< 3", memory < 3)
