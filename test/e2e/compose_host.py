"""compose_host.py - deploy/compose.yaml for an engine that has only the
host's network (Docker without iptables and a bridge), for
test/deploy.test's docker-compose case:

  python3 compose_host.py COMPOSE OUT RUNNER_PORT RUNNER_MPORT \
      SANDBOX_PORT SANDBOX_MPORT [NPMRC]

writes OUT: COMPOSE with only these changes, each one the test makes:
  networks         dropped; every service network_mode: host
  --listen ADDR    127.0.0.1:PORT of its service (free loopback ports)
  --metrics ADDR   127.0.0.1:MPORT, and the healthcheck's URL with it
  image NAME       localhost/NAME (the name `docker load` gave it)
  NPMRC            the host's CA bundle and an npmrc naming it, mounted in
                   the runner (a TLS-intercepting proxy)
"""
import sys

import yaml


def main():
    if len(sys.argv) not in (7, 8):
        sys.stderr.write("usage: compose_host.py COMPOSE OUT RPORT RMPORT SPORT SMPORT [NPMRC]\n")
        sys.exit(1)
    src, dst, rport, rmport, sport, smport = sys.argv[1:7]
    npmrc = sys.argv[7] if len(sys.argv) == 8 else ""
    with open(src) as f:
        doc = yaml.safe_load(f)
    ports = {"airlock-runner": (rport, rmport), "airlock-sandbox": (sport, smport)}
    for name, svc in doc["services"].items():
        svc.pop("networks", None)
        svc["network_mode"] = "host"
        if name not in ports:
            continue
        svc["image"] = "localhost/" + svc["image"]
        cmd = svc["command"]
        for i in range(len(cmd) - 1):
            if cmd[i] == "--listen":
                cmd[i + 1] = "127.0.0.1:" + ports[name][0]
            elif cmd[i] == "--metrics":
                old, cmd[i + 1] = cmd[i + 1], "127.0.0.1:" + ports[name][1]
                hc = svc["healthcheck"]
                hc["test"] = [a.replace("//%s/" % old, "//%s/" % cmd[i + 1]) for a in hc["test"]]
        if name == "airlock-runner" and npmrc:
            svc["volumes"] += [
                "/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro",
                npmrc + ":/usr/local/etc/npmrc:ro"]
    doc.pop("networks", None)
    with open(dst, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False)


main()
