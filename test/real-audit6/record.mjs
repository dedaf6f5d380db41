// Sixth audit round: the v2 packages (@modelcontextprotocol/client + /server 2.4.0, /node) on protocol 2026-07-28 on 127.0.0.1, behind the fourth and fifth audits' hops. Usage: node test/real-audit6/record.mjs [scenario...]  (needs dist/: npm run build)
// Writes test/fixtures/real-audit6/<scenario>/{client,server}.ndjson and observed.json (what the v2 caller saw, its onerror messages, what the server's tools ran).
// The py- scenarios run the Python SDK's Client (mcp 2.3.0, auto mode: 2026-07-28) through the same hops (test/real-audit6/py_client.py; /work/py-venv or PYTHON),
// its view recorded by the recording proxy (side client, what `mcp-triage record` runs) in front of the hop.
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer, createMcpHandler, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { recordingFetch, recordingHandler, startRecordingProxy } from '../../dist/capture/index.js';
import { listen, readBody, sleep, stopAfter } from '../helpers/loopback.mjs';
import { startAnswerHop } from '../helpers/answer-hop.mjs';
import { scenarioFilesIn, makeObserver, writeObserved, describeError } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit6/', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PY_CLIENT = fileURLToPath(new URL('./py_client.py', import.meta.url));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** The v2 McpServer's tools; `ran` counts what the server really executed (the side effects). */
function buildServer(ran) {
  const server = new McpServer({ name: 'audit6-server', version: '1.0.0' });
  server.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    ran.push(`lookup ${orderId}`);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('refund_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { destructiveHint: true, readOnlyHint: false } }, async ({ orderId }) => {
    await sleep(30);
    ran.push(`refund ${orderId}`);
    return text(`refund for order ${orderId} issued`);
  });
  server.registerTool('send_invoice', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => {
    await sleep(20);
    ran.push(`invoice ${orderId}`);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('validate_quantity', { inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) => {
    ran.push(`validate ${quantity}`);
    return { ...text(`quantity must be positive, got ${quantity}`), isError: quantity <= 0 };
  });
  server.registerTool('charge_card', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => {
    ran.push(`charge ${orderId}`);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `card for order ${orderId} declined`);
  });
  server.registerTool('sync_inventory', { inputSchema: z.object({ sku: z.string() }) }, async ({ sku }) => {
    ran.push(`sync ${sku}`);
    throw new Error(`inventory database unreachable for ${sku}`);
  });
  server.registerTool('slow_report', { inputSchema: z.object({ delayMs: z.number() }) }, async ({ delayMs }, ctx) => {
    await sleep(delayMs);
    ran.push(`slow_report ${delayMs} ${ctx.mcpReq.signal.aborted ? 'aborted' : 'done'}`);
    return text(ctx.mcpReq.signal.aborted ? 'report cancelled' : 'report ready');
  });
  server.registerTool('export_report', { inputSchema: z.object({ month: z.string() }) }, async ({ month }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= 6; i++) {
      await sleep(150);
      if (ctx.mcpReq.signal.aborted) {
        ran.push(`export ${month} stopped at step ${i}`);
        return text(`export ${month} stopped`);
      }
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 6, message: `step ${i}` } });
    }
    ran.push(`export ${month} done`);
    return text(`report for ${month} exported`);
  });
  return server;
}

// SSE body helpers: the events of a body, and an event's data
const sseEvents = (body) => body.split('\n\n').filter((e) => e.trim());
const dataOf = (ev) => ev.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');

const firstCall = (f) => ({ method, nMethod }) => (method === 'tools/call' && nMethod === 1 ? f : {});

