# floodspin.py - says "started" on stderr, then a thread writes to stdout
# without end while the main thread burns CPU ({"spin": true}) or sleeps:
# with a client that does not read, the writer blocks and only the limits'
# clocks can end it.
import json, sys, threading, time
todo = json.load(sys.stdin)
sys.stderr.write("started\n")
sys.stderr.flush()

def flood():
    # the test stops its client within a poll of "started": a client still
    # reading could take the whole output cap (16M in ~0.1 s) before the
    # limit under test fires
    time.sleep(0.5)
    block = b"y" * 65536
    while True:
        sys.stdout.buffer.write(block)
        sys.stdout.buffer.flush()

threading.Thread(target=flood, daemon=True).start()
if todo.get("spin"):
    while True:
        pass
time.sleep(3600)
