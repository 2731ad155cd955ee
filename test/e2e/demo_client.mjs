// demo_client.mjs - the client half of `make demo`: an MCP host in a few
// lines. It spawns the server command it is given, as any MCP host does,
// and shows what it finds and a few tool calls.
//
//   node test/e2e/demo_client.mjs -- COMMAND [ARGS...]
//   node test/e2e/demo_client.mjs --config FILE
//
// With --config, FILE is a host's server config ({"mcpServers": {...}}):
// each server in turn, spawned with the SDK's default environment (HOME,
// LOGNAME, PATH, SHELL, TERM, USER) plus the entry's "env", nothing else of
// ours. Without, the command gets that default plus the AIRLOCK_*
// variables of our environment and the keys AIRLOCK_ENV names. The calls
// depend on the tools a server has: get-sum and echo; get-env (the keys it
// was given); whoami; read-file of the entry's AIRLOCK_SECRET_FILE (the
// runner's secret in the demo).
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { readFileSync } from "node:fs";

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.AIRLOCK_E2E_NODE_DIR || resolve(here, "..", "..", "build", "node");
const sdk = join(nodeDir, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");
const { Client } = await import(pathToFileURL(join(sdk, "client", "index.js")).href);
const { StdioClientTransport } = await import(pathToFileURL(join(sdk, "client", "stdio.js")).href);

const dd = process.argv.indexOf("--");
let servers = [];
if (process.argv[2] === "--config" && process.argv[3]) {
	const config = JSON.parse(readFileSync(process.argv[3], "utf8")).mcpServers;
	for (const [name, entry] of Object.entries(config))
		servers.push({ name, cmd: [entry.command, ...entry.args], env: { ...entry.env } });
} else if (dd >= 0 && dd + 1 < process.argv.length) {
	const env = {};
	for (const [k, v] of Object.entries(process.env))
		if (k.startsWith("AIRLOCK_") && k !== "AIRLOCK_E2E_NODE_DIR")
			env[k] = v;
	for (const k of (process.env.AIRLOCK_ENV || "").split(",").filter(Boolean))
		if (process.env[k] !== undefined)
			env[k] = process.env[k];
	servers.push({ name: "server", cmd: process.argv.slice(dd + 1), env });
}
if (servers.length === 0) {
	process.stderr.write("usage: node demo_client.mjs -- COMMAND [ARGS...] | --config FILE\n");
	process.exit(2);
}

const say = (s) => process.stdout.write(`${s}\n`);
const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join(" ");

const watchdog = setTimeout(() => {
	say("demo: no answer within 60 s");
	process.exit(1);
}, 60000);
// run SERVER: connect, list, call what it offers, close
async function run({ name, cmd, env }) {
	const transport = new StdioClientTransport({
		command: cmd[0], args: cmd.slice(1), env, stderr: "pipe",
	});
	// The server's stderr arrives too (through the relay, as STDERR frames).
	let errBuf = "";
	transport.stderr.on("data", (d) => {
		errBuf += d.toString();
		let nl;
		while ((nl = errBuf.indexOf("\n")) >= 0) {
			say(`   [${name} stderr] ${errBuf.slice(0, nl)}`);
			errBuf = errBuf.slice(nl + 1);
		}
	});
	const client = new Client({ name: "airlock-demo", version: "1.0.0" });
	const t0 = Date.now();
	await client.connect(transport);
	const info = client.getServerVersion();
	say(`   ${name}: connected to ${info.name} ${info.version} in ${Date.now() - t0} ms`);
	const { tools } = await client.listTools();
	const has = new Set(tools.map((t) => t.name));
	say(`   ${tools.length} tools:`);
	for (const t of tools) {
		const d = (t.description ?? "").split("\n")[0];
		say(`     ${t.name.padEnd(31)} ${d.length > 50 ? d.slice(0, 49) + "…" : d}`);
	}
	const call = async (tool, args) => {
		say(`   call ${tool} ${JSON.stringify(args)}`);
		return text(await client.callTool({ name: tool, arguments: args }));
	};
	if (has.has("get-sum"))
		say(`     -> ${await call("get-sum", { a: 40, b: 2 })}`);
	if (has.has("echo"))
		say(`     -> ${await call("echo", { message: "hello through the airlock" })}`);
	if (has.has("get-env")) {
		const got = JSON.parse(await call("get-env", {}));
		say(`     -> the server's environment: ${Object.keys(got).sort().join(" ")}`);
		const named = (env.AIRLOCK_ENV || "").split(",").filter((k) => k in got);
		say(`        ${named.join(" ") || "nothing"} forwarded (AIRLOCK_ENV names it); the rest is the`);
		say(`        runner's for this lease: HOME=${got.HOME} TMPDIR=${got.TMPDIR}`);
	}
	if (has.has("whoami"))
		say(`     -> ${await call("whoami", {})}`);
	if (has.has("read-file") && env.AIRLOCK_SECRET_FILE)
		say(`     -> ${await call("read-file", { path: env.AIRLOCK_SECRET_FILE })}`);
	await client.close();
}

try {
	for (const s of servers)
		await run(s);
	clearTimeout(watchdog);
	process.exit(0);
} catch (e) {
	say(`demo: ${e?.message ?? e}`);
	process.exit(1);
}
