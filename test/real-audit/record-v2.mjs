// Audit recorder for the v2 SDK (@modelcontextprotocol/client + /server 2.4.0, /node 2.1.2), protocol 2026-07-28
// (versionNegotiation auto) and legacy 2025-11-25 on a stateful v2 server.
// Usage: node test/real-audit/record-v2.mjs [scenario...]   Output: test/fixtures/real-audit/<scenario>/{client,server,proxy}.ndjson, observed.json
import { z } from 'zod';
import { McpServer, createMcpHandler, ProtocolError } from '@modelcontextprotocol/server';
import { toNodeHandler, NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { recordingFetch, recordingHandler, startRecordingProxy, withCallNote, listen, sleep, startFaultHop, scenarioFiles, makeObserver, writeObserved, describeError, stopAfter } from './lib.mjs';
import { sessionHandler } from '../helpers/loopback.mjs';

stopAfter(90_000);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildMcpServer() {
  const server = new McpServer({ name: 'audit-v2-server', version: '1.0.0' });
  server.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(30);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => text(`invoice for order ${orderId} sent`));
  server.registerTool('validate_quantity', { inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool('protocol_error_tool', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => {
    await sleep(50);
    throw new ProtocolError(-32602, `unknown order ${orderId}`, { field: 'orderId' });
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
  return server;
}

async function startMcpServer({ out, kind = 'modern', responseMode = 'auto' }) {
  let node;
  let closeAll;
  if (kind === 'modern') {
    const handler = createMcpHandler(() => buildMcpServer(), { responseMode, keepAliveMs: 0 });
    node = toNodeHandler(handler);
    closeAll = () => handler.close();
  } else {
    const sessions = sessionHandler({ Transport: NodeStreamableHTTPServerTransport, isInitializeRequest: (body) => body?.method === 'initialize', buildServer: buildMcpServer });
    const transports = sessions.transports;
    node = sessions.handle;
    closeAll = async () => {
      for (const t of transports.values()) await t.close().catch(() => {});
    };
  }
  const s = await listen(
    recordingHandler(async (req, res) => {
      try {
        await node(req, res);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      }
    }, { out }),
  );
  return { ...s, async close() { await closeAll().catch(() => {}); await s.close(); } };
}

async function runScenario(name, spec) {
  const { dir, files } = scenarioFiles(name);
  const { observed, step, note } = makeObserver();
  const mcp = await startMcpServer({ out: files.server, ...spec.server });
  const hop = spec.fault ? await startFaultHop(mcp.url, spec.fault) : null;
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : mcp.url, out: files.proxy });
  const fetches = [];
  const clients = [];
  const ctx = {
    observed, step, note,
    async client({ name: clientName = 'audit-v2-client', era = 'modern', recorderOpts = {}, fetch } = {}) {
      const f = fetch ?? recordingFetch({ out: files.client, ...recorderOpts });
      if (!fetch) fetches.push(f);
      const client = new Client({ name: clientName, version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
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
    recorder(opts = {}) {
      const f = recordingFetch({ out: files.client, ...opts });
      fetches.push(f);
      return f;
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
  writeObserved(dir, observed);
  process.stderr.write(`recorded ${name}\n`);
}

const T = { timeout: 5000 };
const scenarios = {
  /** 8a. 2026-07-28: parallel calls: ok, isError x2, ProtocolError thrown in a tool, unknown tool x2 concurrently (same args), then a sequential repeat. */
  'v2-parallel-mixed': {
    async run(t) {
      const c = await t.client({ recorderOpts: { client: 'audit-v2-agent@1.0.0' } });
      await t.step('tools/list', () => c.listTools());
      await Promise.all([
        t.step('P lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, T)),
        t.step('P validate_quantity -3', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }, T)),
        t.step('P validate_quantity -5', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -5 } }, T)),
        t.step('P protocol_error_tool', () => c.callTool({ name: 'protocol_error_tool', arguments: { orderId: 'x' } }, T)),
        t.step('P no_such_tool #1', () => c.callTool({ name: 'no_such_tool', arguments: { a: 1 } }, T)),
        t.step('P no_such_tool #2 (same args, concurrent)', () => c.callTool({ name: 'no_such_tool', arguments: { a: 1 } }, T)),
      ]);
      await sleep(300);
      await t.step('protocol_error_tool again (sequential repeat)', () => c.callTool({ name: 'protocol_error_tool', arguments: { orderId: 'x' } }, T));
      await t.step('no_such_tool again (sequential app retry, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 3 }, () => c.callTool({ name: 'no_such_tool', arguments: { a: 1 } }, T)));
    },
  },

  /** 8b. 2026-07-28: AbortSignal aborts a long call (stream closed), a user re-run, and a parallel pair with one aborted. */
  'v2-abort-signal': {
    async run(t) {
      const c = await t.client();
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('user pressed stop')), 300);
      await t.step('slow_report 10x100, aborted at 300ms', () => c.callTool({ name: 'slow_report', arguments: { steps: 10, stepMs: 100 } }, { signal: ac.signal, timeout: 5000 }));
      await sleep(1200);
      await t.step('slow_report again (user re-run)', () => c.callTool({ name: 'slow_report', arguments: { steps: 10, stepMs: 100 } }, T));
      const ac2 = new AbortController();
      setTimeout(() => ac2.abort(), 150);
      await Promise.all([
        t.step('P slow_report 3x100 (aborted at 150ms)', () => c.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 100 } }, { signal: ac2.signal })),
        t.step('P slow_report 4x100 (completes)', () => c.callTool({ name: 'slow_report', arguments: { steps: 4, stepMs: 100 } }, T)),
      ]);
      await sleep(600);
    },
  },

  /** 8c. 2026-07-28: progress with resetTimeoutOnProgress (succeeds), then without (times out). */
  'v2-progress-reset-timeout': {
    async run(t) {
      const c = await t.client();
      const seen = [];
      await t.step('slow_report 5x200, timeout 500, reset', () => c.callTool({ name: 'slow_report', arguments: { steps: 5, stepMs: 200 } }, { timeout: 500, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p.progress) }));
      t.note({ progress: seen });
      await t.step('slow_report 5x200, timeout 500, no reset', () => c.callTool({ name: 'slow_report', arguments: { steps: 5, stepMs: 200 } }, { timeout: 500, onprogress: () => {} }));
      await sleep(1200);
    },
  },

  /** 8d. 2026-07-28: two different clients (clientInfo in every request's _meta), separate recorders, no conn; the first's call gets a 503 from the hop; the second sends the same call 40 ms later. */
  'v2-two-clients-same-call': {
    fault: (i) => (i.rpcMethod === 'tools/call' && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const a = await t.client({ name: 'agent-alpha' });
      const b = await t.client({ name: 'agent-beta' });
      const args = { name: 'send_invoice', arguments: { orderId: '1001' } };
      const pa = t.step('alpha send_invoice (503)', () => a.callTool(args, T));
      await sleep(40);
      const pb = t.step('beta send_invoice (40 ms later)', () => b.callTool(args, T));
      await Promise.all([pa, pb]);
    },
  },

  /** 8e. v2 client on 2025-11-25 (legacy) against a stateful v2 server: AbortSignal -> notifications/cancelled; parallel calls. */
  'v2-legacy-stateful-abort': {
    server: { kind: 'legacy-stateful' },
    async run(t) {
      const c = await t.client({ era: 'legacy' });
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 250);
      await Promise.all([
        t.step('P slow_report 10x100 (aborted at 250ms)', () => c.callTool({ name: 'slow_report', arguments: { steps: 10, stepMs: 100 } }, { signal: ac.signal, timeout: 5000 })),
        t.step('P validate_quantity -1', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } }, T)),
        t.step('P no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }, T)),
        t.step('P lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1' } }, T)),
      ]);
      await sleep(1300);
    },
  },
};

const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
