// The MCP test kitchen's other fault scenarios (errors.jsonrpc_error, errors.tool_error, elicitation.approval,
// compat.sdk_v2's ticket tool, the bare 401, the rate limiter's 429, baseline slower than the client's timeout, the 400
// for a body over 64 KiB), emulated by test/real-audit56/kitchen.mjs in front of real SDK servers (v2 2.4.0 on
// 2026-07-28, 1.32.2 on 2025-11-25), with real clients behind a small application that re-calls after a failure:
// SDK 1.32.2 (ts-), v2 2.4.0 (v2-), Python mcp 2.3.0 (py-, test/real-audit56/py_app.py). Ports 8200-8257.
// Usage: node test/real-audit56/record.mjs [case...]   (needs dist/: npm run build; the py- ones /work/py-venv)
// Writes test/fixtures/real-audit56/<case>/: client.ndjson (recordingFetch; for py- the record proxy, --side client),
// proxy.ndjson (mcp-triage's recording proxy between the TypeScript client and the kitchen), server.ndjson
// (recordingHandler where the kitchen's observations sit), observed.json (what each application step returned or
// threw, and the kitchen's own events: which tool invocation did what, which requests got 401/429/400), truth.md (what
// really happened, test/real-audit56/truth.mjs).
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as ClientV2, ClientCredentialsProvider as ClientCredentialsProviderV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, startRecordingProxy } from '../../dist/capture/index.js';
import { describeError, listen, sleep } from '../helpers/loopback.mjs';
import { kitchen } from './kitchen.mjs';
import { writeTruth } from './truth.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit56/', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const run3 = (n = 2, extra = {}) => Array.from({ length: n }, (_, i) => ({ tool: 'run_configured_test_scenario', args: { message: `call ${i + 1}` }, ...extra }));
const ticket = (ticketId, closeReason) => ({ tool: 'simulate_ticket_close_mrtr', args: closeReason ? { ticketId, closeReason } : { ticketId }, tries: 1 });

