# compose.sh - (guest) deploy/compose.yaml's runner service as `ENGINE
# run` arguments, for podman.test and docker.test, so the guest runs the
# shipped options, not a retyped copy: test/e2e/compose_run.py turns the
# file's capabilities, seccomp profile, no-new-privileges, read-only root,
# tmpfs, limits, mounts and healthcheck into arguments (--network host,
# the listener and metrics on the guest's loopback). What the tests
# change, and only that, they say where they call vm_runner_run.
# The command keeps compose.yaml's, less --review-pubkey and --revocations
# (the review gate is deploy.test's; these files test the jail).

# vm_compose_dir DIR: what compose.yaml names beside it, made as
# docs/DEPLOY.md says: the secret (0400, root's), the runner's seccomp
# profile (airlock seccomp --program runner), review/, mcp-scripts/
vm_compose_dir() {
	mkdir -p "$1/review" "$1/mcp-scripts"
	(umask 077 && head -c 48 /dev/urandom >"$1/airlock_secret")
	chmod 400 "$1/airlock_secret"
	"$AIRLOCK" seccomp --program runner --export docker >"$1/airlock-runner-seccomp.json"
}

# vm_runner_argv DIR PORT MPORT: compose.yaml's runner as arguments in
# DIR/runner-PORT.argv, one a line: the options, then the image, then the
# command
vm_runner_argv() {
	python3 test/e2e/compose_run.py deploy/compose.yaml airlock-runner \
		"$1" "$2" "$3" >"$1/runner-$2.argv"
}

# vm_runner_run ENGINE ARGVFILE IMAGE OPTIONS CMDEDIT EXTRA: ENGINE run
# -d with OPTIONS (the test's own, before compose.yaml's), compose.yaml's
# options, IMAGE (this guest's name for it), compose.yaml's command
# through the sed script CMDEDIT (one argument a line), then EXTRA
# (more runner flags). Word splitting on purpose: OPTIONS and EXTRA are
# lists of words without blanks.
vm_runner_run() {
	vr_img=$(grep -n '^localhost/' "$2" | cut -d: -f1)
	head -n $((vr_img - 1)) "$2" >"$2.opts"
	tail -n +$((vr_img + 1)) "$2" | awk '
		$0 == "--review-pubkey" || $0 == "--revocations" { skip = 1; next }
		skip { skip = 0; next }
		{ print }' | sed "$5" >"$2.cmd"
	# shellcheck disable=SC2046,SC2086
	(IFS='
' && set -f && exec $(echo "$1" | tr ' ' '\n') run -d $(echo "$4" | tr ' ' '\n') $(cat "$2.opts") "$3" \
		$(cat "$2.cmd") $(echo "$6" | tr ' ' '\n'))
}

# vm_wait CMD: wait_for with a bound that fits emulation (an engine and
# runc take seconds each here): 0 once CMD succeeds, 1 after 120 s
vm_wait() {
	vw=0
	until eval "$1"; do
		[ $vw -lt 600 ] || return 1
		sleep 0.2
		vw=$((vw + 1))
	done
}

# vm_relay PORT TENANT REGISTRATION LAUNCHER SCRIPT ARGS...: a relay to the
# runner listening on 127.0.0.1:PORT, with the secret of vm_compose_dir
# $PT, running LAUNCHER /srv/mcp-scripts/SCRIPT ARGS
vm_relay() {
	rp=$1 rt=$2 rr=$3 rl=$4 rs=$5
	shift 5
	env -i AIRLOCK_SECRET_FILE="$PT/airlock_secret" AIRLOCK_RUNNER="tcp://127.0.0.1:$rp" \
		AIRLOCK_TENANT="$rt" AIRLOCK_REGISTRATION="$rr" "$AIRLOCK" relay -- "$rl" "/srv/mcp-scripts/$rs" "$@"
}

# vm_udp_between PORT: two leases of two tenants on the runner at PORT,
# through vm_relay with test/helpers/channel.c as python3: the first sends from
# an unconnected UDP socket (the kernel binds it a port) and waits, the
# second sends "hello" to that port on 127.0.0.1. Prints "sent: ok got:
# WHAT" (got: nothing when no datagram arrived). Uses $PT.
vm_udp_between() {
	rm -f "$PT/udp-in" && mkfifo "$PT/udp-in"
	vm_relay "$1" t1 udp python3 udp-unconnected <"$PT/udp-in" >"$PT/udp-a" 2>/dev/null &
	vu=$!
	exec 7>"$PT/udp-in"
	vm_wait "grep -q '^port: ' '$PT/udp-a'"
	vu_sent=$(vm_relay "$1" t2 udp python3 udp-send "$(sed -n 's/^port: //p' "$PT/udp-a")" hello \
		</dev/null 2>/dev/null)
	exec 7>&-
	vm_wait "! kill -0 $vu 2>/dev/null" || kill "$vu" 2>/dev/null
	wait "$vu" 2>/dev/null
	echo "$vu_sent $(grep '^got' "$PT/udp-a")"
}

# vm_runner_caps [DROP...]: compose.yaml's runner cap_add as setpriv's
# --bounding-set list (-all,+setuid,...), less the capabilities DROP
# names (SYS_ADMIN ...), for a runner confined as the file confines it
# without a container
vm_runner_caps() {
	python3 -c '
import sys, yaml
caps = yaml.safe_load(open("deploy/compose.yaml"))["services"]["airlock-runner"]["cap_add"]
print(",".join(["-all"] + ["+" + c.lower() for c in caps if c not in sys.argv[1:]]))' "$@"
}
