#!/bin/sh
# demo.sh - `make demo`: MCP servers run away from their client, in a jail,
# on this machine. Starts `airlock runner` on loopback with a fresh shared
# secret, in ns mode where the host allows it, else uid mode (as root;
# otherwise no jail, said loudly), and has a real MCP client (the official
# SDK) spawn `airlock relay` in place of two servers: server-everything
# (tools, calls, and get-env: the only variables it was given) and
# test/e2e/demo_server.mjs (its uid, and its attempt to read the runner's
# secret file). Shows the runner's lease log and stops everything. Builds
# nothing (make does); installs the pinned npm packages into build/node on
# first use.
#
#   sh scripts/demo.sh [--keep]
#       --keep  leave the runner running after the calls, until Ctrl-C (or
#               SIGTERM), so that the printed server config can be copied
#               into an MCP host and used as it is
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
AIRLOCK=${AIRLOCK:-$top/airlock}	# the binary to demo (default ./airlock)

die() {
	echo "demo: $*" >&2
	exit 1
}
step() {
	printf '\n== %s\n' "$*"
}

keep=0
[ "${1:-}" = --keep ] && keep=1
[ -x "$AIRLOCK" ] || die "no ./airlock here; run make first"
list=$("$AIRLOCK" --list)
if ! printf '%s\n' "$list" | grep -q '^relay ' ||
    ! printf '%s\n' "$list" | grep -q '^runner '; then
	die "this airlock has no relay/runner applet yet (airlock --list)"
fi
command -v node >/dev/null 2>&1 || die "the demo needs Node.js 20 and npm"
sh scripts/e2e-setup.sh --check >/dev/null 2>&1 || sh scripts/e2e-setup.sh >&2 ||
	die "could not install the MCP packages (scripts/e2e-setup.sh)"
. "$top/test/e2e/runner.sh"

# private_parents DIR: DIR and every directory above it can be changed
# only by root or by us (the runner refuses a --script-dir or a reviewer
# key below one that others can write to, /tmp included)
private_parents() {
	d=$1 me=$(id -u)
	while :; do
		set -- $(stat -L -c '%u %a' "$d")
		{ [ "$1" = 0 ] || [ "$1" = "$me" ]; } || return 1
		[ $((0$2 & 022)) = 0 ] || return 1
		[ "$d" = / ] && return 0
		d=$(dirname "$d")
	done
}
# As root the lease runs as a uid of the range, which must pass through
# every directory above its state: scripts/scratch.sh's root-owned 0711
# /srv/airlock-demo (a checkout below /tmp, or in /root, has no such
# path). Otherwise in the build tree; in HOME when the checkout is below
# a directory others can write to.
mkdir -p "$top/build"
if [ "$(id -u)" = 0 ]; then
	. "$top/scripts/scratch.sh"
	scratch_root airlock-demo || die "cannot make /srv/airlock-demo"
	scratch=$SCRATCH_ROOT
else
	scratch=$top/build
	private_parents "$scratch" || scratch=${HOME:?the checkout is below a directory others can write to, and HOME is not set}
fi
private_parents "$scratch" ||
	die "$scratch has a parent others can write to: the runner would refuse its --script-dir"
tmp=$(mktemp -d "$scratch/airlock-demo.XXXXXX")
chmod 711 "$tmp"	# a lease's uid reaches the scripts below it, nothing else
cleanup() {
	runner_stop >/dev/null 2>&1 || :
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

server=$top/build/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js
version=$(node -p 'require(process.argv[1]).version' "${server%/dist/index.js}/package.json")

step "1. a shared secret for runner and relay"
echo "   48 random bytes in $tmp/secret, mode $(umask 077; head -c 48 /dev/urandom >"$tmp/secret"; stat -c %a "$tmp/secret")"
echo "   (the runner refuses to start without one; it never crosses the wire)"

# The jail: ns where the host allows it, else uid (both need root), with a
# uid range of the demo's own.
jail=none range=
if [ "$(id -u)" = 0 ]; then
	range=3990000-3990999
	jail=uid
	"$AIRLOCK" runner --check --jail ns --uid-range "$range" --state-dir "$tmp/state" \
		>/dev/null 2>&1 && jail=ns
fi

step "2. the runner: where MCP servers run (here: loopback, jail $jail)"
# The servers are scripts (node FILE): the runner runs scripts only below a
# --script-dir, by their canonical path, and never from a package
# directory; so copies, with the packages they import beside them (a jailed
# lease reads only its view: no link out of it).
scripts=$tmp/mcp
mkdir -p "$scripts"
cp -R "${server%/dist/index.js}" "$scripts/server-everything"
cp -R "$top/build/node/node_modules" "$scripts/node_modules"
cp test/e2e/demo_server.mjs "$scripts/jail-probe.mjs"
server=$scripts/server-everything/dist/index.js
set -- --script-dir "$scripts"
[ -n "$range" ] && set -- "$@" --uid-range "$range"
RUNNER_JAIL=$jail RUNNER_LOG_FORMAT=human runner_start "$AIRLOCK" "$tmp" "$@" || {
	sed 's/^/   | /' "$RUNNER_LOG" >&2
	die "the runner did not start listening"
}
echo "   airlock runner --listen 127.0.0.1:$RUNNER_PORT --listen unix:$RUNNER_SOCK \\"
echo "       --secret-file $RUNNER_SECRET --state-dir $tmp/state --jail $jail \\"
echo "       $*"
echo "   running as pid $RUNNER_PID, uid $(id -u)"
case $jail in
ns) echo "   each lease: its own uid of $range, user/pid/mount/network namespaces, a read-only"
    echo "   root of the launcher's files, no capabilities, Landlock, seccomp" ;;
