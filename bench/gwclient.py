#!/usr/bin/env python3
"""bench/gwclient.py SOCK BODY N PAUSE: N requests of the Piston body in
file BODY to `airlock sandbox gateway` on the unix socket SOCK, from this
one process (a platform's waiting HTTP client: no client start in the
figure), each on a connection of its own, PAUSE seconds apart (untimed:
the warm slots are rebuilt meanwhile). Prints each request's wall time in
microseconds; exits 1 at the first answer that is not HTTP 200 with the
run's exit code 0, saying why."""
import http.client
import socket
import sys
import time


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("gateway")
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)


def main():
    path, body_file, n, pause = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    body = open(body_file, "rb").read()
    headers = {"Content-Type": "application/json", "X-Airlock-Tenant": "bench",
               "Connection": "close"}
    for _ in range(n):
        time.sleep(pause)
        t0 = time.monotonic_ns()
        c = UnixConnection(path)
        c.request("POST", "/api/v2/execute", body, headers)
        r = c.getresponse()
        answer = r.read()
        t1 = time.monotonic_ns()
        c.close()
        if r.status != 200 or b'"code":0' not in answer:
            print("HTTP %d: %s" % (r.status, answer[:300].decode("utf-8", "replace")),
                  file=sys.stderr)
            return 1
        print((t1 - t0) // 1000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
