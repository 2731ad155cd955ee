# channels.py - tries to open each channel between tenants a code tool
# must not have (docs/SECURITY.md "Between tenants") and prints one line
# of "NAME RESULT" pairs, RESULT "ok" or the errno name. Input (stdin,
# JSON): {"unix": PATH}, a unix socket of the host to connect to.
import ctypes, errno, json, os, socket, sys

libc = ctypes.CDLL(None, use_errno=True)

def attempt(fn):
    try:
        fn()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))

def listen():
    socket.socket().listen()

def udp_bind():
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).bind(("127.0.0.1", 0))

def unix_path(path):
    socket.socket(socket.AF_UNIX).connect(path)

def abstract():
    s = socket.socket(socket.AF_UNIX)
    s.bind("\0airlock-channels-%d" % os.getpid())
    s.listen()

def checked(r):
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r

def shmget():
    shmid = checked(libc.shmget(0, 4096, 0o600))	# IPC_PRIVATE
    libc.shmctl(shmid, 0, None)				# IPC_RMID

def mq_open():
    name = b"/airlock-channels-%d" % os.getpid()
    checked(libc.mq_open(name, os.O_RDWR | os.O_CREAT, 0o600, None))
    libc.mq_unlink(name)

want = json.load(sys.stdin)
print(" ".join("%s %s" % (n, attempt(f)) for n, f in (
    ("listen", listen), ("udp_bind", udp_bind),
    ("unix_path", lambda: unix_path(want["unix"])), ("abstract", abstract),
    ("shmget", shmget), ("mq_open", mq_open))))
