# unixpin.py - fills the send buffers of unix socketpairs and keeps them:
# {"mb": N} on stdin, about N MiB (512 by default, 8 MiB a pair). Prints
# {"pairs": K} if it was not stopped first.
import json, socket, sys
raw = sys.stdin.read()
mb = json.loads(raw)["mb"] if raw.strip() else 512
pairs = []
while len(pairs) * 8 < mb:
    a, b = socket.socketpair()
    a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 << 20)
    a.setblocking(False)
    try:
        while True:
            a.send(b"k" * 65536)
    except BlockingIOError:
        pass
    pairs.append((a, b))
print(json.dumps({"pairs": len(pairs)}))
