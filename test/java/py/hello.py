# hello.py - a benign tool: JSON in, JSON out.
import json, sys
data = json.load(sys.stdin)
print(json.dumps({"ok": True, "keys": sorted(data), "n": len(data)}))
