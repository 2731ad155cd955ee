#!/usr/bin/env python3
"""lease_peer.py - hostile peers for test/lease.test, on unix sockets.

  fake-runner SOCK          accept once, read the relay's first record and
                            answer with 48 random bytes as "message 2"
  idle SOCK                 connect, send nothing, print how the runner
                            ended it ("closed") within 30 s
  record SOCK UPSTREAM LOG  proxy one connection, saving what the relay
                            sent to LOG
  replay UPSTREAM LOG       send LOG's bytes to UPSTREAM as a new
                            connection, print what came back ("closed"
                            once the runner hangs up)
  flip SOCK UPSTREAM DIR N  proxy one connection, flipping one bit in the
                            N-th record (counted from 1) travelling DIR
                            (up: relay->runner, down: runner->relay)
  flaky SOCK UPSTREAM N HOW COUNT  the first N connections: read the
                            relay's first record, then close (HOW close)
                            or send one byte and close (HOW byte), or
                            read its 2-byte header only, send one byte
                            and close (HOW early-byte: the relay's write
                            may fail before it reads the byte); every
                            later one is proxied; each connection is a
                            line in COUNT
"""
import os
import select
import socket
import sys


def listen(path):
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX)
    s.bind(path)
    s.listen(1)
    return s


def connect(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return s


class Records:
    """Split a byte stream into u16-length records, optionally altering one."""

    def __init__(self, flip_at=0):
        self.buf = b""
        self.count = 0
        self.flip_at = flip_at

    def feed(self, data):
        self.buf += data
        out = b""
        while len(self.buf) >= 2:
            n = int.from_bytes(self.buf[:2], "big")
            if len(self.buf) < 2 + n:
                break
            rec = bytearray(self.buf[: 2 + n])
            self.buf = self.buf[2 + n:]
            self.count += 1
            if self.count == self.flip_at:
                rec[2 + n // 2] ^= 0x01
            out += bytes(rec)
        return out


def proxy(client, upstream, up=None, down=None, log=None):
    up = up or Records()
    down = down or Records()
    peers = {client: (upstream, up), upstream: (client, down)}
    while True:
        ready, _, _ = select.select(list(peers), [], [], 30)
        if not ready:
            return
        for s in ready:
            data = s.recv(65536)
            if not data:
                return
            other, rec = peers[s]
            if s is client and log:
                log.write(data)
                log.flush()
            other.sendall(rec.feed(data))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "fake-runner":
        srv = listen(args[0])
        c, _ = srv.accept()
        c.recv(50)
        c.sendall((48).to_bytes(2, "big") + os.urandom(48))
        c.recv(1)
    elif cmd == "idle":
        c = connect(args[0])
        c.settimeout(30)
        print("closed" if c.recv(1) == b"" else "data")
    elif cmd == "record":
        srv = listen(args[0])
        c, _ = srv.accept()
        with open(args[2], "wb") as log:
            proxy(c, connect(args[1]), log=log)
    elif cmd == "replay":
        c = connect(args[0])
        c.sendall(open(args[1], "rb").read())
        c.settimeout(30)
        try:
            while c.recv(65536):
                pass
        except ConnectionResetError:
            pass
        print("closed")
    elif cmd == "flip":
        srv = listen(args[0])
        c, _ = srv.accept()
        n = int(args[3])
        up = Records(n if args[2] == "up" else 0)
        down = Records(n if args[2] == "down" else 0)
        proxy(c, connect(args[1]), up, down)
    elif cmd == "flaky":
        srv = listen(args[0])
        srv.listen(16)
        n, how = int(args[2]), args[3]
        seen = 0
        while True:
            c, _ = srv.accept()
            seen += 1
            with open(args[4], "a") as count:
                count.write("connection %d\n" % seen)
            if seen > n:
                proxy(c, connect(args[1]))
                c.close()
                continue
            got = b""
            want = 2 if how == "early-byte" else 50	# msg1's record
            while len(got) < want:
                more = c.recv(want - len(got))
                if not more:
                    break
                got += more
            if how in ("byte", "early-byte"):
                c.sendall(b"\x00")
            c.close()
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
