// More server frameworks' recorder: real traffic against npm MCP server frameworks that run their own HTTP layer around (or instead of) the SDK's transport, on 127.0.0.1.
// NOT run by `npm test`: CI does not have these packages. They live in a scratch folder outside the repository:
//   mkdir -p /work/npm-servers2 && cd /work/npm-servers2 && npm init -y && npm install mcp-framework@0.2.22 mcp-handler@2.4.0 \
//     @modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/sdk@1.32.2 zod@3
//   mkdir -p /work/npm-servers3 && cd /work/npm-servers3 && npm init -y && npm install @mastra/mcp@2.0.0 @mastra/core@1 zod@4
//   (Mastra pins the v2 SDK 2.0.0, so it gets a folder of its own; NPM_SERVERS3=dir to move it)
// then, from the repository: npm run build && node test/real-servers2/record.mjs [scenario...]   (NPM_SERVERS2=dir to move it)
// Writes test/fixtures/real-servers2/<scenario>/{client,server}.ndjson and observed.json: what the caller really got.
// Each server runs in its own process (servers/*.mjs, or server-everything's own `streamableHttp` entry), so a restart is
// a real one: the process is killed and started again on the same port. The client is the repository's SDK 1.32.2
// (recordingFetch: the client's view) and, for mcp-handler's 2026-07-28 side, the v2 client 2.4.0; the server's view is a
// recording proxy right in front of the server; a fault hop sits between the two where a scenario needs one.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';
import { freePort, sleep } from '../helpers/loopback.mjs';
import { describeError, startFaultHop, summarize } from '../real-audit2/lib.mjs';

const NPM = process.env.NPM_SERVERS2 ?? '/work/npm-servers2';
const ROOT = fileURLToPath(new URL('../fixtures/real-servers2/', import.meta.url));
const SERVERS = fileURLToPath(new URL('./servers/', import.meta.url));
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

setTimeout(() => {
  process.stderr.write('still running after 300 s, giving up\n');
  process.exit(2);
}, 300_000).unref();

/** A server in a child process on a fixed port; restart() kills it (SIGKILL) and starts it again on the same port. */
async function startProcess(argsFor, { env = {}, readyLine = /ready|listening on port/i } = {}) {
  const port = await freePort();
  let child;
  const spawnIt = async () => {
    const [cmd, args, cwd] = argsFor(port);
    child = spawn(cmd, args, { cwd, env: { ...process.env, NPM_SERVERS2: NPM, PORT: String(port), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`server did not start: ${cmd} ${args.join(' ')}`)), 15_000);
      const on = (line) => {
        if (readyLine.test(line)) {
          clearTimeout(t);
          resolve();
        }
      };
      createInterface({ input: child.stdout }).on('line', on);
      createInterface({ input: child.stderr }).on('line', on);
    });
  };
  await spawnIt();
  const kill = () =>
    new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', r);
      process.kill(child.pid, 'SIGKILL');
    });
  return {
    url: `http://127.0.0.1:${port}`,
    async restart() {
      await kill();
      await spawnIt();
    },
    close: kill,
  };
}

