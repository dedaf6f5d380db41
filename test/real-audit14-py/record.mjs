// Records test/fixtures/real-audit14-py/<scenario>/: the Python half of the fourteenth audit, SSE resumption against event stores that lose events while the session lives, five views each (test/helpers/audit-rig.mjs).
// The SDK 1.32.2 client, the v2 client 2.4.0 (without version negotiation, so on the 2025 line) and the Python SDK 2.3.0
// client (test/real-xsdk-resume/py_client.py, behind a recording proxy with side "client") against the Python SDK 2.3.0
// server (py_server.py: slow_report, an event store per session, ids `<request id>.<n>`) whose store loses events
// (ts-py-*, v2-py-*, py-py-*) or which runs stateless_http=True with a store passed (*-py-stateless); and the Python
// client against the SDK 1.32.2 server with the fourteenth audit's lossy stores (py-ts-*, test/helpers/lossy-stores.mjs).
// The fault hop in front of the client cuts the call's stream (test/helpers/audit-rig.mjs resumePlan).
//   npm run build && node test/real-audit14-py/record.mjs [scenario ...]
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { auditRig, clean, resumePlan, StreamableHTTPServerTransport } from '../helpers/audit-rig.mjs';
import { freePort, recordEach, sleep, stopAfter } from '../helpers/loopback.mjs';
import { stores } from '../helpers/lossy-stores.mjs';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const PYTHON = '/work/py-venv/bin/python';
stopAfter(300_000);

/** py_server.py with `store` (and `stateless`) in its own process; ran lists the tool runs it wrote. */
async function pyServer(store, retryMs, stateless) {
  const port = await freePort();
  const ranFile = join(mkdtempSync(join(tmpdir(), 'audit14-py-')), 'ran.txt');
  writeFileSync(ranFile, '');
  const proc = spawn(PYTHON, [`${R}/test/real-audit14-py/py_server.py`, String(port), ranFile, store, String(retryMs), ...(stateless ? ['stateless'] : [])], { stdio: ['ignore', 'ignore', 'pipe'] });
  const log = [];
  proc.stderr.on('data', (c) => log.push(...c.toString('utf8').split('\n').filter((l) => /Error|Traceback|raise|Exception/.test(l)).map((l) => clean(l).slice(0, 200))));
  for (let i = 0; i < 100; i++) { await sleep(100); try { await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET', signal: AbortSignal.timeout(1000) }); break; } catch {} }
  const ran = [];
  const stop = () => new Promise((r) => { if (proc.exitCode !== null || proc.signalCode !== null) return r(); proc.once('exit', r); proc.kill('SIGKILL'); });
  return { url: `http://127.0.0.1:${port}`, ran, log, readRan: () => ran.push(...readFileSync(ranFile, 'utf8').split('\n').filter(Boolean)), close: stop };
}

const okOf = (r) => (r?.content ? { isError: !!r.isError, text: clean(r.content.map((b) => b.text).join(' ')), progress: r.progress } : r);
const CALL = { name: 'slow_report', arguments: { steps: 3, stepMs: 300 } };

/** The Python client (py_client.py: read timeout 5 s, a progress callback) calls slow_report once; what it got. */
async function pyCall(url) {
  const { stdout } = await promisify(execFile)(PYTHON, [`${R}/test/real-xsdk-resume/py_client.py`, url, CALL.name, JSON.stringify(CALL.arguments), '5'], { timeout: 40_000 });
  const got = JSON.parse(stdout.trim().split('\n').pop());
  if (got.error) throw Object.assign(new Error(got.error.message), { code: got.error.code, pyName: got.error.name, progress: got.progress });
  return { ...got, content: [{ type: 'text', text: got.text }], isError: got.isError };
}

/** One call of slow_report by `client` (ts, v2 or py) against the Python server with `store`, the hop doing `faults`. */
async function onPython(name, client, { store, retryMs = 300, stateless = false, faults }) {
  let srv;
  const rig = await auditRig('real-audit14-py', name, { external: async () => (srv = await pyServer(store, retryMs, stateless)), clientProxy: client === 'py', settleMs: 300, fault: resumePlan(faults, () => srv), okOf });
  if (client === 'py') await rig.step('call slow_report', () => pyCall(rig.url));
  else {
    const c = await rig.sdkClient({ v2: client === 'v2', negotiate: false });
    await rig.step('call slow_report', async () => {
      const progress = [];
      const opts = { timeout: 5000, onprogress: (p) => progress.push(p.progress) };
      const r = await (client === 'v2' ? c.callTool(CALL, opts) : c.callTool(CALL, undefined, opts)); // v2: (params, options)
      return { ...r, progress };
    });
    await rig.done([() => c.close(), () => srv.readRan(), () => srv.log.length && rig.note({ pyServerLog: srv.log })]);
    return;
  }
  await rig.done([() => srv.readRan(), () => srv.log.length && rig.note({ pyServerLog: srv.log })]);
}

/** The Python client against the SDK 1.32.2 server (the orders server's slow_report) with the fourteenth audit's `store`. */
async function onTs(name, { store, retryMs = 300, faults }) {
  const Transport = class extends StreamableHTTPServerTransport {
    constructor(o) { super({ ...o, eventStore: stores[store](), retryInterval: retryMs }); }
  };
  let rig;
  rig = await auditRig('real-audit14-py', name, { Transport, clientProxy: true, settleMs: 300, fault: resumePlan(faults, () => rig.server), okOf });
  await rig.step('call slow_report', () => pyCall(rig.url));
  await rig.done();
}

// As in the fourteenth audit: with retry 1500 ms the tool (900 ms) has finished and the bounded store (3 events) has
// evicted the client's last id (the first progress event) when the resumption comes.
const LOSSY = { evicted: { store: 'evicted', retryMs: 1500, faults: { call: 2 } }, 'replay-raises': { store: 'replay-raises', faults: { call: 2 } }, 'answer-dropped': { store: 'answer-dropped', faults: { call: Infinity } } };
const scenarios = {};
for (const c of ['ts', 'v2', 'py']) {
  for (const [x, o] of Object.entries(LOSSY)) scenarios[`${c}-py-${x}`] = () => onPython(`${c}-py-${x}`, c, o);
  // stateless_http=True with an event store passed: the stream cut after two events, as a stateful one would be resumed.
  scenarios[`${c}-py-stateless`] = () => onPython(`${c}-py-stateless`, c, { store: 'memory', stateless: true, faults: { call: 2 } });
}
for (const x of ['evicted', 'evicted-400', 'replay-throws']) scenarios[`py-ts-${x}`] = () => onTs(`py-ts-${x}`, { store: x, retryMs: x.startsWith('evicted') ? 1500 : 300, faults: { call: 2 } });
scenarios['py-ts-answer-dropped'] = () => onTs('py-ts-answer-dropped', { store: 'answer-dropped', faults: { call: Infinity } });

await recordEach(scenarios);
process.exit(0);
