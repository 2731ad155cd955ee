# lease_cpu.py - bench/run.sh's CPU row: what one lease process of a
# runner spends per MCP call, which a loaded machine disturbs less than a
# round trip's time. Speaks MCP itself (newline-delimited JSON-RPC) to
# COMMAND, a relay in front of server-everything: initialize, 200 echo
# calls to warm up, then CALLS timed ones; the lease process (the
# runner's child whose own child is the server) is read from
# /proc/PID/schedstat (nanoseconds on a CPU; stat's utime and stime tick
# in 10 ms) before and after them.
#
#   python3 bench/lease_cpu.py CALLS RUNNER_PID -- COMMAND...
#
# Prints one line of key=value pairs: p50_us (round trip), cpu_us_per_call.
import json
import subprocess
import sys
import time

PROTOCOL = "2025-11-25"  # the capture's (a pinned runner compares it)


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def on_cpu_s(pid):
    with open("/proc/%d/schedstat" % pid) as f:
        return int(f.read().split()[0]) / 1e9


def main():
    calls, runner = int(sys.argv[1]), int(sys.argv[2])
    cmd = sys.argv[sys.argv.index("--") + 1:]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         bufsize=0)
    next_id = [1]

    def request(method, params):
        i = next_id[0]
        next_id[0] += 1
        p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i,
                                   "method": method, "params": params}) +
                       "\n").encode())
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("lease_cpu: the server's output ended")
            m = json.loads(line)
            if m.get("id") == i:
                if "result" not in m:
                    sys.exit("lease_cpu: %s failed: %s" % (method, m))
                return m["result"]

    request("initialize", {"protocolVersion": PROTOCOL, "capabilities": {},
                           "clientInfo": {"name": "lease_cpu", "version": "1"}})
    p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def echo(n):
        text = "hello %d" % n
        r = request("tools/call", {"name": "echo",
                                   "arguments": {"message": text}})
        if text not in r["content"][0]["text"]:
            sys.exit("lease_cpu: a wrong echo: %s" % r)

    for n in range(200):
        echo(n)
    leases = [k for k in children(runner) if children(k)]
    if len(leases) != 1:
        sys.exit("lease_cpu: %d lease processes under runner %d, not 1"
                 % (len(leases), runner))
    c0 = on_cpu_s(leases[0])
    rtt = []
    for n in range(calls):
        t = time.perf_counter()
        echo(n)
        rtt.append(time.perf_counter() - t)
    c1 = on_cpu_s(leases[0])
    p.stdin.close()
    p.wait()
    rtt.sort()
    print("calls=%d p50_us=%.1f cpu_us_per_call=%.2f"
          % (calls, rtt[calls // 2] * 1e6, (c1 - c0) / calls * 1e6))


main()
