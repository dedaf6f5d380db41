// Records test/fixtures/real-audit69/ (the sixty-ninth audit: the console a server prints by default: uvicorn's access lines and the Python SDK's INFO lines, Express's morgan, Hono's hono/logger) on 127.0.0.1 (ports 9400-9499).
// NOT run by `npm test`. Needs: npm run build; Python mcp 2.3.0 with uvicorn 0.54.0 in /work/py-venv (PYTHON=...);
// morgan 1.12.1 outside the repo: mkdir -p /work/audit69-scratch && cd /work/audit69-scratch && npm i morgan@1.12.1
// (MORGAN_DIR=... elsewhere); `script` (util-linux) for py-run-tty. hono 4.13.19, @hono/node-server 2.1.9 and the SDKs
// are the repository's devDependencies.
// Usage (from the repository): node test/real-audit69/record.mjs [scenario...]
// The chain (test/helpers/audit-rig.mjs, `external`): the SDK 1.32.2 Client app, its fetch recordingFetch (client.ndjson)
// -> a fault hop (the cut stream) -> a HAR proxy and a record proxy (deleted: not needed here) -> a recording proxy with
// side "server" (server.ndjson: what reached the server process and what it answered) -> the server in a process of
// its own, started as a person starts it (`python server.py > server.log 2>&1`, `node app.mjs > server.log 2>&1`;
// py-run-tty: under `script`, a terminal's typescript with its colours and CRLFs). A restart kills the process
// (SIGTERM) and starts it again on the same port, appending to the same server.log.
// py-hop-502: the hop answers one call 502 itself (a gateway's refusal the server's console never shows), the app retries.
// observed.json: each step as the app saw it, the tool bodies that ran (serverRan), what the hop did.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { auditRig, types } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { sleep, recordEach, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const FOLDER = 'real-audit69';

stopAfter(240_000);

const portOpen = (port) => new Promise((r) => { const s = tcpConnect(port, '127.0.0.1', () => { s.end(); r(true); }); s.on('error', () => r(false)); });

/** The server process of `kind` on `port`, its console appended to `<d>/server.log`; restart() stops it and starts it again. */
async function startProcess(kind, port, d) {
  const ranFile = `${d}/.ran`;
  const log = `${d}/server.log`;
  let child;
  const start = async () => {
    if (kind === 'py-run-tty') {
      // a terminal: `script` gives the server a TTY and writes what the terminal showed
      child = spawn('script', ['-qfaec', `${PY} ${R}/test/real-audit69/py_server.py run ${port} ${ranFile}`, log], { detached: true, stdio: 'ignore' });
    } else {
      const fd = openSync(log, 'a');
      const [cmd, args] = kind === 'py' ? [PY, [`${R}/test/real-audit69/py_server.py`, 'uvicorn', String(port), ranFile]]
        : kind === 'py-run' ? [PY, [`${R}/test/real-audit69/py_server.py`, 'run', String(port), ranFile]]
          : kind === 'express' ? ['node', [`${R}/test/real-audit69/express_morgan.mjs`, String(port), ranFile, d]]
            : ['node', [`${R}/test/real-audit69/hono_logger.mjs`, String(port), ranFile]];
      child = spawn(cmd, args, { detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
      closeSync(fd);
    }
    for (let i = 0; i < 100 && !(await portOpen(port)); i++) await sleep(100);
  };
  const stop = async () => {
    const c = child;
    const gone = new Promise((r) => c.once('exit', r));
    try { process.kill(-c.pid, 'SIGTERM'); } catch { /* already gone */ }
    await Promise.race([gone, sleep(5000)]);
    for (let i = 0; i < 50 && (await portOpen(port)); i++) await sleep(100);
  };
  await start();
  const ran = [];
  return {
    url: `http://127.0.0.1:${port}`,
    ran,
    async restart() { await stop(); await start(); },
    async close() {
      await stop();
      if (existsSync(ranFile)) { ran.push(...readFileSync(ranFile, 'utf8').split('\n').filter(Boolean)); rmSync(ranFile); }
    },
  };
}

const rpc = (method, params, id) => JSON.stringify({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method, ...(params ? { params } : {}) });
const postRaw = (r, body, headers = {}) => async () => {
  const res = await r.rf(r.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  return { status: res.status, body: (await res.text()).slice(0, 200) };
};
/** What a step returned, for observed.json: a tool result's isError and text, a raw response's status, "connected" for a client. */
const okOf = (x) => (x && typeof x === 'object' ? ('content' in x ? { isError: !!x.isError, text: x.content.map((b) => b.text).join(' ').slice(0, 200) } : x.constructor === Object ? x : 'connected') : x);
const cutSlow = (x) => (x.rpc?.params?.name === 'slow_report' ? { cutEvents: 0 } : undefined);

/** Healthy calls, a tool's isError, a JSON-RPC error, a 500 of a throwing handler, /health probes, a 400 and a 404 of the app's own requests, a stream cut before its first event, DELETE at the end. */
async function calls(name, kind, port) {
  const d = `${R}/test/fixtures/${FOLDER}/${name}`;
  const r = await auditRig(FOLDER, name, { external: () => startProcess(kind, port, d), fault: cutSlow, okOf, settleMs: 400 });
  const c = await r.step('connect', () => r.sdkClient());
  if (!c) return r.done([]);
  await sleep(150);
  await r.step('lookup_order A1', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'A1' } }));
  await r.step('lookup_order A2', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'A2' } }));
  await r.step('refund_order A1', () => c.callTool({ name: 'refund_order', arguments: { orderId: 'A1' } }));
  await r.step('orders/export (no such method)', () => c.request({ method: 'orders/export', params: {} }, types.EmptyResultSchema));
  await r.step('crash (the handler throws)', () => c.callTool({ name: 'crash', arguments: {} }));
  await r.step('GET /health (a probe)', async () => { const res = await r.origFetch(`${r.server.url}/health`); return { status: res.status }; });
  await r.step('GET /health (a probe)', async () => { const res = await r.origFetch(`${r.server.url}/health`); return { status: res.status }; });
  await r.step('POST a body that is no JSON', postRaw(r, '{"jsonrpc":"2.0","id":90,"method":"tools/list"', { 'mcp-session-id': c.transportRef.sessionId, 'mcp-protocol-version': '2025-06-18' }));
  await r.step('POST tools/list without a session id', postRaw(r, rpc('tools/list', {}, 91)));
  await r.step('POST tools/list with a session id the server never gave', postRaw(r, rpc('tools/list', {}, 92), { 'mcp-session-id': 'f00dfeedf00dfeedf00dfeedf00dfeed', 'mcp-protocol-version': '2025-06-18' }));
  await r.step('slow_report 2026-11 (the hop cuts its stream before any event)', () => c.callTool({ name: 'slow_report', arguments: { month: '2026-11' } }, undefined, { timeout: 2500 }));
  await r.step('lookup_order A3', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'A3' } }));
  await sleep(1500); // the cut call's tool body ends on the server
  await r.step('terminate the session (DELETE)', () => c.transportRef.terminateSession().then(() => 'terminated'));
  return finish(r, d, [() => c.close()]);
}

