// The MCP test kitchen's unregistered transport-fault and timeout scenarios (test/real-audit62/kitchen62.mjs, in front of
// test/real-audit56/kitchen.mjs's real SDK servers: v2 2.4.0 on 2026-07-28, 1.32.2 on 2025-11-25), called by real
// clients behind a small application that re-calls once after a failure (and reconnects after a failed connect):
// SDK 1.32.2 (ts-), v2 2.4.0 (v2-), Python mcp 2.3.0 (py-, test/real-audit58/py_app.py: audit 56's app with its DEBUG
// log). Ports 8800-8899 (kitchen 8800+i, SDK servers 8833+i, record proxy 8866+i).
// Usage: node test/real-audit62/record.mjs [case...]   (needs dist/: npm run build; the py- ones /work/py-venv)
// Writes test/fixtures/real-audit62/<case>/: client.ndjson (recordingFetch; for py- the record proxy, --side client),
// client.log (py-: the Python client's DEBUG log), proxy.ndjson (ts-/v2-: the recording proxy between the client and
// the kitchen), server.ndjson (recordingHandler where the kitchen's observations sit: around ScenarioWireMiddleware),
// observed.json (the application's steps, the kitchen's events) and truth.md.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, startRecordingProxy } from '../../dist/capture/index.js';
import { describeError, sleep } from '../helpers/loopback.mjs';
import { kitchen62 } from './kitchen62.mjs';
import { writeTruth } from './truth.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit62/', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const run = (n = 1, extra = {}) => Array.from({ length: n }, (_, i) => ({ tool: 'run_configured_test_scenario', args: { message: `call ${i + 1}` }, tries: 2, ...extra }));
const slow = (timeout, retryTimeout = timeout) => run(1, { timeout, retryTimeout });

