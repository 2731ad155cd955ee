// mcp_client.mjs - a real MCP client (the official SDK's Client and
// StdioClientTransport) driving a server given as a command line, exactly
// as an MCP host would spawn it:
//
//   node test/e2e/mcp_client.mjs [OPTIONS] -- COMMAND [ARGS...]
//   node test/e2e/mcp_client.mjs -- node build/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio
//   node test/e2e/mcp_client.mjs -- ./airlock relay -- node .../dist/index.js stdio
//
// Scenario (test mode, the default), each step asserted:
//   connect     spawn COMMAND, MCP initialize handshake
//   list        tools/list holds the `echo` tool
//   env         the `get-env` tool: a marker given in the transport's `env`
//               arrives; no AIRLOCK_* control variable arrives; a variable
//               only in this client's own environment (E2E_CLIENT_ONLY) does
//               not arrive (see "Environment" below)
//   echo        --calls N (100) sequential echo calls with distinct messages
//               (ASCII, UTF-8, JSON escapes, U+2028), reply text must equal
//               "Echo: " + message
//   concurrent  --concurrent N (20) echo calls in flight at once
//   big         one --big BYTES (1 MiB) echo, reply compared byte for byte
//   close       stdin EOF; the server process must be gone afterwards
// Prints one summary line and exits 0, or "FAIL step: why" and exits 1.
//
// Bench mode (--bench LABEL): no assertions beyond echo equality; warms up,
// times --calls sequential echoes and --big-runs big echoes and prints one
// line of key=value pairs: label calls p50_us p90_us p99_us mean_us
// calls_per_s big_bytes big_ms (median) big_runs connect_ms.
//
// Environment: StdioClientTransport gives the server only HOME, LOGNAME,
// PATH, SHELL, TERM and USER from the client's environment (the SDK's
// DEFAULT_INHERITED_ENV_VARS, values starting with "()" dropped), plus
// whatever `env` the host configures. So AIRLOCK_RUNNER, AIRLOCK_SECRET_FILE
// etc. reach `airlock relay` only when the MCP host's server config lists
// them in `env`, as real hosts' config files do. This client mirrors that:
// every AIRLOCK_* variable of its own environment, and each --env KEY=VALUE,
// goes into the transport's `env`; nothing else does. AIRLOCK_ENV (unless
// given) names the non-AIRLOCK_* keys, the only ones a relay forwards.
//
// Options:
//   --calls N        sequential echo calls (default 100; bench default 2000)
//   --concurrent N   echo calls in flight at once (default 20; 0 skips)
//   --big BYTES      size of the big echo (default 1048576; 0 skips)
//   --big-runs N     big echoes in bench mode (default 5)
//   --env KEY=VALUE  add to the server's environment (repeatable)
//   --no-env-check   skip the get-env step (servers without get-env)
//   --timeout SEC    whole-run watchdog (default 120)
//   --bench LABEL    bench mode, see above
//   --node-dir DIR   where node_modules lives (default build/node, or
//                    $AIRLOCK_E2E_NODE_DIR)
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join, resolve } from "node:path";
import { existsSync } from "node:fs";
import process from "node:process";

const here = dirname(fileURLToPath(import.meta.url));

function usage(msg) {
	if (msg)
		process.stderr.write(`mcp_client: ${msg}\n`);
	process.stderr.write("usage: node mcp_client.mjs [--calls N] [--concurrent N] " +
	    "[--big BYTES] [--big-runs N] [--env K=V]... [--no-env-check] " +
	    "[--timeout SEC] [--bench LABEL] [--node-dir DIR] -- COMMAND [ARGS...]\n");
	process.exit(2);
}

