// Records test/fixtures/real-xsdk-resume/<scenario>/: SSE resumption across SDKs, one call at a time, five views each (test/helpers/audit-rig.mjs).
// The Python SDK 2.3.0 client (py_client.py, in its own process, behind a recording proxy with side "client") against the
// SDK 1.32.2 server with an in-memory event store (the SDK's InMemoryEventStore: event ids `<stream id>_<ms>_<random>`,
// the stream id a UUID, not the request id; a priming event with `retry: 300`), and the SDK 1.32.2 client (and the v2
// client 2.4.0 on the 2025 line) against the Python server with its event store (test/real-chaos-py/py_server.py streams: event ids
// `<request id>.<n>`, a priming event with `retry: 250`). The fault hop in front of the client cuts the call's stream
// after some events (cutEvents), cuts or refuses the GET that resumes it (Last-Event-ID), or restarts the server when that
// GET arrives (its sessions and event store gone).
//   node test/real-xsdk-resume/record.mjs [scenario ...]
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { auditRig, clean, ClientV2, resumePlan as plan, StreamableHTTPServerTransport, TransportV2 } from '../helpers/audit-rig.mjs';
import { freePort, recordEach, sleep, stopAfter } from '../helpers/loopback.mjs';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const PYTHON = '/work/py-venv/bin/python';
const { InMemoryEventStore } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/shared/inMemoryEventStore.js`);
stopAfter(240_000);

/** The SDK 1.32.2 server transport with an event store of its own per session, and retry 300 ms in its priming event. */
class StoredTransport extends StreamableHTTPServerTransport {
  constructor(o) { super({ ...o, eventStore: new InMemoryEventStore(), retryInterval: 300 }); }
}

/** The Python server (py_server.py streams) in its own process; restart() kills it and starts it on the same port. */
async function pyServer() {
  const port = await freePort();
  const ranFile = join(mkdtempSync(join(tmpdir(), 'xsdk-resume-')), 'ran.txt');
  writeFileSync(ranFile, '');
  let proc;
  const start = async () => {
    proc = spawn(PYTHON, [`${R}/test/real-chaos-py/py_server.py`, String(port), ranFile, 'streams'], { stdio: ['ignore', 'ignore', 'inherit'] });
    for (let i = 0; i < 100; i++) { await sleep(100); try { await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET', signal: AbortSignal.timeout(1000) }); return; } catch {} }
    throw new Error('python server did not listen');
  };
  const stop = () => new Promise((r) => { if (proc.exitCode !== null || proc.signalCode !== null) return r(); proc.once('exit', r); proc.kill('SIGKILL'); });
  await start();
  const ran = [];
  return { url: `http://127.0.0.1:${port}`, ran, readRan: () => ran.push(...readFileSync(ranFile, 'utf8').split('\n').filter(Boolean)), restart: async () => { await stop(); await start(); }, close: stop };
}

/** The Python client's scenarios: against the SDK 1.32.2 server with an event store. */
async function pyToTs(name, faults) {
  let srv;
  const rig = await auditRig('real-xsdk-resume', name, { Transport: StoredTransport, clientProxy: true, settleMs: 300, fault: plan(faults, () => srv) });
  srv = rig.server;
  await rig.step('call slow_report', async () => {
    const { stdout } = await promisify(execFile)(PYTHON, [`${R}/test/real-xsdk-resume/py_client.py`, rig.url, 'slow_report', JSON.stringify({ steps: 3, stepMs: 300 }), '5'], { timeout: 40_000 });
    const got = JSON.parse(stdout.trim().split('\n').pop());
    if (got.error) throw Object.assign(new Error(got.error.message), { code: got.error.code, pyName: got.error.name, progress: got.progress });
    return got;
  });
  await rig.done();
}

/** The SDK 1.32.2 (or v2 2.4.0) client's scenarios: against the Python server with its event store. */
async function tsToPy(name, faults, { v2 = false, progress: withProgress = true } = {}) {
  let srv;
  const rig = await auditRig('real-xsdk-resume', name, { external: async () => (srv = await pyServer()), settleMs: 300, fault: plan(faults, () => srv), okOf: (r) => (r?.content ? { isError: !!r.isError, text: clean(r.content.map((b) => b.text).join(' ')), progress: r.progress } : r) });
  // The v2 client 2.4.0 without version negotiation stays on the 2025 line (sessions, event ids), as the rig's v2 client does not.
  const c = v2 ? new ClientV2({ name: 'xsdk-resume-v2-app', version: '1.0.0' }, { capabilities: {} }) : await rig.sdkClient();
  if (v2) await c.connect(new TransportV2(new URL(rig.url), { fetch: rig.rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } }));
  await rig.step('call export_report', async () => {
    const progress = [];
    const params = { name: 'export_report', arguments: { key: 'k1', ms: 900 } };
    const opts = { timeout: 5000, ...(withProgress ? { onprogress: (p) => progress.push(p.progress) } : {}) };
    const r = await (v2 ? c.callTool(params, opts) : c.callTool(params, undefined, opts)); // v2: (params, options)
    return { ...r, progress };
  });
  await rig.done([() => c.close(), () => srv.readRan()]);
}

const scenarios = {
  'py-ts-cut-resumed': () => pyToTs('py-ts-cut-resumed', { call: 2 }),
  'py-ts-cut-twice': () => pyToTs('py-ts-cut-twice', { call: 2, resumes: [{ cut: 1 }] }),
  'py-ts-resume-503': () => pyToTs('py-ts-resume-503', { call: 2, resumes: [503, 503, 503] }),
  'py-ts-result-replayed': () => pyToTs('py-ts-result-replayed', { call: Infinity }),
  'py-ts-restart': () => pyToTs('py-ts-restart', { call: 2, resumes: ['restart'] }),
  'ts-py-cut-resumed': () => tsToPy('ts-py-cut-resumed', { call: 2 }),
  'ts-py-cut-twice': () => tsToPy('ts-py-cut-twice', { call: 2, resumes: [{ cut: 1 }] }),
  'ts-py-resume-503': () => tsToPy('ts-py-resume-503', { call: 2, resumes: [503, 503, 503] }),
  'ts-py-result-replayed': () => tsToPy('ts-py-result-replayed', { call: Infinity }),
  'ts-py-restart': () => tsToPy('ts-py-restart', { call: 2, resumes: ['restart'] }),
  'v2-py-cut-twice': () => tsToPy('v2-py-cut-twice', { call: 2, resumes: [{ cut: 1 }] }, { v2: true }),
  'v2-py-result-replayed': () => tsToPy('v2-py-result-replayed', { call: Infinity }, { v2: true }),
  // No progress token: the answer is the first event after the priming one; the resumption is cut before it too, with no event.
  'ts-py-answer-cut-twice': () => tsToPy('ts-py-answer-cut-twice', { call: Infinity, resumes: [{ cut: 0 }] }, { progress: false }),
  'v2-py-answer-cut-twice': () => tsToPy('v2-py-answer-cut-twice', { call: Infinity, resumes: [{ cut: 0 }] }, { v2: true, progress: false }),
  'v2-py-restart': () => tsToPy('v2-py-restart', { call: 2, resumes: ['restart'] }, { v2: true }),
};
await recordEach(scenarios);
process.exit(0);
