// demo_client.mjs - the client half of `make demo`: an MCP host in a few
// lines. It spawns the server command it is given, as any MCP host does,
// and shows what it finds and one tool call.
//
//   node test/e2e/demo_client.mjs -- COMMAND [ARGS...]
//
// Like a host's server config, it hands the spawned command only the SDK's
// default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus the
// AIRLOCK_* variables of its own environment and the keys AIRLOCK_ENV names
// (the only ones the relay forwards to the server).
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
let cmd = dd >= 0 ? process.argv.slice(dd + 1) : [];
let env = {};
if (process.argv[2] === "--config" && process.argv[3]) {
	const servers = JSON.parse(readFileSync(process.argv[3], "utf8")).mcpServers;
	const entry = Object.values(servers)[0];
	cmd = [entry.command, ...entry.args];
	env = { ...entry.env };
} else {
	for (const [k, v] of Object.entries(process.env))
		if (k.startsWith("AIRLOCK_") && k !== "AIRLOCK_E2E_NODE_DIR")
			env[k] = v;
}
if (cmd.length === 0) {
	process.stderr.write("usage: node demo_client.mjs -- COMMAND [ARGS...] | --config FILE\n");
	process.exit(2);
}
for (const k of (process.env.AIRLOCK_ENV || "").split(",").filter(Boolean))
	if (process.env[k] !== undefined)
		env[k] = process.env[k];

const say = (s) => process.stdout.write(`${s}\n`);
const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join(" ");

const watchdog = setTimeout(() => {
	say("demo: no answer within 60 s");
	process.exit(1);
}, 60000);
const transport = new StdioClientTransport({
	command: cmd[0], args: cmd.slice(1), env, stderr: "pipe",
});
// The server's stderr arrives too (through the relay, as STDERR frames).
let errBuf = "";
transport.stderr.on("data", (d) => {
	errBuf += d.toString();
	let nl;
	while ((nl = errBuf.indexOf("\n")) >= 0) {
		say(`   [server stderr] ${errBuf.slice(0, nl)}`);
		errBuf = errBuf.slice(nl + 1);
	}
});
const client = new Client({ name: "airlock-demo", version: "1.0.0" });
try {
	const t0 = Date.now();
	await client.connect(transport);
	const info = client.getServerVersion();
	say(`   connected to ${info.name} ${info.version} in ${Date.now() - t0} ms`);
	const { tools } = await client.listTools();
	say(`   ${tools.length} tools:`);
	for (const t of tools)
	{
		const d = (t.description ?? "").split("\n")[0];
		say(`     ${t.name.padEnd(31)} ${d.length > 50 ? d.slice(0, 49) + "…" : d}`);
	}
	const args = { a: 40, b: 2 };
	say(`   call get-sum ${JSON.stringify(args)}`);
	say(`     -> ${text(await client.callTool({ name: "get-sum", arguments: args }))}`);
	const msg = "hello through the airlock";
	say(`   call echo ${JSON.stringify({ message: msg })}`);
	say(`     -> ${text(await client.callTool({ name: "echo", arguments: { message: msg } }))}`);
	await client.close();
	clearTimeout(watchdog);
	process.exit(0);
} catch (e) {
	say(`demo: ${e?.message ?? e}`);
	process.exit(1);
}
