#!/usr/bin/env python3
# mcp_server.py - a small MCP server over stdio (newline-delimited
# JSON-RPC) for test/mcp.test, with switches that make it misbehave the way
# a hostile or changing server would.
#
#   python3 mcp_server.py [--hostile] [--echo-id-twice] [--mute]
#
# Tools: echo (text back), fail (a result with isError true), boom (a
# JSON-RPC error). Also prompts/list, resources/list and
# resources/templates/list (empty).
#   --hostile        before every response, write lines that are not
#                    usable JSON-RPC: deep nesting, a 5 MiB string, invalid
#                    UTF-8, a duplicate key, a lone surrogate, a bare word,
#                    a batch, and a response to an id never asked
#   --echo-id-twice  answer each tools/call twice (a colliding id)
#   --mute           read every request, answer none
#   --log PATH       append "METHOD [TOOL]" for every request read
import json
import sys

HOSTILE = "--hostile" in sys.argv
TWICE = "--echo-id-twice" in sys.argv
MUTE = "--mute" in sys.argv
LOG = sys.argv[sys.argv.index("--log") + 1] if "--log" in sys.argv else None
out = sys.stdout.buffer

TOOLS = [
    {"name": "echo", "description": "Echoes its text.",
     "inputSchema": {"type": "object",
                     "properties": {"text": {"type": "string"}},
                     "required": ["text"]}},
    {"name": "fail", "description": "Always a tool error.",
     "inputSchema": {"type": "object"}},
    {"name": "boom", "description": "Always a JSON-RPC error.",
     "inputSchema": {"type": "object"}},
]


def send(obj):
    out.write(json.dumps(obj, ensure_ascii=False).encode() + b"\n")
    out.flush()


def hostile():
    out.write(b"[" * 100000 + b"]" * 100000 + b"\n")
    out.write(b'{"jsonrpc":"2.0","method":"x","params":"' +
              b"A" * (5 << 20) + b'"}\n')
    out.write(b'{"jsonrpc":"2.0","method":"\xff\xfe"}\n')
    out.write(b'{"jsonrpc":"2.0","id":1,"id":2,"result":{}}\n')
    out.write(b'{"jsonrpc":"2.0","method":"\\ud800"}\n')
    out.write(b"not json at all\n")
    out.write(b'[{"jsonrpc":"2.0","id":999,"result":{}}]\n')
    out.write(b'{"jsonrpc":"2.0","id":"never-asked","result":{}}\n')
    out.flush()


def answer(req):
    method, rid = req.get("method"), req.get("id")
    params = req.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion",
                                              "2025-06-18"),
                "capabilities": {"tools": {"listChanged": True},
                                 "prompts": {}, "resources": {}},
                "serverInfo": {"name": "airlock-test", "version": "1.0"},
                "instructions": "Use echo to echo."}
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "prompts/list":
        return {"prompts": []}
    if method == "resources/list":
        return {"resources": []}
    if method == "resources/templates/list":
        return {"resourceTemplates": []}
    if method == "ping":
        return {}
    if method == "tools/call":
        name = params.get("name")
        if name == "echo":
            text = (params.get("arguments") or {}).get("text", "")
            return {"content": [{"type": "text", "text": text}]}
        if name == "fail":
            return {"content": [{"type": "text", "text": "no"}],
                    "isError": True}
        return {"__error__": {"code": -32602, "message": "unknown tool"}}
    return {"__error__": {"code": -32601, "message": "no such method"}}


for raw in sys.stdin.buffer:
    try:
        req = json.loads(raw)
    except ValueError:
        continue
    if "id" not in req or "method" not in req or MUTE:
        continue                # a notification or a response
    if LOG:
        with open(LOG, "a") as f:
            f.write(" ".join([req["method"]] + ([str(
                (req.get("params") or {}).get("name"))]
                if req["method"] == "tools/call" else [])) + "\n")
    if HOSTILE:
        hostile()
    res = answer(req)
    for _ in range(2 if TWICE and req["method"] == "tools/call" else 1):
        if "__error__" in res:
            send({"jsonrpc": "2.0", "id": req["id"], "error": res["__error__"]})
        else:
            send({"jsonrpc": "2.0", "id": req["id"], "result": res})
