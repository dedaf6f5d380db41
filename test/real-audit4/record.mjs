// Fourth audit round, SDK 1.32.2 client and server on 127.0.0.1, a hop between them that changes what the server
// answered to a tools/call. Usage: node test/real-audit4/record.mjs [scenario...]  (needs dist/: npm run build)
// Writes test/fixtures/real-audit4/<scenario>/{client,server}.ndjson and observed.json (what the SDK caller saw).
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingFetch, recordingHandler } from '../../dist/capture/index.js';
import { listen, sleep, sessionHandler, stopAfter } from '../helpers/loopback.mjs';
import { callsOnly, startAnswerHop } from '../helpers/answer-hop.mjs';
import { scenarioFilesIn, makeObserver, writeObserved, describeError } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit4/', import.meta.url));
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildServer() {
  const server = new McpServer({ name: 'audit4-server', version: '1.0.0' });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    await sleep(20);
    return text(`invoice for order ${orderId} sent`);
  });
  return server;
}

// SSE body helpers: the events of a body, and a body from events
const sseEvents = (body) => body.split('\n\n').filter((e) => e.trim());
const dataOf = (ev) => ev.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');

const scenarios = {
  'empty-200-json': {
    // JSON response mode; the hop answers the first tools/call 200 application/json with an empty body (the server ran it)
    json: true,
    decide: ({ n }) => (n === 1 ? { transform: ({ headers }) => ({ status: 200, headers, body: '' }) } : {}),
    async run(t) {
      await t.step('send_invoice 1001 (hop empties the 200 body)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, undefined, { timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'duplicate-response-sse': {
    // SSE; the hop writes the result event twice, the second with other content
    decide: ({ n }) =>
      n === 1
        ? {
            transform: ({ status, headers, body }) => {
              const evs = sseEvents(body);
              const last = evs[evs.length - 1];
              const second = last.replace(/id: [^\n]*\n/, '').replace('invoice for order 1001 sent', 'invoice for order 1001 FAILED');
              return { status, headers, body: body + second + '\n\n' };
            },
          }
        : {},
    async run(t) {
      await t.step('send_invoice 1001 (result event sent twice, the second different)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'batch-of-one-response': {
    // JSON response mode; the hop wraps the single response in an array (a batch of one)
    json: true,
    decide: ({ n }) => (n === 1 ? { transform: ({ status, headers, body }) => ({ status, headers, body: `[${body}]` }) } : {}),
    async run(t) {
      await t.step('lookup_order 1001 (answered as a batch of one)', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('lookup_order 1002 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },
  'string-id-response': {
    // JSON response mode; the hop turns the response's numeric id into a string ("2" for 2)
    json: true,
    decide: ({ n }) => (n === 1 ? { transform: ({ status, headers, body }) => ({ status, headers, body: body.replace(/"id":(\d+)/, '"id":"$1"') }) } : {}),
    async run(t) {
      await t.step('lookup_order 1001 (response id a string)', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, { timeout: 1500 }));
      await t.step('lookup_order 1002 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },
  'multiline-sse-data': {
    // SSE; the hop pretty-prints the result's JSON over several data: lines (valid SSE, the lines join with \n)
    decide: ({ n }) =>
      n === 1
        ? {
            transform: ({ status, headers, body }) => ({
              status,
              headers,
              body: sseEvents(body)
                .map((ev) => {
                  const head = ev.split('\n').filter((l) => !l.startsWith('data:'));
                  const pretty = JSON.stringify(JSON.parse(dataOf(ev)), null, 2);
                  return [...head, ...pretty.split('\n').map((l) => `data: ${l}`)].join('\n') + '\n\n';
                })
                .join(''),
            }),
          }
        : {},
    async run(t) {
      await t.step('lookup_order 1001 (result over several data: lines)', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('lookup_order 1002 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },
  'html-in-sse-after-head': {
    // SSE; the hop sends the 200 text/event-stream head, then an nginx 502 page as the body, and ends (upstream lost)
    decide: ({ n }) => (n === 1 ? { htmlAfterHead: true } : {}),
    async run(t) {
      await t.step('send_invoice 1001 (502 page inside the 200 event stream)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, undefined, { timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
  'error-then-result-same-id': {
    // SSE; the hop puts a JSON-RPC error for the same id before the server's result (two answers, the first an error)
    decide: ({ n }) =>
      n === 1
        ? {
            transform: ({ status, headers, body }) => {
              const evs = sseEvents(body);
              const id = JSON.parse(dataOf(evs[evs.length - 1])).id;
              const err = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'upstream timeout' } })}\n\n`;
              return { status, headers, body: err + body };
            },
          }
        : {},
    async run(t) {
      await t.step('send_invoice 1001 (an error, then the result, same id)', () => t.c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
      await t.step('lookup_order 1001 after', () => t.c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
};

async function runScenario(name, spec) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  delete files.proxy;
  const { observed, step } = makeObserver();
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer, options: () => ({ enableJsonResponse: !!spec.json }) });
  const server = await listen(recordingHandler(handle, { out: files.server }));
  const hop = await startAnswerHop(server.url, callsOnly(spec.decide));
  const f = recordingFetch({ out: files.client });
  const c = new Client({ name: 'audit4-client', version: '1.0.0' });
  c.onerror = (e) => observed.onerror.push(describeError(e));
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', hop.url), { fetch: f, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } }));
    await step('tools/list', () => c.listTools());
    await spec.run({ c, step });
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    await c.close().catch(() => {});
    await sleep(150);
    for (const tr of transports.values()) await tr.close().catch(() => {});
    await hop.close();
    await server.close();
    await f.close?.();
  }
  writeObserved(dir, observed);
  for (const x of ['proxy.ndjson']) (await import('node:fs')).rmSync(`${dir}/${x}`, { force: true });
  process.stderr.write(`recorded ${name}\n`);
}

stopAfter(120_000);
const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) if (!only.length || only.includes(name)) await runScenario(name, spec);
process.exit(0);