const mcpFramework = (responseMode = 'stream') => () => startProcess((port) => [process.execPath, [join(SERVERS, 'mcp-framework.mjs'), String(port), responseMode], SERVERS]);
const mcpHandler = () => () => startProcess((port) => [process.execPath, [join(SERVERS, 'mcp-handler.mjs'), String(port)], SERVERS]);
const mastra = () => () => startProcess((port) => [process.execPath, [join(SERVERS, 'mastra.mjs'), String(port)], SERVERS], { env: { NPM_SERVERS3: process.env.NPM_SERVERS3 ?? '/work/npm-servers3' } });
const everything = () => () => startProcess(() => [process.execPath, [join(NPM, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'], NPM]);

// ------------------------------------------------------------------ harness (the shape of test/real-servers/record.mjs)

async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const observed = { scenario: name, steps: [], notes: [] };
  const server = await spec.server();
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' });
  const hop = spec.fault ? await startFaultHop(serverView.url, spec.fault) : null;
  const base = hop ? hop.url : serverView.url;
  const fetches = [];
  const clients = [];
  const t = {
    observed,
    server,
    note: (n) => observed.notes.push(n),
    url: new URL('/mcp', base),
    fetch(conn) {
      const f = recordingFetch({ out: files.client, ...(conn ? { conn } : {}) });
      fetches.push(f);
      return f;
    },
    /** An SDK 1.32.2 client (or the v2 client with `v2: true`), connected. */
    async sdkClient({ name: clientName = 'servers2-app', conn, v2 = false, connect = true, capabilities = {} } = {}) {
      const f = t.fetch(conn);
      const c = v2
        ? new ClientV2({ name: clientName, version: '1.0.0' }, { capabilities, versionNegotiation: { mode: 'auto' } })
        : new Client({ name: clientName, version: '1.0.0' }, { capabilities });
      c.onerror = (e) => observed.notes.push({ client: clientName, onerror: { ...describeError(e), message: describeError(e).message.replace(uuid, '<session>') } });
      const transport = v2
        ? new TransportV2(t.url, { fetch: f, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } })
        : new StreamableHTTPClientTransport(t.url, { fetch: f, reconnectionOptions: { initialReconnectionDelay: 300, maxReconnectionDelay: 600, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
      clients.push(c);
      c.transportRef = transport;
      if (connect) await c.connect(transport);
      return c;
    },
    async step(label, fn) {
      const t0 = Date.now();
      try {
        const r = await fn();
        observed.steps.push({ step: label, ok: true, got: r instanceof Client || r instanceof ClientV2 ? 'connected' : summarize(r), ms: Date.now() - t0 });
        return r;
      } catch (err) {
        observed.steps.push({ step: label, ok: false, error: { ...describeError(err), message: describeError(err).message.replace(uuid, '<session>') }, ms: Date.now() - t0 });
        return undefined;
      }
    },
    /** A raw request through recordingFetch: what came back (status, content type, body text). */
    async raw(label, f, init, timeout = 2000) {
      try {
        const res = await f(t.url, { signal: AbortSignal.timeout(timeout), ...init });
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
    await sleep(200);
    if (hop) await hop.close();
    await serverView.close();
    await server.close();
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

// ------------------------------------------------------------------ scenarios

const scenarios = {
  // ---- mcp-framework 0.2.22: its HttpStreamTransport keeps one SDK StreamableHTTPServerTransport per session, all
  // connected to ONE SDK Server, and broadcasts every outgoing message to every session's transport
  'mf-baseline': {
    server: mcpFramework(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('ping', () => c.ping());
      const f = t.fetch('raw');
      await t.raw('GET /mcp (the standalone stream), aborted after 300 ms', f, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sessionOf(c), 'mcp-protocol-version': '2025-11-25' } }, 300);
    },
  },

  'mf-errors': {
    server: mcpFramework(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('crash (the tool throws)', () => call(c, 'crash', {}));
      await t.step('lookup_order with a number (invalid arguments)', () => call(c, 'lookup_order', { orderId: 1001 }));
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      await sleep(300);
      await t.step('crash again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'crash', {})));
    },
  },

  'mf-progress': {
    server: mcpFramework(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      const seen = [];
      await t.step('slow_report 4x80 with progress', () => call(c, 'slow_report', { steps: 4, stepMs: 80 }, { onprogress: (p) => seen.push(p.progress) }));
      t.note({ progressSeen: seen });
    },
  },

  'mf-timeout-cancel': {
    server: mcpFramework(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('slow_report 8x100, client timeout 300 ms', () => call(c, 'slow_report', { steps: 8, stepMs: 100 }, { timeout: 300 }));
      await sleep(1200);
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'mf-restart': {
    // the process is killed and started again: the old session id gets 404 -32001 "Session not found"
    server: mcpFramework(),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers2-app', conn: 'app-1' });
      await t.step('send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.server.restart();
      t.note('server process killed (SIGKILL) and started again on the same port');
      await t.step('send_invoice 1002 (old session)', () => call(c, 'send_invoice', { orderId: '1002' }));
      await c.close();
      const c2 = await t.sdkClient({ name: 'servers2-app', conn: 'app-2' });
      await t.step('send_invoice 1002 again in a new session (the app reconnected)', () => call(c2, 'send_invoice', { orderId: '1002' }));
    },
  },

  'mf-kill-during-call': {
    // the process is killed while a tool streams progress, and started again: the client's stream breaks
    server: mcpFramework(),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers2-app', conn: 'app-1' });
      const seen = [];
      await Promise.all([
        t.step('slow_report 10x100 with progress, timeout 2.5 s (the server is killed after 350 ms)', () => call(c, 'slow_report', { steps: 10, stepMs: 100 }, { onprogress: (p) => seen.push(p.progress), timeout: 2500 })),
        sleep(350).then(async () => {
          await t.server.restart();
          t.note('server process killed (SIGKILL) during the call and started again on the same port');
        }),
      ]);
      t.note({ progressSeen: seen });
      await c.close();
      const c2 = await t.sdkClient({ name: 'servers2-app', conn: 'app-2' });
      await t.step('slow_report 2x50 again in a new session (the app reconnected)', () => call(c2, 'slow_report', { steps: 2, stepMs: 50 }));
    },
  },

  'mf-stale-session-reinit': {
    // a client that keeps its old Mcp-Session-Id after a restart and sends initialize with it (Cline does, says the
    // framework): mcp-framework takes it as a new initialize and announces a new session; the old id stays unknown
    server: mcpFramework(),
    async run(t) {
      const f = t.fetch('stale-client');
      const init = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stale-client', version: '1.0.0' } } });
      const { res } = await t.raw('initialize', f, { method: 'POST', headers: rawHeaders(), body: init(0) });
      const first = res?.headers.get('mcp-session-id');
      const h = (sid) => rawHeaders({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
      await t.raw('notifications/initialized', f, { method: 'POST', headers: h(first), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      await t.raw('tools/call send_invoice 1001', f, { method: 'POST', headers: h(first), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'send_invoice', arguments: { orderId: '1001' } } }) });
      await t.server.restart();
      t.note('server process killed (SIGKILL) and started again on the same port');
      await t.raw('tools/call send_invoice 1002 (old session)', f, { method: 'POST', headers: h(first), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send_invoice', arguments: { orderId: '1002' } } }) });
      const again = await t.raw('initialize again, still carrying the old session id', f, { method: 'POST', headers: h(first), body: init(3) });
      const second = again.res?.headers.get('mcp-session-id');
      t.note({ newSessionAnnounced: Boolean(second) && second !== first });
      await t.raw('notifications/initialized (new session)', f, { method: 'POST', headers: h(second), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      await t.raw('tools/call send_invoice 1002 again (new session)', f, { method: 'POST', headers: h(second), body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'send_invoice', arguments: { orderId: '1002' } } }) });
    },
  },

  'mf-delete-then-call': {
    server: mcpFramework(),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers2-app', conn: 'app-1' });
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      const before = sessionOf(c);
      await t.step('terminateSession (DELETE)', () => c.transportRef.terminateSession());
      await t.step('lookup_order 1002 after DELETE (no session id now)', () => call(c, 'lookup_order', { orderId: '1002' }));
      const f = t.fetch('raw');
      await t.raw('tools/call with the deleted session id', f, {
        method: 'POST',
        headers: rawHeaders({ 'mcp-session-id': before, 'mcp-protocol-version': '2025-11-25' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1003' } } }),
      });
      await t.raw('a broken JSON body', f, { method: 'POST', headers: rawHeaders({ 'mcp-protocol-version': '2025-11-25' }), body: '{"jsonrpc":"2.0","id":51,' });
    },
  },

  'mf-two-clients': {
    // two clients, each in its own session, call at once with the same JSON-RPC id: the framework sends every
    // response to every session, so the one that finishes first answers both
    server: mcpFramework(),
    async run(t) {
      const a = await t.sdkClient({ name: 'agent-alpha', conn: 'alpha' });
      const b = await t.sdkClient({ name: 'agent-beta', conn: 'beta' });
      await t.step('alpha tools/list', () => a.listTools());
      await t.step('beta tools/list', () => b.listTools());
      await Promise.all([
        t.step('alpha slow_report 3x100 label alpha (id 2)', () => call(a, 'slow_report', { steps: 3, stepMs: 100, label: 'alpha' }, { timeout: 2000 })),
        sleep(30).then(() => t.step('beta lookup_order 2002 (id 2, sent while alpha\'s runs)', () => call(b, 'lookup_order', { orderId: '2002' }, { timeout: 2000 }))),
      ]);
      await sleep(300);
      // the same request from both at once (id 3 each): identical results, which tell nothing
      await Promise.all([
        t.step('alpha lookup_order 3003 (id 3)', () => call(a, 'lookup_order', { orderId: '3003' }, { timeout: 2000 })),
        t.step('beta lookup_order 3003 (id 3, at the same time)', () => call(b, 'lookup_order', { orderId: '3003' }, { timeout: 2000 })),
      ]);
      await sleep(300);
      await t.step('alpha lookup_order 1004 after', () => call(a, 'lookup_order', { orderId: '1004' }));
    },
  },

  'mf-json-response': {
    // responseMode "batch": the SDK transport's enableJsonResponse; a 503 from the hop, retried by the app
    server: mcpFramework('batch'),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('crash (the tool throws)', () => call(c, 'crash', {}));
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('send_invoice 1001 (503 from the hop)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await sleep(1100);
      await t.step('send_invoice 1001 again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'send_invoice', { orderId: '1001' })));
      const seen = [];
      await t.step('slow_report 3x60 with progress (JSON mode)', () => call(c, 'slow_report', { steps: 3, stepMs: 60 }, { onprogress: (p) => seen.push(p.progress) }));
      t.note({ progressSeen: seen });
    },
  },

  // ---- @modelcontextprotocol/server-everything 2026.8.31, `streamableHttp`: Express, one SDK transport per session,
  // an in-memory event store per session
  'ev-baseline': {
    server: everything(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('echo hello', () => call(c, 'echo', { message: 'hello' }));
      await t.step('get-sum 2 3', () => call(c, 'get-sum', { a: 2, b: 3 }));
      await t.step('get-structured-content', () => call(c, 'get-structured-content', { location: 'New York' }));
      await t.step('ping', () => c.ping());
    },
  },

  'ev-errors': {
    server: everything(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('get-sum with a string (invalid arguments)', () => call(c, 'get-sum', { a: 'two', b: 3 }));
      await t.step('get-roots-list (the client has no roots)', () => call(c, 'get-roots-list', {}));
      await t.step('trigger-sampling-request (the client has no sampling)', () => call(c, 'trigger-sampling-request', { prompt: 'hi', maxTokens: 10 }));
    },
  },

  'ev-two-clients': {
    // the same two clients' pattern against the reference server (one SDK server per session): no crossing
    server: everything(),
    async run(t) {
      const a = await t.sdkClient({ name: 'agent-alpha', conn: 'alpha' });
      const b = await t.sdkClient({ name: 'agent-beta', conn: 'beta' });
      await t.step('alpha tools/list', () => a.listTools());
      await t.step('beta tools/list', () => b.listTools());
      await Promise.all([
        t.step('alpha trigger-long-running-operation 0.3 s (id 2)', () => call(a, 'trigger-long-running-operation', { duration: 0.3, steps: 3 }, { timeout: 2000 })),
        sleep(30).then(() => t.step('beta echo beta (id 2, sent while alpha\'s runs)', () => call(b, 'echo', { message: 'beta' }, { timeout: 2000 }))),
      ]);
      await Promise.all([
        t.step('alpha echo same (id 3)', () => call(a, 'echo', { message: 'same' }, { timeout: 2000 })),
        t.step('beta echo same (id 3, at the same time)', () => call(b, 'echo', { message: 'same' }, { timeout: 2000 })),
      ]);
    },
  },

  'ev-progress': {
    server: everything(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      const seen = [];
      await t.step('trigger-long-running-operation 1 s, 4 steps, with progress', () => call(c, 'trigger-long-running-operation', { duration: 1, steps: 4 }, { onprogress: (p) => seen.push(p.progress) }));
      t.note({ progressSeen: seen });
    },
  },

  'ev-timeout-cancel': {
    server: everything(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('trigger-long-running-operation 2 s, client timeout 500 ms', () => call(c, 'trigger-long-running-operation', { duration: 2, steps: 4 }, { timeout: 500 }));
      await sleep(2000);
      await t.step('echo after', () => call(c, 'echo', { message: 'after' }));
    },
  },

  'ev-restart': {
    // killed and started again: the old session id gets 400 "Bad Request: No valid session ID provided", with the request's id
    server: everything(),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers2-app', conn: 'app-1' });
      await t.step('echo one', () => call(c, 'echo', { message: 'one' }));
      await t.server.restart();
      t.note('server process killed (SIGKILL) and started again on the same port');
      await t.step('echo two (old session)', () => call(c, 'echo', { message: 'two' }));
      await c.close();
      const c2 = await t.sdkClient({ name: 'servers2-app', conn: 'app-2' });
      await t.step('echo two again in a new session (the app reconnected)', () => call(c2, 'echo', { message: 'two' }));
    },
  },

  'ev-kill-during-call': {
    // the process is killed while a tool streams progress (events with ids), and started again: the client resumes with Last-Event-ID
    server: everything(),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers2-app', conn: 'app-1' });
      const seen = [];
      await Promise.all([
        t.step('trigger-long-running-operation 1 s, 10 steps, timeout 2.5 s (the server is killed after 350 ms)', () => call(c, 'trigger-long-running-operation', { duration: 1, steps: 10 }, { onprogress: (p) => seen.push(p.progress), timeout: 2500 })),
        sleep(350).then(async () => {
          await t.server.restart();
          t.note('server process killed (SIGKILL) during the call and started again on the same port');
        }),
      ]);
      t.note({ progressSeen: seen });
      await c.close();
      const c2 = await t.sdkClient({ name: 'servers2-app', conn: 'app-2' });
      await t.step('trigger-long-running-operation again in a new session (the app reconnected)', () => call(c2, 'trigger-long-running-operation', { duration: 1, steps: 10 }));
    },
  },

  'ev-delete-then-call': {
    server: everything(),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers2-app', conn: 'app-1' });
      await t.step('echo one', () => call(c, 'echo', { message: 'one' }));
      const before = sessionOf(c);
      await t.step('terminateSession (DELETE)', () => c.transportRef.terminateSession());
      await t.step('echo two after DELETE (no session id now)', () => call(c, 'echo', { message: 'two' }));
      const f = t.fetch('raw');
      await t.raw('tools/call with the deleted session id', f, {
        method: 'POST',
        headers: rawHeaders({ 'mcp-session-id': before, 'mcp-protocol-version': '2025-11-25' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'echo', arguments: { message: 'three' } } }),
      });
      await t.raw('DELETE of the deleted session', f, { method: 'DELETE', headers: { 'mcp-session-id': before, 'mcp-protocol-version': '2025-11-25' } });
    },
  },

  'ev-sse-cut-resume': {
    // the hop cuts the call's stream after 2 events; the events have ids (the example's event store): the client resumes
    server: everything(),
    fault: (i) => (isCall(i, 'trigger-long-running-operation') ? { cutAfterEvents: 2 } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      const seen = [];
      await t.step('trigger-long-running-operation 1.2 s, 6 steps, stream cut after 2 events', () => call(c, 'trigger-long-running-operation', { duration: 1.2, steps: 6 }, { onprogress: (p) => seen.push(p.progress), timeout: 5000 }));
      t.note({ progressSeen: seen });
      await t.step('echo after', () => call(c, 'echo', { message: 'after' }));
    },
  },

  // ---- mcp-handler 2.4.0 (Vercel): the v2 SDK server, stateless for 2025-era clients, 2026-07-28 natively
  'mh-v1-client': {
    server: mcpHandler(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      t.note({ sessionId: sessionOf(c) ?? null, protocolVersion: c.transportRef.protocolVersion ?? null });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('validate_quantity -3 (isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('crash (the tool throws)', () => call(c, 'crash', {}));
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('lookup_order with a number (invalid arguments)', () => call(c, 'lookup_order', { orderId: 1001 }));
      const seen = [];
      await t.step('slow_report 3x60 with progress', () => call(c, 'slow_report', { steps: 3, stepMs: 60 }, { onprogress: (p) => seen.push(p.progress) }));
      t.note({ progressSeen: seen });
      const f = t.fetch('raw');
      await t.raw('GET /mcp', f, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
      await t.raw('DELETE /mcp', f, { method: 'DELETE', headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'made-up' } });
    },
  },

  'mh-v2-client': {
    server: mcpHandler(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-v2', v2: true });
      t.note({ negotiated: c.getNegotiatedProtocolVersion?.() ?? null });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('validate_quantity -3 (isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('crash (the tool throws)', () => c.callTool({ name: 'crash', arguments: {} }));
      await t.step('no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('lookup_order with a number (invalid arguments)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 1001 } }));
      const seen = [];
      await t.step('slow_report 3x60 with progress', () => c.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 60 } }, { onprogress: (p) => seen.push(p.progress) }));
      t.note({ progressSeen: seen });
    },
  },

  'mh-timeout-cancel': {
    server: mcpHandler(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('slow_report 8x100, client timeout 300 ms', () => call(c, 'slow_report', { steps: 8, stepMs: 100 }, { timeout: 300 }));
      await sleep(1000);
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
      const v2 = await t.sdkClient({ name: 'servers2-app-v2', conn: 'app-v2', v2: true });
      await t.step('v2: slow_report 8x100, client timeout 300 ms', () => v2.callTool({ name: 'slow_report', arguments: { steps: 8, stepMs: 100 } }, { timeout: 300 }));
      await sleep(1000);
      await t.step('v2: lookup_order 1001 after', () => v2.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'mh-503-restart': {
    // stateless: a 503 from the hop, retried by the app; then the process restarts between calls (nothing to lose)
    server: mcpHandler(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('send_invoice 1001 (503 from the hop)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await sleep(1100);
      await t.step('send_invoice 1001 again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'send_invoice', { orderId: '1001' })));
      await t.server.restart();
      t.note('server process killed (SIGKILL) and started again on the same port');
      await t.step('lookup_order 1002 after the restart', () => call(c, 'lookup_order', { orderId: '1002' }));
    },
  },

  // ---- @mastra/mcp 2.0.0's MCPServer (startHTTP): the v2 SDK server 2.0.0 behind createMcpHandler with legacy "reject"
  'ma-v1-client-refused': {
    // a 2025-era client: its initialize is refused (400 -32022), the app never gets to call a tool
    server: mastra(),
    async run(t) {
      await t.step('SDK 1.32.2 client connects (initialize, 2025-11-25)', () => t.sdkClient({ conn: 'app-1' }));
      const c = await t.step('the app falls back to the v2 client (auto)', () => t.sdkClient({ name: 'servers2-app-v2', conn: 'app-v2', v2: true }));
      if (c) await t.step('lookup_order 1001 (v2)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'ma-v2-client': {
    server: mastra(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-v2', v2: true });
      t.note({ negotiated: c.getNegotiatedProtocolVersion?.() ?? null });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('crash (the tool throws)', () => c.callTool({ name: 'crash', arguments: {} }));
      await t.step('no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('lookup_order with a number (invalid arguments)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 1001 } }));
      await t.step('send_invoice 1001 (503 from the hop)', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
      await sleep(1100);
      await t.step('send_invoice 1001 again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } })));
      await t.step('slow_report 8x100, client timeout 300 ms', () => c.callTool({ name: 'slow_report', arguments: { steps: 8, stepMs: 100 } }, { timeout: 300 }));
      await sleep(1000);
      await t.step('lookup_order 1002 after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
      const f = t.fetch('raw');
      await t.raw('GET /mcp', f, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
      await t.raw('DELETE /mcp', f, { method: 'DELETE', headers: { 'mcp-protocol-version': '2026-07-28' } });
    },
  },
};

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