const scenarios = {
  'empty-200-json': {
    // responseMode json; the hop answers the first tools/call 200 application/json with an empty body (the server ran it)
    mode: 'json',
    decide: firstCall({ transform: ({ headers }) => ({ status: 200, headers, body: '' }) }),
    async run(t) {
      await t.step('send_invoice 1001 (hop empties the 200 body)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, { timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'duplicate-response-sse': {
    // responseMode sse; the hop writes the result event twice, the second with other content
    mode: 'sse',
    decide: firstCall({
      transform: ({ status, headers, body }) => {
        const evs = sseEvents(body);
        const second = evs[evs.length - 1].replace(/id: [^\n]*\n/, '').replace('invoice for order 1001 sent', 'invoice for order 1001 FAILED');
        return { status, headers, body: body + second + '\n\n' };
      },
    }),
    async run(t) {
      await t.step('send_invoice 1001 (result event sent twice, the second different)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'error-then-result-same-id': {
    // responseMode sse; a JSON-RPC error (-32603) for the call's id put before the server's result
    mode: 'sse',
    decide: firstCall({
      transform: ({ status, headers, body }) => {
        const evs = sseEvents(body);
        const id = JSON.parse(dataOf(evs[evs.length - 1])).id;
        const err = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'upstream timeout' } })}\n\n`;
        return { status, headers, body: err + body };
      },
    }),
    async run(t) {
      await t.step('send_invoice 1001 (an error, then the result, same id)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'batch-of-one-response': {
    // responseMode json; the hop wraps the single response in an array
    mode: 'json',
    decide: firstCall({ transform: ({ status, headers, body }) => ({ status, headers, body: `[${body}]` }) }),
    async run(t) {
      await t.step('lookup_order 1001 (answered as a batch of one)', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, { timeout: 1500 }));
      await t.step('lookup_order 1002 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },
  'string-id-response': {
    // responseMode json; the hop turns the response's numeric id into a string
    mode: 'json',
    decide: firstCall({ transform: ({ status, headers, body }) => ({ status, headers, body: body.replace(/"id":(\d+)/, '"id":"$1"') }) }),
    async run(t) {
      await t.step('lookup_order 1001 (response id a string)', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, { timeout: 1500 }));
      await t.step('lookup_order 1002 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },
  'html-in-sse-after-head': {
    // responseMode sse; the 200 text/event-stream head, then nginx's 502 page as the body
    mode: 'sse',
    decide: firstCall({ htmlAfterHead: NGINX_502 }),
    async run(t) {
      await t.step('send_invoice 1001 (502 page inside the 200 event stream)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, { timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  '502-after-run': {
    // the server runs refund_order (destructiveHint), then lookup_order (readOnlyHint), and answers; the hop throws each
    // first answer away and sends nginx's 502 page; the app retries each after 300 ms
    mode: 'json',
    decide: ({ method, n }) => (method === 'tools/call' && n === 1 ? { afterRun: { status: 502, headers: { 'content-type': 'text/html', server: 'nginx' }, body: NGINX_502 } } : {}),
    async run(t) {
      for (const args of [
        { name: 'refund_order', arguments: { orderId: '1001' } },
        { name: 'lookup_order', arguments: { orderId: '1001' } },
      ]) {
        const r = await t.step(`${args.name} 1001 (server ran it, hop answers 502)`, () => t.c.callTool(args));
        if (!r.ok) {
          await sleep(300);
          await t.step(`${args.name} 1001 (app retry)`, () => t.c.callTool(args));
        }
      }
    },
  },
  'http-429-retry-after': {
    // the hop rate-limits send_invoice twice without forwarding: Retry-After an HTTP date (~2.5 s), then 1; the app
    // retries the first too early (250 ms), then waits out the second (1.1 s)
    mode: 'json',
    decide: ({ method, n }) => {
      if (method !== 'tools/call' || n > 2) return {};
      const retryAfter = n === 1 ? new Date(Date.now() + 2500).toUTCString() : '1';
      return { respond: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': retryAfter }, body: JSON.stringify({ error: 'rate_limited', message: 'Too many requests' }) } };
    },
    async run(t) {
      const args = { name: 'send_invoice', arguments: { orderId: '1001' } };
      await t.step('send_invoice 1001 (429, Retry-After an HTTP date)', () => t.c.callTool(args));
      await sleep(250);
      await t.step('send_invoice 1001 (app retry after 250 ms: 429, Retry-After 1)', () => t.c.callTool(args));
      await sleep(1100);
      await t.step('send_invoice 1001 (app retry after 1.1 s)', () => t.c.callTool(args));
    },
  },
  'abort-between-progress': {
    // responseMode auto: progress upgrades the response to SSE; the caller's AbortSignal fires 60 ms after the second
    // progress notification (v2 closes the stream: that is the cancellation); the app re-calls
    mode: 'auto',
    decide: () => ({}),
    async run(t) {
      const ac = new AbortController();
      const seen = [];
      await t.step('export_report 2026-11 (aborted after progress 2)', () =>
        t.c.callTool({ name: 'export_report', arguments: { month: '2026-11' } }, {
          signal: ac.signal,
          timeout: 400,
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            seen.push(p.progress);
            if (p.progress === 2) setTimeout(() => ac.abort(new Error('user pressed stop')), 60);
          },
        }),
      );
      t.note({ progressSeenBeforeAbort: [...seen] });
      await sleep(500);
      const seen2 = [];
      await t.step('export_report 2026-11 again (the app re-calls)', () =>
        t.c.callTool({ name: 'export_report', arguments: { month: '2026-11' } }, { timeout: 400, resetTimeoutOnProgress: true, onprogress: (p) => seen2.push(p.progress) }),
      );
      t.note({ progressSeenSecondCall: seen2 });
      await sleep(300);
    },
  },
  'tool-errors-json': {
    // responseMode json: a tool that returns isError, one that throws a ProtocolError -32602 after its work, one that
    // throws a plain Error, an unknown tool; the app calls charge_card again
    mode: 'json',
    decide: () => ({}),
    async run(t) {
      await t.step('validate_quantity -3 (isError)', () => t.c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('charge_card 1001 (throws ProtocolError -32602)', () => t.c.callTool({ name: 'charge_card', arguments: { orderId: '1001' } }));
      await t.step('sync_inventory A-1 (throws Error)', () => t.c.callTool({ name: 'sync_inventory', arguments: { sku: 'A-1' } }));
      await t.step('no_such_tool', () => t.c.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('lookup_order 1001', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'timeout-then-retry': {
    // responseMode auto: slow_report (800 ms) with a 300 ms timeout: v2 closes the stream; the app calls again with 2 s
    mode: 'auto',
    decide: () => ({}),
    async run(t) {
      const args = { name: 'slow_report', arguments: { delayMs: 800 } };
      const r = await t.step('slow_report 800 (timeout 300 ms)', () => t.c.callTool(args, { timeout: 300 }));
      if (!r.ok) {
        await sleep(100);
        await t.step('slow_report 800 (app retry, timeout 2 s)', () => t.c.callTool(args, { timeout: 2000 }));
      }
      await sleep(800);
    },
  },
};

// the Python client through the fifth audit's hops (the same decisions as the TypeScript scenarios of the same hop)
scenarios['py-502-after-run'] = { ...scenarios['502-after-run'], py: true };
scenarios['py-429-retry-after'] = { ...scenarios['http-429-retry-after'], py: true };
scenarios['py-timeout-then-retry'] = { ...scenarios['timeout-then-retry'], py: true };
for (const hop of ['empty-200-json', 'duplicate-response-sse', 'error-then-result-same-id', 'batch-of-one-response', 'string-id-response', 'html-in-sse-after-head', 'abort-between-progress', 'tool-errors-json']) {
  scenarios[`py-${hop}`] = { ...scenarios[hop], py: true };
}

/**
 * A hop that loses its connections in the middle of a call: it forwards everything, and for the first tools/call it
 * passes the head and the first `events` SSE events of the answer on, then destroys both connections (a proxy whose
 * upstream or process died). Local to this recorder: test/helpers/answer-hop.mjs has no such action.
 */
async function startCutHop(upstream, events) {
  const target = new URL(upstream);
  let calls = 0;
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try {
      rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {}
    const cut = rpc?.method === 'tools/call' && ++calls === 1;
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      res.writeHead(ures.statusCode, ures.headers);
      res.flushHeaders();
      if (!cut) return void ures.pipe(res);
      let seen = 0;
      ures.on('data', (chunk) => {
        if (seen >= events) return;
        res.write(chunk);
        seen += (chunk.toString('utf8').match(/\n\n/g) ?? []).length;
        if (seen >= events) setTimeout(() => { res.destroy(); up.destroy(); }, 20);
      });
    });
    up.end(raw);
  });
}

// a hop that loses its connections after the second progress event of export_report (2026-07-28: the v2 server takes
// the closed connection for a cancellation); the server's view by a recording proxy, which sees its peer (the hop) close
scenarios['py-hop-cuts-stream'] = { py: true, mode: 'auto', serverProxy: true, cutAfterEvents: 2 };

/** A py- scenario: the Python client through the hop, its view recorded by a recording proxy (side client). */
async function runPyScenario(name, spec) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  delete files.proxy;
  const ran = [];
  const handler = createMcpHandler(() => buildServer(ran), { responseMode: spec.mode ?? 'auto', keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  // the server's view: recordingHandler, or (serverProxy) a recording proxy with side server in front of it, as
  // `mcp-triage record --side server` records a server it cannot change
  const server = await listen(spec.serverProxy ? (req, res) => node(req, res) : recordingHandler((req, res) => node(req, res), { out: files.server }));
  const serverProxy = spec.serverProxy ? await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' }) : undefined;
  const front = serverProxy?.url ?? server.url;
  const hop = spec.cutAfterEvents ? await startCutHop(front, spec.cutAfterEvents) : await startAnswerHop(front, spec.decide);
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop.url, out: files.client, side: 'client' });
  let observed;
  try {
    const { stdout } = await promisify(execFile)(PYTHON, [PY_CLIENT, name, `${proxy.url}/mcp`], { timeout: 60_000 });
    observed = JSON.parse(stdout.trim().split('\n').pop());
  } finally {
    await sleep(200);
    await proxy.close();
    await handler.close?.().catch(() => {});
    await hop.close();
    await serverProxy?.close();
    await server.close();
  }
  observed.serverRan = ran;
  writeObserved(dir, observed);
  rmSync(`${dir}/proxy.ndjson`, { force: true });
  process.stderr.write(`recorded ${name}\n`);
}

async function runScenario(name, spec) {
  if (spec.py) return runPyScenario(name, spec);
  const { dir, files } = scenarioFilesIn(ROOT, name);
  delete files.proxy;
  const { observed, step, note } = makeObserver();
  const ran = [];
  const handler = createMcpHandler(() => buildServer(ran), { responseMode: spec.mode ?? 'auto', keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  const server = await listen(
    recordingHandler(async (req, res) => {
      try {
        await node(req, res);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      }
    }, { out: files.server }),
  );
  const hop = await startAnswerHop(server.url, spec.decide);
  const f = recordingFetch({ out: files.client });
  const c = new Client({ name: 'audit6-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  c.onerror = (e) => observed.onerror.push(describeError(e));
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', hop.url), { fetch: f, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } }), { timeout: 5000 });
    observed.era = c.getNegotiatedProtocolVersion?.() ?? null;
    await step('tools/list', () => c.listTools());
    await spec.run({ c, step, note, observed });
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    await c.close().catch(() => {});
    await sleep(150);
    await handler.close?.().catch(() => {});
    await hop.close();
    await server.close();
    await f.close?.();
  }
  observed.serverRan = ran;
  writeObserved(dir, observed);
  rmSync(`${dir}/proxy.ndjson`, { force: true });
  process.stderr.write(`recorded ${name}\n`);
}

stopAfter(120_000);
const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) if (!only.length || only.includes(name)) await runScenario(name, spec);
process.exit(0);
