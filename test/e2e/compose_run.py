"""compose_run.py - one service of deploy/compose.yaml as `podman run`
arguments, for test/deploy.test: the container is booted with exactly the
options the Compose file gives it.

  python3 compose_run.py COMPOSE SERVICE DIR PORT [HOST=PATH]...

prints the arguments after `podman run`, one per line: the options, the
image, then the service's command. What the test changes, and only that:
  networks         --network host (the network mode podman runs here)
  --listen ADDR    127.0.0.1:PORT (the host's loopback, a free port)
  ./FILE, secrets  DIR/FILE (the test's copies of the files Compose names)
  named volumes    DIR/volumes/NAME
  HOST=PATH        a host path the file mounts (the cgroup directories)
                   replaced by the test's own
  image NAME       localhost/NAME (podman's name for a local image)
A key this script does not know is an error: the test must not boot a
container with an option silently left out.
"""
import os
import sys

import yaml

KNOWN = {"image", "command", "environment", "secrets", "cap_drop", "cap_add",
         "security_opt", "read_only", "tmpfs", "mem_limit", "pids_limit",
         "volumes", "networks", "init", "profiles", "stop_grace_period"}


def fail(msg):
    sys.stderr.write("compose_run: %s\n" % msg)
    sys.exit(1)


def main():
    if len(sys.argv) < 5:
        fail("usage: compose_run.py COMPOSE SERVICE DIR PORT [HOST=PATH]...")
    path, name, tdir, port = sys.argv[1:5]
    hostmap = dict(a.split("=", 1) for a in sys.argv[5:])
    with open(path) as f:
        doc = yaml.safe_load(f)
    svc = doc["services"].get(name) or fail("no service %s" % name)
    unknown = set(svc) - KNOWN
    if unknown:
        fail("service %s: keys not translated: %s" % (name, ", ".join(sorted(unknown))))
    secrets = doc.get("secrets", {})
    named = set(doc.get("volumes", {}) or {})

    def local(p):
        return os.path.join(tdir, p[2:]) if p.startswith("./") else p

    out = ["--network", "host"]
    if svc.get("init"):
        out.append("--init")
    for k, v in (svc.get("environment") or {}).items():
        out += ["-e", "%s=%s" % (k, v)]
    for s in svc.get("secrets", []):
        src = secrets[s]["file"]
        out += ["-v", "%s:/run/secrets/%s:ro" % (local(src), s)]
    if svc.get("cap_drop"):
        out += ["--cap-drop", ",".join(svc["cap_drop"])]
    if svc.get("cap_add"):
        out += ["--cap-add", ",".join(svc["cap_add"])]
    for o in svc.get("security_opt", []):
        if o == "no-new-privileges:true":
            o = "no-new-privileges"
        elif o.startswith("seccomp=./"):
            o = "seccomp=" + local(o[len("seccomp="):])
        out += ["--security-opt", o]
    if svc.get("read_only"):
        out.append("--read-only")
    for t in svc.get("tmpfs", []):
        out += ["--tmpfs", t]
    if "mem_limit" in svc:
        out += ["--memory", str(svc["mem_limit"])]
    if "stop_grace_period" in svc:
        g = str(svc["stop_grace_period"])
        if not g.endswith("s") or not g[:-1].isdigit():
            fail("stop_grace_period %s: only whole seconds (30s) are translated" % g)
        out += ["--stop-timeout", g[:-1]]
    if "pids_limit" in svc:
        out += ["--pids-limit", str(svc["pids_limit"])]
    for v in svc.get("volumes", []):
        src, rest = v.split(":", 1)
        if src in named:
            src = os.path.join(tdir, "volumes", src)
        elif src.startswith("./"):
            src = local(src)
        elif src in hostmap:
            src = hostmap[src]
        else:
            fail("volume %s: no test path for host path %s" % (v, src))
        out += ["-v", "%s:%s" % (src, rest)]
    out.append("localhost/" + svc["image"])
    cmd = list(svc.get("command", []))
    for i in range(len(cmd) - 1):
        if cmd[i] == "--listen":
            cmd[i + 1] = "127.0.0.1:" + port
    out += cmd
    sys.stdout.write("".join(a + "\n" for a in out))


main()
