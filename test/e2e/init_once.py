"""init_once.py - one MCP initialize through a command, stdin held open
until the answer, for tests that need only the server's first reply.

  python3 init_once.py CMD [ARG]...

Writes $INIT (one JSON-RPC line) to CMD's stdin, copies CMD's first
stdout line to stdout, then closes CMD's stdin and waits for it; CMD's
stderr passes through, and its exit status is ours. Closing stdin at once
instead (`echo "$INIT" | CMD`) races a slow server's start: the runner
ends a server whose stdin closed after its kill grace, answered or not.
No answer within 180 s (a refused spawn answers nothing): stdin is closed
all the same, and nothing is printed.
"""
import os
import select
import subprocess
import sys


def main():
    init = os.environ["INIT"].encode() + b"\n"
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    child.stdin.write(init)
    child.stdin.flush()
    line = b""
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([child.stdout], [], [], 180)
        if not ready:
            break
        chunk = os.read(child.stdout.fileno(), 65536)
        if not chunk:
            break
        line += chunk
    first = line.split(b"\n", 1)[0]
    if first:
        sys.stdout.buffer.write(first + b"\n")
        sys.stdout.flush()
    child.stdin.close()
    child.stdout.close()
    sys.exit(child.wait())


main()
