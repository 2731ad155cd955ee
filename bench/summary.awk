# summary.awk - turns bench/run.sh's raw lines ("GROUP LABEL key=value ...",
# one per measured run) into the markdown report: the median over rounds of
# every figure, what each hop adds over direct stdio, and airlock's ratios
# against socat (and against airlock_b, AIRLOCK_B's build, when it ran).
# A row with a failed run ("failed=1") shows as an error, with no figure,
# and every ratio using it as not measured. POSIX awk
# (mawk): no asort.

function median(g, l, k,    n, i, j, v, t) {
	n = cnt[g, l, k]
	if (n == 0)
		return ""
	for (i = 1; i <= n; i++)
		v[i] = val[g, l, k, i]
	for (i = 2; i <= n; i++)	# insertion sort; n is the round count
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function fmt(x, d) {
	return x == "" ? "-" : sprintf("%." d "f", x)
}
function diff(a, b) {
	return (a == "" || b == "") ? "" : a - b
}
# a / b; "" when either is missing, "noise" when either is below zero (an
# added time under the run-to-run noise: no meaningful ratio)
function ratio(a, b) {
	if (a == "" || b == "")
		return ""
	return (a < 0 || b <= 0) ? "noise" : a / b
}
function show(r) {
	if (r == "")
		return "(not measured)"
	if (r == "noise")
		return "(no ratio: an added figure is at or below zero, under the noise)"
	return sprintf("%.2f", r)
}
# error_row(GROUP, LABEL, NAME, COLUMNS): 1 after printing NAME's row as an
# error when a run of GROUP/LABEL failed, else 0
function error_row(g, l, name, cols,    i, line) {
	if (!failed[g, l])
		return 0
	line = "| " name " | **error**: " failed[g, l] " run(s) failed (see Errors)"
	for (i = 2; i < cols; i++)
		line = line " | -"
	print line " |"
	return 1
}
function verdict(r, target) {
	if (r == "" || r == "noise")
		return show(r)
	return sprintf("%.2f (target <= %s: %s)", r, target, r <= target ? "met" : "NOT met")
}

{
	g = $1; l = $2
	seen[l] = 1
	for (i = 3; i <= NF; i++) {
		eq = index($i, "=")
		if (eq == 0)
			continue
		k = substr($i, 1, eq - 1); v = substr($i, eq + 1)
		if (k == "failed") {
			failed[g, l]++
			continue
		}
		if (v !~ /^-?[0-9.]+$/)
			continue
		val[g, l, k, ++cnt[g, l, k]] = v + 0
	}
}

END {
	# airlock_b: run.sh's AIRLOCK_B, another build beside airlock
	n_labels = split("direct socat airlock" (seen["airlock_b"] ? " airlock_b" : ""), labels, " ")

	print "## (a) MCP echo through the official SDK client"
	print ""
	print "Sequential `echo` tool calls of server-everything; RTT in microseconds."
	print ""
	print "| path | p50 | p90 | p99 | calls/s | 1 MiB echo (ms) | added p50 | added 1 MiB (ms) | connect (ms) |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	d50 = dbig = ""
	if (!failed["mcp", "direct"]) {
		d50 = median("mcp", "direct", "p50_us"); dbig = median("mcp", "direct", "big_ms")
	}
	for (i = 1; i <= n_labels; i++) {
		l = labels[i]
		p50 = median("mcp", l, "p50_us"); big = median("mcp", l, "big_ms")
		if (error_row("mcp", l, l, 9) || p50 == "")
			continue
		add50[l] = l == "direct" ? "" : diff(p50, d50)
		addbig[l] = l == "direct" ? "" : diff(big, dbig)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", l,
		    fmt(p50, 1), fmt(median("mcp", l, "p90_us"), 1),
		    fmt(median("mcp", l, "p99_us"), 1), fmt(median("mcp", l, "calls_per_s"), 0),
		    fmt(big, 2), fmt(add50[l], 1), fmt(addbig[l], 2),
		    fmt(median("mcp", l, "connect_ms"), 1)
	}
	print ""
	print "- airlock_added_p50 / socat_added_p50 = " verdict(ratio(add50["airlock"], add50["socat"]), 0.35)
	print "- airlock_added_1MiB / socat_added_1MiB = " verdict(ratio(addbig["airlock"], addbig["socat"]), 0.5)
	if (seen["airlock_b"])
		print "- airlock_added_p50 / airlock_b_added_p50 = " show(ratio(add50["airlock"], add50["airlock_b"]))
	print ""

	if (cnt["cpu", "airlock", "cpu_us_per_call"] || failed["cpu", "airlock"]) {
		print "The runner's lease process, CPU time per echo call (bench/lease_cpu.py: /proc/PID/schedstat around the timed calls; microseconds):"
		print ""
		print "| path | CPU per call | p50 RTT |"
		print "|---|---:|---:|"
		for (i = 3; i <= n_labels; i++) {
			l = labels[i]
			if (error_row("cpu", l, l, 3) || cnt["cpu", l, "cpu_us_per_call"] == 0)
				continue
			printf "| %s | %s | %s |\n", l, fmt(median("cpu", l, "cpu_us_per_call"), 2),
			    fmt(median("cpu", l, "p50_us"), 1)
		}
		print ""
		if (seen["airlock_b"] && !failed["cpu", "airlock"] && !failed["cpu", "airlock_b"])
			print "- airlock_cpu / airlock_b_cpu = " show(ratio(median("cpu", "airlock", "cpu_us_per_call"), median("cpu", "airlock_b", "cpu_us_per_call")))
		print ""
	}

	print "## (b) No Node: a cat behind each path"
	print ""
	print "A C driver (test/helpers/pingpong) and bench/cat.py (python3, unbuffered): 16-byte line round trips (microseconds) and a 64 MiB stream, both verified byte for byte."
	print ""
	print "| path | p50 | p90 | p99 | round trips/s | added p50 | stream MiB/s |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	d50 = failed["rtt", "direct"] ? "" : median("rtt", "direct", "p50_us")
	for (i = 1; i <= n_labels; i++) {
		l = labels[i]
		p50 = median("rtt", l, "p50_us")
		failed["rb", l] = failed["rtt", l] + failed["bulk", l]
		if (error_row("rb", l, l, 7) || p50 == "")
			continue
		radd[l] = l == "direct" ? "" : diff(p50, d50)
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", l,
		    fmt(p50, 1), fmt(median("rtt", l, "p90_us"), 1),
		    fmt(median("rtt", l, "p99_us"), 1), fmt(median("rtt", l, "rt_per_s"), 0),
		    fmt(radd[l], 1), fmt(median("bulk", l, "mib_per_s"), 1)
	}
	print ""
	r = ratio(radd["airlock"], radd["socat"])
	print "- airlock_added_p50 / socat_added_p50 = " show(r)
	r = ratio(median("bulk", "airlock", "mib_per_s"), median("bulk", "socat", "mib_per_s"))
	if (failed["rb", "airlock"] || failed["rb", "socat"])
		r = ""
	print "- airlock_stream / socat_stream = " show(r)
	if (seen["airlock_b"])
		print "- airlock_added_p50 / airlock_b_added_p50 = " show(ratio(radd["airlock"], radd["airlock_b"]))
	print ""

	print "## (c) Start-up"
	print ""
	print "From fork to the TCP connection and to the first byte on it (microseconds, a listener of the driver's own standing in for the runner):"
	print ""
	print "| client | connect p50 | first byte p50 | first byte p90 | first byte min |"
	print "|---|---:|---:|---:|---:|"
	for (i = 2; i <= n_labels; i++) {
		l = labels[i]
		name = l == "airlock" ? "airlock relay" : "socat"
		if (error_row("first", l, name, 5) || cnt["first", l, "first_p50_us"] == 0)
			continue
		printf "| %s | %s | %s | %s | %s |\n", name,
		    fmt(median("first", l, "accept_p50_us"), 1), fmt(median("first", l, "first_p50_us"), 1),
		    fmt(median("first", l, "first_p90_us"), 1), fmt(median("first", l, "first_min_us"), 1)
	}
	print ""
	print "One whole lease: cat.py with stdin at EOF, run directly and behind each hop (connect, spawn, exit status back; airlock also does its handshake):"
	print ""
	print "| path | mean (ms) | median (ms) | stddev (ms) | added median (ms) |"
	print "|---|---:|---:|---:|---:|"
	dl = median("lease", "direct", "median_ms")
	if (dl == "")
		dl = median("lease", "direct", "mean_ms")
	if (failed["lease", "direct"])
		dl = ""
	for (i = 1; i <= n_labels; i++) {
		l = labels[i]
		if (error_row("lease", l, l, 5) || cnt["lease", l, "mean_ms"] == 0)
			continue
		m = median("lease", l, "median_ms")
		if (m == "")
			m = median("lease", l, "mean_ms")
		ladd[l] = l == "direct" ? "" : diff(m, dl)
		printf "| %s | %s | %s | %s | %s |\n", l, fmt(median("lease", l, "mean_ms"), 3),
		    fmt(median("lease", l, "median_ms"), 3), fmt(median("lease", l, "stddev_ms"), 3),
		    fmt(ladd[l], 3)
	}
	print ""
	r = ratio(ladd["airlock"], ladd["socat"])
	print "- airlock_added_lease / socat_added_lease = " show(r)
	r = ratio(median("first", "airlock", "first_p50_us"), median("first", "socat", "first_p50_us"))
	if (failed["first", "airlock"] || failed["first", "socat"])
		r = ""
	print "- airlock_first_byte / socat_first_byte (p50) = " show(r)
}
