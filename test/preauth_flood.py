#!/usr/bin/env python3
"""preauth_flood.py - unauthenticated peers for test/preauth.test and
bench/handshake.sh, over TCP from chosen loopback source addresses.

  hold HOST PORT SRC N      open N connections from SRC that never speak,
                            print "ready", keep them until stdin closes
  flood HOST PORT SECS SRC[,SRC...]
                            for SECS seconds keep up to 64 connections per
                            source open, each idle, slow (one byte of a
                            msg1 header a second) or garbage (random
                            bytes); reconnect as the runner closes them;
                            print "connections=N" at the end
  doors HOST PORT/K,... SECS N NET
                            for SECS seconds try to hold N connections
                            spread over the ports, each from its own
                            address 127.NET.X.Y, idle or slow (one byte a
                            second of a msg1 for K=a, a runner's listener,
                            of an endless request for K=h, an HTTP
                            endpoint); reopen what the server closes, at
                            most 32 every 50 ms; print "connections=N
                            held_max=M held_end=E" at the end
  spread HOST PORT SECS SRC[,SRC...]
                            for SECS seconds keep one idle connection
                            from each source, reopened as the server
                            closes it; print "connections=N held_end=E"
  healthz HOST PORT N       N probes of GET /healthz, 0.5 s apart, each
                            on a fresh connection with a 5 s timeout;
                            print "answered=K within_1s=J p50_ms=X
                            max_ms=Y" (K: answered 200; J: of them within
                            1 s, the livenessProbe rule)
  unix-hold PATH N          as hold, on a unix socket
  unix-probe PATH           connect, send nothing; print "closed" if the
                            runner closes it within 1.5 s, else "pending"
"""
import os
import random
import select
import socket
import sys
import time


def connect_from(host, port, src):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    s.bind((src, 0))
    try:
        s.connect((host, port))
    except BlockingIOError:
        pass
    return s


def hold(host, port, src, n):
    socks = [connect_from(host, port, src) for _ in range(n)]
    time.sleep(0.3)
    print("ready", flush=True)
    sys.stdin.read()
    for s in socks:
        s.close()


def flood(host, port, secs, sources):
    per = 64
    live = {}            # socket -> (kind, next send time)
    count = 0
    end = time.time() + secs
    while time.time() < end:
        for src in sources:
            have = sum(1 for s, v in live.items() if v[2] == src)
            for _ in range(per - have):
                try:
                    s = connect_from(host, port, src)
                except OSError:
                    break
                kind = random.choice(("idle", "slow", "garbage"))
                live[s] = [kind, time.time(), src]
                count += 1
        now = time.time()
        for s, v in list(live.items()):
            try:
                if v[0] == "garbage":
                    s.send(os.urandom(64))
                    v[0] = "idle"
                elif v[0] == "slow" and now >= v[1]:
                    s.send(b"\x00")
                    v[1] = now + 1.0
            except OSError:
                pass
        r, _, _ = select.select(list(live), [], [], 0.05)
        for s in r:
            try:
                if s.recv(4096):
                    continue
            except OSError:
                pass
            s.close()
            del live[s]
    for s in live:
        s.close()
    print("connections=%d" % count, flush=True)


SLOW = {"a": b"\x00\x30" + b"\x00" * 48,       # a msg1, a byte a second
        "h": b"GET /healthz HTTP/1.1\r\nX: " + b"a" * 4000}   # slowloris


def doors(host, ports, secs, n, net):
    live = {}            # socket -> [payload or None (idle), sent, next]
    count = 0
    held_max = 0
    slot = 0
    end = time.time() + secs
    while time.time() < end:
        for _ in range(min(32, n - len(live))):
            slot = (slot + 1) % 60000
            src = "127.%d.%d.%d" % (net, slot // 250, slot % 250 + 1)
            port, kind = ports[slot % len(ports)]
            try:
                s = connect_from(host, port, src)
            except OSError:
                break
            live[s] = [random.choice((None, SLOW[kind])), 0, time.time()]
            count += 1
        held_max = max(held_max, len(live))
        now = time.time()
        for s, v in live.items():
            if v[0] and now >= v[2] and v[1] < len(v[0]):
                try:
                    s.send(v[0][v[1]:v[1] + 1])
                except OSError:
                    pass
                v[1] += 1
                v[2] = now + 1.0
        r, _, _ = select.select(list(live), [], [], 0.05)
        for s in r:
            try:
                if s.recv(4096):
                    continue
            except OSError:
                pass
            s.close()
            del live[s]
    print("connections=%d held_max=%d held_end=%d" % (count, held_max,
          len(live)), flush=True)
    for s in live:
        s.close()


def spread(host, port, secs, sources):
    live = {}            # socket -> source
    count = 0
    end = time.time() + secs
    while time.time() < end:
        for src in set(sources) - set(live.values()):
            try:
                live[connect_from(host, port, src)] = src
                count += 1
            except OSError:
                pass
        r, _, _ = select.select(list(live), [], [], 0.05)
        for s in r:
            try:
                if s.recv(4096):
                    continue
            except OSError:
                pass
            s.close()
            del live[s]
    print("connections=%d held_end=%d" % (count, len(live)), flush=True)
    for s in live:
        s.close()


def healthz(host, port, n):
    ms = []
    ok = 0
    for _ in range(n):
        t = time.monotonic()
        try:
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
            line = s.makefile("rb").readline()
            s.close()
        except OSError:
            line = b""
        d = (time.monotonic() - t) * 1000
        if line.startswith(b"HTTP/1.1 200"):
            ok += 1
            ms.append(d)
        time.sleep(0.5)
    ms.sort()
    print("answered=%d within_1s=%d p50_ms=%d max_ms=%d" % (
        ok, sum(1 for d in ms if d < 1000), ms[len(ms) // 2] if ms else -1,
        ms[-1] if ms else -1), flush=True)


def unix_hold(path, n):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        socks.append(s)
    time.sleep(0.3)
    print("ready", flush=True)
    sys.stdin.read()


def unix_probe(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.settimeout(1.5)
    try:
        print("closed" if s.recv(1) == b"" else "data")
    except socket.timeout:
        print("pending")
    except OSError:
        print("closed")


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "hold":
        hold(a[0], int(a[1]), a[2], int(a[3]))
    elif cmd == "unix-hold":
        unix_hold(a[0], int(a[1]))
    elif cmd == "unix-probe":
        unix_probe(a[0])
    elif cmd == "doors":
        doors(a[0], [(int(p[:-2]), p[-1]) for p in a[1].split(",")],
              float(a[2]), int(a[3]), int(a[4]))
    elif cmd == "spread":
        spread(a[0], int(a[1]), float(a[2]), a[3].split(","))
    elif cmd == "healthz":
        healthz(a[0], int(a[1]), int(a[2]))
    elif cmd == "flood":
        flood(a[0], int(a[1]), float(a[2]), a[3].split(","))
    else:
        sys.exit("unknown mode " + cmd)


if __name__ == "__main__":
    main()
