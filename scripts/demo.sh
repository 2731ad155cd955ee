#!/bin/sh
# demo.sh - `make demo`: one MCP server run away from its client, on this
# machine. Starts `airlock runner` on loopback with a fresh shared secret,
# has a real MCP client (the official SDK) spawn `airlock relay` in place of
# the server, lists the server's tools, calls two of them, shows the
# runner's lease log and stops everything. Builds nothing (make does);
# installs the pinned npm packages into build/node on first use.
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
# in the build tree; in HOME when the checkout is below such a directory
mkdir -p "$top/build"
scratch=$top/build
private_parents "$scratch" || scratch=${HOME:?the checkout is below a directory others can write to, and HOME is not set}
private_parents "$scratch" ||
	die "neither $top/build nor $HOME has only private parents: the runner would refuse its --script-dir"
tmp=$(mktemp -d "$scratch/airlock-demo.XXXXXX")
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

step "2. the runner: where MCP servers run (here: loopback, no jail)"
# The server is a script (node FILE): the runner runs scripts only below a
# --script-dir, by their canonical path, and never from a package
# directory; so a copy of it, finding its dependencies through a link.
scripts=$tmp/mcp
mkdir -p "$scripts"
cp -R "${server%/dist/index.js}" "$scripts/server-everything"
ln -s "$top/build/node/node_modules" "$scripts/node_modules"
server=$scripts/server-everything/dist/index.js
RUNNER_LOG_FORMAT=human runner_start "$AIRLOCK" "$tmp" --script-dir "$scripts" || {
	sed 's/^/   | /' "$RUNNER_LOG" >&2
	die "the runner did not start listening"
}
echo "   airlock runner --listen 127.0.0.1:$RUNNER_PORT --listen unix:$RUNNER_SOCK \\"
echo "       --secret-file $RUNNER_SECRET --state-dir $tmp/state --jail none \\"
echo "       --script-dir $scripts"
echo "   running as pid $RUNNER_PID"

step "3. an MCP client spawns the relay instead of the server"
# The host's server config: printed, then used as it is by the client.
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
        "AIRLOCK_REGISTRATION": "everything"
      }
    }
  }
}
EOF
echo "   The host's server config (an MCP client's JSON; this client reads it):"
sed 's/^/     /' "$tmp/mcp.json"
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

step "5. stop"
if runner_stop; then
	echo "   runner stopped on SIGTERM; nothing left running"
else
	echo "   runner had to be killed"
fi
echo
echo "Next: airlock relay --help, airlock runner --help, and docs/."
