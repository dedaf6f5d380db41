// The SDK 1.32.2 stdio server audit 73 runs behind mcpsnoop's stdio shim (test/real-audit73/record.mjs): the orders tools; each tool body that runs is appended to the file AUDIT73_RAN.
import { appendFileSync } from 'node:fs';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StdioServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);
const { orderTools } = await import('./tools.mjs');
const ran = (line) => appendFileSync(process.env.AUDIT73_RAN, `${line}\n`);
await orderTools(new McpServer({ name: 'orders-stdio', version: '1.0.0' }), z, ran).connect(new StdioServerTransport());
