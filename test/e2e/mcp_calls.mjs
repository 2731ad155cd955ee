// mcp_calls.mjs - the official SDK client (Client, StdioClientTransport)
// running a script of MCP steps against a server command line, one line of
// output per step, for test/mcp.test:
//
//   node test/e2e/mcp_calls.mjs STEP... -- COMMAND [ARGS...]
//
// Steps:
//   list            tools/list: "tools: NAME NAME ..." (sorted)
//   call:NAME:JSON  tools/call NAME with JSON arguments: "call NAME: ok" /
//                   "call NAME: isError" (a tool error), or
//                   "call NAME: error CODE MESSAGE" (a JSON-RPC error)
//   listp           prompts/list: "prompts: N"
//   big:N           server-everything's echo with an N-byte message:
//                   "big N: exact" when the reply is "Echo: " + message
//   ask:VERSION     (before connecting) initialize asks for protocol
//                   VERSION instead of the SDK's latest, as an SDK whose
//                   latest it is would; the SDK's own negotiation follows
//   version         the protocol version the server answered:
//                   "protocol: VERSION"
// A failed connect prints "connect: error MESSAGE". Every AIRLOCK_*
// variable of this process goes into the transport's env (as a host's
// server config would put it), nothing else. Exits 0 when every step ran.
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join, resolve } from "node:path";
import process from "node:process";

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.AIRLOCK_E2E_NODE_DIR ||
    resolve(here, "..", "..", "build", "node");
const sdk = join(nodeDir, "node_modules", "@modelcontextprotocol", "sdk",
    "dist", "esm");
const { Client } = await import(pathToFileURL(join(sdk, "client",
    "index.js")).href);
const { StdioClientTransport, getDefaultEnvironment } = await import(
    pathToFileURL(join(sdk, "client", "stdio.js")).href);

const argv = process.argv.slice(2);
const sep = argv.indexOf("--");
if (sep < 0 || sep === argv.length - 1) {
	process.stderr.write("usage: mcp_calls.mjs STEP... -- COMMAND [ARGS...]\n");
	process.exit(2);
}
const steps = argv.slice(0, sep), cmd = argv.slice(sep + 1);
const env = getDefaultEnvironment();
for (const [k, v] of Object.entries(process.env))
	if (k.startsWith("AIRLOCK_"))
		env[k] = v;
const watchdog = setTimeout(() => { console.log("timeout"); process.exit(1); },
    60000);
const transport = new StdioClientTransport({ command: cmd[0],
    args: cmd.slice(1), env, stderr: "inherit" });
const client = new Client({ name: "airlock-mcp-test", version: "1.0.0" });
// ask:VERSION: the initialize request rewritten on its way out; the
// answer's version noted on its way in (the SDK keeps it to itself)
const ask = steps.find((s) => s.startsWith("ask:"))?.slice(4);
let initId, answered;
const send = transport.send.bind(transport);
transport.send = (m, o) => {
	if (m.method === "initialize") {
		initId = m.id;
		if (ask)
			m = { ...m, params: { ...m.params, protocolVersion: ask } };
	}
	return send(m, o);
};
let onmessage;
Object.defineProperty(transport, "onmessage", {
	get: () => onmessage,
	set: (fn) => {
		onmessage = fn && ((m, e) => {
			if (m.id === initId && m.result)
				answered = m.result.protocolVersion;
			fn(m, e);
		});
	},
});
try {
	await client.connect(transport);
} catch (e) {
	console.log(`connect: error ${e.message}`);
	process.exit(1);
}
let failed = 0;
for (const s of steps) {
	try {
		if (s.startsWith("ask:")) {
			continue;
		} else if (s === "version") {
			console.log(`protocol: ${answered}`);
		} else if (s === "list") {
			const r = await client.listTools();
			console.log("tools: " + r.tools.map((t) => t.name).sort().join(" "));
		} else if (s === "listp") {
			const r = await client.listPrompts();
			console.log(`prompts: ${r.prompts.length}`);
		} else if (s.startsWith("big:")) {
			const n = Number(s.slice(4)), msg = "x".repeat(n);
			const r = await client.callTool({ name: "echo",
			    arguments: { message: msg } });
			const text = r.content?.[0]?.text;
			console.log(`big ${n}: ${text === "Echo: " + msg ? "exact" : "differs"}`);
		} else if (s.startsWith("call:")) {
			const rest = s.slice(5), c = rest.indexOf(":");
			const name = rest.slice(0, c), args = JSON.parse(rest.slice(c + 1));
			const r = await client.callTool({ name, arguments: args });
			console.log(`call ${name}: ${r.isError ? "isError" : "ok"}`);
		} else {
			console.log(`unknown step ${s}`);
			failed++;
		}
	} catch (e) {
		const code = e.code !== undefined ? `${e.code} ` : "";
		console.log(`${s.split(":").slice(0, 2).join(" ")}: error ${code}${e.message}`);
		failed++;
	}
}
await client.close();
clearTimeout(watchdog);
process.exit(failed ? 1 : 0);
