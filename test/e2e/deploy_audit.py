"""deploy_audit.py - what an auditor checks in deploy/compose.yaml and
deploy/kubernetes.yaml, read from the files (test/deploy.test; the
containers' behaviour is the rest of that test):

  python3 deploy_audit.py COMPOSE KUBERNETES

prints one line per property that does not hold, "COMPOSE-OR-K8S: what",
and "ok: N properties" when all do (exit 0), else exit 1.
"""
import ipaddress
import sys

import yaml

PRIVATE = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16"]
failures = []
checked = 0


def need(cond, what):
    global checked
    checked += 1
    if not cond:
        failures.append(what)


def tagged(image):
    name = image.split("@")[0]
    return ":" in name.rsplit("/", 1)[-1]


def probe_of(argv, path):
    """argv runs `airlock probe` on the loopback metrics endpoint, PATH"""
    return (len(argv) == 3 and argv[0].endswith("airlock") and argv[1] == "probe"
            and argv[2].startswith("http://127.0.0.1:") and argv[2].endswith(path))


def compose(path):
    doc = yaml.safe_load(open(path))
    for name in ("airlock-runner", "airlock-sandbox"):
        svc = doc["services"][name]
        where = "compose %s" % name
        cmd = svc["command"]
        need("--metrics" in cmd and cmd[cmd.index("--metrics") + 1].startswith("127.0.0.1:"),
             where + ": --metrics on the loopback")
        hc = svc.get("healthcheck", {}).get("test", [])
        need(hc[:1] == ["CMD"] and probe_of(hc[1:], "/healthz"),
             where + ": a healthcheck of airlock probe /healthz")
        need(tagged(svc["image"]), where + ": an image with a tag")
        need(svc.get("read_only") is True, where + ": a read-only root")
        tmpfs = svc.get("tmpfs", [])
        need(tmpfs and all("size=" in t for t in tmpfs), where + ": a size on every tmpfs")
        vols = svc.get("volumes", [])
        floor = floor_volume(doc, svc)
        need(all(v.endswith(":ro") or v.startswith("/sys/fs/cgroup/") or v == floor
                 for v in vols),
             where + ": no writable volume but the delegated cgroups and --floor-dir's")
        for key in ("mem_limit", "mem_reservation", "cpus", "pids_limit"):
            need(key in svc, where + ": " + key)
        need(svc.get("cap_drop") == ["ALL"], where + ": cap_drop ALL")
        need("no-new-privileges:true" in svc.get("security_opt", []), where + ": no-new-privileges")
        caps = set(svc.get("cap_add", []))
        need(caps <= ALLOWED_CAPS, where + ": no capability beyond " + ", ".join(sorted(ALLOWED_CAPS)))
        if "SYS_ADMIN" in caps:
            need(any(o.startswith("seccomp=./") for o in svc.get("security_opt", [])),
                 where + ": SYS_ADMIN only under airlock's seccomp profile")
        need(not any(o.endswith("=unconfined") for o in svc.get("security_opt", [])),
             where + ": no confinement lifted (seccomp, /proc's masks, AppArmor)")
    need("--shared-network" not in doc["services"]["airlock-runner"]["command"],
         "compose airlock-runner: a network namespace per lease (no --shared-network)")
    floors = [floor_volume(doc, doc["services"][n]) for n in ("airlock-runner", "airlock-sandbox")]
    need(set(doc.get("volumes") or {}) <= {f.split(":")[0] for f in floors if f},
         "compose: no named volume (no size can be given) but --floor-dir's")


def floor_volume(doc, svc):
    """The one unsized volume allowed: the named volume mounted at the
    runner's --floor-dir, where only the runner writes (one small file a
    reviewer key; no lease can reach it). "NAME:DIR", or None."""
    cmd = svc.get("command", [])
    if "--floor-dir" not in cmd:
        return None
    want = cmd[cmd.index("--floor-dir") + 1]
    for v in svc.get("volumes", []):
        src, _, dst = v.partition(":")
        if dst == want and src in (doc.get("volumes") or {}):
            return v
    return None


# uid mode's three, and what a network namespace per lease adds (with the
# runner program's seccomp profile: docs/DEPLOY.md)
ALLOWED_CAPS = {"SETUID", "SETGID", "KILL", "SYS_ADMIN", "NET_ADMIN"}


