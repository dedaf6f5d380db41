// Records test/fixtures/real-audit13/ (the thirteenth audit: published MCP servers on their Streamable HTTP transport) on 127.0.0.1, each incident five ways: mongodb-mcp-server 3.0.4 (its database down)
// and @playwright/mcp 0.0.86 (no browser installed), each in a process of its own, with the SDK 1.32.2 and v2 2.4.0 clients.
// NOT run by `npm test`: the servers are not dependencies of mcp-triage. Install them outside the repository (test/fixtures/README.md, "Real-traffic fixtures: the thirteenth audit (published servers)").
// Run it ONLY in a network namespace with nothing but loopback (these servers may phone home), from the repository:
//   npm run build && unshare -n sh -c 'ip link set lo up && exec node test/real-audit13/record.mjs [scenario...]'
// The chain (test/helpers/audit13-rig.mjs): the client (recordingFetch: client.ndjson) -> [a fault hop] -> a HAR-lines proxy (capture.har.ndjson) -> `mcp-triage record` (proxy.ndjson)
// -> a recording proxy with side "server" (server.ndjson) -> the server's process. observed.json: what the app got, what the server logged, what the hop did.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer as createNetServer } from 'node:net';
import { spawn } from 'node:child_process';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const SCRATCH = process.env.SCRATCH_AUDIT13 ?? '/work/scratch-audit13';
const { sleep, freePort } = await import(`${R}/test/helpers/loopback.mjs`);
const { rig, spawnServer } = await import(`${R}/test/helpers/audit13-rig.mjs`);
const { withCallNote } = await import(`${R}/dist/capture/index.js`);

// outside connects must fail at once: refuse to run where anything but loopback is up
const { networkInterfaces } = await import('node:os');
const outside = Object.entries(networkInterfaces()).filter(([, as]) => as.some((a) => !a.internal));
if (outside.length && !process.env.AUDIT13_ALLOW_NETWORK) {
  process.stderr.write(`record.mjs: interfaces other than loopback are up (${outside.map(([n]) => n).join(', ')}): run it under unshare -n (see the header)\n`);
  process.exit(2);
}
setTimeout(() => { process.stderr.write('still running after 300 s, giving up\n'); process.exit(2); }, 300_000).unref();

const HOME = mkdtempSync(`${tmpdir()}/audit13-home-`);
const temps = [HOME];
const QUIET = { HOME, DO_NOT_TRACK: '1' };