// client: ts1 | v2 | py; kitchen: the selection and the host's options; calls: the application's plan.
const cases = {
  'ts-jsonrpc-default': { client: 'ts1', kitchen: { scenario: 'errors.jsonrpc_error', params: {} }, calls: run3() },
  'ts-jsonrpc-internal-2': { client: 'ts1', kitchen: { scenario: 'errors.jsonrpc_error', params: { code: -32603, message: 'Internal error', onInvocation: 2 } }, calls: run3(3) },
  'v2-jsonrpc-32000': { client: 'v2', kitchen: { scenario: 'errors.jsonrpc_error', params: { code: -32000, message: 'Server error', onInvocation: 1 } }, calls: run3() },
  'v2-jsonrpc-internal-2': { client: 'v2', kitchen: { scenario: 'errors.jsonrpc_error', params: { code: -32603, message: 'Internal error', onInvocation: 2 } }, calls: run3(3) },
  'py-jsonrpc-default': { client: 'py', kitchen: { scenario: 'errors.jsonrpc_error', params: {} }, calls: run3() },
  'py-jsonrpc-internal-2': { client: 'py', kitchen: { scenario: 'errors.jsonrpc_error', params: { code: -32603, message: 'Internal error', onInvocation: 2 } }, calls: run3(3) },
  'ts-tool-error': { client: 'ts1', kitchen: { scenario: 'errors.tool_error', params: {} }, calls: run3() },
  'v2-tool-error-2': { client: 'v2', kitchen: { scenario: 'errors.tool_error', params: { onInvocation: 2, errorMessage: 'Inventory service rejected the order' } }, calls: run3(3) },
  'py-tool-error': { client: 'py', kitchen: { scenario: 'errors.tool_error', params: {} }, calls: run3() },
  // MRTR: the v2 client answers the elicitation accept, decline, cancel (one call each); the kitchen counts every leg
  'v2-elicitation': { client: 'v2', elicit: ['accept', 'decline', 'cancel'], kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run3(3, { tries: 1 }) },
  'py-elicitation-modern': { client: 'py', mode: 'auto', elicit: ['accept', 'decline'], kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run3(2, { tries: 1 }) },
  'ts-elicitation-legacy': { client: 'ts1', kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run3(2, { tries: 1 }) },
  'py-elicitation-legacy': { client: 'py', kitchen: { scenario: 'elicitation.approval', params: {} }, calls: run3(1, { tries: 1 }) },
  'v2-ticket': { client: 'v2', elicit: ['accept', 'decline'], kitchen: { scenario: 'compat.sdk_v2', params: {} }, calls: [ticket(101, 'duplicate'), ticket(102), ticket(103)] },
  'ts-ticket-legacy': { client: 'ts1', kitchen: { scenario: 'compat.sdk_v2', params: {} }, calls: [ticket(201), ticket(201, 'resolved by customer')] },
  // the PAT check: a bare 401 with no WWW-Authenticate
  'ts-auth-missing': { client: 'ts1', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run3(1) },
  'ts-auth-provider': { client: 'ts1', authProvider: 'kitchen-pat-revoked', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run3(1) },
  // the v2 client's AuthProvider: a PAT from token(); with onUnauthorized (which cannot refresh a PAT) it retries once
  'v2-auth-token': { client: 'v2', v2Auth: 'token', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run3(1) },
  'v2-auth-token-retry': { client: 'v2', v2Auth: 'token-retry', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run3(1) },
  'v2-auth-oauth': { client: 'v2', v2Auth: 'oauth', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run3(1) },
  'v2-auth-bad': { client: 'v2', bearer: 'kitchen-pat-revoked', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run3(1) },
  'py-auth-bad': { client: 'py', bearer: 'kitchen-pat-revoked', kitchen: { scenario: 'baseline', params: {}, pat: 'kitchen-pat-good' }, calls: run3(1) },
  // the rate limiter (120/min in the kitchen; here 4 per 1.5 s so a short run crosses it), the app pausing 0.4 s
  'ts-rate-limit': { client: 'ts1', pause: 400, kitchen: { scenario: 'baseline', params: {}, rateLimit: { limit: 4, windowMs: 1500 } }, calls: run3(3) },
  'v2-rate-limit': { client: 'v2', pause: 800, kitchen: { scenario: 'baseline', params: {}, rateLimit: { limit: 3, windowMs: 1500 } }, calls: run3(3) },
  'py-rate-limit': { client: 'py', pause: 400, kitchen: { scenario: 'baseline', params: {}, rateLimit: { limit: 4, windowMs: 1500 } }, calls: run3(3) },
  // baseline slower than the client's request timeout: the first try times out, the app re-calls with a longer one
  'ts-timeout': { client: 'ts1', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1500 } }, calls: [{ ...run3(1)[0], timeout: 600, retryTimeout: 5000 }] },
  'v2-timeout': { client: 'v2', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1500 } }, calls: [{ ...run3(1)[0], timeout: 600, retryTimeout: 5000 }] },
  'py-timeout': { client: 'py', kitchen: { scenario: 'baseline', params: { slowReportDelayMs: 1500 } }, calls: [{ ...run3(1)[0], timeout: 0.6, retryTimeout: 5 }] },
  // McpProtocolObservationMiddleware: a body over 64 KiB gets 400 with a ParseError envelope, id null
  'ts-body-too-large': { client: 'ts1', kitchen: { scenario: 'baseline', params: {} }, calls: [{ tool: 'run_configured_test_scenario', args: { message: 'x'.repeat(70_000) }, tries: 1 }, run3(1)[0]] },
};

