// Cloudflare recorder: real traffic against the `agents` package's McpAgent (a Durable Object per session) and its stateless createMcpHandler, served by `wrangler dev` (workerd) on 127.0.0.1.
// NOT run by `npm test`: CI does not have wrangler. Install it outside the repository:
//   mkdir -p /work/npm-cf && cd /work/npm-cf && npm init -y && npm install agents@0.32.0 wrangler@4.164.0 \
//     @modelcontextprotocol/sdk@1.32.2 @modelcontextprotocol/server@2.4.0 zod
// then, from the repository: npm run build && node test/real-cloudflare/record.mjs [scenario...]   (NPM_CF=dir to move it)
// The worker it serves is test/real-cloudflare/worker/ (copied to $NPM_CF/worker, where its imports resolve). wrangler
// 4.164 asks for Node 22.12 in its launcher only; its CLI runs on Node 20, so the recorder starts wrangler-dist/cli.js
// itself, with --local, metrics off and a state folder of its own (no login, no network needed).
// Writes test/fixtures/real-cloudflare/<scenario>/{client,server}.ndjson and observed.json: what the caller really got.
// Client view: recordingFetch in the repository's SDK 1.32.2 client (v2 client 2.4.0 for the stateless handler's
// 2026-07-28); server view: a recording proxy right in front of wrangler dev; a fault hop between where needed.
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';
import { listen, sleep, stopAfter } from '../helpers/loopback.mjs';
import { startFaultHop } from '../real-audit2/lib.mjs';

const NPM = process.env.NPM_CF ?? '/work/npm-cf';
const ROOT = fileURLToPath(new URL('../fixtures/real-cloudflare/', import.meta.url));
const WORKER_SRC = fileURLToPath(new URL('./worker/', import.meta.url));
const WORKER = join(NPM, 'worker');
const STATE = join(NPM, 'state');

stopAfter(300_000);

// ------------------------------------------------------------------ wrangler dev

/** `wrangler dev` of the worker on a free loopback port; restart() stops it and starts it again on the same port and state folder. */
async function startWrangler() {
  rmSync(WORKER, { recursive: true, force: true });
  cpSync(WORKER_SRC, WORKER, { recursive: true });
  rmSync(STATE, { recursive: true, force: true });
  const probe = await listen(() => {});
  const port = probe.port;
  await probe.close();
  let child;
  const start = async (tries = 3) => {
    child = spawn(process.execPath, ['--no-warnings', join(NPM, 'node_modules/wrangler/wrangler-dist/cli.js'), 'dev', '--ip', '127.0.0.1', '--port', String(port), '--local', '--persist-to', STATE, '--show-interactive-dev-session=false'], {
      cwd: WORKER,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let exited = false;
    child.once('exit', () => (exited = true));
    for (let i = 0; i < 300 && !exited && !/Ready on/.test(out); i++) await sleep(100);
    if (!/Ready on/.test(out)) {
      // the port may still be held by the workerd just stopped: try again a moment later
      if (!exited) process.kill(-child.pid, 'SIGKILL');
      if (tries > 1) return sleep(1000).then(() => start(tries - 1));
      throw new Error(`wrangler dev did not start:\n${out.slice(-2000)}`);
    }
    child.stdout.removeAllListeners('data');
    child.stderr.removeAllListeners('data');
    child.stdout.resume();
    child.stderr.resume();
  };
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, sleep(5000)]);
  };
  await start();
  return { url: `http://127.0.0.1:${port}`, restart: async () => (await stop(), await start()), close: stop };
}

// ------------------------------------------------------------------ helpers

const uuid = /\b[0-9a-f]{64}\b|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function summarize(r) {
  if (!r) return r ?? null;
  if (r.tools) return { tools: r.tools.map((t) => ({ name: t.name, annotations: t.annotations ?? null })) };
  if (r.content) return { text: r.content.map((c) => c.text).join(' ').slice(0, 240), isError: r.isError ?? false };
  return r;
}

