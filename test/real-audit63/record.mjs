// The test kitchen's unregistered catalog, auth and elicitation scenarios (test/real-audit63/kitchen63.mjs, in front of
// real SDK servers: v2 2.4.0 on 2026-07-28, 1.32.2 on 2025-11-25), recorded with real clients behind a judge's small
// application (lists every page of tools or resources, waits, calls a tool and re-calls once after a failure, answers
// elicitations, connects again after a refused connect): SDK 1.32.2 (ts-), v2 2.4.0 with auto negotiation (v2-), Python
// mcp 2.3.0 (py-, test/real-audit63/py_app.py). Ports 8900-8999.
// Usage: node test/real-audit63/record.mjs [case...]   (needs dist/: npm run build; the py- ones /work/py-venv)
// Writes test/fixtures/real-audit63/<case>/: client.ndjson (recordingFetch; for py- the record proxy, --side client, and
// client.log, the app's DEBUG log), proxy.ndjson (the recording proxy between the TypeScript client and the kitchen),
// server.ndjson (recordingHandler where the kitchen's observations sit), observed.json (each app step, the kitchen's
// events) and truth.md (test/real-audit63/truth.mjs).
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, startRecordingProxy } from '../../dist/capture/index.js';
import { describeError, listen, sleep } from '../helpers/loopback.mjs';
import { kitchen63 } from './kitchen63.mjs';
import { writeTruth } from './truth.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit63/', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PAT = 'kitchen-pat-good';
const run = (message, tries = 2) => ({ call: 'run_configured_test_scenario', args: { message }, tries });
const listThenCall = (facet) => [{ list: 'tools' }, { list: facet }, run('after listing')];

