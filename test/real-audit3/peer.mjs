// Node side of the third round's Python recorder (record-py.py): the TypeScript SDK 1.32.2 as client or server.
// Usage (each prints one JSON line on stdout when ready or done):
//   node peer.mjs ts-server                 -> {"url"}; SDK 1.32.2 server, stateful, confirm_refund waits timeoutMs for elicitation
//   node peer.mjs ts-client SCENARIO URL    -> what the SDK 1.32.2 caller saw
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ElicitResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { makeObserver, listen, sleep } from './lib.mjs';
import { sessionHandler } from '../helpers/loopback.mjs';

const [mode, ...args] = process.argv.slice(2);
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildTsServer() {
  const server = new McpServer({ name: 'ts-sdk-server', version: '1.32.2' });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
  server.registerTool('confirm_refund', { inputSchema: { orderId: z.string(), timeoutMs: z.number() } }, async ({ orderId, timeoutMs }, extra) => {
    const answer = await extra.sendRequest(
      { method: 'elicitation/create', params: { mode: 'form', message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } } },
      ElicitResultSchema,
      { timeout: timeoutMs },
    );
    return text(`refund for ${orderId}: ${answer.action}`);
  });
  return server;
}

if (mode === 'ts-server') {
  const { handle } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer: buildTsServer });
  const s = await listen(handle);
  out({ url: s.url });
} else if (mode === 'ts-client') {
  const [scenario, url] = args;
  const { observed, step } = makeObserver();
  const client = new Client({ name: 'ts-sdk-client', version: '1.32.2' }, { capabilities: { elicitation: { form: {} } } });
  client.onerror = (e) => observed.onerror.push({ message: String(e?.message ?? e).slice(0, 300) });
  if (scenario === 'elicit-hang') client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => {}));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  if (scenario === 'elicit-hang') {
    await step('confirm_refund 1001 (the client never answers; the Python server waits 0.4 s)', () => client.callTool({ name: 'confirm_refund', arguments: { order_id: '1001' } }, undefined, { timeout: 3000 }));
    await step('lookup_order 1001 after', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }));
  }
  await sleep(200);
  await client.close();
  out(observed);
  process.exit(0);
}