def kubernetes(path):
    docs = {d["kind"]: d for d in yaml.safe_load_all(open(path))}
    pod = docs["StatefulSet"]["spec"]["template"]["spec"]
    (c,) = pod["containers"]
    need("--metrics 127.0.0.1:" in " ".join(c.get("args", [])), "k8s: --metrics on the loopback")
    need(probe_of(c.get("livenessProbe", {}).get("exec", {}).get("command", []), "/healthz"),
         "k8s: a livenessProbe of airlock probe /healthz")
    need(probe_of(c.get("readinessProbe", {}).get("exec", {}).get("command", []), "/readyz"),
         "k8s: a readinessProbe of airlock probe /readyz")
    need(tagged(c["image"]), "k8s: an image with a tag")
    res = c.get("resources", {})
    for r in ("cpu", "memory", "ephemeral-storage"):
        need(r in res.get("limits", {}) and res.get("requests", {}).get(r) == res["limits"][r],
             "k8s: %s requested and limited, equal (Guaranteed)" % r)
    vols = {v["name"]: v for v in pod["volumes"]}
    secrets = [v for v in vols.values() if "secret" in v]
    need(secrets and all(v["secret"].get("defaultMode") == 0o400 for v in secrets),
         "k8s: secret volumes 0400 (defaultMode)")
    for v in vols.values():
        if "emptyDir" in v:
            need("sizeLimit" in (v["emptyDir"] or {}), "k8s: sizeLimit on emptyDir " + v["name"])
    need(not any("subPath" in m for m in c.get("volumeMounts", [])),
         "k8s: no subPath mount (never updated in place)")
    need(c.get("securityContext", {}).get("readOnlyRootFilesystem") is True,
         "k8s: a read-only root")
    sc = c.get("securityContext", {})
    caps = set(sc.get("capabilities", {}).get("add", []))
    need(caps <= ALLOWED_CAPS, "k8s: no capability beyond " + ", ".join(sorted(ALLOWED_CAPS)))
    if "SYS_ADMIN" in caps:
        need(sc.get("seccompProfile", {}).get("type") == "Localhost",
             "k8s: SYS_ADMIN only under airlock's seccomp profile")
    need("--shared-network" not in " ".join(c.get("args", [])),
         "k8s: a network namespace per lease (no --shared-network)")
    args = " ".join(c.get("args", [])).split()
    floor = args[args.index("--floor-dir") + 1] if "--floor-dir" in args else None
    claims = {t["metadata"]["name"] for t in docs["StatefulSet"]["spec"].get("volumeClaimTemplates", [])}
    need(any(m["mountPath"] == floor and m["name"] in claims for m in c.get("volumeMounts", [])),
         "k8s: --floor-dir on a volumeClaimTemplate (the floor outlives the pod)")
    pdb = docs.get("PodDisruptionBudget")
    need(pdb is not None and pdb["spec"]["selector"] == docs["StatefulSet"]["spec"]["selector"],
         "k8s: a PodDisruptionBudget for the runners")
    egress = docs["NetworkPolicy"]["spec"]["egress"]
    need(all(rule.get("to") and rule.get("ports") for rule in egress),
         "k8s: every egress rule names where and which ports")
    for rule in egress:
        ports = {p["port"] for p in rule.get("ports", [])}
        peers = rule.get("to", [])
        if 53 in ports:
            need(peers and all("ipBlock" not in p and p.get("namespaceSelector", {}).get("matchLabels") ==
                     {"kubernetes.io/metadata.name": "kube-system"} and
                     p.get("podSelector", {}).get("matchLabels") == {"k8s-app": "kube-dns"}
                     for p in peers), "k8s: DNS only to kube-system's kube-dns")
        for p in peers:
            block = p.get("ipBlock")
            if block:
                except_ = [ipaddress.ip_network(e) for e in block.get("except", [])]
                for net in PRIVATE:
                    n = ipaddress.ip_network(net)
                    need(any(n.subnet_of(e) for e in except_),
                         "k8s: %s excluded from the %s rule" % (net, sorted(ports)))


compose(sys.argv[1])
kubernetes(sys.argv[2])
for f in failures:
    print(f)
if failures:
    sys.exit(1)
print("ok: %d properties" % checked)
