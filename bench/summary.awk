# summary.awk - turns bench/run.sh's raw lines ("GROUP LABEL key=value ...",
# one per measured run) into the markdown report: the median over rounds of
# every figure, what each hop adds over direct stdio, and airlock's ratios
# against socat. POSIX awk (mawk): no asort.

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
function ratio(a, b) {
	return (a == "" || b == "" || b <= 0) ? "" : a / b
}
function verdict(r, target) {
	if (r == "")
		return "(not measured)"
	return sprintf("%.2f (target <= %s: %s)", r, target, r <= target ? "met" : "NOT met")
}

{
	g = $1; l = $2
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
	n_labels = split("direct socat airlock", labels, " ")

	print "## (a) MCP echo through the official SDK client"
	print ""
	print "Sequential `echo` tool calls of server-everything; RTT in microseconds."
	print ""
	print "| path | p50 | p90 | p99 | calls/s | 1 MiB echo (ms) | added p50 | added 1 MiB (ms) | connect (ms) |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	d50 = median("mcp", "direct", "p50_us"); dbig = median("mcp", "direct", "big_ms")
	for (i = 1; i <= n_labels; i++) {
		l = labels[i]
		p50 = median("mcp", l, "p50_us"); big = median("mcp", l, "big_ms")
		if (p50 == "" && !failed["mcp", l])
			continue
		add50[l] = l == "direct" ? "" : diff(p50, d50)
		addbig[l] = l == "direct" ? "" : diff(big, dbig)
		printf "| %s%s | %s | %s | %s | %s | %s | %s | %s | %s |\n", l,
		    failed["mcp", l] ? " (" failed["mcp", l] " failed)" : "",
		    fmt(p50, 1), fmt(median("mcp", l, "p90_us"), 1),
		    fmt(median("mcp", l, "p99_us"), 1), fmt(median("mcp", l, "calls_per_s"), 0),
		    fmt(big, 2), fmt(add50[l], 1), fmt(addbig[l], 2),
		    fmt(median("mcp", l, "connect_ms"), 1)
	}
	print ""
	print "- airlock_added_p50 / socat_added_p50 = " verdict(ratio(add50["airlock"], add50["socat"]), 0.35)
	print "- airlock_added_1MiB / socat_added_1MiB = " verdict(ratio(addbig["airlock"], addbig["socat"]), 0.5)
	print ""

	print "## (b) No Node: a cat behind each path"
	print ""
	print "A C driver (test/helpers/pingpong) and bench/cat.py (python3, unbuffered): 16-byte line round trips (microseconds) and a 64 MiB stream, both verified byte for byte."
	print ""
	print "| path | p50 | p90 | p99 | round trips/s | added p50 | stream MiB/s |"
	print "|---|---:|---:|---:|---:|---:|---:|"
	d50 = median("rtt", "direct", "p50_us")
	for (i = 1; i <= n_labels; i++) {
		l = labels[i]
		p50 = median("rtt", l, "p50_us")
		if (p50 == "" && !failed["rtt", l] && median("bulk", l, "mib_per_s") == "")
			continue
		radd[l] = l == "direct" ? "" : diff(p50, d50)
		printf "| %s%s | %s | %s | %s | %s | %s | %s |\n", l,
		    (failed["rtt", l] + failed["bulk", l]) ? " (failures)" : "",
		    fmt(p50, 1), fmt(median("rtt", l, "p90_us"), 1),
		    fmt(median("rtt", l, "p99_us"), 1), fmt(median("rtt", l, "rt_per_s"), 0),
		    fmt(radd[l], 1), fmt(median("bulk", l, "mib_per_s"), 1)
	}
	print ""
	r = ratio(radd["airlock"], radd["socat"])
	print "- airlock_added_p50 / socat_added_p50 = " (r == "" ? "(not measured)" : sprintf("%.2f", r))
	r = ratio(median("bulk", "airlock", "mib_per_s"), median("bulk", "socat", "mib_per_s"))
	print "- airlock_stream / socat_stream = " (r == "" ? "(not measured)" : sprintf("%.2f", r))
	print ""

	print "## (c) Start-up"
	print ""
	print "From fork to the TCP connection and to the first byte on it (microseconds, a listener of the driver's own standing in for the runner):"
	print ""
	print "| client | connect p50 | first byte p50 | first byte p90 | first byte min |"
	print "|---|---:|---:|---:|---:|"
	for (i = 2; i <= n_labels; i++) {
		l = labels[i]
		if (cnt["first", l, "first_p50_us"] == 0 && !failed["first", l])
			continue
		printf "| %s%s | %s | %s | %s | %s |\n", l == "airlock" ? "airlock relay" : "socat",
		    failed["first", l] ? " (failed)" : "",
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
	for (i = 1; i <= n_labels; i++) {
		l = labels[i]
		if (cnt["lease", l, "mean_ms"] == 0)
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
	print "- airlock_added_lease / socat_added_lease = " (r == "" ? "(not measured)" : sprintf("%.2f", r))
	r = ratio(median("first", "airlock", "first_p50_us"), median("first", "socat", "first_p50_us"))
	print "- airlock_first_byte / socat_first_byte (p50) = " (r == "" ? "(not measured)" : sprintf("%.2f", r))
}
