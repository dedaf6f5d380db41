// Fifth audit round, SDK 1.32.2 client and server on 127.0.0.1 with a hop between them: a response moved to the GET stream, an abort between progress notifications, 502/429 from the hop, a lost session, JSON response mode errors, a stripped session header. Usage: node test/real-audit5/record.mjs [scenario...]  (needs dist/: npm run build)
// Writes test/fixtures/real-audit5/<scenario>/{client,server}.ndjson and observed.json (what the SDK caller saw).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, isInitializeRequest, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { recordingFetch, recordingHandler } from '../../dist/capture/index.js';
import { listen, sleep, sessionHandler, stopAfter } from '../helpers/loopback.mjs';
import { startAnswerHop } from '../helpers/answer-hop.mjs';
import { scenarioFilesIn, makeObserver, writeObserved, describeError } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit5/', import.meta.url));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** The tools every McpServer scenario offers; `ran` counts what the server really executed (the side effects). */
function buildServer(ran) {
  const server = new McpServer({ name: 'audit5-server', version: '1.0.0' });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('refund_order', { inputSchema: { orderId: z.string() }, annotations: { destructiveHint: true, readOnlyHint: false } }, async ({ orderId }) => {
    await sleep(30);
    ran.push(`refund ${orderId}`);
    return text(`refund for order ${orderId} issued`);
  });
  server.registerTool('set_order_status', { inputSchema: { orderId: z.string(), status: z.string() }, annotations: { destructiveHint: true, idempotentHint: true } }, async ({ orderId, status }) => {
    await sleep(20);
    ran.push(`status ${orderId} ${status}`);
    return text(`order ${orderId} is now ${status}`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    await sleep(20);
    ran.push(`invoice ${orderId}`);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('validate_quantity', { inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) => ({ ...text(`quantity must be positive, got ${quantity}`), isError: quantity <= 0 }));
  server.registerTool('charge_card', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    throw new McpError(ErrorCode.InvalidParams, `card for order ${orderId} declined`);
  });
  server.registerTool('export_report', { inputSchema: { month: z.string() } }, async ({ month }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= 6; i++) {
      await sleep(150);
      if (extra.signal.aborted) {
        ran.push(`export ${month} stopped at step ${i}`);
        return text(`export ${month} stopped`);
      }
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 6, message: `step ${i}` } });
    }
    ran.push(`export ${month} done`);
    return text(`report for ${month} exported`);
  });
  return server;
}