function describeError(err) {
  const out = { name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).replace(uuid, '<session>').slice(0, 300) };
  if (err && err.code !== undefined) out.code = err.code;
  return out;
}

// ------------------------------------------------------------------ harness

let wrangler;

/**
 * One scenario: a recording proxy right in front of wrangler dev (side server), an optional fault hop, and SDK clients
 * whose fetch is recordingFetch (side client).
 */
async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const observed = { scenario: name, steps: [], notes: [] };
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: wrangler.url, out: files.server, side: 'server' });
  const hop = spec.fault ? await startFaultHop(serverView.url, spec.fault) : null;
  const base = hop ? hop.url : serverView.url;
  const fetches = [];
  const clients = [];
  const t = {
    observed,
    note: (n) => observed.notes.push(n),
    url: (path = '/mcp') => new URL(path, base),
    fetch(conn) {
      const f = recordingFetch({ out: files.client, ...(conn ? { conn } : {}) });
      fetches.push(f);
      return f;
    },
    /** An SDK client, connected: 1.32.2 over Streamable HTTP (or over the old HTTP+SSE with `sse: true`), or the v2 client with `v2: true`. */
    async sdkClient({ name: clientName = 'cf-app', conn, elicit, path = '/mcp', sse = false, v2 = false, reconnect } = {}) {
      const f = t.fetch(conn);
      const capabilities = elicit ? { elicitation: v2 ? { form: {} } : {} } : {};
      const c = v2 ? new ClientV2({ name: clientName, version: '1.0.0' }, { capabilities, versionNegotiation: { mode: 'auto' } }) : new Client({ name: clientName, version: '1.0.0' }, { capabilities });
      c.onerror = (e) => observed.notes.push({ client: clientName, onerror: describeError(e) });
      if (elicit) {
        c.setRequestHandler(ElicitRequestSchema, async (req) => {
          observed.notes.push({ client: clientName, elicitation: req.params.message });
          return elicit;
        });
      }
      const transport = v2
        ? new TransportV2(t.url(path), { fetch: f })
        : sse
          ? new SSEClientTransport(t.url(path), { fetch: f })
          : new StreamableHTTPClientTransport(t.url(path), { fetch: f, reconnectionOptions: reconnect ?? { initialReconnectionDelay: 300, maxReconnectionDelay: 600, reconnectionDelayGrowFactor: 1, maxRetries: 2 } });
      clients.push(c);
      c.transportRef = transport;
      await c.connect(transport);
      return c;
    },
    async step(label, fn) {
      try {
        const r = await fn();
        observed.steps.push({ step: label, ok: true, got: r instanceof Client || r instanceof ClientV2 ? 'connected' : summarize(r) });
        return r;
      } catch (err) {
        observed.steps.push({ step: label, ok: false, error: describeError(err) });
        return undefined;
      }
    },
    /** A raw request through recordingFetch: what came back (status, content type, body text). */
    async raw(label, f, init, path = '/mcp') {
      try {
        const res = await f(t.url(path), { signal: AbortSignal.timeout(3000), ...init });
        const text = await res.text();
        const got = { status: res.status, contentType: res.headers.get('content-type'), body: text.replace(uuid, '<session>').slice(0, 300) };
        observed.steps.push({ step: label, raw: got });
        return { res, text };
      } catch (err) {
        observed.steps.push({ step: label, raw: { error: describeError(err) } });
        return {};
      }
    },
  };
  try {
    await spec.run(t);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(300);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(300);
    if (hop) await hop.close();
    await serverView.close();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  for (const f of Object.values(files)) appendFileSync(f, '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  process.stderr.write(`recorded ${name}\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);
const call = (c, name, args, opts) => c.callTool({ name, arguments: args }, undefined, opts);
const rawHeaders = (extra = {}) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra });
const sessionOf = (c) => c.transportRef.sessionId;
const rpc = (id, name, args) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

// ------------------------------------------------------------------ scenarios

