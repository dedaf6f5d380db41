// The MCP test kitchen's own server-side records beside real clients' logs: test/real-audit58/kitchen.mjs (the kitchen's
// wire behaviour in front of real SDK servers, v2 2.4.0 on 2026-07-28 and 1.32.2 on 2025-11-25) writes the kitchen's
// request log (JSON console and Development text) and its observations (list page, SSE stream, rows), while real
// clients call it: SDK 1.32.2 (ts-), v2 2.4.0 (v2-), Python mcp 2.3.0 (py-, its DEBUG log). Ports 8400-8419.
// Usage: node test/real-audit58/record.mjs [case...]   (needs dist/: npm run build; the py- ones /work/py-venv)
// Writes test/fixtures/real-audit58/<case>/: client.ndjson (recordingFetch) or client.log (the Python client's DEBUG
// log), kitchen-console.json.log, kitchen-console.txt, observations-page.json, observations-stream.txt,
// observations.ndjson, server.ndjson (recordingHandler where the observations sit: the truth of what the scenario layer
// and the SDK answered; not the kitchen's own record), observed.json and truth.md.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch } from '../../dist/capture/index.js';
import { describeError, listen, sleep } from '../helpers/loopback.mjs';
import { kitchen } from './kitchen.mjs';
import { kitchenLogs } from './kitchen-logs.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit58/', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const run = (n = 2, extra = {}) => Array.from({ length: n }, (_, i) => ({ tool: 'run_configured_test_scenario', args: { message: `call ${i + 1}` }, ...extra }));
const ticket = (ticketId, closeReason) => ({ tool: 'simulate_ticket_close_mrtr', args: closeReason ? { ticketId, closeReason } : { ticketId }, tries: 1 });

export const TRUTH = {
  'ts-baseline': 'baseline (slowReportDelayMs 1100): two calls by the SDK 1.32.2 client (2025-11-25), each ran the tool and returned after 1.1 s. Every POST is in the request log (Information, 200 or 202) and has an observation; the client\'s GET stream (405 here, the stateless 1.32.2 server) is logged as a Warning by the request log and has no observation (observations are POSTs only).',
  'ts-status-sequence': 'errors.http_status_sequence [200,200,503,200]: initialize and notifications/initialized passed; the first tools/call POST got a bare 503 from the scenario layer (no body, no Content-Type; the tool did not run); the app re-called and the second tools/call passed (200, the tool ran). The request log has the 503 at Error; its observation has statusCode 503 (the scenario layer sits inside the observation middleware).',
  'v2-status-sequence': 'errors.http_status_sequence [503,200] with the v2 client: its first POST (the 2026-07-28 server/discover probe) got a bare 503 and connect() threw; the app connected again and its calls went through.',
  'v2-jsonrpc': 'errors.jsonrpc_error defaults on 2026-07-28: the first tools/call got HTTP 200 application/json with a -32602 error envelope from the wire layer (the SDK never saw it, the tool did not run); the app re-called and the tool ran. Both are 200 in the request log and the observations (no JSON-RPC error code is in either).',
  'py-tool-error': 'errors.tool_error defaults with the Python client (2025-11-25): the first call returned isError true (the tool ran), the second succeeded. Both 200 in the kitchen\'s records (no isError in them).',
  'v2-elicitation': 'elicitation.approval on 2026-07-28 (v2 client): each call\'s first leg got input_required, the client answered (accept, then decline) and sent the follow-up leg; accept: elicitationOutcome accepted; decline: isError true. Four tools/call POSTs, all 200 in the kitchen\'s records.',
  'v2-compat': 'compat.sdk_v2 on 2026-07-28 (v2 client): simulate_ticket_close_mrtr 101 with closeReason (upfront, one leg), 102 without (input_required, accept, mrtr): three tools/call POSTs, all 200.',
  'ts-pat-401': 'PAT configured, the SDK 1.32.2 client with a bad bearer: each initialize got a bare 401 from the PAT check, before the observation middleware: the request log has each 401 (Warning), the observations have none. The app connected three times.',
  'ts-rate-limit': 'The rate limiter (4 per 1.5 s here; the kitchen: 120/min per IP), before the observations: requests past the limit got a bare 429 (request log Warning, no observation); the app re-called after 0.4 s.',
  'v2-timeout': 'baseline slowReportDelayMs 1500, the v2 client\'s timeout 600 ms: the client closed the call\'s stream; the server saw the request aborted (its observation: wasCancelled true, the status left at 200; the request log: 200) and the tool\'s delay was cut. The app re-called with 5 s: it ran and returned.',
  'ts-timeout': 'baseline slowReportDelayMs 1500, the SDK 1.32.2 client\'s timeout 600 ms: the SDK threw -32001 and POSTed notifications/cancelled; the first POST\'s stream stayed open until the client closed, the tool ran to its end. The app re-called with 5 s: it ran and returned.',
  'ts-status-429': 'errors.http_status_sequence [200,200,429,200]: the first tools/call got a bare 429 injected by the scenario layer (inside the observations: the request log has it and an observation has statusCode 429); the app re-called.',
};