/** mongodb-mcp-server on HTTP, telemetry off, its connection string pointing at a closed port of 127.0.0.1 (the database is down). */
const mongo = (extra = [], { dbHangs = false } = {}) => async () => {
  // dbHangs: a listener that accepts the connection and never answers (a database host that hangs), else nothing listens there
  const hung = dbHangs ? await new Promise((r) => { const sockets = new Set(); const s = createNetServer((c) => { sockets.add(c); c.on('error', () => {}); }); s.listen(0, '127.0.0.1', () => r({ port: s.address().port, close: () => { for (const c of sockets) c.destroy(); s.close(); } })); }) : null;
  const dbPort = hung?.port ?? (await freePort());
  const server = await spawnServer({
    argv: (port) => [`${SCRATCH}/mongodb-mcp-server/node_modules/mongodb-mcp-server/dist/esm/index.js`, '--transport', 'http', '--httpHost', '127.0.0.1', '--httpPort', String(port), '--telemetry', 'disabled', '--loggers', 'stderr', ...extra],
    env: { ...QUIET, MDB_MCP_TELEMETRY: 'disabled', MDB_MCP_CONNECTION_STRING: `mongodb://127.0.0.1:${dbPort}/shop?serverSelectionTimeoutMS=1500`, MDB_MCP_LOG_PATH: `${HOME}/mdb-logs` },
    keep: /\[(ERROR|WARNING)\]/,
  });
  return { ...server, async close() { await server.close(); hung?.close(); } };
};
/** @playwright/mcp on HTTP (--port), headless; no browser is installed here. */
const playwright = (extra = []) => async () => {
  const out = mkdtempSync(`${tmpdir()}/audit13-pw-`);
  temps.push(out);
  return spawnServer({
    argv: (port) => [`${SCRATCH}/playwright-mcp/node_modules/@playwright/mcp/cli.js`, '--port', String(port), '--host', '127.0.0.1', '--headless', '--isolated', '--output-dir', out, ...extra],
    env: { ...QUIET, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    cwd: out,
    keep: /error|fail/i,
  });
};
const call = (c, name, args, opts) => c.callTool({ name, arguments: args }, undefined, opts);
/** A mongodb-mcp-server tool on the connection the server was configured with ("preconfigured"). */
const mdb = (c, name, args = {}, opts) => call(c, name, { connectionId: 'preconfigured', ...args }, opts);

const S = {};

// ------------------------------------------------------------------ mongodb-mcp-server 3.0.4, the database down

S['mdb-errors'] = async () => {
  // the SDK 1.32.2 client: tools/list, tools against a database that is not there, bad arguments, an unknown tool, DELETE
  const r = await rig('mdb-errors', { external: mongo() });
  const c = await r.sdkClient();
  await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name).slice(0, 60));
  await r.step('list-connections', () => call(c, 'list-connections', {}));
  await r.step('list-databases (database down)', () => mdb(c, 'list-databases'));
  await r.step('find shop.orders (database down)', () => mdb(c, 'find', { database: 'shop', collection: 'orders', filter: { status: 'open' } }));
  await r.step('connect to a closed port', async () => call(c, 'connect', { connectionString: `mongodb://127.0.0.1:${await freePort()}/?serverSelectionTimeoutMS=800` }));
  await r.step('find without connectionId (bad arguments)', () => call(c, 'find', { database: 'shop', collection: 'orders' }));
  await r.step('no_such_tool', () => call(c, 'no_such_tool', {}));
  await r.step('ping', () => c.ping());
  await r.step('sessionId after initialize', async () => (c.transportRef.sessionId ? 'set' : null));
  await r.step('terminateSession (DELETE)', async () => { await c.transportRef.terminateSession(); return 'terminated'; });
  await r.done([() => c.close()]);
};
S['mdb-json'] = async () => {
  // --httpResponseType json: the same calls answered in JSON bodies, not SSE
  const r = await rig('mdb-json', { external: mongo(['--httpResponseType', 'json']) });
  const c = await r.sdkClient();
  await r.step('list-databases (database down)', () => mdb(c, 'list-databases'));
  await r.step('no_such_tool', () => call(c, 'no_such_tool', {}));
  await r.done([() => c.close()]);
};
S['mdb-restart'] = async () => {
  // the server's process killed and started again on the same port: the old session is unknown; the app connects again and calls again
  const r = await rig('mdb-restart', { external: mongo() });
  const c = await r.sdkClient();
  await r.step('list-databases (database down)', () => mdb(c, 'list-databases'));
  await r.server.restart();
  r.note({ serverRestarted: 'SIGKILL, started again on the same port' });
  await r.step('list-collections shop (old session)', () => mdb(c, 'list-collections', { database: 'shop' }));
  await sleep(200);
  const c2 = await r.sdkClient();
  await r.step('list-collections shop (new session)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => mdb(c2, 'list-collections', { database: 'shop' })));
  await r.done([() => c2.close(), () => c.close()]);
};
S['mdb-503'] = async () => {
  // a gateway answers 503 (Retry-After: 1) to the first tools/call; the app calls again after 1.1 s, as it was told
  const r = await rig('mdb-503', { external: mongo(), fault: ({ rpcMethod, n }) => (rpcMethod === 'tools/call' && n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream connect error' } : undefined) });
  const c = await r.sdkClient();
  await r.step('count shop.orders #1', () => mdb(c, 'count', { database: 'shop', collection: 'orders' }));
  await sleep(1100);
  await r.step('count shop.orders #2', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => mdb(c, 'count', { database: 'shop', collection: 'orders' })));
  await r.done([() => c.close()]);
};
S['mdb-timeout'] = async () => {
  // the database host hangs: the app gives up after 500 ms on tools that wait for server selection (1.5 s): notifications/cancelled; then it calls again with time enough.
  // aggregate is readOnlyHint, delete-many destructiveHint (tools/list says so)
  const r = await rig('mdb-timeout', { external: mongo([], { dbHangs: true }) });
  const c = await r.sdkClient();
  await r.step('tools/list', async () => (await c.listTools()).tools.filter((t) => ['aggregate', 'delete-many'].includes(t.name)).map((t) => ({ name: t.name, annotations: t.annotations })));
  await r.step('aggregate shop.orders (client timeout 500 ms)', () => mdb(c, 'aggregate', { database: 'shop', collection: 'orders', pipeline: [{ $match: { status: 'open' } }] }, { timeout: 500 }));
  await sleep(200);
  await r.step('aggregate shop.orders again (timeout 10 s)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => mdb(c, 'aggregate', { database: 'shop', collection: 'orders', pipeline: [{ $match: { status: 'open' } }] }, { timeout: 10_000 })));
  await r.step('delete-many shop.orders (client timeout 500 ms)', () => mdb(c, 'delete-many', { database: 'shop', collection: 'orders', filter: { status: 'cancelled' } }, { timeout: 500 }));
  await sleep(200);
  await r.step('delete-many shop.orders again (timeout 10 s)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => mdb(c, 'delete-many', { database: 'shop', collection: 'orders', filter: { status: 'cancelled' } }, { timeout: 10_000 })));
  await sleep(1800);
  await r.done([() => c.close()]);
};
S['mdb-max-sessions'] = async () => {
  // --maxSessions 1: a second app's initialize is refused by the server itself (503, its JSON-RPC error); after the first app's DELETE it connects
  const r = await rig('mdb-max-sessions', { external: mongo(['--maxSessions', '1']) });
  const a = await r.sdkClient({ clientName: 'app-a' });
  await r.step('app-a list-databases', () => mdb(a, 'list-databases'));
  const b = await r.step('app-b connect (over the session limit)', () => r.sdkClient({ clientName: 'app-b' }));
  r.observed.at(-1).ok = b ? 'connected' : null;
  await r.step('app-a terminateSession (DELETE)', async () => { await a.transportRef.terminateSession(); return 'terminated'; });
  await sleep(200);
  const b2 = await r.step('app-b connect again', () => r.sdkClient({ clientName: 'app-b' }));
  r.observed.at(-1).ok = b2 ? 'connected' : null;
  if (b2) await r.step('app-b list-databases', () => mdb(b2, 'list-databases'));
  await r.done([() => b2?.close(), () => b?.close(), () => a.close()]);
};
S['mdb-idle'] = async () => {
  // --idleTimeoutMs 1500: the server reaps a session idle that long; the app's next call gets 404, it connects again and calls again
  const r = await rig('mdb-idle', { external: mongo(['--idleTimeoutMs', '1500', '--notificationTimeoutMs', '1000']) });
  const c = await r.sdkClient();
  await r.step('list-databases (database down)', () => mdb(c, 'list-databases'));
  await sleep(3500);
  await r.step('list-collections shop (after 3.5 s idle)', () => mdb(c, 'list-collections', { database: 'shop' }));
  await sleep(200);
  const c2 = await r.sdkClient();
  await r.step('list-collections shop (new session)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => mdb(c2, 'list-collections', { database: 'shop' })));
  await r.done([() => c2.close(), () => c.close()]);
};
S['mdb-keepalive'] = async () => {
  // a session held 32 s: the server's keep-alive sends a "ping" every 30 s on the session's GET stream, as a notification (no id)
  const r = await rig('mdb-keepalive', { external: mongo() });
  const c = await r.sdkClient();
  c.fallbackNotificationHandler = async (n) => r.observed.push({ notificationSeen: n.method });
  await r.step('list-connections', () => call(c, 'list-connections', {}));
  await sleep(32_000);
  await r.step('list-connections after 32 s', () => call(c, 'list-connections', {}));
  await r.done([() => c.close()]);
};
S['mdb-cut'] = async () => {
  // the hop ends a tool call's SSE stream before its result; the SDK client resumes (no event ids: nothing to resume) and times out after 3 s
  const r = await rig('mdb-cut', { external: mongo([], { dbHangs: true }), fault: ({ rpcMethod, rpc }) => (rpcMethod === 'tools/call' && rpc?.params?.name === 'collection-schema' ? { cut: true } : undefined) });
  const c = await r.sdkClient();
  await r.step('collection-schema shop.orders (stream cut, timeout 3 s)', () => mdb(c, 'collection-schema', { database: 'shop', collection: 'orders' }, { timeout: 3000 }));
  await sleep(200);
  await r.step('list-databases (database down)', () => mdb(c, 'list-databases'));
  await r.done([() => c.close()]);
};
S['mdb-v2-client'] = async () => {
  // the v2 client 2.4.0 with version negotiation
  const r = await rig('mdb-v2-client', { external: mongo() });
  const c = await r.step('connect', async () => r.sdkClient({ v2: true }));
  r.observed.at(-1).ok = c ? { protocolVersion: c.transportRef.protocolVersion ?? null, sessionId: c.transportRef.sessionId ? 'set' : null } : null;
  if (c) {
    await r.step('list-databases (database down)', () => mdb(c, 'list-databases'));
    await r.step('no_such_tool', () => call(c, 'no_such_tool', {}));
  }
  await r.done(c ? [() => c.close()] : []);
};

// ------------------------------------------------------------------ @playwright/mcp 0.0.86, no browser installed

S['pw-errors'] = async () => {
  // the SDK 1.32.2 client: tools/list, browser tools without a browser, a tool that needs none, bad arguments, an unknown tool, DELETE
  const r = await rig('pw-errors', { external: playwright() });
  const c = await r.sdkClient();
  await r.step('tools/list', async () => (await c.listTools()).tools.map((t) => t.name));
  await r.step('browser_navigate (no browser)', () => call(c, 'browser_navigate', { url: 'http://127.0.0.1:9/' }));
  await r.step('browser_tabs list', () => call(c, 'browser_tabs', { action: 'list' }));
  await r.step('browser_navigate without url (bad arguments)', () => call(c, 'browser_navigate', {}));
  await r.step('no_such_tool', () => call(c, 'no_such_tool', {}));
  await r.step('sessionId after initialize', async () => (c.transportRef.sessionId ? 'set' : null));
  await r.step('terminateSession (DELETE)', async () => { await c.transportRef.terminateSession(); return 'terminated'; });
  await r.done([() => c.close()]);
};
S['pw-roots'] = async () => {
  // a client that declares roots: the server asks for them (roots/list, a request from the server) before it answers
  const r = await rig('pw-roots', { external: playwright() });
  const c = await r.sdkClient({ roots: [{ uri: 'file:///tmp/audit13-workspace', name: 'workspace' }] });
  await r.step('browser_navigate (no browser)', () => call(c, 'browser_navigate', { url: 'http://127.0.0.1:9/' }));
  await sleep(300);
  await r.done([() => c.close()]);
};
S['pw-restart'] = async () => {
  // the server's process killed and started again on the same port: the old session is unknown; the app connects again
  const r = await rig('pw-restart', { external: playwright() });
  const c = await r.sdkClient();
  await r.step('browser_tabs list', () => call(c, 'browser_tabs', { action: 'list' }));
  await r.server.restart();
  r.note({ serverRestarted: 'SIGKILL, started again on the same port' });
  await r.step('browser_navigate (old session)', () => call(c, 'browser_navigate', { url: 'http://127.0.0.1:9/' }));
  await sleep(200);
  const c2 = await r.sdkClient();
  await r.step('browser_navigate (new session)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c2, 'browser_navigate', { url: 'http://127.0.0.1:9/' })));
  await r.done([() => c2.close(), () => c.close()]);
};
S['pw-429'] = async () => {
  // a rate limiter answers 429 (Retry-After: 0) to the first browser_navigate; the app calls again at once
  let limited = false;
  const r = await rig('pw-429', { external: playwright(), fault: ({ rpcMethod, rpc }) => (rpcMethod === 'tools/call' && rpc?.params?.name === 'browser_navigate' && !limited ? ((limited = true), { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '0' }, body: '{"error":"rate limited"}' }) : undefined) });
  const c = await r.sdkClient();
  await r.step('browser_navigate #1', () => call(c, 'browser_navigate', { url: 'http://127.0.0.1:9/' }));
  await r.step('browser_navigate #2', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'browser_navigate', { url: 'http://127.0.0.1:9/' })));
  await r.done([() => c.close()]);
};
S['pw-v2-client'] = async () => {
  // the v2 client 2.4.0 with version negotiation
  const r = await rig('pw-v2-client', { external: playwright() });
  const c = await r.step('connect', async () => r.sdkClient({ v2: true }));
  r.observed.at(-1).ok = c ? { protocolVersion: c.transportRef.protocolVersion ?? null, sessionId: c.transportRef.sessionId ? 'set' : null } : null;
  if (c) {
    await r.step('browser_navigate (no browser)', () => call(c, 'browser_navigate', { url: 'http://127.0.0.1:9/' }));
    await r.step('no_such_tool', () => call(c, 'no_such_tool', {}));
  }
  await r.done(c ? [() => c.close()] : []);
};

// ------------------------------------------------------------------ the Python SDK's Client (mcp 2.3.0) against both servers

const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
/** test/real-audit13/py_client.py against `url`: its observed steps and notes (bounded: killed after 30 s). */
const pyClient = (url, mode, calls) => new Promise((resolve) => {
  const child = spawn(PYTHON, [`${R}/test/real-audit13/py_client.py`, url, mode, JSON.stringify(calls)], { env: { ...process.env, ...QUIET }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = ''; let err = '';
  child.stdout.on('data', (x) => (out += x)); child.stderr.on('data', (x) => (err += x));
  const t = setTimeout(() => process.kill(child.pid, 'SIGKILL'), 30_000);
  child.once('exit', (code) => { clearTimeout(t); try { resolve(JSON.parse(out)); } catch { resolve({ exit: code, stderr: err.slice(-600) }); } });
});
S['py-mdb'] = async () => {
  // the Python client with version negotiation (mode auto) against mongodb-mcp-server: a tool with the database down, an unknown tool, a timeout (the host hangs)
  const r = await rig('py-mdb', { external: mongo([], { dbHangs: true }), clientProxy: true });
  const o = await pyClient(r.url, 'auto', [['list-connections', {}, 5], ['list-databases', { connectionId: 'preconfigured' }, 5], ['no_such_tool', {}, 5], ['count', { connectionId: 'preconfigured', database: 'shop', collection: 'orders' }, 0.5]]);
  r.note({ python: o });
  await sleep(1800);
  await r.done();
};
S['py-pw'] = async () => {
  // the Python client (mode legacy: initialize) against @playwright/mcp: a browser tool without a browser, an unknown tool
  const r = await rig('py-pw', { external: playwright(), clientProxy: true });
  const o = await pyClient(r.url, 'legacy', [['browser_navigate', { url: 'http://127.0.0.1:9/' }, 10], ['no_such_tool', {}, 10]]);
  r.note({ python: o });
  await r.done();
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { process.stderr.write(`== ${name}\n`); await S[name](); }
for (const d of temps) rmSync(d, { recursive: true, force: true });
process.exit(0);
