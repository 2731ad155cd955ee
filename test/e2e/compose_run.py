"""compose_run.py - one service of deploy/compose.yaml as `podman run`
arguments, for test/deploy.test: the container is booted with exactly the
options the Compose file gives it.

  python3 compose_run.py COMPOSE SERVICE DIR PORT MPORT [HOST=PATH]...

prints the arguments after `podman run` (or `docker run`: the options
are the ones both take), one per line: the options, the image, then the
service's command. What the test changes, and only that:
  networks         --network host (the network mode podman runs here)
  --listen ADDR    127.0.0.1:PORT (the host's loopback, a free port)
  --metrics ADDR   127.0.0.1:MPORT, and the healthcheck's URL with it
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
         "volumes", "networks", "init", "profiles", "stop_grace_period",
         "mem_reservation", "cpus", "healthcheck"}


def seconds(key, v):
    v = str(v)
    if not v.endswith("s") or not v[:-1].isdigit():
        fail("%s %s: only whole seconds (30s) are translated" % (key, v))
    return v[:-1]


def fail(msg):
    sys.stderr.write("compose_run: %s\n" % msg)
    sys.exit(1)


def main():
    if len(sys.argv) < 6:
        fail("usage: compose_run.py COMPOSE SERVICE DIR PORT MPORT [HOST=PATH]...")
    path, name, tdir, port, mport = sys.argv[1:6]
    hostmap = dict(a.split("=", 1) for a in sys.argv[6:])
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
    for c in svc.get("cap_drop", []):
        out += ["--cap-drop", c]
    for c in svc.get("cap_add", []):
        out += ["--cap-add", c]
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
    if "mem_reservation" in svc:
        out += ["--memory-reservation", str(svc["mem_reservation"])]
    if "cpus" in svc:
        out += ["--cpus", str(svc["cpus"])]
    if "stop_grace_period" in svc:
        out += ["--stop-timeout", seconds("stop_grace_period", svc["stop_grace_period"])]
    metrics = None
    cmd = list(svc.get("command", []))
    for i in range(len(cmd) - 1):
        if cmd[i] == "--listen":
            cmd[i + 1] = "127.0.0.1:" + port
        elif cmd[i] == "--metrics":
            metrics = cmd[i + 1]
            cmd[i + 1] = "127.0.0.1:" + mport
    hc = svc.get("healthcheck")
    if hc:
        unknown = set(hc) - {"test", "interval", "timeout", "retries", "start_period"}
        if unknown or hc["test"][0] != "CMD" or not metrics:
            fail("healthcheck of %s: only CMD probes of its --metrics are translated" % name)
        # both runtimes run a string through /bin/sh -c (the images have it)
        test = " ".join(a.replace("//" + metrics + "/", "//127.0.0.1:" + mport + "/")
                        for a in hc["test"][1:])
        out += ["--health-cmd", test,
                "--health-interval", seconds("interval", hc["interval"]) + "s",
                "--health-timeout", seconds("timeout", hc["timeout"]) + "s",
                "--health-retries", str(hc["retries"]),
                "--health-start-period", seconds("start_period", hc["start_period"]) + "s"]
    if "pids_limit" in svc:
        out += ["--pids-limit", str(svc["pids_limit"])]
    for v in svc.get("volumes", []):
        src, rest = v.split(":", 1)
        if src in named:	# made as an engine makes a volume: root's, 0755
            src = os.path.join(tdir, "volumes", src)
            os.makedirs(src, mode=0o755, exist_ok=True)
        elif src.startswith("./"):
            src = local(src)
        elif src in hostmap:
            src = hostmap[src]
        else:
            fail("volume %s: no test path for host path %s" % (v, src))
        out += ["-v", "%s:%s" % (src, rest)]
    out.append("localhost/" + svc["image"])
    out += cmd
    sys.stdout.write("".join(a + "\n" for a in out))


main()