async function runTs(c, url, dir, events) {
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
      let authProvider;
      if (c.v2Auth === 'token') authProvider = { token: async () => 'kitchen-pat-revoked' };
      if (c.v2Auth === 'token-retry') authProvider = { token: async () => 'kitchen-pat-revoked', onUnauthorized: async () => { steps.push({ step: 'onUnauthorized' }); } };
      if (c.v2Auth === 'oauth') {
        authProvider = new ClientCredentialsProviderV2({ clientId: 'kitchen-app', clientSecret: 'kitchen-app-secret' });
        authProvider.saveTokens({ access_token: 'kitchen-pat-revoked', token_type: 'Bearer' });
      }
      return { cl, t: new TransportV2(new URL('/mcp', url), { fetch: f, authProvider, requestInit: headers ? { headers } : undefined }) };
    }
    const authProvider = c.authProvider ? new ClientCredentialsProvider({ clientId: 'kitchen-app', clientSecret: 'kitchen-app-secret' }) : undefined;
    authProvider?.saveTokens({ access_token: c.authProvider, token_type: 'Bearer' });
    return { cl: new Client({ name: 'kitchen-app-ts1', version: '1.0.0' }), t: new StreamableHTTPClientTransport(new URL('/mcp', url), { fetch: f, authProvider, requestInit: headers ? { headers } : undefined }) };
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
        try {
          // 1.x: callTool(params, resultSchema, options); v2: callTool(params, options)
          const opts = timeout ? { timeout } : undefined;
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

async function runPy(c, url) {
  const plan = {
    mode: c.mode ?? 'legacy',
    bearer: c.bearer ?? null,
    pause: (c.pause ?? 200) / 1000,
    elicit: c.elicit ?? [],
    calls: c.calls.map((x) => ({ tool: x.tool, args: x.args, tries: x.tries ?? 3, timeout: x.timeout ?? null })),
  };
  // py_app.py re-calls with the same timeout; the timeout case wants the app's longer second try
  if (c.calls.some((x) => x.retryTimeout)) plan.calls = c.calls.flatMap((x) => [{ tool: x.tool, args: x.args, tries: 1, timeout: x.timeout }, { tool: x.tool, args: x.args, tries: 1, timeout: x.retryTimeout }]);
  const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('py_app.py', import.meta.url)), `${url}/mcp`, JSON.stringify(plan)], { timeout: 90_000 });
  return JSON.parse(stdout);
}

async function record(name, c, i) {
  // each case its own ports (8200 + 2i, +1): a client's pooled keep-alive socket to the last case's proxy is not reused
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const k = kitchen({ ...c.kitchen, serverLog: `${dir}server.ndjson` });
  const host = await listen(k.handle, 8200 + 2 * i);
  // the TypeScript clients go through the recording proxy (proxy.ndjson); the Python one's view is that proxy's record
  const proxy = await startRecordingProxy({ listen: `127.0.0.1:${8201 + 2 * i}`, target: host.url, out: c.client === 'py' ? `${dir}client.ndjson` : `${dir}proxy.ndjson`, ...(c.client === 'py' ? { side: 'client' } : {}) });
  const steps = c.client === 'py' ? await runPy(c, proxy.url) : await runTs(c, proxy.url, dir, k.events);
  await sleep(300);
  await proxy.close();
  await k.close();
  await host.close();
  // nothing reached the observed layer (every request got 401): the server's log is there, empty
  appendFileSync(`${dir}server.ndjson`, '');
  const { kitchen: sel } = c;
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ client: c.client, scenario: sel.scenario, params: sel.params, pat: sel.pat ? 'configured' : undefined, rateLimit: sel.rateLimit, steps, kitchen: k.events }, null, 2)}\n`);
  writeTruth(dir, name);
  console.log(`recorded ${name}: ${steps.map((s) => `${s.step}=${s.ok === false ? `ERR(${s.error?.code ?? s.error?.name})` : s.isError ? 'isError' : (s.action ?? 'ok')}`).join(' ')}`);
}

const pick = process.argv.slice(2);
for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
process.exit(0);