// client: ts1 | v2 | py; kitchen: the selection; calls: the application's plan; connectTimeouts: per connect try (ms)
export const cases = {
  'ts-close-tool': { client: 'ts1', kitchen: { scenario: 'errors.connection_close', params: {} }, calls: run(1) },
  'v2-close-tool': { client: 'v2', kitchen: { scenario: 'errors.connection_close', params: {} }, calls: run(1) },
  'py-close-tool': { client: 'py', kitchen: { scenario: 'errors.connection_close', params: {} }, calls: run(1) },
  'ts-close-init': { client: 'ts1', kitchen: { scenario: 'errors.connection_close', params: { closeOn: 'initialize' } }, calls: run(1) },
  'py-close-init': { client: 'py', kitchen: { scenario: 'errors.connection_close', params: { closeOn: 'initialize' } }, calls: run(1) },
  'ts-malformed-json': { client: 'ts1', kitchen: { scenario: 'errors.malformed_payload', params: {} }, calls: run(1) },
  'v2-malformed-json': { client: 'v2', kitchen: { scenario: 'errors.malformed_payload', params: {} }, calls: run(1) },
  'py-malformed-json': { client: 'py', kitchen: { scenario: 'errors.malformed_payload', params: {} }, calls: run(1) },
  'ts-malformed-wrong-id': { client: 'ts1', kitchen: { scenario: 'errors.malformed_payload', params: { kind: 'wrong_id' } }, calls: run(1, { timeout: 1500 }) },
  'py-malformed-wrong-id': { client: 'py', kitchen: { scenario: 'errors.malformed_payload', params: { kind: 'wrong_id' } }, calls: run(1, { timeout: 1.5 }) },
  'v2-malformed-missing-jsonrpc': { client: 'v2', kitchen: { scenario: 'errors.malformed_payload', params: { kind: 'missing_jsonrpc' } }, calls: run(1, { timeout: 1500 }) },
  'ts-malformed-duplicate': { client: 'ts1', kitchen: { scenario: 'errors.malformed_payload', params: { kind: 'duplicate_response' } }, calls: run(2) },
  'ts-envelope-init': { client: 'ts1', kitchen: { scenario: 'errors.non_compliant_envelope', params: {} }, calls: run(1) },
  'ts-envelope-tool': { client: 'ts1', kitchen: { scenario: 'errors.non_compliant_envelope', params: { onInvocation: 3 } }, calls: run(1) },
  'v2-envelope-tool': { client: 'v2', kitchen: { scenario: 'errors.non_compliant_envelope', params: { onInvocation: 2 } }, calls: run(1) },
  'py-envelope-tool': { client: 'py', kitchen: { scenario: 'errors.non_compliant_envelope', params: { onInvocation: 3 } }, calls: run(1) },
  'ts-status-per-method': { client: 'ts1', kitchen: { scenario: 'errors.http_status_per_method', params: {} }, calls: run(1) },
  'v2-status-per-method': { client: 'v2', kitchen: { scenario: 'errors.http_status_per_method', params: {} }, calls: run(1) },
  'py-status-per-method': { client: 'py', kitchen: { scenario: 'errors.http_status_per_method', params: {} }, calls: run(1) },
  'ts-cooperative': { client: 'ts1', kitchen: { scenario: 'timeout.cooperative_deadline', params: { delayMs: 1500 } }, calls: slow(600, 5000) },
  'v2-cooperative': { client: 'v2', kitchen: { scenario: 'timeout.cooperative_deadline', params: { delayMs: 1500 } }, calls: slow(600, 5000) },
  'py-cooperative': { client: 'py', kitchen: { scenario: 'timeout.cooperative_deadline', params: { delayMs: 1500 } }, calls: slow(0.6, 5) },
  'ts-late-response': { client: 'ts1', kitchen: { scenario: 'timeout.late_response', params: { delayMs: 1500 } }, calls: slow(600, 5000) },
  'v2-late-response': { client: 'v2', kitchen: { scenario: 'timeout.late_response', params: { delayMs: 1500 } }, calls: slow(600, 5000) },
  'py-late-response': { client: 'py', kitchen: { scenario: 'timeout.late_response', params: { delayMs: 1500 } }, calls: slow(0.6, 5) },
  'ts-uncooperative-hang': { client: 'ts1', kitchen: { scenario: 'timeout.uncooperative_hang', params: { hangDurationMs: 2500 } }, calls: slow(600) },
  'v2-uncooperative-hang': { client: 'v2', kitchen: { scenario: 'timeout.uncooperative_hang', params: { hangDurationMs: 2500 } }, calls: slow(600) },
  'py-uncooperative-hang': { client: 'py', kitchen: { scenario: 'timeout.uncooperative_hang', params: { hangDurationMs: 2500 } }, calls: slow(0.6) },
  'ts-init-hang': { client: 'ts1', connectTimeouts: [600, 5000], kitchen: { scenario: 'timeout.init_hang', params: { initDelayMs: 1500 } }, calls: run(1) },
  'v2-init-hang': { client: 'v2', connectTimeouts: [600, 5000], kitchen: { scenario: 'timeout.init_hang', params: { initDelayMs: 1500 } }, calls: run(1) },
  'py-init-hang': { client: 'py', kitchen: { scenario: 'timeout.init_hang', params: { initDelayMs: 1500 } }, calls: run(1) },
  // near misses for the Python DEBUG log's parse error: a JSON body that is JSON but no JSON-RPC message, two of them
  'py-malformed-missing-jsonrpc': { client: 'py', kitchen: { scenario: 'errors.malformed_payload', params: { kind: 'missing_jsonrpc' } }, calls: run(1, { timeout: 1.5 }) },
  'py-malformed-duplicate': { client: 'py', kitchen: { scenario: 'errors.malformed_payload', params: { kind: 'duplicate_response' } }, calls: run(1, { timeout: 1.5 }) },
};

