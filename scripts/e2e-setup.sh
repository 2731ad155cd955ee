#!/bin/sh
# e2e-setup.sh - install the pinned MCP packages the end-to-end tests, the
# demo and the benchmarks use, and pre-warm npx's cache for the pinned
# server-everything. Idempotent: a second run with the same pins is a no-op
# that touches no network.
#
#   sh scripts/e2e-setup.sh [--check]
#       --check  install nothing; exit 0 when everything is in place, 1 if not
#
# What goes where (all under build/, which git ignores):
#   build/node/package.json, package-lock.json   copies of test/e2e/'s pins
#   build/node/node_modules/                     `npm ci` of those pins:
#       @modelcontextprotocol/sdk (the client), server-everything (the server)
#   build/node/npm-cache/                        an npm cache directory used
#       only for `npx -y @modelcontextprotocol/server-everything@PINNED`:
#       npm keeps packages in npm-cache/_cacache and npx installs the package
#       in npm-cache/_npx/HASH/node_modules. npx only finds it when its
#       process sees npm_config_cache=<this dir> (and, to forbid any network
#       fetch, npm_config_offline=true); by default npm uses $HOME/.npm, and
#       a runner lease has a HOME of its own, so the tests pass both variables
#       in the spawn request's env.
#   build/node/.stamp, .stamp-npx                what was installed, and for
#       which node version; a mismatch reinstalls.
#
# Needs node >= 20 and npm, and the npm registry the first time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/node
pins=$top/test/e2e
check=0
[ "${1:-}" = --check ] && check=1

die() {
	echo "e2e-setup: $*" >&2
	exit 1
}

command -v node >/dev/null 2>&1 || die "node not found (install Node.js 20 and npm)"
command -v npm >/dev/null 2>&1 || die "npm not found"
command -v npx >/dev/null 2>&1 || die "npx not found"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || die "node $(node --version) is too old; need >= 20"

everything=$(node -p 'require(process.argv[1]).dependencies["@modelcontextprotocol/server-everything"]' \
	"$pins/package.json")
want=$(cat "$pins/package.json" "$pins/package-lock.json" | sha256sum | cut -d' ' -f1)
want="$want node-$(node --version)"
want_npx="server-everything@$everything node-$(node --version)"

installed() {
	[ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$want" ] &&
		[ -f "$dir/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ] &&
		[ -f "$dir/node_modules/@modelcontextprotocol/sdk/package.json" ]
}
npx_warm() {
	[ -f "$dir/.stamp-npx" ] && [ "$(cat "$dir/.stamp-npx")" = "$want_npx" ] &&
		[ -d "$dir/npm-cache/_npx" ]
}

if [ "$check" = 1 ]; then
	installed || die "packages not installed in $dir (run sh scripts/e2e-setup.sh)"
	npx_warm || die "npx cache not warm in $dir/npm-cache (run sh scripts/e2e-setup.sh)"
	exit 0
fi

mkdir -p "$dir"
# Serialise concurrent runs (make check in two shells): flock is in
# util-linux; without it the stamps still make a rerun correct.
if command -v flock >/dev/null 2>&1 && [ -z "${E2E_SETUP_LOCKED:-}" ]; then
	E2E_SETUP_LOCKED=1 exec flock "$dir/.lock" sh "$0" "$@"
fi

if installed; then
	echo "e2e-setup: packages up to date in build/node"
else
	echo "e2e-setup: npm ci into build/node"
	rm -f "$dir/.stamp"
	cp "$pins/package.json" "$pins/package-lock.json" "$dir/"
	(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
	installed_sdk=$(node -p 'require(process.argv[1]).version' \
		"$dir/node_modules/@modelcontextprotocol/sdk/package.json")
	echo "e2e-setup: @modelcontextprotocol/sdk $installed_sdk," \
		"@modelcontextprotocol/server-everything $everything"
	echo "$want" >"$dir/.stamp"
fi

if npx_warm; then
	echo "e2e-setup: npx cache warm in build/node/npm-cache"
else
	echo "e2e-setup: warming npx cache for server-everything@$everything"
	rm -f "$dir/.stamp-npx"
	mkdir -p "$dir/npm-cache"
	# An unknown transport name makes server-everything print its
	# transports and exit 1 at once: proof that npx found and ran it.
	out=$(cd / && npm_config_cache="$dir/npm-cache" npm_config_update_notifier=false \
		npx -y "@modelcontextprotocol/server-everything@$everything" e2e-setup-probe \
		</dev/null 2>/dev/null) || true
	case $out in
	*"Available transports:"*) ;;
	*) die "npx could not run server-everything@$everything (got: $out)" ;;
	esac
	# The same again offline: what the tests and the demo rely on.
	out=$(cd / && npm_config_cache="$dir/npm-cache" npm_config_offline=true \
		npm_config_update_notifier=false \
		npx -y "@modelcontextprotocol/server-everything@$everything" e2e-setup-probe \
		</dev/null 2>/dev/null) || true
	case $out in
	*"Available transports:"*) ;;
	*) die "offline npx run of server-everything@$everything failed (got: $out)" ;;
	esac
	echo "$want_npx" >"$dir/.stamp-npx"
fi