/** A healthy call, the server restarted, the next call's 404, the app's retry on a new session (answered). */
async function restart(name, kind, port) {
  const d = `${R}/test/fixtures/${FOLDER}/${name}`;
  const r = await auditRig(FOLDER, name, { external: () => startProcess(kind, port, d), okOf, settleMs: 400 });
  const c = await r.step('connect', () => r.sdkClient());
  if (!c) return r.done([]);
  await sleep(150);
  await r.step('lookup_order B1', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'B1' } }));
  r.note({ restart: 'the server process is stopped (SIGTERM) and started again' });
  await r.server.restart();
  await r.step('lookup_order B2', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'B2' } }));
  await c.close().catch(() => {});
  const c2 = await r.step('connect (the app reconnects)', () => r.sdkClient());
  await r.step('lookup_order B2 (the app retries)', () => c2.callTool({ name: 'lookup_order', arguments: { orderId: 'B2' } }));
  await r.step('refund_order B2', () => c2.callTool({ name: 'refund_order', arguments: { orderId: 'B2' } }));
  return finish(r, d, [() => c2?.close()]);
}

/** A hop in front of the server answers one call 502 itself (the server never sees it); the app retries it (answered). */
async function hop502(name, kind, port) {
  const d = `${R}/test/fixtures/${FOLDER}/${name}`;
  let refused = false;
  const fault = (x) => (x.rpc?.params?.name === 'lookup_order' && x.rpc?.params?.arguments?.orderId === 'C2' && !refused ? ((refused = true), { respond: 502, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' }) : undefined);
  const r = await auditRig(FOLDER, name, { external: () => startProcess(kind, port, d), fault, okOf, settleMs: 400 });
  const c = await r.step('connect', () => r.sdkClient());
  if (!c) return r.done([]);
  await sleep(150);
  await r.step('lookup_order C1', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'C1' } }));
  await r.step('lookup_order C2 (the hop answers 502)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'C2' } }));
  await r.step('lookup_order C2 (the app retries)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'C2' } }));
  return finish(r, d, [() => c.close()]);
}

async function finish(r, d, closers) {
  await r.done(closers);
  // the HAR and record proxies' files: the same exchanges as client.ndjson, not needed by this audit's tests
  for (const f of ['proxy.ndjson', 'capture.har.ndjson']) rmSync(`${d}/${f}`, { force: true });
}

await recordEach({
  'py-calls': () => calls('py-calls', 'py', 9410),
  'py-restart': () => restart('py-restart', 'py', 9411),
  'py-run-tty': () => restart('py-run-tty', 'py-run-tty', 9412),
  'py-hop-502': () => hop502('py-hop-502', 'py', 9413),
  'express-calls': () => calls('express-calls', 'express', 9420),
  'express-restart': () => restart('express-restart', 'express', 9421),
  'hono-calls': () => calls('hono-calls', 'hono', 9430),
  'hono-restart': () => restart('hono-restart', 'hono', 9431),
});
process.exit(0);
