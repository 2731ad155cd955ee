#!/bin/sh
# packages.sh - the Debian packages of scripts/packages.list.
#
#   sh scripts/packages.sh install [USE...]   install what is missing (root);
#                                             default uses: build test
#   sh scripts/packages.sh missing [USE...]   print the missing packages
#
# A package counts as missing when one of the commands it is listed for is
# not on PATH (a machine may have node from elsewhere: its npm is then
# left alone), or, when it names none, when dpkg does not have it.
# Without root, `install` names what is missing and how to install it, and
# exits 0: the tests that need it then skip, each saying so.
set -eu
list=$(dirname "$0")/packages.list
log() { printf 'packages: %s\n' "$*" >&2; }

missing() {
	awk -v uses=" $* " '!/^#/ && NF >= 3 && index(uses, " " $1 " ")' "$list" |
	while read -r _use pkg cmds; do
		if [ "$cmds" = - ]; then
			dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null |
				grep -qx installed || echo "$pkg"
			continue
		fi
		for c in $cmds; do
			command -v "$c" >/dev/null 2>&1 || { echo "$pkg"; break; }
		done
	done
}

cmd=${1:-install}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- build test
case $cmd in
missing) missing "$@" ;;
install)
	pkgs=$(missing "$@" | tr '\n' ' ')
	[ -n "$pkgs" ] || exit 0
	if [ "$(id -u)" -ne 0 ]; then
		log "missing: $pkgs(as root: sh scripts/packages.sh install)"
		exit 0
	fi
	log "installing $pkgs"
	apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $pkgs >/dev/null
	left=$(missing "$@" | tr '\n' ' ')
	[ -z "$left" ] || { log "error: still missing after apt-get: $left"; exit 1; }
	;;
*) log "usage: sh scripts/packages.sh install|missing [build|test ...]"; exit 2 ;;
esac
