// mangle.mjs - a deliberately broken stdio hop, so the tests can show that
// mcp_client.mjs notices a hop that alters bytes (a check that cannot fail
// proves nothing). It runs COMMAND and passes stdin and stderr through
// unchanged, and stdout line by line, except that in the first line holding
// FROM it replaces FROM by TO, once:
//
//   node mangle.mjs FROM TO -- COMMAND [ARGS...]
import { spawn } from "node:child_process";
import process from "node:process";

const [from, to, dashdash, ...cmd] = process.argv.slice(2);
if (!from || to === undefined || dashdash !== "--" || cmd.length === 0) {
	process.stderr.write("usage: node mangle.mjs FROM TO -- COMMAND [ARGS...]\n");
	process.exit(2);
}
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
let pending = "";
let done = false;
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk) => {
	pending += chunk;
	let nl;
	while ((nl = pending.indexOf("\n")) >= 0) {
		let line = pending.slice(0, nl + 1);
		pending = pending.slice(nl + 1);
		if (!done && line.includes(from)) {
			line = line.replace(from, to);
			done = true;
		}
		process.stdout.write(line);
	}
});
child.stdout.on("end", () => process.stdout.write(pending));
child.on("exit", (code, sig) => process.exit(sig ? 128 : code ?? 1));
