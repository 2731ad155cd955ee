# podman.sh - how this project runs podman; sourced (POSIX sh) by
# scripts/images.sh and test/deploy.test.
#
#   PODMAN            podman with the runtime and rlimits every build and
#                     run here needs (a command line: use it unquoted)
#   podman_runtime    runc unless PODMAN_RUNTIME says otherwise: crun
#                     refuses a host whose cgroups are in hybrid mode
#   podman_ulimits    --ulimit flags runc can set here: without
#                     CAP_SYS_RESOURCE it fails to raise podman's defaults
#                     ("error setting rlimit type 7"), so nofile is the
#                     host's hard limit; nproc is 1024 (the host's own fails
#                     with "rlimit type 6"), which binds no uid-0 process:
#                     the kernel exempts root, and leases get the runner's
#                     --nproc
#   podman_conf DIR   writes DIR/containers.conf with the same runtime and
#                     rlimits, for `podman kube play` (no flags for them);
#                     prints its path
#   podman_probe      0 when podman runs a container here; otherwise 1 and
#                     the exact reason on stdout. Really runs one: a FROM
#                     scratch image of the static ./airlock, `--version`.

podman_runtime=${PODMAN_RUNTIME:-runc}
podman_nofile=$(ulimit -Hn)
podman_nproc=1024
[ "$podman_nofile" = unlimited ] && podman_nofile=1048576
podman_ulimits="--ulimit nofile=$podman_nofile:$podman_nofile --ulimit nproc=$podman_nproc:$podman_nproc"
PODMAN="podman --runtime $podman_runtime"

podman_conf() {
	cat >"$1/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$podman_nofile:$podman_nofile", "nproc=$podman_nproc:$podman_nproc"]
[engine]
runtime = "$podman_runtime"
EOF
	echo "$1/containers.conf"
}

podman_probe() {
	command -v podman >/dev/null 2>&1 || { echo "podman is not installed"; return 1; }
	command -v "$podman_runtime" >/dev/null 2>&1 ||
		{ echo "$podman_runtime (the OCI runtime) is not installed"; return 1; }
	p_bin=${AIRLOCK:-./airlock}
	[ -x "$p_bin" ] || { echo "no $p_bin to put in a probe image"; return 1; }
	p_dir=$(mktemp -d /tmp/airlock-probe.XXXXXX) || return 1
	cp "$p_bin" "$p_dir/airlock"
	p_out=$(tar -C "$p_dir" -cf - airlock |
		podman import --quiet - localhost/airlock-probe:latest 2>&1) || {
		rm -rf "$p_dir"
		echo "podman import failed: $p_out" | head -n 3
		return 1
	}
	rm -rf "$p_dir"
	# shellcheck disable=SC2086
	p_out=$($PODMAN run --rm --network none $podman_ulimits \
		localhost/airlock-probe:latest /airlock --version 2>&1)
	p_rc=$?
	podman rmi --force localhost/airlock-probe:latest >/dev/null 2>&1
	case $p_rc:$p_out in
	0:airlock*) return 0 ;;
	esac
	echo "podman cannot run a container here: $(printf '%s' "$p_out" | tail -n 2 | tr '\n' ' ')"
	return 1
}
