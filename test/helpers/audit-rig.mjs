// Shared by the npm-peer audits' recorders (test/real-audit11 to test/real-audit14, test/real-xsdk-resume): the SDK 1.32.2 and v2 2.4.0 modules, the orders McpServer, how observed.json cleans what an app got or threw, the rig of five views around one incident, and the resumption fault plan.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { listen, restartableServer, sessionHandler, sleep, startFaultHop, startHarProxy, startRecordProxy } from './loopback.mjs';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler, startRecordingProxy } = await import(`${R}/dist/capture/index.js`);
export const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
export const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
export const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = await import('@modelcontextprotocol/client');
export const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
export const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
export const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
export const { z } = await import(`${R}/node_modules/zod/index.js`);

export const text = (t) => ({ content: [{ type: 'text', text: t }] });
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ports = /127\.0\.0\.1:\d+/g;
/** A text as observed.json keeps it: session ids and ports, which change from run to run, replaced. */
export const clean = (s) => String(s).replace(uuid, '<session>').replace(ports, '127.0.0.1:<port>');
/** What an app caught: the error's class, cleaned message, and its code and status when it has them. */
export const errOf = (e) => ({ name: e?.constructor?.name ?? typeof e, message: clean(e?.message ?? e).slice(0, 300), ...(e?.code !== undefined ? { code: e.code } : {}), ...(e?.status !== undefined ? { status: e.status } : {}) });
/** A CallToolResult cut to whether it is an error and its text; anything else as it is. */
export const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: x.content?.map((b) => b.text).join(' ').slice(0, 200) } : x);

/**
 * The orders server: SDK 1.32.2 McpServer, one per session. ran[] lists every tool body that ran (the server's own
 * truth). `lookupReadOnly`: lookup_order is annotated readOnlyHint (else no tool is annotated).
 */
export function ordersServer(ran, { lookupReadOnly = false } = {}) {
  return () => {
    const s = new McpServer({ name: 'orders', version: '1.0.0' });
    s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, ...(lookupReadOnly ? { annotations: { readOnlyHint: true } } : {}) }, async ({ orderId }) => { ran.push(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
    s.registerTool('send_invoice', { description: 'Send the invoice of an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran.push(`send_invoice ${orderId}`); return text(`invoice for ${orderId} sent`); });
    s.registerTool('crash', { description: 'Always throws', inputSchema: {} }, async () => { ran.push('crash'); throw new Error('database connection refused'); });
    s.registerTool('slow_report', { description: 'A slow report with progress', inputSchema: { steps: z.number(), stepMs: z.number() } }, async ({ steps, stepMs }, extra) => {
      ran.push(`slow_report ${steps}x${stepMs}`);
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs);
        if (extra.signal.aborted) { ran.push('slow_report aborted'); return text('aborted'); }
        if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: i, total: steps } });
      }
      ran.push('slow_report done');
      return text(`report of ${steps} steps`);
    });
    return s;
  };
}

/**
 * The rig of one incident, written to test/fixtures/<folder>/<name>/: the server (the orders server, or buildServer's,
 * behind recordingHandler: server.ndjson; or `external`, a server in a process of its own, behind a recording proxy with
 * side "server") <- `mcp-triage record` (proxy.ndjson) <- a HAR-lines proxy (capture.har.ndjson) <- [a fault hop, with
 * `fault`] <- the client, whose fetch is recordingFetch (client.ndjson; with clientProxy, a recording proxy with side
 * "client", for a client in another process). `step` runs one step of the app and notes what it got (through okOf) or
 * threw; `done` closes everything and writes observed.json (the steps, the tool bodies that ran or the lines an external
 * server logged, what the hop did). `settleMs`: how long done waits for the last records; `path`: the MCP endpoint's.
 */