// client: ts1 | v2 | py; kitchen: the selection; steps: the application's plan
const cases = {
  // catalog.pagination (defaults: resources, 10 items, 3 a page): four pages, the last with "nextCursor": null
  'ts-pagination': { client: 'ts1', kitchen: { scenario: 'catalog.pagination' }, steps: listThenCall('resources') },
  'v2-pagination': { client: 'v2', kitchen: { scenario: 'catalog.pagination' }, steps: listThenCall('resources') },
  'py-pagination': { client: 'py', kitchen: { scenario: 'catalog.pagination' }, steps: listThenCall('resources') },
  'py-pagination-modern': { client: 'py', mode: 'auto', kitchen: { scenario: 'catalog.pagination' }, steps: listThenCall('resources') },
  'py-pagination-prompts': { client: 'py', kitchen: { scenario: 'catalog.pagination', params: { facet: 'prompts', totalItems: 5, pageSize: 2 } }, steps: listThenCall('prompts') },
  // error_after_page_n: -32603 "Internal error after page" from page 2 on; the app lists again once
  'ts-pagination-error': { client: 'ts1', kitchen: { scenario: 'catalog.pagination', params: { fault: 'error_after_page_n', faultAtPage: 2 } }, steps: [{ list: 'resources' }, { list: 'resources' }, run('after the failed listing')] },
  'py-pagination-error': { client: 'py', kitchen: { scenario: 'catalog.pagination', params: { fault: 'error_after_page_n', faultAtPage: 2 } }, steps: [{ list: 'resources' }, run('after the failed listing')] },
  // cursor_loop: nextCursor "loop" on every page; the app stops at its own limit (6 pages)
  'py-pagination-loop': { client: 'py', kitchen: { scenario: 'catalog.pagination', params: { fault: 'cursor_loop', totalItems: 30 } }, steps: [{ list: 'resources' }, run('after the loop')] },
  // duplicate_page: page 2 repeats page 1 with "nextCursor": null (the Python client takes null; SDK 1.32.2 refuses it)
  'py-pagination-duplicate': { client: 'py', kitchen: { scenario: 'catalog.pagination', params: { fault: 'duplicate_page' } }, steps: [{ list: 'resources' }, run('after the repeated page')] },
  // catalog.facet_unavailable (defaults: resources): -32601 "Method not found" at the wire
  'ts-facet-unavailable': { client: 'ts1', kitchen: { scenario: 'catalog.facet_unavailable' }, steps: listThenCall('resources') },
  'py-facet-unavailable': { client: 'py', kitchen: { scenario: 'catalog.facet_unavailable' }, steps: listThenCall('resources') },
  'v2-facet-unavailable': { client: 'v2', kitchen: { scenario: 'catalog.facet_unavailable', params: { unavailableFacets: ['resources', 'prompts'] } }, steps: [{ list: 'tools' }, { list: 'resources' }, { list: 'prompts' }, run('after the listings')] },
  // catalog.mutation: extra_tool added at once, removed after 1.2 s; the app calls it before and after, and re-lists
  'ts-mutation-remove': { client: 'ts1', kitchen: { scenario: 'catalog.mutation', params: { mutations: [{ action: 'add', toolName: 'extra_tool', afterMs: 0 }, { action: 'remove', toolName: 'extra_tool', afterMs: 1200 }] } }, steps: [{ wait: 200 }, { list: 'tools' }, { call: 'extra_tool', args: {} }, { wait: 1300 }, { call: 'extra_tool', args: {} }, { list: 'tools' }, run('after the catalog changed')] },
  'v2-mutation-remove': { client: 'v2', kitchen: { scenario: 'catalog.mutation', params: { mutations: [{ action: 'add', toolName: 'extra_tool', afterMs: 0 }, { action: 'remove', toolName: 'extra_tool', afterMs: 1200 }] } }, steps: [{ wait: 200 }, { list: 'tools' }, { call: 'extra_tool', args: {} }, { wait: 1300 }, { call: 'extra_tool', args: {} }, { list: 'tools' }, run('after the catalog changed')] },
  'py-mutation-rename': { client: 'py', kitchen: { scenario: 'catalog.mutation', params: { mutations: [{ action: 'add', toolName: 'extra_tool', afterMs: 0 }, { action: 'rename', toolName: 'extra_tool', newName: 'renamed_tool', afterMs: 1200 }] } }, steps: [{ wait: 200 }, { list: 'tools' }, { call: 'extra_tool', args: {} }, { wait: 1300 }, { call: 'extra_tool', args: {} }, { list: 'tools' }, { call: 'renamed_tool', args: {} }] },
  'ts-mutation-default': { client: 'ts1', kitchen: { scenario: 'catalog.mutation', params: { mutations: [{ action: 'add', toolName: 'extra_tool', afterMs: 1000, listChangedNotifications: 1 }] } }, steps: [{ list: 'tools' }, { wait: 1200 }, { list: 'tools' }, { call: 'extra_tool', args: {} }] },
  // near misses: a tool called before any listing showed it (added after 1 s: unknown, never listed); SDK 1.32.2's own
  // answer to an unknown tool (an isError result, not the kitchen's -32602) after it vanished
  'ts-mutation-unlisted': { client: 'ts1', kitchen: { scenario: 'catalog.mutation', params: { mutations: [{ action: 'add', toolName: 'extra_tool', afterMs: 1000 }] } }, steps: [{ call: 'extra_tool', args: {}, tries: 1 }, { list: 'tools' }, run('unlisted')] },
  'ts-mutation-sdk1-server': { client: 'ts1', kitchen: { scenario: 'catalog.mutation', sdkUnknownTool: true, params: { mutations: [{ action: 'add', toolName: 'extra_tool', afterMs: 0 }, { action: 'remove', toolName: 'extra_tool', afterMs: 1200 }] } }, steps: [{ wait: 200 }, { list: 'tools' }, { call: 'extra_tool', args: {} }, { wait: 1300 }, { call: 'extra_tool', args: {}, tries: 1 }] },
  // auth.token_lifecycle: a bare 401 from the scenario layer (inside the observations) for the first POST(s)
  'ts-token-lifecycle': { client: 'ts1', bearer: PAT, kitchen: { scenario: 'auth.token_lifecycle', pat: PAT }, steps: [{ list: 'tools' }, run('after the 401')] },
  'v2-token-lifecycle': { client: 'v2', bearer: PAT, kitchen: { scenario: 'auth.token_lifecycle', pat: PAT }, steps: [{ list: 'tools' }, run('after the 401')] },
  'v2-token-lifecycle-retry': { client: 'v2', v2Auth: 'token-retry', kitchen: { scenario: 'auth.token_lifecycle', pat: PAT }, steps: [{ list: 'tools' }, run('after the 401')] },
  'py-token-lifecycle': { client: 'py', bearer: PAT, kitchen: { scenario: 'auth.token_lifecycle', pat: PAT }, steps: [{ list: 'tools' }, run('after the 401')] },
  'ts-token-lifecycle-3': { client: 'ts1', bearer: PAT, kitchen: { scenario: 'auth.token_lifecycle', pat: PAT, params: { rejectUntilInvocation: 3 } }, steps: [{ list: 'tools' }, run('after the 401s')] },
  'py-token-forever': { client: 'py', bearer: PAT, kitchen: { scenario: 'auth.token_lifecycle', pat: PAT, params: { rejectForever: true } }, steps: [{ list: 'tools' }, run('never')] },
  // elicitation.decline: a form elicitation (one optional "confirm" field) answered decline, cancel, accept
  'v2-decline': { client: 'v2', elicit: ['decline', 'cancel', 'accept'], kitchen: { scenario: 'elicitation.decline' }, steps: [{ list: 'tools' }, run('decline', 1), run('cancel', 1), run('accept', 1)] },
  'py-decline-modern': { client: 'py', mode: 'auto', elicit: ['decline', 'cancel'], kitchen: { scenario: 'elicitation.decline' }, steps: [{ list: 'tools' }, run('decline', 1), run('cancel', 1)] },
  'ts-decline-legacy': { client: 'ts1', kitchen: { scenario: 'elicitation.decline' }, steps: [{ list: 'tools' }, run('legacy', 1)] },
  // elicitation.url_mode: a URL elicitation (mode "url", no elicitationId) inside input_required; legacy: "unsupported"
  'v2-url-mode': { client: 'v2', elicit: ['accept', 'decline'], kitchen: { scenario: 'elicitation.url_mode' }, steps: [{ list: 'tools' }, run('accept', 1), run('decline', 1)] },
  'py-url-mode-modern': { client: 'py', mode: 'auto', elicit: ['accept', 'cancel'], kitchen: { scenario: 'elicitation.url_mode' }, steps: [{ list: 'tools' }, run('accept', 1), run('cancel', 1)] },
  'py-url-mode-legacy': { client: 'py', kitchen: { scenario: 'elicitation.url_mode' }, steps: [{ list: 'tools' }, run('legacy', 1)] },
};

