#!/usr/bin/env python3
# mcp_wheel.py - a wheel of a tiny stdio MCP server, made here with zipfile
# (no network, no build backend), for test/uvx_lock.test.
#
#   python3 mcp_wheel.py OUTDIR [--tamper | --data]
#
# Writes OUTDIR/mcp_echo-1.0.0-py3-none-any.whl: the package mcp_echo
# (initialize, its instructions saying how python3 was started: -I, -S
# and argv[0]; tools/list with one tool "echo", tools/call echo, ping),
# its dist-info (METADATA, WHEEL, entry_points.txt with the console
# script "mcp-echo" = mcp_echo.server:main, RECORD) and prints the wheel's
# SHA-256. --tamper makes the same wheel but one byte of the server
# changed: another SHA-256, what a lock pinning the first refuses.
# --data adds a data file (.data/data/share/...: installed outside the
# package, which the runner's RECORD check refuses).
import base64
import hashlib
import os
import sys
import zipfile

SERVER = b'''import json
import sys


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\\n")
    sys.stdout.flush()


TOOL = {"name": "echo", "description": "Echo the text back.",
        "inputSchema": {"type": "object",
                        "properties": {"text": {"type": "string"}}}}


def answer(method, params):
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion",
                                              "2025-03-26"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "mcp-echo-wheel",
                               "version": "1.0.0"},
                "instructions": "isolated=%d no_site=%d argv0=%s" % (
                    sys.flags.isolated, sys.flags.no_site, sys.argv[0])}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": "echo: " + str(
            (params.get("arguments") or {}).get("text"))}]}
    if method == "ping":
        return {}
    return None


def main():
    for raw in sys.stdin:
        try:
            req = json.loads(raw)
        except ValueError:
            continue
        if "id" not in req or "method" not in req:
            continue
        res = answer(req["method"], req.get("params") or {})
        if res is None:
            send({"jsonrpc": "2.0", "id": req["id"],
                  "error": {"code": -32601, "message": "no such method"}})
        else:
            send({"jsonrpc": "2.0", "id": req["id"], "result": res})
    return 0
'''

NAME, VERSION = "mcp_echo", "1.0.0"
INFO = "%s-%s.dist-info" % (NAME, VERSION)


def record_hash(data):
    d = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "sha256=" + d.rstrip(b"=").decode()


def main():
    out = sys.argv[1]
    server = SERVER
    if "--tamper" in sys.argv:
        server = server.replace(b"echo: ", b"ECHO: ")
    files = [
        ("mcp_echo/__init__.py", b""),
        ("mcp_echo/server.py", server),
        (INFO + "/METADATA", b"Metadata-Version: 2.1\nName: mcp-echo\n"
         b"Version: " + VERSION.encode() + b"\n"),
        (INFO + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: mcp_wheel.py\n"
         b"Root-Is-Purelib: true\nTag: py3-none-any\n"),
        (INFO + "/entry_points.txt",
         b"[console_scripts]\nmcp-echo = mcp_echo.server:main\n"),
    ]
    if "--data" in sys.argv:
        files.append((NAME + "-" + VERSION + ".data/data/share/mcp-echo/"
                      "readme.txt", b"outside the package\n"))
    record = "".join("%s,%s,%d\n" % (p, record_hash(d), len(d))
                     for p, d in files) + INFO + "/RECORD,,\n"
    files.append((INFO + "/RECORD", record.encode()))
    path = os.path.join(out, "%s-%s-py3-none-any.whl" % (NAME, VERSION))
    with zipfile.ZipFile(path, "w") as z:
        for p, d in files:
            # a fixed time: the same bytes, the same hash, every run
            z.writestr(zipfile.ZipInfo(p, (2020, 1, 1, 0, 0, 0)), d)
    with open(path, "rb") as f:
        print(hashlib.sha256(f.read()).hexdigest())


main()
