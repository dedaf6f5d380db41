// Second audit round, v2 SDK (@modelcontextprotocol/client + /server 2.4.0, /node 2.1.2), protocol 2026-07-28
// (versionNegotiation auto). Usage: node test/real-audit2/record-v2.mjs [scenario...]
import { z } from 'zod';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { recordingFetch, recordingHandler, startRecordingProxy, withCallNote, listen, sleep, startFaultHop, scenarioFiles, makeObserver, writeObserved, describeError, stopAfter } from './lib.mjs';

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

async function startMcpServer({ out, responseMode = 'auto' }) {
  const handler = createMcpHandler(() => buildMcpServer(), { responseMode, keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  const s = await listen(
    recordingHandler(async (req, res) => {
      try {
        await node(req, res);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      }
    }, { out }),
  );
  return { ...s, async close() { await handler.close().catch(() => {}); await s.close(); } };
}

async function runScenario(name, spec) {
  const { dir, files } = scenarioFiles(name);
  const { observed, step, note } = makeObserver();
  const mcp = await startMcpServer({ out: files.server, ...spec.server });
  const proxyRef = {};
  const hop = spec.fault ? await startFaultHop(mcp.url, (i) => spec.fault({ ...i, proxyUrl: proxyRef.url })) : null;
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : mcp.url, out: files.proxy });
  proxyRef.url = proxy.url;
  const fetches = [];
  const clients = [];
  const ctx = {
    observed, step, note, files, proxyUrl: proxy.url,
    recorder(opts = {}) {
      const f = recordingFetch({ out: files.client, ...opts });
      fetches.push(f);
      return f;
    },
    async client({ name: clientName = 'audit2-v2-client', recorderOpts = {}, fetch } = {}) {
      const f = fetch ?? ctx.recorder(recorderOpts);
      const client = new Client({ name: clientName, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      client.onerror = (e) => observed.onerror.push({ client: clientName, ...describeError(e) });
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', proxy.url), {
        fetch: f,
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
      });
      await client.connect(transport, { timeout: 5000 });
      observed.era ??= client.getNegotiatedProtocolVersion?.() ?? null;
      clients.push(client);
      return client;
    },
  };
  try {
    await spec.run(ctx);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(100);
    await proxy.close();
    if (hop) await hop.close();
    await mcp.close();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  writeObserved(dir, observed);
  process.stderr.write(`recorded ${name}\n`);
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
  await runScenario(name, spec);
}
process.exit(0);
