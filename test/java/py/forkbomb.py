# forkbomb.py - forks: {"n": N} on stdin makes N children that sleep a
# moment (all alive at once), waits and prints {"children": N}; no input
# forks without bound.
import json, os, sys, time
raw = sys.stdin.read()
if raw.strip():
    n = json.loads(raw)["n"]
    kids = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            time.sleep(0.5)
            os._exit(0)
        kids.append(pid)
    for pid in kids:
        os.waitpid(pid, 0)
    print(json.dumps({"children": n}))
else:
    while True:
        try:
            os.fork()
        except OSError:
            pass
