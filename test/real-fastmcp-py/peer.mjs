// Node side of the FastMCP recorder (record.py): the fault hop, a TypeScript SDK server, and the TypeScript SDK client's scenarios against FastMCP.
// Usage (each prints one JSON line on stdout when ready or done):
//   node peer.mjs hop URL RULES_JSON           -> {"url"}; forwards to URL, applying the first rule that matches
//   node peer.mjs ts-server [--event-store]    -> {"url"}; SDK 1.32.2 server, stateful
//   node peer.mjs ts-client SCENARIO URL       -> what the SDK 1.32.2 caller saw
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { startRuleHop, makeObserver, listen, sleep } from '../real-audit2/lib.mjs';
import { sessionHandler } from '../helpers/loopback.mjs';

const [mode, ...args] = process.argv.slice(2);
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildTsServer() {
  const server = new McpServer({ name: 'ts-sdk-server', version: '1.32.2' }, { capabilities: { logging: {} } });
  server.registerTool('lookup_order', { inputSchema: { order_id: z.string() }, annotations: { readOnlyHint: true } }, async ({ order_id }) => {
    await sleep(20);
    return text(`order ${order_id}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { order_id: z.string() } }, async ({ order_id }) => {
    await sleep(20);
    return text(`invoice for order ${order_id} sent`);
  });
  server.registerTool('slow_report', { inputSchema: { steps: z.number(), step_ms: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, step_ms }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(step_ms);
      if (extra.signal.aborted) return text('report cancelled');
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    }
    return text(`report ready after ${steps} steps`);
  });
  return server;
}

async function tsServer(eventStore) {
  const { handle } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer: buildTsServer, options: () => (eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 200 } : {}) });
  const s = await listen(handle);
  out({ url: s.url });
}

const T = { timeout: 10_000 };

/** Ask record.py (our parent) to restart the server, and wait until it says it did (a line on stdin). */
function askRestart() {
  out({ restart: true });
  return new Promise((resolve) => process.stdin.once('data', () => resolve()));
}

async function connect1(url, opts = {}) {
  const client = new Client({ name: 'ts-sdk-client', version: '1.32.2' }, { capabilities: opts.elicitation ? { elicitation: {} } : {} });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

const scenarios = {
  // stateful FastMCP server: calls that succeed, raise ToolError, crash, name an unknown tool, break the input schema,
  // hit FastMCP's own tool timeout; progress and logs; elicitation; close (DELETE)
  async baseline(url, t, seen) {
    const { client, transport } = await connect1(url, { elicitation: true });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.logs.push(n.params.data));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
    await t.step('listTools', () => client.listTools());
    await t.step('lookup_order 1001', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await t.step('validate_quantity -3 (ToolError)', () => client.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }, undefined, T));
    await t.step('crash (unexpected exception)', () => client.callTool({ name: 'crash', arguments: {} }, undefined, T));
    await t.step('no_such_tool', () => client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, T));
    await t.step('lookup_order wrong argument type', () => client.callTool({ name: 'lookup_order', arguments: { order_id: 42 } }, undefined, T));
    await t.step('bounded_report 1 s (FastMCP tool timeout 300 ms)', () => client.callTool({ name: 'bounded_report', arguments: { seconds: 1 } }, undefined, T));
    await t.step('slow_report 3 steps with progress and logs', () =>
      client.callTool({ name: 'slow_report', arguments: { steps: 3, step_ms: 50 } }, undefined, { ...T, onprogress: (p) => seen.progress.push(p) }),
    );
    await t.step('order_summary (structured model)', () => client.callTool({ name: 'order_summary', arguments: { order_id: '1001' } }, undefined, T));
    await t.step('ask_user (elicitation, accepted)', () => client.callTool({ name: 'ask_user', arguments: {} }, undefined, T));
    await t.step('terminateSession', () => transport.terminateSession());
    await client.close();
  },
  async 'timeout-cancel'(url, t) {
    const { client } = await connect1(url);
    await t.step('slow_report times out at 300 ms', () => client.callTool({ name: 'slow_report', arguments: { steps: 10, step_ms: 100 } }, undefined, { timeout: 300 }));
    await sleep(1200);
    await t.step('lookup_order after the timeout', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await client.close();
  },
  async stateless(url, t) {
    const { client } = await connect1(url, { elicitation: true });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
    await t.step('listTools', () => client.listTools());
    await t.step('lookup_order 1001', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await t.step('validate_quantity -3', () => client.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }, undefined, T));
    await t.step('slow_report with progress', () => client.callTool({ name: 'slow_report', arguments: { steps: 2, step_ms: 30 } }, undefined, { ...T, onprogress: () => {} }));
    await t.step('ask_user (elicitation)', () => client.callTool({ name: 'ask_user', arguments: {} }, undefined, T));
    await client.close();
  },
  async 'restart-404'(url, t) {
    const a = await connect1(url);
    await t.step('lookup_order before the restart', () => a.client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await askRestart();
    const first = await t.step('send_invoice after the restart', () => a.client.callTool({ name: 'send_invoice', arguments: { order_id: '1001' } }, undefined, T));
    await a.client.close().catch(() => {});
    if (!first.ok) {
      const b = await connect1(url);
      await t.step('send_invoice again with a new Client (app retry)', () => b.client.callTool({ name: 'send_invoice', arguments: { order_id: '1001' } }, undefined, T));
      await b.client.close();
    }
  },
  // FastMCP's RateLimitingMiddleware (burst 3, 1/s): the fourth quick call is refused with -32000, the app retries after 1.2 s
  async 'rate-limited'(url, t) {
    const { client } = await connect1(url);
    for (let i = 1; i <= 3; i++) await t.step(`lookup_order ${i}`, () => client.callTool({ name: 'lookup_order', arguments: { order_id: `100${i}` } }, undefined, T));
    const r = await t.step('send_invoice (rate limited)', () => client.callTool({ name: 'send_invoice', arguments: { order_id: '1001' } }, undefined, T));
    if (!r.ok) {
      await sleep(1200);
      await t.step('send_invoice again after 1.2 s (app retry)', () => client.callTool({ name: 'send_invoice', arguments: { order_id: '1001' } }, undefined, T));
    }
    await client.close();
  },
};

async function runClient(name, url) {
  const { observed, step } = makeObserver();
  const seen = { logs: [], progress: [] };
  process.on('unhandledRejection', (e) => observed.onerror.push(String(e)));
  await scenarios[name](url, { step }, seen);
  out({ ...observed, ...(seen.logs.length ? { logs: seen.logs } : {}), ...(seen.progress.length ? { progress: seen.progress } : {}) });
  process.exit(0);
}

if (mode === 'hop') out({ url: (await startRuleHop(args[0], JSON.parse(args[1]))).url });
else if (mode === 'ts-server') await tsServer(args.includes('--event-store'));
else if (mode === 'ts-client') await runClient(args[0], args[1]);
else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
