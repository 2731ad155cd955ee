# flood.py - writes to stdout: {"mb": N} on stdin writes N MiB; no input
# writes 1 GiB.
import json, sys
raw = sys.stdin.read()
mb = json.loads(raw)["mb"] if raw.strip() else 1024
block = b"x" * (1 << 20)
for _ in range(mb):
    sys.stdout.buffer.write(block)