function parseArgs(argv) {
	const o = {
		calls: null, concurrent: 20, big: 1 << 20, bigRuns: 5, env: {},
		envCheck: true, timeout: 120, bench: null,
		nodeDir: process.env.AIRLOCK_E2E_NODE_DIR ||
		    resolve(here, "..", "..", "build", "node"),
		cmd: null,
	};
	const num = (v, name) => {
		if (v === undefined || !/^[0-9]+$/.test(v))
			usage(`${name} needs a non-negative integer`);
		return Number(v);
	};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		switch (a) {
		case "--": o.cmd = argv.slice(i + 1); i = argv.length; break;
		case "--calls": o.calls = num(argv[++i], a); break;
		case "--concurrent": o.concurrent = num(argv[++i], a); break;
		case "--big": o.big = num(argv[++i], a); break;
		case "--big-runs": o.bigRuns = num(argv[++i], a); break;
		case "--timeout": o.timeout = num(argv[++i], a); break;
		case "--no-env-check": o.envCheck = false; break;
		case "--bench": o.bench = argv[++i]; if (!o.bench) usage("--bench needs a label"); break;
		case "--node-dir": o.nodeDir = argv[++i]; if (!o.nodeDir) usage("--node-dir needs a path"); break;
		case "--env": {
			const kv = argv[++i] ?? "";
			const eq = kv.indexOf("=");
			if (eq <= 0)
				usage("--env needs KEY=VALUE");
			o.env[kv.slice(0, eq)] = kv.slice(eq + 1);
			break;
		}
		default: usage(`unknown option ${a}`);
		}
	}
	if (!o.cmd || o.cmd.length === 0)
		usage("no server command after --");
	if (o.calls === null)
		o.calls = o.bench ? 2000 : 100;
	return o;
}

const opt = parseArgs(process.argv.slice(2));
const sdk = join(opt.nodeDir, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");
if (!existsSync(join(sdk, "client", "index.js"))) {
	process.stderr.write(`mcp_client: MCP SDK not found under ${opt.nodeDir} ` +
	    "(run sh scripts/e2e-setup.sh)\n");
	process.exit(3);
}
const { Client } = await import(pathToFileURL(join(sdk, "client", "index.js")).href);
const { StdioClientTransport, DEFAULT_INHERITED_ENV_VARS } =
    await import(pathToFileURL(join(sdk, "client", "stdio.js")).href);

let step = "start";
function fail(why) {
	process.stdout.write(`FAIL ${step}: ${why}\n`);
	process.exit(1);
}
const watchdog = setTimeout(() => fail(`no progress within --timeout ${opt.timeout}s`),
    opt.timeout * 1000);

// Deterministic pseudo-random printable text, so a mismatch is reproducible.
function text(n, seed) {
	let x = seed >>> 0 || 1;
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.,:;!?";
	const out = new Array(n);
	for (let i = 0; i < n; i++) {
		x ^= x << 13; x >>>= 0;
		x ^= x >>> 17;
		x ^= x << 5; x >>>= 0;
		out[i] = alphabet[x % alphabet.length];
	}
	return out.join("");
}

// Messages that a relay which re-chunks, re-encodes or splits on the wrong
// boundary would corrupt: multi-byte UTF-8, JSON escapes, a line separator.
const odd = ["", "plain", "ünïcødé ✓ 日本語 🚀", "quote \" backslash \\ slash /",
	"tab\tnewline\nreturn\r", "line\u2028separator\u2029", "{\"json\":[1,2,3]}",
	"\u0001\u001f control"];
function message(i) {
	return `msg ${i} ${odd[i % odd.length]} ${text(1 + (i * 37) % 200, i + 1)}`;
}

function echoText(res) {
	if (!res || !Array.isArray(res.content) || res.content.length !== 1)
		return { bad: `unexpected result shape ${JSON.stringify(res).slice(0, 200)}` };
	const c = res.content[0];
	if (c.type !== "text" || typeof c.text !== "string")
		return { bad: `content is not text: ${JSON.stringify(c).slice(0, 200)}` };
	return { text: c.text };
}

async function echo(client, msg) {
	const res = await client.callTool({ name: "echo", arguments: { message: msg } },
	    undefined, { timeout: opt.timeout * 1000 });
	const r = echoText(res);
	if (r.bad)
		fail(r.bad);
	return r.text;
}

function firstDiff(a, b) {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++)
		if (a[i] !== b[i])
			return i;
	return n;
}

