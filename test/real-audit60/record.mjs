// The sixtieth audit: the Python SDK 2.3.0 client's own DEBUG log (logging.basicConfig(level=DEBUG, filename=...)) against
// the MCP test kitchen's wire behaviour (test/real-audit56/kitchen.mjs), read alone as a judge hands it over: the
// kitchen's injected JSON-RPC errors (HTTP 200 application/json), its 2026-07-28 JSON answers, its bare 503 (as Kestrel
// sends it: no Content-Type, Content-Length: 0) and a call the app gave up on at its timeout whose answer came later.
// The judge's app is test/real-audit59/py_app.py (retries with backoff, -32602 and isError not retried). `mcp-triage
// record` runs between the app and the kitchen (proxy.ndjson) as the truth of the wire. Ports 8600-8699.
// Usage: npm run build && node test/real-audit60/record.mjs [case...]
// Writes test/fixtures/real-audit60/<case>/: client.log, proxy.ndjson, server.ndjson, observed.json, truth.md.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { listen, sleep, startRecordProxy } from '../helpers/loopback.mjs';
import { kitchen } from '../real-audit56/kitchen.mjs';
import { writeTruth } from '../real-audit59/truth.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit60/', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const APP = fileURLToPath(new URL('../real-audit59/py_app.py', import.meta.url));
const PAT = 'ckpat_3f9a1c7e5b2d4a6f8e0c1b3d5f7a9e2c';
const run = (n, extra = {}) => Array.from({ length: n }, (_, i) => ({ tool: 'run_configured_test_scenario', args: { message: `judge run ${i + 1}` }, ...extra }));
const seq = (statusCodes) => ({ scenario: 'errors.http_status_sequence', params: { statusCodes } });
const rpc = (code, message, onInvocation) => ({ scenario: 'errors.jsonrpc_error', params: { code, message, onInvocation } });

export const cases = {
  // the injected -32603 on the second call: the app retries it (same arguments)
  'py-jsonrpc-32603-2': { kitchen: rpc(-32603, 'Internal error', 2), calls: run(2) },
  // the injected -32602 on the first call: the app does not retry; its next call has other arguments
  'py-jsonrpc-32602': { kitchen: rpc(-32602, 'Invalid params', 1), calls: run(2) },
  // 2026-07-28 (mode auto): the v2 server answers every call as application/json; -32603 on the second call, retried
  'py-modern-jsonrpc-32603-2': { mode: 'auto', kitchen: rpc(-32603, 'Internal error', 2), calls: run(3) },
  // 2026-07-28, nothing injected: JSON answers to three different calls (none is a retry)
  'py-modern-baseline': { mode: 'auto', kitchen: { scenario: 'baseline', params: {} }, calls: run(3) },
  // the kitchen's bare 503 as Kestrel sends it (Content-Length: 0, no Content-Type) on the first call's POST
  'py-status-call-503-cl0': { kitchen: seq([200, 200, 200, 503, 200]), kestrel: true, calls: run(2) },
  // the same sequence as kitchen.mjs sends it (chunked, no Content-Length): the log does not prove the body empty
  'py-status-call-503-chunked': { kitchen: seq([200, 200, 200, 503, 200]), calls: run(1) },
  // the tool takes 1.2 s, the app's timeout is 0.8 s: it gives up, cancels, re-calls; the first answer comes late
  'py-baseline-delay': { kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1200 } }, calls: run(1, { timeout: 0.8 }) },
  // the same, logged with logging's default format (no times): only the lines' order puts the answer after the cancel
  'py-baseline-delay-basic': { kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1200 } }, calls: run(1, { timeout: 0.8 }), logFormat: 'basic' },
};

/** Kestrel (the real kitchen's host) sends a status with no body written as `Content-Length: 0`; Node sends it chunked. */
const asKestrel = (handle) => (req, res) => {
  const writeHead = res.writeHead;
  res.writeHead = function (code, ...rest) {
    if (rest.length === 0 && (code < 200 || code > 299) && this.getHeader('content-type') === undefined) this.setHeader('content-length', '0');
    return writeHead.call(this, code, ...rest);
  };
  return handle(req, res);
};

async function record(name, c, i) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const k = kitchen({ ...c.kitchen, pat: PAT, serverLog: `${dir}server.ndjson` });
  const host = await listen(c.kestrel ? asKestrel(k.handle) : k.handle, 8600 + 2 * i);
  const proxy = await startRecordProxy(host.url, `${dir}proxy.ndjson`);
  const plan = { mode: c.mode ?? 'legacy', pat: PAT, elicit: [], calls: c.calls, ...(c.logFormat ? { logFormat: c.logFormat } : {}) };
  const { stdout } = await promisify(execFile)(PYTHON, [APP, `${proxy.url}/mcp`, `${dir}client.log`, JSON.stringify(plan)], { timeout: 90_000 });
  const steps = JSON.parse(stdout);
  await sleep(1500);
  await proxy.stop();
  await k.close();
  await host.close();
  appendFileSync(`${dir}server.ndjson`, '');
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ client: 'py', scenario: c.kitchen.scenario, params: c.kitchen.params, kestrel: c.kestrel === true, steps, kitchen: k.events }, null, 2)}\n`);
  writeTruth(dir, name);
  console.log(`recorded ${name}: ${steps.map((s) => `${s.step}=${s.ok === false ? `ERR(${s.error?.code ?? s.error?.status ?? s.error?.name})${s.policy ? `/${s.policy}` : ''}` : s.isError ? 'isError' : s.gaveUp ? 'gave-up' : 'ok'}`).join(' ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pick = process.argv.slice(2);
  for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
  process.exit(0);
}