const scenarios = {
  baseline: {
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      const sid = sessionOf(c);
      t.note({ protocolVersion: c.transportRef.protocolVersion, serverVersion: c.getServerVersion(), sessionIdShape: /^[0-9a-f]{64}$/.test(sid) ? '64 hex digits (a Durable Object id)' : sid });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('validate_quantity 5', () => call(c, 'validate_quantity', { quantity: 5 }));
      await t.step('ping', () => c.ping());
    },
  },

  errors: {
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('validate_quantity -3 (the tool returns isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('crash (the tool throws)', () => call(c, 'crash', {}));
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('lookup_order with a number (invalid arguments)', () => call(c, 'lookup_order', { orderId: 1001 }));
      await sleep(300);
      await t.step('crash again (the app calls it again, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'crash', {})));
    },
  },

  'http-503-app-retry': {
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('send_invoice 1001 (503 from the hop)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await sleep(1100);
      await t.step('send_invoice 1001 again (the app retries after 1.1 s, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'send_invoice', { orderId: '1001' })));
    },
  },

  'unknown-session': {
    // requests that name a session McpAgent never issued, and a tools/call with no session at all
    async run(t) {
      const f = t.fetch('raw');
      const made = 'a'.repeat(64);
      await t.raw('tools/call with a made-up 64-hex session id', f, { method: 'POST', headers: rawHeaders({ 'mcp-session-id': made, 'mcp-protocol-version': '2025-11-25' }), body: rpc(1, 'lookup_order', { orderId: '1001' }) });
      await t.raw('tools/call with a made-up UUID session id', f, { method: 'POST', headers: rawHeaders({ 'mcp-session-id': '3f1c2a9e-0000-4000-8000-000000000001', 'mcp-protocol-version': '2025-11-25' }), body: rpc(2, 'lookup_order', { orderId: '1002' }) });
      await t.raw('tools/call without a session id', f, { method: 'POST', headers: rawHeaders({ 'mcp-protocol-version': '2025-11-25' }), body: rpc(3, 'lookup_order', { orderId: '1003' }) });
      await t.raw('GET stream with a made-up session id', f, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': made, 'mcp-protocol-version': '2025-11-25' } });
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('lookup_order 1004 by an SDK client after', () => call(c, 'lookup_order', { orderId: '1004' }));
    },
  },

  'delete-then-call': {
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      const before = sessionOf(c);
      await t.step('terminateSession (DELETE)', () => c.transportRef.terminateSession());
      t.note({ sessionAfterDelete: sessionOf(c) === undefined ? 'none' : 'kept' });
      await t.step('lookup_order 1002 after DELETE (the client has no session id now)', () => call(c, 'lookup_order', { orderId: '1002' }));
      const f = t.fetch('raw');
      await t.raw('tools/call with the deleted session id', f, { method: 'POST', headers: rawHeaders({ 'mcp-session-id': before, 'mcp-protocol-version': '2025-11-25' }), body: rpc(50, 'lookup_order', { orderId: '1009' }) });
      await c.close();
      const c2 = await t.sdkClient({ conn: 'app-2' });
      await t.step('lookup_order 1002 again by a new client (the app reconnected and retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c2, 'lookup_order', { orderId: '1002' })));
    },
  },

  'wrangler-restart': {
    // wrangler dev stops and starts again with the same state folder (--persist-to): does the Durable Object's session survive?
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await wrangler.restart();
      t.note('wrangler dev restarted (same port, same --persist-to state folder)');
      await t.step('send_invoice 1002 (old session, after the restart)', () => call(c, 'send_invoice', { orderId: '1002' }));
      await t.step('lookup_order 1003 (old session, after the restart)', () => call(c, 'lookup_order', { orderId: '1003' }));
    },
  },

  'restart-mid-call': {
    // wrangler dev restarts while a tool runs: the Durable Object (and the tool) die with it, its stored events do not
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1', reconnect: { initialReconnectionDelay: 1500, maxReconnectionDelay: 3000, reconnectionDelayGrowFactor: 1.5, maxRetries: 4 } });
      const seen = [];
      const running = t.step('slow_report 12x200 with progress, wrangler restarted after 700 ms, timeout 12 s', () => call(c, 'slow_report', { steps: 12, stepMs: 200 }, { onprogress: (p) => seen.push(p.progress), timeout: 12000 }));
      await sleep(700);
      await wrangler.restart();
      t.note('wrangler dev restarted while slow_report ran (same port, same --persist-to state folder)');
      await running;
      await t.step('lookup_order 1001 after (old session)', () => call(c, 'lookup_order', { orderId: '1001' }));
      t.note({ progressSeen: seen });
    },
  },

  'progress-elicitation': {
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1', elicit: { action: 'accept', content: { confirm: true } } });
      const seen = [];
      await t.step('slow_report 4x80 with progress', () => call(c, 'slow_report', { steps: 4, stepMs: 80 }, { onprogress: (p) => seen.push(p.progress) }));
      await t.step('confirm_refund 1001 (elicitation)', () => call(c, 'confirm_refund', { orderId: '1001' }));
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
      t.note({ progressSeen: seen });
    },
  },

  'sse-cut-resume': {
    // the hop cuts the tools/call stream after 2 events; the events carry ids (McpAgent's Durable Object event store)
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterEvents: 2 } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      const seen = [];
      await t.step('slow_report 6x150 with progress, stream cut after 2 events, timeout 5 s', () => call(c, 'slow_report', { steps: 6, stepMs: 150 }, { onprogress: (p) => seen.push(p.progress), timeout: 5000 }));
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
      t.note({ progressSeen: seen });
    },
  },

  'timeout-cancel': {
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('slow_report 8x100, client timeout 300 ms', () => call(c, 'slow_report', { steps: 8, stepMs: 100 }, { timeout: 300 }));
      await sleep(1200);
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'legacy-sse': {
    // the deprecated HTTP+SSE transport (McpAgent.serveSSE on /sse): a GET stream answers every POST
    async run(t) {
      const c = await t.sdkClient({ conn: 'sse-1', path: '/sse', sse: true });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('validate_quantity -3 (isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      const f = t.fetch('raw');
      await t.raw('POST to /sse/message with a made-up session id', f, { method: 'POST', headers: rawHeaders(), body: rpc(9, 'lookup_order', { orderId: '1009' }) }, `/sse/message?sessionId=${'b'.repeat(64)}`);
    },
  },

  'stateless-handler': {
    // createMcpHandler (SDK v2 McpServer, no Durable Object): the 1.32.2 client (stateless 2025 mode) and the v2 client (2026-07-28)
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-v1', path: '/stateless' });
      t.note({ v1: { protocolVersion: c.transportRef.protocolVersion, sessionId: sessionOf(c) ?? null } });
      await t.step('v1 tools/list', () => c.listTools());
      await t.step('v1 lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('v1 validate_quantity -3 (isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('v1 crash (the tool throws)', () => call(c, 'crash', {}));
      await t.step('v1 no_such_tool', () => call(c, 'no_such_tool', {}));
      const c2 = await t.sdkClient({ name: 'cf-app-v2', conn: 'app-v2', path: '/stateless', v2: true });
      t.note({ v2: { negotiated: c2.getNegotiatedProtocolVersion?.() ?? null } });
      await t.step('v2 tools/list', () => c2.listTools());
      await t.step('v2 lookup_order 2001', () => c2.callTool({ name: 'lookup_order', arguments: { orderId: '2001' } }));
      await t.step('v2 crash (the tool throws)', () => c2.callTool({ name: 'crash', arguments: {} }));
      await t.step('v2 no_such_tool', () => c2.callTool({ name: 'no_such_tool', arguments: {} }));
    },
  },
};

wrangler = await startWrangler();
const wanted = process.argv.slice(2);
try {
  for (const [name, spec] of Object.entries(scenarios)) {
    if (wanted.length && !wanted.includes(name)) continue;
    await runScenario(name, spec);
  }
} finally {
  await wrangler.close();
}
process.exit(0);