async function runTs(c, url, dir) {
  const f = recordingFetch({ out: `${dir}client.ndjson`, client: `kitchen-app-${c.client}@1.0.0` });
  const steps = [];
  const make = () =>
    c.client === 'v2'
      ? { cl: new ClientV2({ name: 'kitchen-app-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }), t: new TransportV2(new URL('/mcp', url), { fetch: f }) }
      : { cl: new Client({ name: 'kitchen-app-ts1', version: '1.0.0' }), t: new StreamableHTTPClientTransport(new URL('/mcp', url), { fetch: f }) };
  let client;
  for (let i = 1; i <= 3 && !client; i++) {
    const { cl, t } = make();
    const timeout = c.connectTimeouts?.[Math.min(i - 1, c.connectTimeouts.length - 1)];
    try {
      await cl.connect(t, timeout ? { timeout } : undefined);
      steps.push({ step: `connect ${i}`, ok: true });
      client = cl;
    } catch (err) {
      steps.push({ step: `connect ${i}`, ok: false, error: describeError(err) });
      await cl.close().catch(() => {});
      await sleep(200);
    }
  }
  if (client) {
    for (const [n, call] of c.calls.entries()) {
      for (let k = 1; k <= (call.tries ?? 2); k++) {
        const timeout = k === 1 ? call.timeout : (call.retryTimeout ?? call.timeout);
        const opts = timeout ? { timeout } : undefined;
        try {
          // 1.x: callTool(params, resultSchema, options); v2: callTool(params, options)
          const r = c.client === 'v2' ? await client.callTool({ name: call.tool, arguments: call.args }, opts) : await client.callTool({ name: call.tool, arguments: call.args }, undefined, opts);
          steps.push({ step: `call ${n + 1} try ${k}`, ok: true, isError: r.isError === true, text: String(r.content?.[0]?.text ?? '').slice(0, 300) });
          break;
        } catch (err) {
          steps.push({ step: `call ${n + 1} try ${k}`, ok: false, error: describeError(err) });
          await sleep(200);
        }
      }
    }
    await client.close();
  }
  return steps;
}

async function runPy(c, url, dir) {
  // audit 56's app re-calls with the same timeout; a longer second try is a call of its own
  const calls = c.calls.flatMap((x) => (x.retryTimeout !== undefined && x.retryTimeout !== x.timeout ? [{ ...x, tries: 1 }, { ...x, tries: 1, timeout: x.retryTimeout }] : [x]));
  const plan = { mode: 'legacy', bearer: null, pause: 0.2, elicit: [], calls: calls.map((x) => ({ tool: x.tool, args: x.args, tries: x.tries ?? 2, timeout: x.timeout ?? null })) };
  const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('../real-audit58/py_app.py', import.meta.url)), `${url}/mcp`, JSON.stringify(plan), `${dir}client.log`], { timeout: 90_000 });
  return JSON.parse(stdout);
}

async function record(name, c, i) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const k = await kitchen62({ ...c.kitchen, serverLog: `${dir}server.ndjson`, port: 8800 + i, innerPort: 8833 + i });
  const py = c.client === 'py';
  const proxy = await startRecordingProxy({ listen: `127.0.0.1:${8866 + i}`, target: k.url, out: py ? `${dir}client.ndjson` : `${dir}proxy.ndjson`, ...(py ? { side: 'client' } : {}) });
  const steps = py ? await runPy(c, proxy.url, dir) : await runTs(c, proxy.url, dir);
  // the hangs' late answers land after the app has moved on: let them
  await sleep(c.kitchen.scenario.startsWith('timeout.') ? 3000 : 300);
  await proxy.close();
  await k.close();
  appendFileSync(`${dir}server.ndjson`, '');
  const o = { client: c.client, scenario: c.kitchen.scenario, params: c.kitchen.params, steps, kitchen: k.events };
  writeFileSync(`${dir}observed.json`, `${JSON.stringify(o, null, 2)}\n`);
  writeTruth(dir, name, o);
  console.log(`recorded ${name}: ${steps.map((s) => `${s.step}=${s.ok === false ? `ERR(${s.error?.code ?? s.error?.name})` : s.isError ? 'isError' : 'ok'}`).join(' ')}`);
}

const pick = process.argv.slice(2);
for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
process.exit(0);
