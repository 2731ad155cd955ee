#!/bin/sh
# deps.sh - build libseccomp and BearSSL as static musl libraries from
# Debian's own source packages (Debian's -dev archives are glibc builds with
# _FORTIFY_SOURCE and do not link under musl-gcc).
#
# usage: sh scripts/deps.sh [PREFIX]        (default: build/deps)
#
# PREFIX/include  seccomp.h bearssl*.h, and linux/ asm/ asm-generic/ links to
#                 the kernel UAPI headers (Debian's musl-gcc does not see them)
# PREFIX/lib      libseccomp.a libbearssl.a
# PREFIX/src      the exact Debian source packages built (LGPL-2.1 relinking)
# PREFIX/share/licenses/{libseccomp,bearssl}
#
# Idempotent: a library with its stamp file and archive is left alone, and
# then nothing is installed or downloaded.
set -eu

log() { printf 'deps: %s\n' "$*" >&2; }
fail() { log "error: $*"; exit 1; }

mkdir -p "${1:-build/deps}"
PREFIX=$(cd "${1:-build/deps}" && pwd -P)
case $PREFIX in *[!A-Za-z0-9._/+,=:~-]*) fail "unsafe prefix path: $PREFIX" ;; esac
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
WORK=$PREFIX/.work
# the build's packages: the "build" lines of the one package list
PACKAGES=$(awk '$1 == "build" { print $2 }' "$(dirname "$0")/packages.list")

need_root() {
	[ "$(id -u)" -eq 0 ] || fail "root is needed to $1 (run: sudo sh $0)"
}

# quietly LOG CMD...: run CMD, keep its output in LOG, show the tail on error.
quietly() {
	q_log=$1
	shift
	"$@" >>"$q_log" 2>&1 || { tail -n 30 "$q_log" >&2; fail "$* (log: $q_log)"; }
}

install_missing_packages() {
	missing=
	for p in $PACKAGES; do
		dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null |
			grep -qx installed || missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	need_root "install$missing"
	log "installing$missing"
	quietly "$WORK/apt.log" apt-get update -qq
	# shellcheck disable=SC2086
	quietly "$WORK/apt.log" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $missing
}

has_source_index() { apt-cache showsrc "$1" 2>/dev/null | grep -q '^Package:'; }

# deb-src entries are copies of the machine's own deb entries, so no host
# name is ever written here.
enable_deb_src() {
	has_source_index libseccomp && has_source_index bearssl && return 0
	need_root "enable deb-src entries"
	parts=/etc/apt/sources.list.d
	out=$parts/airlock-deb-src.sources
	tmp=$(mktemp)
	for f in "$parts"/*.sources; do
		[ -f "$f" ] && [ "$f" != "$out" ] || continue
		awk '
		function emit(  i) {
			if (n && deb && !off) { for (i = 1; i <= n; i++) print line[i]; print "" }
			n = 0; deb = 0; off = 0
		}
		/^[ \t]*$/ { emit(); next }
		tolower($1) == "types:" {
			for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1
			line[++n] = "Types: deb-src"; next
		}
		tolower($1) == "enabled:" && tolower($2) == "no" { off = 1 }
		{ line[++n] = $0 }
		END { emit() }' "$f"
	done >"$tmp"
	for f in /etc/apt/sources.list "$parts"/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]\{1,\}/deb-src /p' "$f"
	done >"$tmp.list"
	[ -s "$tmp" ] && install -m 0644 "$tmp" "$out"
	[ -s "$tmp.list" ] && install -m 0644 "$tmp.list" "$parts/airlock-deb-src.list"
	rm -f "$tmp" "$tmp.list"
	log "enabled deb-src entries derived from the existing apt sources"
	quietly "$WORK/apt.log" apt-get update -qq
	has_source_index libseccomp && has_source_index bearssl ||
		fail "apt has no source package for libseccomp/bearssl"
}

# fetch NAME: download Debian's source package once; sets DSC and VERSION.
fetch() {
	dir=$PREFIX/src/$1
	mkdir -p "$dir"
	if ! ls "$dir"/*.dsc >/dev/null 2>&1; then
		enable_deb_src
		log "downloading the Debian source package of $1"
		dl=$(mktemp -d "$dir/.dl.XXXXXX")
		# apt drops to the _apt user for downloads; let it write here.
		[ "$(id -u)" -ne 0 ] || ! id -u _apt >/dev/null 2>&1 || chown _apt "$dl"
		(cd "$dl" && apt-get source --download-only -qq "$1") >&2 ||
			fail "apt-get source $1 failed"
		chown -R "$(id -u):$(id -g)" "$dl"
		mv "$dl"/* "$dir"/
		rmdir "$dl"
	fi
	set -- "$dir"/*.dsc
	DSC=$1
	VERSION=$(sed -n 's/^Version: //p' "$DSC")
}

kernel_header_links() {
	arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
	mkdir -p "$1"
	for pair in linux:/usr/include/linux asm-generic:/usr/include/asm-generic \
		asm:/usr/include/$arch/asm; do
		[ -d "${pair#*:}" ] || fail "${pair#*:} is missing (linux-libc-dev)"
		ln -sfn "${pair#*:}" "$1/${pair%%:*}"
	done
}

build_bearssl() {
	fetch bearssl
	src=$WORK/bearssl
	rm -rf "$src"
	quietly "$src.log" dpkg-source -x "$DSC" "$src"
	mkdir -p "$src/build/obj"	# the object rules race on it under -j
	quietly "$src.log" make -C "$src" -j"$JOBS" lib CC=musl-gcc AR=ar
	mkdir -p "$PREFIX/lib" "$PREFIX/include" "$PREFIX/share/licenses/bearssl"
	cp "$src/build/libbearssl.a" "$PREFIX/lib/"
	cp "$src"/inc/*.h "$PREFIX/include/"
	cp "$src/LICENSE.txt" "$PREFIX/share/licenses/bearssl/"
	echo "$VERSION" >"$PREFIX/.stamp-bearssl"
	log "built BearSSL $VERSION"
}

build_libseccomp() {
	fetch libseccomp
	src=$WORK/libseccomp
	rm -rf "$src"
	quietly "$src.log" dpkg-source -x "$DSC" "$src"
	kernel_header_links "$WORK/kinc"
	(cd "$src" && quietly "$src.log" ./configure CC=musl-gcc CFLAGS=-O2 \
		CPPFLAGS="-isystem $WORK/kinc" --prefix="$PREFIX" \
		--enable-static --disable-shared --disable-dependency-tracking)
	quietly "$src.log" make -C "$src/src" -j"$JOBS"
	quietly "$src.log" make -C "$src/include" install
	quietly "$src.log" make -C "$src/src" install
	rm -f "$PREFIX/lib/libseccomp.la"
	mkdir -p "$PREFIX/share/licenses/libseccomp"
	cp "$src/LICENSE" "$PREFIX/share/licenses/libseccomp/"
	echo "$VERSION" >"$PREFIX/.stamp-libseccomp"
	log "built libseccomp $VERSION"
}

for lib in bearssl libseccomp; do
	if [ -f "$PREFIX/.stamp-$lib" ] && [ -f "$PREFIX/lib/lib${lib#lib}.a" ]; then
		continue
	fi
	mkdir -p "$WORK"
	install_missing_packages
	"build_$lib"
done
kernel_header_links "$PREFIX/include"
rm -rf "$WORK"