// client: ts1 | v2 | py; kitchen: the selection and the host's options; calls: the application's plan.
const cases = {
  'ts-baseline': { client: 'ts1', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1100 } }, calls: run(2) },
  'ts-status-sequence': { client: 'ts1', kitchen: { scenario: 'errors.http_status_sequence', params: { statusCodes: [200, 200, 503, 200] } }, calls: run(1) },
  'v2-status-sequence': { client: 'v2', kitchen: { scenario: 'errors.http_status_sequence', params: { statusCodes: [503, 200] } }, calls: run(1) },
  'v2-jsonrpc': { client: 'v2', kitchen: { scenario: 'errors.jsonrpc_error', params: {} }, calls: run(1) },
  'py-tool-error': { client: 'py', kitchen: { scenario: 'errors.tool_error', params: {} }, calls: run(2) },
  'v2-elicitation': { client: 'v2', elicit: ['accept', 'decline'], kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run(2, { tries: 1 }) },
  'v2-compat': { client: 'v2', elicit: ['accept'], kitchen: { scenario: 'compat.sdk_v2', params: {} }, calls: [ticket(101, 'duplicate'), ticket(102)] },
  'ts-pat-401': { client: 'ts1', bearer: 'kitchen-pat-revoked', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run(1) },
  'ts-rate-limit': { client: 'ts1', pause: 400, kitchen: { scenario: 'baseline', params: {}, rateLimit: { limit: 4, windowMs: 1500 } }, calls: run(3) },
  'ts-status-429': { client: 'ts1', kitchen: { scenario: 'errors.http_status_sequence', params: { statusCodes: [200, 200, 429, 200] } }, calls: run(1) },
  // baseline slower than the client's timeout: the client gives up, the server sees the request aborted (wasCancelled)
  'v2-timeout': { client: 'v2', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1500 } }, calls: [{ ...run(1)[0], timeout: 600, retryTimeout: 5000 }] },
  'ts-timeout': { client: 'ts1', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1500 } }, calls: [{ ...run(1)[0], timeout: 600, retryTimeout: 5000 }] },
};

