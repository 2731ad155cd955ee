# runner.sh - start and stop a loopback `airlock runner` for the e2e test,
# the demo and the benchmarks. Sourced (POSIX sh); needs node for picking a
# free port. Everything it makes lives in one directory the caller owns.
#
#   runner_start AIRLOCK DIR [RUNNER_ARGS...]
#       writes DIR/secret (48 random bytes, mode 0600), starts
#       `AIRLOCK runner --listen 127.0.0.1:PORT --listen unix:DIR/runner.sock
#        --secret-file DIR/secret --state-dir DIR/state
#        --jail ${RUNNER_JAIL:-none} --log-format ${RUNNER_LOG_FORMAT:-json}
#        RUNNER_ARGS`
#       in the background, in directory $RUNNER_CWD (default DIR; with
#       --jail none the lease's child inherits it), with its log in
#       DIR/runner.log, and waits (bounded) until both listeners exist.
#       Sets RUNNER_PID, RUNNER_PORT, RUNNER_SOCK, RUNNER_SECRET,
#       RUNNER_LOG. Returns 1 (log kept) if it never listens.
#   runner_stop
#       SIGTERM, wait up to 10 s, then SIGKILL. Returns 0 when the runner
#       went away on SIGTERM, 1 if it had to be killed, 2 if none ran.

runner_free_port() {
	node -e 'const s = require("net").createServer();
		s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# runner_listening PORT SOCK: 0 once 127.0.0.1:PORT is in LISTEN state and
# SOCK is a socket. Reads /proc/net/tcp so that probing opens no connection
# (a probe connection would be a lease attempt in the runner's log).
runner_listening() {
	[ -S "$2" ] || return 1
	hex=$(printf '%04X' "$1")
	# local_address is 0100007F:PORT, state 0A is LISTEN.
	awk -v p=":$hex" '$2 == "0100007F" p && $4 == "0A" { f = 1 } END { exit !f }' \
		/proc/net/tcp
}

runner_start() {
	r_bin=$1 r_dir=$2
	shift 2
	RUNNER_SECRET=$r_dir/secret RUNNER_LOG=$r_dir/runner.log
	RUNNER_SOCK=$r_dir/runner.sock RUNNER_PID='' RUNNER_PORT=''
	(umask 077 && head -c 48 /dev/urandom >"$RUNNER_SECRET") || return 1
	# A port picked here can be taken before the runner binds it: retry.
	for r_try in 1 2 3; do
		rm -f "$RUNNER_SOCK"
		RUNNER_PORT=$(runner_free_port) || return 1
		(cd "${RUNNER_CWD:-$r_dir}" && exec "$r_bin" runner \
			--listen "127.0.0.1:$RUNNER_PORT" --listen "unix:$RUNNER_SOCK" \
			--secret-file "$RUNNER_SECRET" --state-dir "$r_dir/state" \
			--jail "${RUNNER_JAIL:-none}" --log-format "${RUNNER_LOG_FORMAT:-json}" "$@") \
			>"$RUNNER_LOG" 2>&1 </dev/null &
		RUNNER_PID=$!
		r_i=0
		while [ "$r_i" -lt 100 ]; do	# 100 x 0.05 s
			runner_listening "$RUNNER_PORT" "$RUNNER_SOCK" && return 0
			kill -0 "$RUNNER_PID" 2>/dev/null || break
			sleep 0.05
			r_i=$((r_i + 1))
		done
		if kill -0 "$RUNNER_PID" 2>/dev/null; then
			kill -KILL "$RUNNER_PID" 2>/dev/null
			wait "$RUNNER_PID" 2>/dev/null
			RUNNER_PID=
			return 1	# alive but never listened: no point retrying
		fi
		wait "$RUNNER_PID" 2>/dev/null
		RUNNER_PID=
		: "$r_try"
	done
	return 1
}

runner_stop() {
	[ -n "${RUNNER_PID:-}" ] || return 2
	kill -TERM "$RUNNER_PID" 2>/dev/null
	r_i=0
	while [ "$r_i" -lt 200 ] && kill -0 "$RUNNER_PID" 2>/dev/null; do	# 10 s
		# A zombie counts as gone: wait reaps it below.
		[ "$(awk '{ print $3 }' "/proc/$RUNNER_PID/stat" 2>/dev/null)" = Z ] && break
		sleep 0.05
		r_i=$((r_i + 1))
	done
	r_rc=0
	if kill -0 "$RUNNER_PID" 2>/dev/null &&
	    [ "$(awk '{ print $3 }' "/proc/$RUNNER_PID/stat" 2>/dev/null)" != Z ]; then
		kill -KILL "$RUNNER_PID" 2>/dev/null
		r_rc=1
	fi
	wait "$RUNNER_PID" 2>/dev/null
	RUNNER_PID=
	return "$r_rc"
}