/** A low-level Server whose tools/call handler returns isError, throws an McpError, or throws a plain Error. */
function buildLowLevelServer(ran) {
  const server = new Server({ name: 'audit5-lowlevel', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ['is_error', 'throws_mcp_error', 'throws_plain_error', 'ok_tool'].map((name) => ({ name, inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, annotations: { readOnlyHint: name === 'ok_tool' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: args } = req.params;
    ran.push(`${name} ${args?.orderId}`);
    if (name === 'is_error') return { ...text(`order ${args?.orderId} not found`), isError: true };
    if (name === 'throws_mcp_error') throw new McpError(ErrorCode.InvalidParams, `orderId ${args?.orderId} is not a valid order id`);
    if (name === 'throws_plain_error') throw new Error('database connection lost');
    return text(`ok ${args?.orderId}`);
  });
  return server;
}

const reconnection = { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 };

const scenarios = {
  'response-on-get-stream-post-ended': {
    // the hop ends the first tools/call's POST stream without its response and writes the response on the session's
    // standalone GET stream 30 ms later
    decide: ({ method, nMethod }) => (method === 'tools/call' && nMethod === 1 ? { moveToGet: 'end' } : {}),
    async run(t) {
      await sleep(200); // the client opens its GET stream after notifications/initialized
      await t.step('send_invoice 1001 (response moved to the GET stream, POST stream ended)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, undefined, { timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'response-on-get-stream-post-held': {
    // the hop writes the first tools/call's response on the GET stream and keeps the POST stream open (until the client closes)
    decide: ({ method, nMethod }) => (method === 'tools/call' && nMethod === 1 ? { moveToGet: 'hold' } : {}),
    async run(t) {
      await sleep(200);
      await t.step('send_invoice 1001 (response moved to the GET stream, POST stream held open)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, undefined, { timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'abort-between-progress': {
    // a long tool sends progress every 150 ms; the caller's AbortSignal fires 60 ms after the second one; the app re-calls
    decide: () => ({}),
    async run(t) {
      const ac = new AbortController();
      const seen = [];
      await t.step('export_report 2026-11 (aborted after progress 2)', () =>
        t.c.callTool({ name: 'export_report', arguments: { month: '2026-11' } }, undefined, {
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
        t.c.callTool({ name: 'export_report', arguments: { month: '2026-11' } }, undefined, { timeout: 400, resetTimeoutOnProgress: true, onprogress: (p) => seen2.push(p.progress) }),
      );
      t.note({ progressSeenSecondCall: seen2 });
      await sleep(300);
    },
  },
  'destructive-502-after-run': {
    // the server runs refund_order (destructiveHint) and answers; the hop throws the answer away and sends nginx's 502; the app retries
    decide: ({ method, n }) => (method === 'tools/call' && n === 1 ? { afterRun: { status: 502, headers: { 'content-type': 'text/html', server: 'nginx' }, body: NGINX_502 } } : {}),
    async run(t) {
      const args = { name: 'refund_order', arguments: { orderId: '1001' } };
      const r = await t.step('refund_order 1001 (server ran it, hop answers 502)', () => t.c.callTool(args));
      if (!r.ok) {
        await sleep(300);
        await t.step('refund_order 1001 (app retry)', () => t.c.callTool(args));
      }
    },
  },
  'readonly-502-after-run': {
    // the same 502 after the server ran a read-only tool, and after a destructive but idempotent one; the app retries each
    decide: ({ method, n }) => (method === 'tools/call' && n === 1 ? { afterRun: { status: 502, headers: { 'content-type': 'text/html', server: 'nginx' }, body: NGINX_502 } } : {}),
    async run(t) {
      for (const args of [
        { name: 'lookup_order', arguments: { orderId: '1001' } },
        { name: 'set_order_status', arguments: { orderId: '1001', status: 'cancelled' } },
      ]) {
        const r = await t.step(`${args.name} (server ran it, hop answers 502)`, () => t.c.callTool(args));
        if (!r.ok) {
          await sleep(300);
          await t.step(`${args.name} (app retry)`, () => t.c.callTool(args));
        }
      }
    },
  },
  'http-429-retry-after': {
    // the hop rate-limits send_invoice twice without forwarding: Retry-After as an HTTP date (~2 s), then as 1 second;
    // the app retries the first too early (250 ms), then waits out the second (1.1 s)
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
  'session-expired-new-process': {
    // the server forgets every session (a restart) between calls; the call gets 404; the app starts anew (a new
    // recorder, as a new process would, appending to the same file), re-initializes and re-calls
    decide: () => ({}),
    async run(t) {
      await t.step('send_invoice 1001 (before the restart)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
      await t.restartServer();
      await sleep(400);
      const args = { name: 'send_invoice', arguments: { orderId: '1002' } };
      const r = await t.step('send_invoice 1002 (old session: 404)', () => t.c.callTool(args));
      if (!r.ok) {
        await t.c.close().catch(() => {});
        const c2 = await t.newClient({ newRecorder: true });
        await t.step('send_invoice 1002 (new process, new session)', () => c2.callTool(args));
      }
    },
  },
  'json-mode-tool-errors': {
    // JSON response mode (enableJsonResponse), McpServer: a tool that returns isError, one that throws an McpError
    json: true,
    decide: () => ({}),
    async run(t) {
      await t.step('validate_quantity -3 (isError)', () => t.c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('charge_card 1001 (throws McpError -32602)', () => t.c.callTool({ name: 'charge_card', arguments: { orderId: '1001' } }));
      await t.step('no_such_tool', () => t.c.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('lookup_order 1001', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'json-mode-lowlevel-errors': {
    // JSON response mode, a low-level Server: isError, an McpError thrown (-32602), a plain Error thrown (-32603)
    json: true,
    build: buildLowLevelServer,
    decide: () => ({}),
    async run(t) {
      await t.step('is_error 1001', () => t.c.callTool({ name: 'is_error', arguments: { orderId: '1001' } }));
      await t.step('throws_mcp_error x', () => t.c.callTool({ name: 'throws_mcp_error', arguments: { orderId: 'x' } }));
      await t.step('throws_plain_error 1001', () => t.c.callTool({ name: 'throws_plain_error', arguments: { orderId: '1001' } }));
      await t.step('ok_tool 1001', () => t.c.callTool({ name: 'ok_tool', arguments: { orderId: '1001' } }));
    },
  },
  'session-header-stripped': {
    // a proxy drops Mcp-Session-Id from the initialize response: the client goes on without a session id; the app tries twice
    decide: ({ method }) => (method === 'initialize' ? { stripSessionHeader: true } : {}),
    noConnect: true,
    async run(t) {
      for (const k of [1, 2]) {
        const c = new Client({ name: 'audit5-client', version: '1.0.0' });
        c.onerror = (e) => t.observed.onerror.push(describeError(e));
        const r = await t.step(`connect ${k}`, () => c.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.hopUrl), { fetch: t.fetch, reconnectionOptions: reconnection })));
        if (r.ok) await t.step(`lookup_order 1001 (client ${k})`, () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
        await c.close().catch(() => {});
        await sleep(300);
      }
    },
  },
};

async function runScenario(name, spec) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  delete files.proxy;
  const { observed, step, note } = makeObserver();
  const ran = [];
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer: () => (spec.build ?? buildServer)(ran), options: () => ({ enableJsonResponse: !!spec.json }) });
  const server = await listen(recordingHandler(handle, { out: files.server }));
  const hop = await startAnswerHop(server.url, spec.decide);
  const recorders = [recordingFetch({ out: files.client })];
  const clients = [];
  const newClient = async ({ newRecorder = false } = {}) => {
    if (newRecorder) recorders.push(recordingFetch({ out: files.client }));
    const c = new Client({ name: 'audit5-client', version: '1.0.0' });
    c.onerror = (e) => observed.onerror.push(describeError(e));
    clients.push(c);
    await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', hop.url), { fetch: recorders.at(-1), reconnectionOptions: reconnection }));
    await step('tools/list', () => c.listTools());
    return c;
  };
  const restartServer = async () => {
    const all = [...transports.values()];
    transports.clear();
    for (const tr of all) await tr.close().catch(() => {});
  };
  try {
    const c = spec.noConnect ? undefined : await newClient();
    await spec.run({ c, step, note, observed, newClient, restartServer, hopUrl: hop.url, fetch: recorders[0] });
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(150);
    for (const tr of transports.values()) await tr.close().catch(() => {});
    await hop.close();
    await server.close();
    for (const f of recorders) await f.close?.();
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
