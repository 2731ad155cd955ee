# scratch.sh - sourced (POSIX sh): where the tests and the benchmarks make
# scratch directories the runner and the jail accept.
#
#   scratch_root NAME
#       sets SCRATCH_ROOT. As root: /srv/NAME, made root's and 0711, so a
#       lease's uid can pass through it and no one else can change it (a
#       uid-mode runner refuses a state directory, and every runner a
#       --script-dir, below a directory others can write, a sticky /tmp
#       included; the guard refuses a --script-dir in /var/lib or /run).
#       Otherwise HOME. Returns 1, saying why, when it cannot be made.

scratch_root() {
	if [ "$(id -u)" = 0 ]; then
		SCRATCH_ROOT=/srv/$1
		mkdir -p "$SCRATCH_ROOT" && chown 0:0 "$SCRATCH_ROOT" &&
			chmod 711 "$SCRATCH_ROOT" || {
			echo "scratch: cannot make $SCRATCH_ROOT root's, mode 0711" >&2
			return 1
		}
	else
		SCRATCH_ROOT=${HOME:?scratch: HOME is not set}
	fi
}
