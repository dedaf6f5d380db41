// The fifty-ninth audit: a judge's hour with the MCP test kitchen. Small applications a judge would write (SDK 1.32.2
// "ts-", v2 2.4.0 "v2-", Python mcp 2.3.0 "py-"; app.mjs, py_app.py) with the PAT bearer, a retry loop with backoff, a
// reconnect after a timeout, giving up, run against the kitchen's wire behaviour (test/real-audit56/kitchen.mjs, with
// errors.http_status_sequence added) for all six scenarios, captured as the README tells a judge: recordingFetch (the
// TypeScript apps) or the SDK's own DEBUG log (Python: client.log), and `mcp-triage record` as a separate process
// between the app and the kitchen (proxy.ndjson). Ports 8500-8599.
// Usage: npm run build && node test/real-audit59/record.mjs [case...]
// Writes test/fixtures/real-audit59/<case>/: client.ndjson or client.log, proxy.ndjson, server.ndjson, observed.json
// (the app's steps and the kitchen's events), truth.md (truth.mjs).
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { listen, sleep, startRecordProxy } from '../helpers/loopback.mjs';
import { kitchen } from '../real-audit56/kitchen.mjs';
import { runTsApp } from './app.mjs';
import { writeTruth } from './truth.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit59/', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PAT = 'ckpat_3f9a1c7e5b2d4a6f8e0c1b3d5f7a9e2c';
const run = (n, extra = {}) => Array.from({ length: n }, (_, i) => ({ tool: 'run_configured_test_scenario', args: { message: `judge run ${i + 1}` }, ...extra }));
const seq = (statusCodes) => ({ scenario: 'errors.http_status_sequence', params: { statusCodes } });
const rpc = (code, message, onInvocation) => ({ scenario: 'errors.jsonrpc_error', params: { code, message, onInvocation } });

export const cases = {
  'ts-status-503-503-200': { client: 'ts1', kitchen: seq([503, 503, 200]), calls: run(2) },
  'ts-status-call-503': { client: 'ts1', kitchen: seq([200, 200, 200, 503, 503, 200]), calls: run(2) },
  'ts-status-429-200': { client: 'ts1', kitchen: seq([429, 200]), calls: run(1) },
  'ts-status-500': { client: 'ts1', kitchen: seq([500]), calls: run(1) },
  'ts-jsonrpc-32602': { client: 'ts1', kitchen: rpc(-32602, 'Invalid params', 1), calls: run(2) },
  'ts-jsonrpc-32603-3': { client: 'ts1', kitchen: rpc(-32603, 'Internal error', 3), calls: run(3) },
  'ts-tool-error': { client: 'ts1', kitchen: { scenario: 'errors.tool_error', params: { onInvocation: 2 } }, calls: run(3) },
  'ts-elicitation-legacy': { client: 'ts1', kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run(1) },
  'ts-baseline-delay': { client: 'ts1', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1200 } }, calls: run(1, { timeout: 800 }) },
  'v2-status-503-503-200': { client: 'v2', kitchen: seq([503, 503, 200]), calls: run(2) },
  'v2-status-call-503': { client: 'v2', kitchen: seq([200, 200, 200, 503, 503, 200]), calls: run(2) },
  // the v2 client with versionNegotiation auto: 2026-07-28 (server/discover, no initialize): the call is POST 3
  'v2m-status-call-503': { client: 'v2', modern: true, kitchen: seq([200, 200, 503, 503, 200]), calls: run(2) },
  'v2m-status-503-503-200': { client: 'v2', modern: true, kitchen: seq([503, 503, 200]), calls: run(1) },
  'v2m-jsonrpc-32602': { client: 'v2', modern: true, kitchen: rpc(-32602, 'Invalid params', 1), calls: run(2) },
  'v2-jsonrpc-32603-3': { client: 'v2', kitchen: rpc(-32603, 'Internal error', 3), calls: run(3) },
  'v2-jsonrpc-32602': { client: 'v2', kitchen: rpc(-32602, 'Invalid params', 1), calls: run(2) },
  // the v2 client's default (2025-11-25): the kitchen's elicitation answers "unsupported"
  'v2-elicitation-default': { client: 'v2', kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run(1) },
  'v2m-elicitation': { client: 'v2', modern: true, elicit: ['accept', 'decline', 'cancel'], kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run(3) },
  'v2m-compat': { client: 'v2', modern: true, elicit: ['accept'], kitchen: { scenario: 'compat.sdk_v2', params: {} }, calls: [...run(1), { tool: 'simulate_ticket_close_mrtr', args: { ticketId: 301 } }, { tool: 'simulate_ticket_close_mrtr', args: { ticketId: 302, closeReason: 'duplicate' } }] },
  'v2m-baseline-delay': { client: 'v2', modern: true, kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1200 } }, calls: run(1, { timeout: 800 }) },
  'py-status-503-503-200': { client: 'py', kitchen: seq([503, 503, 200]), calls: run(2) },
  'py-status-call-503': { client: 'py', kitchen: seq([200, 200, 200, 503, 503, 200]), calls: run(2) },
  'py-status-500': { client: 'py', kitchen: seq([500]), calls: run(1) },
  'py-jsonrpc-32602': { client: 'py', kitchen: rpc(-32602, 'Invalid params', 1), calls: run(2) },
  'py-jsonrpc-32603-3': { client: 'py', kitchen: rpc(-32603, 'Internal error', 3), calls: run(3) },
  'py-tool-error': { client: 'py', kitchen: { scenario: 'errors.tool_error', params: {} }, calls: run(2) },
  'py-elicitation-modern': { client: 'py', mode: 'auto', elicit: ['accept', 'decline', 'cancel'], kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run(3) },
  'py-elicitation-legacy': { client: 'py', kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run(1) },
  'py-baseline-delay': { client: 'py', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1200 } }, calls: run(1, { timeout: 0.8 }) },
};

async function record(name, c, i) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const k = kitchen({ ...c.kitchen, pat: PAT, serverLog: `${dir}server.ndjson` });
  const host = await listen(k.handle, 8500 + 2 * i);
  const proxy = await startRecordProxy(host.url, `${dir}proxy.ndjson`);
  let steps;
  if (c.client === 'py') {
    const plan = { mode: c.mode ?? 'legacy', pat: PAT, elicit: c.elicit ?? [], calls: c.calls };
    const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('py_app.py', import.meta.url)), `${proxy.url}/mcp`, `${dir}client.log`, JSON.stringify(plan)], { timeout: 90_000 });
    steps = JSON.parse(stdout);
  } else {
    steps = await runTsApp({ client: c.client, url: proxy.url, pat: PAT, out: `${dir}client.ndjson`, calls: c.calls, elicit: c.elicit, modern: c.modern });
  }
  await sleep(300);
  await proxy.stop();
  await k.close();
  await host.close();
  appendFileSync(`${dir}server.ndjson`, '');
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ client: c.client, scenario: c.kitchen.scenario, params: c.kitchen.params, steps, kitchen: k.events }, null, 2)}\n`);
  writeTruth(dir, name);
  console.log(`recorded ${name}: ${steps.map((s) => `${s.step}=${s.ok === false ? `ERR(${s.error?.code ?? s.error?.status ?? s.error?.name})${s.policy ? `/${s.policy}` : ''}` : s.isError ? 'isError' : (s.action ?? (s.gaveUp ? 'gave-up' : 'ok'))}`).join(' ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pick = process.argv.slice(2);
  for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
  process.exit(0);
}
