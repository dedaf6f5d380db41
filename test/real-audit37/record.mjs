// Thirty-seventh audit: a tool error and a JSON-RPC error whose texts are dumps longer than a report row keeps, recorded between the TypeScript SDK 1.32.2 client and McpServer.
// Usage: node test/real-audit37/record.mjs  (needs dist/: npm run build)
// Writes test/fixtures/real-audit37/long-errors/{client,server}.ndjson (recordingFetch, recordingHandler) and observed.json: what the caller got, with each text's length.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { recordingFetch, recordingHandler } from '../../dist/capture/index.js';
import { handleStateless, listen } from '../helpers/loopback.mjs';

const DIR = fileURLToPath(new URL('../fixtures/real-audit37/long-errors/', import.meta.url));

/** A CSV import's rejection as such tools write it: every row it could not parse, quoted back (about 15,000 characters). */
const rows = Array.from({ length: 240 }, (_, i) => `row ${i + 2}: "ACME-${1000 + i}";"2026-13-${String(i % 40).padStart(2, '0')}";"${(i * 7.25).toFixed(2)}" has no valid date`);
const importError = `import_csv rejected orders.csv: ${rows.length} of 240 rows are invalid:\n${rows.join('\n')}`;
/** A resource read that fails with the path list a file store gives back. */
const paths = Array.from({ length: 300 }, (_, i) => `/srv/reports/2026/${String(1 + (i % 12)).padStart(2, '0')}/report-${i}.pdf`);
const readError = `report store unavailable while listing ${paths.length} candidates: ${paths.join(', ')}`;

function buildServer() {
  const mcp = new McpServer({ name: 'long-errors', version: '1.0.0' });
  mcp.registerTool('import_csv', { description: 'Import orders from a CSV file', inputSchema: { file: z.string() } }, async () => {
    throw new Error(importError);
  });
  mcp.registerResource('report', new ResourceTemplate('reports://{id}', { list: undefined }), {}, async () => {
    throw new McpError(-32603, readError);
  });
  return mcp;
}

const server = await listen(recordingHandler((req, res) => void handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer }), { out: `${DIR}server.ndjson` }));
const client = new Client({ name: 'audit37-client', version: '1.0.0' });
const fetch = recordingFetch({ out: `${DIR}client.ndjson`, client: 'audit37-client@1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch }));
const observed = {};
const tool = await client.callTool({ name: 'import_csv', arguments: { file: 'orders.csv' } });
observed.import_csv = { isError: tool.isError, textLength: tool.content[0].text.length };
try {
  await client.readResource({ uri: 'reports://q3' });
} catch (err) {
  observed.read = { code: err.code, messageLength: err.message.length };
}
await client.close();
await fetch.close();
await server.close();
writeFileSync(`${DIR}observed.json`, `${JSON.stringify(observed, null, 2)}\n`);
console.log(observed);