function expectEcho(got, msg, what) {
	const want = `Echo: ${msg}`;
	if (got === want)
		return;
	const at = firstDiff(got, want);
	fail(`${what}: reply differs at char ${at} (got ${got.length} chars, want ` +
	    `${want.length}): got ${JSON.stringify(got.slice(at, at + 40))}, want ` +
	    `${JSON.stringify(want.slice(at, at + 40))}`);
}

function pct(sorted, p) {
	return sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)];
}

// What the host puts in the transport's `env`: AIRLOCK_* from our own
// environment (the relay's configuration), then --env.
const env = {};
for (const [k, v] of Object.entries(process.env))
	if (k.startsWith("AIRLOCK_") && k !== "AIRLOCK_E2E_NODE_DIR")
		env[k] = v;
const marker = `m-${process.pid}-${Date.now()}`;
if (opt.envCheck && !opt.bench)
	env.E2E_MARKER = marker;
Object.assign(env, opt.env);
// The relay forwards only the keys it is told to: name every one the host
// means for the server (a real host config lists them in AIRLOCK_ENV too).
// Only when a relay is in the command: a server run directly must see no
// AIRLOCK_* at all (the baseline and the leak probes).
if (env.AIRLOCK_ENV === undefined && opt.cmd.some((a) => /(^|\/)(airlock|relay)$/.test(a))) {
	const named = Object.keys(env).filter((k) => !k.startsWith("AIRLOCK_"));
	if (named.length)
		env.AIRLOCK_ENV = named.join(",");
}

const transport = new StdioClientTransport({
	command: opt.cmd[0], args: opt.cmd.slice(1), env, stderr: "pipe",
});
// Keep the server's stderr (and the relay's) for failure reports only.
let stderrTail = "";
transport.stderr?.on("data", (d) => {
	stderrTail = (stderrTail + d.toString()).slice(-4000);
});
const client = new Client({ name: "airlock-e2e", version: "1.0.0" });
let closing = false;
client.onerror = (e) => {
	if (!closing)
		process.stderr.write(`mcp_client: transport error: ${e?.message ?? e}\n`);
};
client.onclose = () => {
	if (!closing)
		fail(`server closed the connection early; its stderr: ${JSON.stringify(stderrTail.slice(-1000))}`);
};