export async function auditRig(folder, name, { fault, external, buildServer, Transport = StreamableHTTPServerTransport, lookupReadOnly = false, okOf = (r) => r, settleMs = 200, path = '/mcp', clientProxy = false } = {}) {
  const d = `${R}/test/fixtures/${folder}/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  let ran = [];
  let server;
  let serverView = null;
  if (external) {
    // a server in a process of its own; its view is a recording proxy right in front of it (side: server)
    server = await external();
    ran = server.ran;
    serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: `${d}/server.ndjson`, side: 'server' });
  } else {
    const h = sessionHandler({ Transport, isInitializeRequest: types.isInitializeRequest, buildServer: buildServer ? buildServer(ran) : ordersServer(ran, { lookupReadOnly }) });
    const listening = await listen(recordingHandler(h.handle, { out: `${d}/server.ndjson` }));
    server = restartableServer(listening, h.transports);
  }
  const rp = await startRecordProxy(serverView?.url ?? server.url, `${d}/proxy.ndjson`);
  const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const hopLog = [];
  const hop = fault ? await startFaultHop(har.url, (x) => { const a = fault(x) ?? {}; hopLog.push({ request: `${x.req.method} ${x.rpcMethod ?? ''}${x.rpc?.params?.name ? ` ${x.rpc.params.name}` : ''}`.trim(), n: x.n, action: Object.keys(a)[0] ?? 'forward' }); return a; }) : null;
  // a client in another process (Python) is recorded by a recording proxy with side "client" right in front of it, not by recordingFetch
  const cp = clientProxy ? await startRecordingProxy({ listen: '127.0.0.1:0', target: (hop ?? har).url, out: `${d}/client.ndjson`, side: 'client' }) : null;
  const url = `${(cp ?? hop ?? har).url}${path}`;
  const origFetch = globalThis.fetch;
  const rf = cp ? null : recordingFetch({ out: `${d}/client.ndjson`, fetch: origFetch });
  const observed = [];
  const step = async (label, fn) => {
    const t0 = Date.now();
    try { const r = await fn(); observed.push({ label, ok: okOf(r) ?? null, ms: Date.now() - t0 }); return r; }
    catch (e) { observed.push({ label, error: errOf(e), ms: Date.now() - t0 }); return undefined; }
  };
  const appName = `${folder.replace(/^real-/, '')}-app`;
  /**
   * The repository's SDK 1.32.2 client (or, with v2, the v2 client 2.4.0 with version negotiation), its fetch
   * recordingFetch, connected. `roots` declares the roots capability and answers roots/list with them. `negotiate: false`:
   * the v2 client without version negotiation (it stays on the 2025 line: a session and SSE event ids).
   */
  const sdkClient = async ({ v2 = false, negotiate = true, clientName = appName, roots } = {}) => {
    const caps = roots ? { roots: { listChanged: false } } : {};
    const c = v2 ? new ClientV2({ name: clientName, version: '1.0.0' }, { capabilities: caps, ...(negotiate ? { versionNegotiation: { mode: 'auto' } } : {}) }) : new Client({ name: clientName, version: '1.0.0' }, { capabilities: caps });
    c.onerror = (e) => observed.push({ onerror: clean(e?.message ?? e).slice(0, 200) });
    if (roots) c.setRequestHandler(types.ListRootsRequestSchema, async () => { observed.push({ rootsListAsked: true }); return { roots }; });
    const opts = { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } };
    const t = v2 ? new TransportV2(new URL(url), opts) : new StreamableHTTPClientTransport(new URL(url), opts);
    await c.connect(t);
    c.transportRef = t;
    return c;
  };
  return { d, url, rf, origFetch, server, step, sdkClient, observed, note: (n) => observed.push(n), async done(closers = []) {
    for (const c of closers) await Promise.resolve().then(c).catch(() => {});
    await sleep(settleMs);
    globalThis.fetch = origFetch;
    if (cp) await cp.close();
    if (hop) await hop.close();
    await har.close(); await rp.stop(); if (serverView) await serverView.close(); await server.close(); rf?.close?.();
    for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) appendFileSync(`${d}/${f}`, ''); // a view that saw nothing is an empty file
    if (ran) observed.push({ serverRan: ran });
    if (server.log?.length) observed.push({ serverLog: server.log });
    if (hop) observed.push({ hop: hopLog });
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

const isResume = (x) => x.req.method === 'GET' && x.req.headers['last-event-id'] !== undefined;
const isCall = (x) => x.req.method === 'POST' && x.rpcMethod === 'tools/call';
/**
 * A resumption fault plan for the rig's hop: the call's POST stream cut after `call` events (a number; Infinity: just
 * before the response event), then what each resumption GET (Last-Event-ID) gets in turn: 'pass', { cut: n } (cut after
 * n events), a status (refused by the hop), 'restart' (server().restart() as it arrives, then forwarded).
 */
export const resumePlan = ({ call, resumes = [] }, server) => {
  let k = 0;
  return (x) => {
    if (isCall(x)) return { cutEvents: call === Infinity ? 1e9 : call };
    if (!isResume(x)) return {};
    const r = resumes[k++] ?? 'pass';
    if (r === 'pass') return {};
    if (r === 'restart') return { before: server().restart() };
    if (typeof r === 'object') return { cutEvents: r.cut };
    return { respond: r, headers: { 'content-type': 'text/plain' }, body: r === 503 ? 'Service Unavailable' : 'Not Found' };
  };
};
