// Drives /mcp with the official MCP TypeScript SDK client, for McpTypeScriptClientTest.
// Usage: MINUTES_KEY=mk_... node mcp-client.mjs http://127.0.0.1:PORT/mcp cases.json
// cases.json: [{"tool": "search", "arguments": {...}}, ...]. Prints one JSON object on stdout:
// the negotiated protocol version, the server's name, tools/list and each call's result.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, casesFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${process.env.MINUTES_KEY}` } },
});
const client = new Client({ name: "minutes-ts-test", version: "1.0.0" });
await client.connect(transport);
// Listing first makes the client check every structuredContent against the tool's outputSchema.
const { tools } = await client.listTools();
const results = [];
for (const c of cases) {
  results.push(await client.callTool({ name: c.tool, arguments: c.arguments }));
}
process.stdout.write(JSON.stringify({
  protocolVersion: transport.protocolVersion,
  server: client.getServerVersion().name,
  tools,
  results,
}));
await client.close();
