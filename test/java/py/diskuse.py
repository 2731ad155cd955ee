# diskuse.py - uses the writable space in one of several ways, given as
# JSON on stdin, and prints what it managed and the error that stopped it:
#   {"how": "big", "mb": N, "dir": D}   one file of N MiB in D
#   {"how": "small", "n": N}            N empty files (inodes)
#   {"how": "sparse", "gb": G}          a file of G GiB apparent size, one
#                                       4 KiB block written every 64 KiB
#   {"how": "links", "n": N}            N hard links to one file
#   {"how": "spread", "mb": N, "dirs": [D...]}  N MiB into each D
# D defaults to the working directory; "$HOME" and "$TMPDIR" name those.
# With "hold": true it then says "filled" on stderr and sleeps.
import errno, json, os, sys, time

todo = json.load(sys.stdin)
how = todo["how"]
done = 0
err = None

def where(d):
    return {"$HOME": os.environ["HOME"], "$TMPDIR": os.environ["TMPDIR"]}.get(d, d)

def fill(path, mb):
    global done
    block = b"\1" * (1 << 20)
    with open(path, "wb") as f:
        for _ in range(mb):
            f.write(block)
            f.flush()
            done += 1

try:
    if how == "big":
        fill(os.path.join(where(todo.get("dir", ".")), "big.bin"), todo["mb"])
    elif how == "small":
        os.mkdir("many")
        for i in range(todo["n"]):
            open("many/%d" % i, "wb").close()
            done += 1
    elif how == "sparse":
        with open("sparse.bin", "wb") as f:
            f.truncate(todo["gb"] << 30)
            for off in range(0, todo["gb"] << 30, 64 << 10):
                f.seek(off)
                f.write(b"\1" * 4096)
                f.flush()
                done += 1
    elif how == "links":
        open("target", "wb").close()
        for i in range(todo["n"]):
            os.link("target", "link%d" % i)
            done += 1
    elif how == "spread":
        for d in todo["dirs"]:
            fill(os.path.join(where(d), "part.bin"), todo["mb"])
except OSError as e:
    err = errno.errorcode.get(e.errno, str(e.errno))
print(json.dumps({"done": done, "error": err}))
sys.stdout.flush()
if todo.get("hold"):
    sys.stderr.write("filled\n")
    sys.stderr.flush()
    time.sleep(3600)