async function runTs(c, url, dir) {
  const f = recordingFetch({ out: `${dir}client.ndjson`, client: `kitchen-app-${c.client}@1.0.0` });
  const steps = [];
  const answers = [...(c.elicit ?? [])];
  const pause = c.pause ?? 200;
  const headers = c.bearer ? { authorization: `Bearer ${c.bearer}` } : undefined;
  const make = () => {
    if (c.client === 'v2') {
      const cl = new ClientV2({ name: 'kitchen-app-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } });
      cl.setRequestHandler('elicitation/create', async () => {
        const action = answers.shift() ?? 'cancel';
        steps.push({ step: 'elicitation', action });
        return action === 'accept' ? { action, content: { reason: 'ship it', closeReason: 'fixed in 2.4' } } : { action };
      });
      return { cl, t: new TransportV2(new URL('/mcp', url), { fetch: f, requestInit: headers ? { headers } : undefined }) };
    }
    return { cl: new Client({ name: 'kitchen-app-ts1', version: '1.0.0' }), t: new StreamableHTTPClientTransport(new URL('/mcp', url), { fetch: f, requestInit: headers ? { headers } : undefined }) };
  };
  let client;
  for (let i = 1; i <= 3 && !client; i++) {
    const { cl, t } = make();
    try {
      await cl.connect(t);
      steps.push({ step: `connect ${i}`, ok: true });
      client = cl;
    } catch (err) {
      steps.push({ step: `connect ${i}`, ok: false, error: describeError(err) });
      await sleep(pause);
    }
  }
  if (client) {
    for (const [n, call] of c.calls.entries()) {
      for (let k = 1; k <= (call.tries ?? 3); k++) {
        const timeout = k === 1 ? call.timeout : (call.retryTimeout ?? call.timeout);
        const opts = timeout ? { timeout } : undefined;
        try {
          // 1.x: callTool(params, resultSchema, options); v2: callTool(params, options)
          const r = c.client === 'v2' ? await client.callTool({ name: call.tool, arguments: call.args }, opts) : await client.callTool({ name: call.tool, arguments: call.args }, undefined, opts);
          steps.push({ step: `call ${n + 1} try ${k}`, ok: true, isError: r.isError === true, text: String(r.content?.[0]?.text ?? '').slice(0, 300) });
          break;
        } catch (err) {
          steps.push({ step: `call ${n + 1} try ${k}`, ok: false, error: describeError(err) });
          await sleep(pause);
        }
      }
    }
    await client.close();
  }
  return steps;
}

async function runPy(c, url, dir) {
  const plan = { mode: c.mode ?? 'legacy', bearer: c.bearer ?? null, pause: (c.pause ?? 200) / 1000, elicit: c.elicit ?? [], calls: c.calls.map((x) => ({ tool: x.tool, args: x.args, tries: x.tries ?? 3, timeout: null })) };
  const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('py_app.py', import.meta.url)), `${url}/mcp`, JSON.stringify(plan), `${dir}client.log`], { timeout: 90_000 });
  return JSON.parse(stdout);
}

function writeTruth(dir, name, o) {
  const step = (s) => `- ${s.step}: ${s.action ?? (s.ok === false ? `threw ${s.error?.name}${s.error?.code !== undefined ? ` ${s.error.code}` : ''}: ${String(s.error?.message ?? '').slice(0, 120)}` : s.isError ? 'returned isError true' : 'returned')}`;
  const obs = o.observations.map((r) => `- ${r.occurredAt} ${r.requestId} ${r.method}${r.requestParamsJson && r.method === 'tools/call' ? ` ${r.requestParamsJson}` : ''} ${r.statusCode} in ${r.durationMs} ms${r.wasCancelled ? ' (cancelled)' : ''}`);
  writeFileSync(`${dir}truth.md`, `# ${name}\n\n${TRUTH[name] ?? ''}\n\nClient: ${o.client}; kitchen selection: ${o.scenario} ${JSON.stringify(o.params)}.\n\nWhat the application saw:\n\n${o.steps.map(step).join('\n')}\n\nWhat the kitchen did (its own events, in order):\n\n${o.kitchen.map((e) => `- ${JSON.stringify(e)}`).join('\n')}\n\nIts observations (one per POST past the rate limiter and the PAT check):\n\n${obs.join('\n') || '- none'}\n`);
}

async function record(name, c, i) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const port = 8400 + i;
  const logs = kitchenLogs({ listen: `http://127.0.0.1:${port}` });
  const k = kitchen({ ...c.kitchen, serverLog: `${dir}server.ndjson`, logs });
  const host = await listen(k.handle, port);
  const steps = c.client === 'py' ? await runPy(c, host.url, dir) : await runTs(c, host.url, dir);
  await sleep(300);
  await k.close();
  await host.close();
  appendFileSync(`${dir}server.ndjson`, '');
  logs.write(dir);
  const { kitchen: sel } = c;
  const o = { client: c.client, scenario: sel.scenario, params: sel.params, pat: sel.pat ? 'configured' : undefined, rateLimit: sel.rateLimit, steps, kitchen: k.events, observations: logs.observations };
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ ...o, observations: undefined, observationIds: logs.truth }, null, 2)}\n`);
  writeTruth(dir, name, o);
  console.log(`recorded ${name}: ${steps.map((s) => `${s.step}=${s.ok === false ? `ERR(${s.error?.code ?? s.error?.name})` : s.isError ? 'isError' : (s.action ?? 'ok')}`).join(' ')}`);
}

const pick = process.argv.slice(2);
for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
process.exit(0);
