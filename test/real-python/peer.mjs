// Node side of the Python SDK recorder (record.py): the fault hop, a TypeScript SDK server and the TypeScript SDK clients' scenarios.
// Usage (each prints one JSON line on stdout when ready or done):
//   node peer.mjs hop URL RULES_JSON           -> {"url"}; forwards to URL, applying the first rule that matches
//   node peer.mjs ts-server [--event-store]    -> {"url"}; SDK 1.32.2 server, stateful; POST /control/forget drops every session
//   node peer.mjs ts-client SCENARIO URL       -> what the SDK 1.32.2 caller saw
//   node peer.mjs v2-client SCENARIO URL       -> what the v2 (2.4.0) caller saw, versionNegotiation auto
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { startRuleHop, makeObserver, listen, sleep } from '../real-audit2/lib.mjs';
import { sessionHandler } from '../helpers/loopback.mjs';

const [mode, ...args] = process.argv.slice(2);
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const text = (t) => ({ content: [{ type: 'text', text: t }] });

// ---------------------------------------------------------------- the TypeScript SDK server

function buildTsServer() {
  const server = new McpServer({ name: 'ts-sdk-server', version: '1.32.2' }, { capabilities: { logging: {} } });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    await sleep(20);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('slow_report', { inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      if (extra.signal.aborted) return text('report cancelled');
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    }
    return text(`report ready after ${steps} steps`);
  });
  return server;
}

async function tsServer(eventStore) {
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer: buildTsServer, options: () => (eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 200 } : {}) });
  const s = await listen(async (req, res) => {
    if (req.url === '/control/forget') {
      for (const t of transports.values()) await t.close().catch(() => {});
      transports.clear();
      res.writeHead(200).end('forgotten');
      return;
    }
    await handle(req, res);
  });
  out({ url: s.url });
}

// ---------------------------------------------------------------- the TypeScript SDK clients

const T = { timeout: 10_000 };

/** Ask record.py (our parent) to restart the server, and wait until it says it did (a line on stdin). */
function askRestart() {
  out({ restart: true });
  return new Promise((resolve) => process.stdin.once('data', () => resolve()));
}