async function runTs(c, url, dir) {
  const f = recordingFetch({ out: `${dir}client.ndjson`, client: `kitchen-app-${c.client}@1.0.0` });
  const steps = [];
  const answers = [...(c.elicit ?? [])];
  const headers = c.bearer ? { authorization: `Bearer ${c.bearer}` } : undefined;
  const make = () => {
    if (c.client === 'v2') {
      const cl = new ClientV2({ name: 'kitchen-app-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {}, url: {} } } });
      cl.setRequestHandler('elicitation/create', async (req) => {
        const action = answers.shift() ?? 'cancel';
        steps.push({ step: 'elicitation', action, mode: req.params?.mode ?? 'form' });
        return action === 'accept' ? (req.params?.mode === 'url' ? { action } : { action, content: { confirm: 'confirm' } }) : { action };
      });
      let authProvider;
      if (c.v2Auth === 'token-retry') authProvider = { token: async () => PAT, onUnauthorized: async () => void steps.push({ step: 'onUnauthorized' }) };
      return { cl, t: new TransportV2(new URL('/mcp', url), { fetch: f, authProvider, requestInit: headers ? { headers } : undefined }) };
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
      await sleep(200);
    }
  }
  if (!client) return steps;
  let n = 0;
  for (const s of c.steps) {
    if (s.wait) await sleep(s.wait);
    else if (s.list) {
      const fn = { tools: (p) => client.listTools(p), resources: (p) => client.listResources(p), prompts: (p) => client.listPrompts(p) }[s.list];
      let cursor;
      for (let page = 1; page <= (c.maxPages ?? 6); page++) {
        try {
          const r = await fn(cursor === undefined ? undefined : { cursor });
          const items = r[s.list].map((x) => x.name);
          steps.push({ step: `list ${s.list} page ${page}`, ok: true, items, nextCursor: r.nextCursor ?? null });
          cursor = r.nextCursor;
          if (!cursor) break;
        } catch (err) {
          steps.push({ step: `list ${s.list} page ${page}`, ok: false, error: describeError(err) });
          break;
        }
      }
    } else if (s.call) {
      n++;
      for (let k = 1; k <= (s.tries ?? 2); k++) {
        try {
          const r = await client.callTool({ name: s.call, arguments: s.args });
          steps.push({ step: `call ${n} try ${k}`, tool: s.call, ok: true, isError: r.isError === true, text: String(r.content?.[0]?.text ?? '').slice(0, 300) });
          break;
        } catch (err) {
          steps.push({ step: `call ${n} try ${k}`, tool: s.call, ok: false, error: describeError(err) });
          await sleep(200);
        }
      }
    }
  }
  await client.close();
  return steps;
}

async function runPy(c, url, dir) {
  const plan = { mode: c.mode ?? 'legacy', bearer: c.bearer ?? null, elicit: c.elicit ?? [], steps: c.steps, maxPages: c.maxPages ?? 6 };
  const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('py_app.py', import.meta.url)), `${url}/mcp`, JSON.stringify(plan), `${dir}client.log`], { timeout: 90_000 });
  return JSON.parse(stdout);
}

async function record(name, c, i) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const k = kitchen63({ ...c.kitchen, serverLog: `${dir}server.ndjson` });
  const host = await listen(k.handle, 8900 + 2 * i);
  const proxy = await startRecordingProxy({ listen: `127.0.0.1:${8901 + 2 * i}`, target: host.url, out: c.client === 'py' ? `${dir}client.ndjson` : `${dir}proxy.ndjson`, ...(c.client === 'py' ? { side: 'client' } : {}) });
  const steps = c.client === 'py' ? await runPy(c, proxy.url, dir) : await runTs(c, proxy.url, dir);
  await sleep(300);
  await proxy.close();
  await k.close();
  await host.close();
  appendFileSync(`${dir}server.ndjson`, '');
  const sel = c.kitchen;
  writeFileSync(`${dir}observed.json`, `${JSON.stringify({ client: c.client, scenario: sel.scenario, params: sel.params ?? {}, pat: sel.pat ? 'configured' : undefined, plan: c.steps, elicit: c.elicit, steps, kitchen: k.events() }, null, 2)}\n`);
  writeTruth(dir, name);
  console.log(`recorded ${name}: ${steps.map((s) => `${s.step}=${s.ok === false ? `ERR(${s.error?.code ?? s.error?.name})` : s.isError ? 'isError' : (s.action ?? (s.items ? `[${s.items.length}]${s.nextCursor ? '+' : ''}` : 'ok'))}`).join(' ')}`);
}

const pick = process.argv.slice(2);
for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
process.exit(0);