uid) echo "   each lease: its own uid of $range and network namespace, no capabilities,"
    echo "   Landlock, seccomp" ;;
*) echo "   NOT root: no jail (--jail none); leases are NOT isolated. As root the"
   echo "   demo runs them in a jail." ;;
esac

step "3. an MCP client spawns the relay instead of the server"
# The host's server config: printed, then used as it is by the client.
# DEMO_API_KEY is named in AIRLOCK_ENV: the only variable of the host's
# the relay forwards. Everything is in the file: it works when copied.
cat >"$tmp/mcp.json" <<EOF
{
  "mcpServers": {
    "everything": {
      "command": "$AIRLOCK",
      "args": ["relay", "--", "node", "$server", "stdio"],
      "env": {
        "AIRLOCK_RUNNER": "tcp://127.0.0.1:$RUNNER_PORT",
        "AIRLOCK_SECRET_FILE": "$RUNNER_SECRET",
        "AIRLOCK_TENANT": "demo",
        "AIRLOCK_REGISTRATION": "everything",
        "AIRLOCK_ENV": "DEMO_API_KEY",
        "DEMO_API_KEY": "demo-key-not-a-secret"
      }
    },
    "jail-probe": {
      "command": "$AIRLOCK",
      "args": ["relay", "--", "node", "$scripts/jail-probe.mjs"],
      "env": {
        "AIRLOCK_RUNNER": "tcp://127.0.0.1:$RUNNER_PORT",
        "AIRLOCK_SECRET_FILE": "$RUNNER_SECRET",
        "AIRLOCK_TENANT": "demo",
        "AIRLOCK_REGISTRATION": "jail-probe"
      }
    }
  }
}
EOF
echo "   The host's server config (an MCP client's JSON; this client reads it):"
echo "--- server config ---"
cat "$tmp/mcp.json"
echo "--- end ---"
echo "   (@modelcontextprotocol/server-everything $version; in production the"
echo "    args would be: relay -- npx -y @modelcontextprotocol/server-everything@$version stdio,"
echo "    with AIRLOCK_APPROVAL and AIRLOCK_ENV too: docs/INTEGRATION.md)"
echo
node test/e2e/demo_client.mjs --config "$tmp/mcp.json" ||
	die "the client failed; runner log: $(tail -n 5 "$RUNNER_LOG")"

step "4. what the runner logged (one line per lease event; --log-format json for machines)"
# Give the runner a moment to write the lease's end (bounded: 2 s).
i=0
while [ "$i" -lt 20 ] && ! grep -q 'lease ended' "$RUNNER_LOG" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
sed 's/^/   /' "$RUNNER_LOG"

if [ "$keep" = 1 ]; then
	step "5. the runner keeps running: copy the config above into an MCP host"
	echo "   (Ctrl-C stops it and removes $tmp)"
	echo "ready: runner pid $RUNNER_PID"
	trap 'keep=0' INT TERM
	while [ "$keep" = 1 ] && kill -0 "$RUNNER_PID" 2>/dev/null; do
		sleep 1 &
		wait $! || :
	done
	trap 'exit 130' INT TERM
fi

step "$((5 + keep)). stop"
if runner_stop; then
	echo "   runner stopped on SIGTERM; nothing left running"
else
	echo "   runner had to be killed"
fi
echo
echo "Next: airlock relay --help, airlock runner --help, and docs/."
