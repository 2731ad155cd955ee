# diskfill.py - fills the working directory: {"mb": N} on stdin stops at
# N MiB (no input: 4 GiB); prints how much it wrote and the error, if any
# (the tmpfs cap gives ENOSPC).
import errno, json, sys
raw = sys.stdin.read()
limit = json.loads(raw)["mb"] if raw.strip() else 4096
n = 0
err = None
try:
    with open("fill.bin", "wb") as f:
        block = b"\0" * (1 << 20)
        while n < limit:
            f.write(block)
            f.flush()
            n += 1
except OSError as e:
    err = errno.errorcode.get(e.errno, str(e.errno))
print(json.dumps({"written_mb": n, "error": err}))
