# membomb.py - allocates and touches memory: {"mb": N} on stdin stops at
# N MiB and prints {"allocated": N}; no input means without bound.
import json, sys
raw = sys.stdin.read()
limit = json.loads(raw)["mb"] if raw.strip() else None
chunks = []
while limit is None or len(chunks) * 16 < limit:
    chunks.append(bytearray(16 << 20))
    for i in range(0, len(chunks[-1]), 4096):
        chunks[-1][i] = 1
print(json.dumps({"allocated": len(chunks) * 16}))
