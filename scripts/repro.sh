#!/bin/sh
# repro.sh - build the tree twice from clean copies in two different
# folders (sharing only the already-built dependencies) and require
# byte-identical binaries.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s build/deps/.stamp-bearssl build/deps/.stamp-libseccomp
work=$(mktemp -d /tmp/airlock-repro.XXXXXX)
trap 'rm -rf "$work"' EXIT
for side in a b; do
	mkdir -p "$work/$side/build"
	git ls-files -z --cached --others --exclude-standard | xargs -0 tar cf - | tar xf - -C "$work/$side"
	cp -a build/deps "$work/$side/build/deps"
	touch "$work/$side/build/deps/.stamp-"*	# newer than scripts/deps.sh
	make -s -C "$work/$side" airlock >/dev/null
done
a=$(sha256sum <"$work/a/airlock")
b=$(sha256sum <"$work/b/airlock")
size=$(wc -c <"$work/a/airlock")
if [ "$a" != "$b" ]; then
	echo "repro: FAIL: the two builds differ" >&2
	exit 1
fi
echo "repro: identical builds: ${a%% *} ($size bytes, stripped)"
