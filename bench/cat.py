# cat.py - `cat` for the benchmarks: the runner's launcher guard admits
# interpreters (node, python3, npx, uv), not /bin/cat, so the no-Node rows
# of bench/run.sh put this behind every path alike (direct, socat,
# airlock). Unbuffered: each read is written out at once, in full.
import os
import sys

while True:
    b = os.read(0, 65536)
    if not b:
        sys.exit(0)
    v = memoryview(b)
    while v:
        v = v[os.write(1, v):]
