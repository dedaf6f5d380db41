// Second audit round, v2 SDK (@modelcontextprotocol/client + /server 2.4.0, /node 2.1.2), protocol 2026-07-28
// (versionNegotiation auto). Usage: node test/real-audit2/record-v2.mjs [scenario...]
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { withCallNote, sleep, scenarioFiles, stopAfter } from './lib.mjs';
import { runV2Scenario, startV2McpServer } from '../helpers/audit-v2-scenario.mjs';

stopAfter(120_000);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildMcpServer() {
  const server = new McpServer({ name: 'audit2-v2-server', version: '1.0.0' });
  server.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(30);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => {
    await sleep(30);
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
  server.registerTool('big_result', { inputSchema: z.object({ mb: z.number() }), annotations: { readOnlyHint: true } }, async ({ mb }) => {
    const line = 'order-line ' + 'x'.repeat(1013) + '\n';
    return text(line.repeat(Math.round(mb * 1024)));
  });
  server.registerTool(
    'typed_count',
    { inputSchema: z.object({ mode: z.string() }), outputSchema: z.object({ count: z.number() }), annotations: { readOnlyHint: true } },
    async ({ mode }) => (mode === 'ok' ? { ...text('3'), structuredContent: { count: 3 } } : { ...text('three'), structuredContent: { count: 'three' } }),
  );
  return server;
}

const T = { timeout: 5000 };
const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);

const scenarios = {
  'v2-http-errors-hop': {
    fault: (() => {
      const seen = new Map();
      return (i) => {
        if (!isCall(i)) return undefined;
        const oid = `${i.tool}:${i.rpc.params.arguments?.orderId}`;
        const n = (seen.get(oid) ?? 0) + 1;
        seen.set(oid, n);
        if (n > 1) return undefined;
        if (oid === 'lookup_order:h500') return { respond: 500, headers: { 'content-type': 'text/html' }, body: '<html><head><title>500 Internal Server Error</title></head><body>nginx</body></html>' };
        if (oid === 'send_invoice:h504') return { respond: 504 };
        if (oid === 'lookup_order:h429') return { respond: 429, headers: { 'retry-after': new Date(Date.now() + 3000).toUTCString() } };
        return undefined;
      };
    })(),
    async run(t) {
      const c = await t.client({ recorderOpts: { client: 'v2-ops@1.0.0' } });
      await t.step('tools/list', () => c.listTools());
      for (const [tool, oid, wait] of [['lookup_order', 'h500', 300], ['send_invoice', 'h504', 300], ['lookup_order', 'h429', 400]]) {
        const r = await t.step(`${tool} ${oid}`, () => c.callTool({ name: tool, arguments: { orderId: oid } }, T));
        await sleep(wait);
        if (!r.ok) await t.step(`${tool} ${oid} retry (noted)`, () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: tool, arguments: { orderId: oid } }, T)));
      }
    },
  },

  'v2-progress-long-max-total': {
    async run(t) {
      const c = await t.client();
      let n1 = 0;
      await t.step('slow_report 40x100, timeout 1000 reset (completes)', () => c.callTool({ name: 'slow_report', arguments: { steps: 40, stepMs: 100 } }, { timeout: 1000, resetTimeoutOnProgress: true, onprogress: () => n1++ }));
      let n2 = 0;
      await t.step('slow_report 40x100, reset, maxTotalTimeout 1500 (fails)', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 40, stepMs: 100 } }, { timeout: 1000, resetTimeoutOnProgress: true, maxTotalTimeout: 1500, onprogress: () => n2++ }),
      );
      t.note({ n1, n2 });
      await sleep(2500);
    },
  },

  'v2-large-and-schema': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('big_result 5 MB', () => c.callTool({ name: 'big_result', arguments: { mb: 5 } }, T));
      await t.step('typed_count ok', () => c.callTool({ name: 'typed_count', arguments: { mode: 'ok' } }, T));
      await t.step('typed_count wrong-type (server validates)', () => c.callTool({ name: 'typed_count', arguments: { mode: 'bad' } }, T));
    },
  },

  'v2-reconnect-retry-new-conn': {
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { dropResponse: true } : undefined),
    async run(t) {
      const args = { name: 'send_invoice', arguments: { orderId: '8008' } };
      const a = await t.client({ recorderOpts: { conn: 'v2-client-1' } });
      const r = await t.step('send_invoice (server ran it, connection dropped)', () => a.callTool(args, T));
      if (!r.ok) {
        await a.close();
        await sleep(300);
        const b = await t.client({ recorderOpts: { conn: 'v2-client-2' } });
        await t.step('send_invoice from a new Client/conn, noted app retry', () => withCallNote({ retryOrigin: 'app', attempt: 2, call: 'invoice-8008' }, () => b.callTool(args, T)));
      }
    },
  },

  'v2-batch-post': {
    // 2026-07-28 has no batches: what does a v2 server answer to one, and how is it read?
    async run(t) {
      const c = await t.client({ recorderOpts: { conn: 'v2-batch' } });
      await t.step('tools/list via SDK', () => c.listTools());
      const f = t.recorder({ conn: 'v2-batch-raw', client: 'batch-script@0.1' });
      const meta = { 'io.modelcontextprotocol/clientInfo': { name: 'batch-script', version: '0.1' } };
      const r = await f(new URL('/mcp', t.proxyUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1' }, _meta: meta } },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '2' }, _meta: meta } },
        ]),
      });
      t.note({ status: r.status, contentType: r.headers.get('content-type'), body: (await r.text()).slice(0, 800) });
    },
  },
};

const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  await runV2Scenario(name, spec, { scenarioFiles, startServer: (opts) => startV2McpServer(buildMcpServer, opts), clientName: 'audit2-v2-client' });
}
process.exit(0);
