# forker.py - leaves processes behind: {"n": N} forks N children that
# each start a new session and fork again (a daemon's double fork), the
# grandchildren sleeping; then it sleeps itself when {"stay": true}, or
# ends at once. Nothing of it may outlive the execution.
import json, os, sys, time
todo = json.load(sys.stdin)
for _ in range(todo["n"]):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(3600)
        os._exit(0)
sys.stderr.write("started\n")
sys.stderr.flush()
if todo.get("stay"):
    time.sleep(3600)
