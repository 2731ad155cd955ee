// demo_server.mjs - the second server of `make demo`: an MCP server (the
// official SDK) that reports what its jail lets it see, so the demo's
// client can show it. Run by the runner like any tenant's server.
//
//   whoami            "uid N gid N"
//   read-file {path}  the file's size, or the error that stopped the read
//                     (the demo asks for the runner's own secret file)
import process from "node:process";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "jail-probe", version: "1.0.0" });
const text = (s) => ({ content: [{ type: "text", text: s }] });

server.registerTool("whoami", { description: "the server process's uid and gid", inputSchema: {} },
	async () => text(`uid ${process.getuid()} gid ${process.getgid()}`));

server.registerTool("read-file", {
	description: "try to read a file; its size, or why not",
	inputSchema: { path: z.string() },
}, async ({ path }) => {
	try {
		return text(`read ${readFileSync(path).length} bytes`);
	} catch (e) {
		return text(`cannot read it: ${e.code ?? e.message}`);
	}
});

await server.connect(new StdioServerTransport());