try {
	step = "connect";
	const t0 = process.hrtime.bigint();
	await client.connect(transport, { timeout: opt.timeout * 1000 });
	const connectMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const pid = transport.pid;
	const info = client.getServerVersion();

	step = "list";
	const tools = (await client.listTools()).tools.map((t) => t.name);
	if (!tools.includes("echo"))
		fail(`no echo tool among ${JSON.stringify(tools)}`);

	let envNote = "skipped";
	if (opt.envCheck && !opt.bench) {
		step = "env";
		if (!tools.includes("get-env"))
			fail("no get-env tool (use --no-env-check)");
		const r = echoText(await client.callTool({ name: "get-env", arguments: {} }));
		if (r.bad)
			fail(r.bad);
		let seen;
		try {
			seen = JSON.parse(r.text);
		} catch (e) {
			fail(`get-env did not return JSON: ${e.message}`);
		}
		if (seen.E2E_MARKER !== marker)
			fail(`marker from the transport env did not arrive (got ${JSON.stringify(seen.E2E_MARKER)})`);
		for (const [k, v] of Object.entries(opt.env))
			if (seen[k] !== v)
				fail(`--env ${k} did not arrive intact (got ${JSON.stringify(seen[k])})`);
		const leaked = Object.keys(seen).filter((k) => k.startsWith("AIRLOCK_"));
		if (leaked.length)
			fail(`control variables reached the server: ${leaked.join(", ")}`);
		if (process.env.E2E_CLIENT_ONLY !== undefined && "E2E_CLIENT_ONLY" in seen)
			fail("E2E_CLIENT_ONLY reached the server although the SDK forwards only " +
			    DEFAULT_INHERITED_ENV_VARS.join(","));
		envNote = "marker ok, no AIRLOCK_*";
	}

	if (opt.bench) {
		step = "warmup";
		for (let i = 0; i < 50; i++)
			expectEcho(await echo(client, message(i)), message(i), `warmup ${i}`);
	}

	step = "echo";
	const lat = [];
	const tStart = process.hrtime.bigint();
	for (let i = 0; i < opt.calls; i++) {
		const msg = message(i);
		const a = process.hrtime.bigint();
		const got = await echo(client, msg);
		lat.push(Number(process.hrtime.bigint() - a) / 1e3);
		expectEcho(got, msg, `call ${i}`);
	}
	const echoSec = Number(process.hrtime.bigint() - tStart) / 1e9;

	if (opt.concurrent > 0 && !opt.bench) {
		step = "concurrent";
		const msgs = Array.from({ length: opt.concurrent }, (_, i) => message(10000 + i));
		const got = await Promise.all(msgs.map((m) => echo(client, m)));
		got.forEach((g, i) => expectEcho(g, msgs[i], `concurrent call ${i}`));
	}

	const bigMs = [];
	if (opt.big > 0) {
		step = "big";
		const big = text(opt.big, 0xa1b2c3);
		const runs = opt.bench ? Math.max(1, opt.bigRuns) : 1;
		for (let r = 0; r < runs; r++) {
			const a = process.hrtime.bigint();
			const got = await echo(client, big);
			bigMs.push(Number(process.hrtime.bigint() - a) / 1e6);
			expectEcho(got, big, `${opt.big}-byte echo`);
		}
	}

	step = "close";
	closing = true;
	await client.close();
	// The SDK ends stdin, waits 2 s, then SIGTERMs; either way the direct
	// child (the server, or the relay) must be gone now.
	let alive = false;
	for (let i = 0; i < 50; i++) {
		try {
			process.kill(pid, 0);
			alive = true;
		} catch {
			alive = false;
			break;
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	if (alive)
		fail(`server process ${pid} still running after close`);
	clearTimeout(watchdog);

	lat.sort((a, b) => a - b);
	if (opt.bench) {
		bigMs.sort((a, b) => a - b);
		const mean = lat.reduce((s, v) => s + v, 0) / (lat.length || 1);
		const kv = {
			label: opt.bench, calls: opt.calls,
			p50_us: pct(lat, 50).toFixed(1), p90_us: pct(lat, 90).toFixed(1),
			p99_us: pct(lat, 99).toFixed(1), mean_us: mean.toFixed(1),
			calls_per_s: (opt.calls / echoSec).toFixed(1),
			big_bytes: opt.big, big_ms: bigMs.length ? bigMs[bigMs.length >> 1].toFixed(2) : "-",
			big_runs: bigMs.length, connect_ms: connectMs.toFixed(1),
		};
		process.stdout.write(Object.entries(kv).map(([k, v]) => `${k}=${v}`).join(" ") + "\n");
	} else {
		process.stdout.write(`ok: ${info?.name ?? "server"} ${info?.version ?? ""}; ` +
		    `${tools.length} tools; env: ${envNote}; ${opt.calls} echoes ` +
		    `(p50 ${opt.calls ? (pct(lat, 50) / 1000).toFixed(2) : "-"} ms); ` +
		    `${opt.concurrent} concurrent; ${opt.big ? `${opt.big}-byte echo exact; ` : ""}closed\n`);
	}
	process.exit(0);
} catch (e) {
	fail(`${e?.message ?? e}; server stderr: ${JSON.stringify(stderrTail.slice(-1000))}`);
}