async function connect1(url, name, opts = {}) {
  const client = new Client({ name, version: '1.32.2' }, { capabilities: opts.elicitation ? { elicitation: {} } : {} });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

const tsScenarios = {
  // stateful Python server: list, calls that succeed, fail in the tool, name an unknown tool, break the input schema,
  // resources, progress and logging during a call, then close (DELETE)
  async baseline(url, t, seen) {
    const { client, transport } = await connect1(url, 'ts-sdk-client');
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.logs.push(n.params.data));
    await t.step('setLoggingLevel info', () => client.setLoggingLevel('info'));
    await t.step('listTools', () => client.listTools());
    await t.step('lookup_order 1001', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await t.step('validate_quantity -3 (ToolError)', () => client.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }, undefined, T));
    await t.step('crash (unexpected exception)', () => client.callTool({ name: 'crash', arguments: {} }, undefined, T));
    await t.step('no_such_tool', () => client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, T));
    await t.step('lookup_order wrong argument type', () => client.callTool({ name: 'lookup_order', arguments: { order_id: 42 } }, undefined, T));
    await t.step('listResources', () => client.listResources());
    await t.step('readResource orders://1001', () => client.readResource({ uri: 'orders://1001' }));
    await t.step('readResource config://missing', () => client.readResource({ uri: 'config://missing' }));
    await t.step('slow_report 3 steps with progress and logs', () =>
      client.callTool({ name: 'slow_report', arguments: { steps: 3, step_ms: 50 } }, undefined, { ...T, onprogress: (p) => seen.progress.push(p) }),
    );
    await t.step('count_items (structured int)', () => client.callTool({ name: 'count_items', arguments: {} }, undefined, T));
    await t.step('order_summary (structured model)', () => client.callTool({ name: 'order_summary', arguments: { order_id: '1001' } }, undefined, T));
    await t.step('terminateSession', () => transport.terminateSession());
    await client.close();
  },
  async 'timeout-cancel'(url, t) {
    const { client } = await connect1(url, 'ts-sdk-client');
    await t.step('slow_report times out at 300 ms', () => client.callTool({ name: 'slow_report', arguments: { steps: 10, step_ms: 100 } }, undefined, { timeout: 300 }));
    await sleep(1200);
    await t.step('lookup_order after the timeout', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await client.close();
  },
  async stateless(url, t) {
    const { client } = await connect1(url, 'ts-sdk-client');
    await t.step('listTools', () => client.listTools());
    await t.step('lookup_order 1001', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await t.step('validate_quantity -3', () => client.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }, undefined, T));
    await t.step('slow_report with progress', () => client.callTool({ name: 'slow_report', arguments: { steps: 2, step_ms: 30 } }, undefined, { ...T, onprogress: () => {} }));
    await t.step('ask_user (elicitation, no back channel)', () => client.callTool({ name: 'ask_user', arguments: {} }, undefined, T));
    await client.close();
  },
  async 'json-response'(url, t, seen) {
    const { client, transport } = await connect1(url, 'ts-sdk-client', { elicitation: true });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => seen.logs.push(n.params.data));
    await t.step('setLoggingLevel info', () => client.setLoggingLevel('info'));
    await t.step('listTools', () => client.listTools());
    await t.step('lookup_order 1001', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await t.step('slow_report with progress (dropped in JSON mode)', () =>
      client.callTool({ name: 'slow_report', arguments: { steps: 2, step_ms: 30 } }, undefined, { ...T, onprogress: (p) => seen.progress.push(p) }),
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
    await t.step('ask_user (elicitation, no back channel in JSON mode)', () => client.callTool({ name: 'ask_user', arguments: {} }, undefined, T));
    await t.step('terminateSession', () => transport.terminateSession());
    await client.close();
  },
  async elicitation(url, t) {
    const { client } = await connect1(url, 'ts-sdk-client', { elicitation: true });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve: true } }));
    await t.step('ask_user, accepted', () => client.callTool({ name: 'ask_user', arguments: {} }, undefined, T));
    await client.close();
  },
  // a page on another origin: every request carries its Origin (set by the hop), which the Python server's DNS-rebinding check refuses
  async 'origin-rejected'(url, t) {
    const client = new Client({ name: 'ts-sdk-client', version: '1.32.2' });
    const connected = await t.step('connect', () => client.connect(new StreamableHTTPClientTransport(new URL(url))));
    if (connected.ok) await t.step('lookup_order', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await client.close().catch(() => {});
  },
  async 'restart-404'(url, t) {
    const a = await connect1(url, 'ts-sdk-client');
    await t.step('lookup_order before the restart', () => a.client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, undefined, T));
    await askRestart(); // record.py restarts the Python server on the same port
    const first = await t.step('send_invoice after the restart', () => a.client.callTool({ name: 'send_invoice', arguments: { order_id: '1001' } }, undefined, T));
    await a.client.close().catch(() => {});
    if (!first.ok) {
      const b = await connect1(url, 'ts-sdk-client');
      await t.step('send_invoice again with a new Client (app retry)', () => b.client.callTool({ name: 'send_invoice', arguments: { order_id: '1001' } }, undefined, T));
      await b.client.close();
    }
  },
};

const v2Scenarios = {
  // versionNegotiation auto against the Python server: which protocol does it settle on?
  async baseline(url, t) {
    const client = new V2Client({ name: 'ts-v2-client', version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Transport(new URL(url)));
    await t.step('listTools', () => client.listTools());
    await t.step('lookup_order 1001', () => client.callTool({ name: 'lookup_order', arguments: { order_id: '1001' } }, T));
    await t.step('validate_quantity -3', () => client.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }, T));
    await t.step('no_such_tool', () => client.callTool({ name: 'no_such_tool', arguments: {} }, T));
    await t.step('lookup_order wrong argument type', () => client.callTool({ name: 'lookup_order', arguments: { order_id: 42 } }, T));
    await t.step('slow_report with progress', () => client.callTool({ name: 'slow_report', arguments: { steps: 2, step_ms: 30 } }, { ...T, onprogress: () => {} }));
    await t.step('slow_report times out at 300 ms', () => client.callTool({ name: 'slow_report', arguments: { steps: 10, step_ms: 100 } }, { timeout: 300 }));
    await sleep(1200);
    await client.close();
  },
};

async function runClient(scenarios, name, url) {
  const { observed, step } = makeObserver();
  const seen = { logs: [], progress: [] };
  process.on('unhandledRejection', (e) => observed.onerror.push(String(e)));
  await scenarios[name](url, { step }, seen);
  out({ ...observed, ...(seen.logs.length ? { logs: seen.logs } : {}), ...(seen.progress.length ? { progress: seen.progress } : {}) });
  process.exit(0);
}

if (mode === 'hop') out({ url: (await startRuleHop(args[0], JSON.parse(args[1]))).url });
else if (mode === 'ts-server') await tsServer(args.includes('--event-store'));
else if (mode === 'ts-client') await runClient(tsScenarios, args[0], args[1]);
else if (mode === 'v2-client') await runClient(v2Scenarios, args[0], args[1]);
else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
