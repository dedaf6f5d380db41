// Third audit round, v2 SDK (@modelcontextprotocol/client + /server 2.4.0, /node 2.1.2), protocol 2026-07-28
// (versionNegotiation auto). Usage: node test/real-audit3/record-v2.mjs [scenario...]
import { z } from 'zod';
import { McpServer, ResourceTemplate, ProtocolError, completable } from '@modelcontextprotocol/server';
import { withCallNote, sleep, scenarioFiles, stopAfter } from './lib.mjs';
import { runV2Scenario, startV2McpServer } from '../helpers/audit-v2-scenario.mjs';

stopAfter(120_000);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildMcpServer() {
  const server = new McpServer({ name: 'audit3-v2-server', version: '1.0.0' }, { capabilities: { logging: {}, completions: {} } });
  server.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => {
    await sleep(20);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('slow_report', { inputSchema: z.object({ steps: z.number(), stepMs: z.number() }), annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      if (ctx.mcpReq.signal.aborted) return text('report cancelled');
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    }
    return text(`report ready after ${steps} steps`);
  });
  server.registerTool('import_orders', { inputSchema: z.object({ count: z.number() }) }, async ({ count }, ctx) => {
    for (let i = 1; i <= count; i++) {
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', logger: 'import', data: { imported: i, of: count } } });
      await sleep(20);
    }
    return text(`imported ${count} orders`);
  });
  server.registerTool(
    'check_stock',
    { inputSchema: z.object({ sku: z.string() }), outputSchema: z.object({ sku: z.string(), available: z.number() }), annotations: { readOnlyHint: true } },
    async ({ sku }) => {
      if (sku === 'gone') return { ...text(`sku ${sku} is discontinued`), structuredContent: { error: 'discontinued', sku }, isError: true };
      if (sku === 'err-plain') return { ...text(`warehouse for ${sku} unreachable`), isError: true };
      return { ...text(`${sku}: 4`), structuredContent: { sku, available: 4 } };
    },
  );
  server.registerPrompt(
    'order_summary',
    { description: 'summarize an order', argsSchema: z.object({ orderId: completable(z.string(), (v) => ['1001', '1002', '2001'].filter((x) => x.startsWith(v))) }) },
    async ({ orderId }) => {
      if (orderId === 'boom') throw new Error('prompt backend unavailable');
      return { messages: [{ role: 'user', content: { type: 'text', text: `Summarize order ${orderId}` } }] };
    },
  );
  server.registerResource(
    'order',
    new ResourceTemplate('orders://{orderId}', { list: undefined, complete: { orderId: (v) => ['1001', '1002'].filter((x) => x.startsWith(v)) } }),
    { mimeType: 'application/json' },
    async (uri, { orderId }) => {
      if (orderId === 'boom') throw new Error('order store timed out');
      if (orderId === 'missing') throw new ProtocolError(-32002, `Resource not found: ${uri.href}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ orderId, status: 'shipped' }) }] };
    },
  );
  return server;
}

const T = { timeout: 5000 };

const scenarios = {
  'v2-unknown-tool-invalid-params': {
    async run(t) {
      const c = await t.client();
      await t.step('unknown tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }, T));
      await t.step('send_invoice with a number for orderId (invalid params)', () => c.callTool({ name: 'send_invoice', arguments: { orderId: 1001 } }, T));
      await t.step('send_invoice again with the same invalid params (noted app retry)', () =>
        withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: 'send_invoice', arguments: { orderId: 1001 } }, T)),
      );
      await t.step('send_invoice 1001 (ok)', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, T));
    },
  },

  'v2-prompts-resources-completion': {
    async run(t) {
      const c = await t.client();
      await t.step('prompts/get order_summary 1001', () => c.getPrompt({ name: 'order_summary', arguments: { orderId: '1001' } }, T));
      await t.step('prompts/get unknown prompt', () => c.getPrompt({ name: 'no_such_prompt', arguments: {} }, T));
      await t.step('prompts/get whose handler throws', () => c.getPrompt({ name: 'order_summary', arguments: { orderId: 'boom' } }, T));
      await t.step('resources/read orders://1001', () => c.readResource({ uri: 'orders://1001' }, T));
      await t.step('resources/read unknown scheme', () => c.readResource({ uri: 'nowhere://x' }, T));
      await t.step('resources/read orders://missing (-32002)', () => c.readResource({ uri: 'orders://missing' }, T));
      await t.step('resources/read orders://boom (handler throws)', () => c.readResource({ uri: 'orders://boom' }, T));
      await t.step('completion/complete prompt arg', () => c.complete({ ref: { type: 'ref/prompt', name: 'order_summary' }, argument: { name: 'orderId', value: '10' } }, T));
      await t.step('completion/complete unknown prompt', () => c.complete({ ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'orderId', value: '1' } }, T));
    },
  },

  'v2-tool-error-structured': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools(undefined, T));
      await t.step('check_stock A1', () => c.callTool({ name: 'check_stock', arguments: { sku: 'A1' } }, T));
      await t.step('check_stock gone (isError with structuredContent off-schema)', () => c.callTool({ name: 'check_stock', arguments: { sku: 'gone' } }, T));
      await t.step('check_stock err-plain (isError, no structuredContent)', () => c.callTool({ name: 'check_stock', arguments: { sku: 'err-plain' } }, T));
    },
  },

  'v2-client-close-in-flight': {
    async run(t) {
      const c = await t.client();
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, T));
      const p = t.step('slow_report 6x100 (client.close() at 150 ms)', () => c.callTool({ name: 'slow_report', arguments: { steps: 6, stepMs: 100 } }, { ...T, onprogress: () => {} }));
      await sleep(150);
      t.note({ closedAt: Date.now() });
      await c.close();
      await p;
      await sleep(800);
    },
  },

  'v2-logging-during-call': {
    async run(t) {
      const c = await t.client();
      const got = [];
      c.setNotificationHandler('notifications/message', (n) => got.push(n.params.data));
      await t.step('import_orders 3 (notifications/message on the call stream)', () => c.callTool({ name: 'import_orders', arguments: { count: 3 } }, T));
      await t.step('ping', () => c.ping(T));
      t.note({ logsSeen: got });
    },
  },

  'v2-server-gone-mid-stream': {
    // the hop destroys both sockets 250 ms into a streamed call (the server side vanished mid-stream)
    fault: (i) => (i.rpcMethod === 'tools/call' && i.tool === 'slow_report' && i.n === 1 ? { cutAfterMs: 250 } : undefined),
    async run(t) {
      const c = await t.client({ recorderOpts: { client: 'v2-gone@1.0.0' } });
      await t.step('tools/list', () => c.listTools(undefined, T));
      const r = await t.step('slow_report 8x100 (connection cut at 250 ms)', () => c.callTool({ name: 'slow_report', arguments: { steps: 8, stepMs: 100 } }, { ...T, onprogress: () => {} }));
      await sleep(300);
      if (!r.ok) await t.step('slow_report again (no note)', () => c.callTool({ name: 'slow_report', arguments: { steps: 8, stepMs: 100 } }, { ...T, onprogress: () => {} }));
    },
  },
};

const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  await runV2Scenario(name, spec, { scenarioFiles, startServer: (opts) => startV2McpServer(buildMcpServer, opts), clientName: 'audit3-v2-client' });
}
process.exit(0);
