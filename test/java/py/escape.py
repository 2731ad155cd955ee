# escape.py - tries what a code tool must not do and reports each attempt
# as "ok" (it worked: the layer is missing) or the errno name it got. One
# JSON object out. The attempts come on stdin as JSON, so the test picks
# the paths (never anything a run without the jail would harm):
#   {"read": [PATH...], "write": [PATH...], "connect": [[HOST, PORT]...],
#    "resolve": [NAME...]}
# The read path "PARENT_ENVIRON" stands for /proc/<parent pid>/environ:
# the environment of whatever started the tool.
import errno, json, os, socket, sys

def attempt(fn):
    try:
        fn()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno)) if e.errno else type(e).__name__
    except Exception as e:
        return type(e).__name__

def connect(host, port):
    s = socket.create_connection((host, port), timeout=3)
    s.close()

def read(path):
    with open(path, "rb") as f:
        f.read(1)

def write(path):
    with open(path, "wb") as f:
        f.write(b"x")

todo = json.load(sys.stdin)
out = {}
for p in todo.get("read", []):
    path = "/proc/%d/environ" % os.getppid() if p == "PARENT_ENVIRON" else p
    out["read " + p] = attempt(lambda: read(path))
for p in todo.get("write", []):
    out["write " + p] = attempt(lambda: write(p))
for h, port in todo.get("connect", []):
    out["connect %s:%d" % (h, port)] = attempt(lambda: connect(h, port))
for n in todo.get("resolve", []):
    out["resolve " + n] = attempt(lambda: socket.getaddrinfo(n, 80))
print(json.dumps(out, sort_keys=True))
