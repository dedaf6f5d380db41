// Tenth audit, part C (beyond tools/call, the Python server and the v2 packages): the Python SDK 2.3.0 MCPServer with the
// TypeScript SDK 1.32.2 client, and the v2 client and McpServer 2.4.0, recorded three ways (recordingFetch, the record
// proxy and a HAR-lines proxy; recordingHandler too for the v2 server): resources and prompts refused or failing,
// subscriptions and logging/setLevel a server does not offer, a log line "error" before a success, structured output, pings.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { auditFixtures, type ViewSide } from '../helpers/recordings.js';

const { f, run, observed } = auditFixtures('real-audit10c');
type Result = Awaited<ReturnType<typeof analyze>>;
type Side = ViewSide;
/** The Python server's scenarios: its own view is the record proxy's in front of it (side server). */
const PY_VIEWS: { name: string; inputs: [string, Side?][] }[] = [
  { name: 'client', inputs: [['client.ndjson', 'client']] },
  { name: 'proxy as server', inputs: [['proxy.ndjson', 'server']] },
  { name: 'client with the proxy as server', inputs: [['client.ndjson', 'client'], ['proxy.ndjson', 'server']] },
  { name: 'proxy', inputs: [['proxy.ndjson']] },
  { name: 'har', inputs: [['capture.har.ndjson']] },
];
/** The v2 server's: recordingHandler around createMcpHandler. */
const V2_VIEWS: { name: string; inputs: [string, Side?][] }[] = [
  { name: 'client', inputs: [['client.ndjson', 'client']] },
  { name: 'server', inputs: [['server.ndjson', 'server']] },
  { name: 'both', inputs: [['client.ndjson', 'client'], ['server.ndjson', 'server']] },
  { name: 'proxy', inputs: [['proxy.ndjson']] },
  { name: 'har', inputs: [['capture.har.ndjson']] },
];
const step = (c: string, label: string) => observed(c).find((x) => x.label === label)!;
const codes = (r: Result) => [...r.attempts.flatMap((a) => a.findings.map((x) => `${a.tool ?? a.method}#${a.attempt}:${x.code}`)), ...r.findings.map((x) => `session:${x.code}`)].sort();
const rows = (r: Result) => r.attempts.map((a) => `${a.method}${a.tool ? ` ${a.tool}` : ''} ${a.target ?? '-'} ${a.outcome} ${a.detail?.errorCode ?? ''}`.trim());
/** A copy of a fixture file with one text replaced (which must occur). */
function edited(c: string, file: string, from: string, to: string): string {
  const orig = readFileSync(f(c, file), 'utf8');
  const text = orig.replaceAll(from, to);
  expect(text).not.toBe(orig);
  const out = join(mkdtempSync(join(tmpdir(), 'mcpt-a10c-')), file);
  writeFileSync(out, text);
  return out;
}

const NO_SUBSCRIBE = "the server's initialize had announced no resource subscriptions (no subscribe: true in its resources capability): the server does not offer resources/subscribe, and the client sent it all the same";
const LOGGED = 'the server logged a message at level "error" on the request\'s stream (logger "db"): "replica lag 12s for berlin, falling back to primary"; a log message is not the request\'s answer and does not decide its outcome';
const NO_LOGGING = "the server's initialize had announced no logging capability: the server does not offer logging/setLevel, and the client sent it all the same";

describe('the Python MCPServer\'s resources: an unknown URI, a template that raises, both re-read; resources/subscribe it does not offer', () => {
  const C = 'py-resources';

  it('what happened: -32602 "Unknown resource" (not the spec\'s -32002), -32603 "Error creating resource from template" (the template ran twice, then for intro), -32601 for resources/subscribe', () => {
    expect(step(C, 'read missing #1')).toEqual({ label: 'read missing #1', error: 'McpError -32602 MCP error -32602: Unknown resource: docs://changelog' });
    expect(step(C, 'read missing #2')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 /) });
    expect(step(C, 'read billing #1')).toEqual({ label: 'read billing #1', error: 'McpError -32603 MCP error -32603: Error creating resource from template docs://pages/billing' });
    expect(step(C, 'read intro')).toMatchObject({ ok: { text: '# intro' } });
    expect(step(C, 'subscribe readme')).toEqual({ label: 'subscribe readme', error: 'McpError -32601 MCP error -32601: Method not found' });
    expect(observed(C)).toContainEqual({ serverRan: ['page billing', 'page billing', 'page intro'] });
  });

  for (const v of PY_VIEWS) {
    it(`${v.name}: each read named by its URI with the server's code, the re-reads linked; the subscribe's -32601 says the server announced no subscriptions (before: "Method not found" alone)`, async () => {
      const r = await run(C, ...v.inputs);
      expect(rows(r)).toEqual([
        'initialize - SUCCESS', 'resources/list - SUCCESS', 'resources/templates/list - SUCCESS',
        'resources/read docs://changelog JSONRPC_ERROR -32602', 'resources/read docs://changelog JSONRPC_ERROR -32602',
        'resources/read docs://pages/billing JSONRPC_ERROR -32603', 'resources/read docs://pages/billing JSONRPC_ERROR -32603',
        'resources/read docs://pages/intro SUCCESS', 'resources/subscribe docs://readme JSONRPC_ERROR -32601',
      ]);
      const reads = r.attempts.filter((a) => a.method === 'resources/read');
      expect(reads.map((a) => a.attempt)).toEqual([1, 2, 1, 2, 1]);
      expect(reads[1]!.call).toBe(reads[0]!.call);
      expect(reads[3]!.call).toBe(reads[2]!.call);
      expect(reads[2]!.call).not.toBe(reads[0]!.call);
      expect(reads[0]!.detail).toEqual({ errorCode: -32602, errorMessage: 'Unknown resource: docs://changelog', errorData: { uri: 'docs://changelog' } });
      expect(r.attempts.find((a) => a.method === 'resources/subscribe')!.detail?.why).toBe(NO_SUBSCRIBE);
      expect(codes(r)).toEqual(['resources/read#2:RETRY_ORIGIN_AMBIGUOUS', 'resources/read#2:RETRY_ORIGIN_AMBIGUOUS']);
    });
  }
});

describe('a watcher whose only request, resources/subscribe, the Python MCPServer refuses', () => {
  const C = 'py-subscribe-only';

  it('what happened: -32601 "Method not found"; the server\'s initialize said subscribe: false', () => {
    expect(step(C, 'subscribe readme')).toEqual({ label: 'subscribe readme', error: 'McpError -32601 MCP error -32601: Method not found' });
    expect(readFileSync(f(C, 'proxy.ndjson'), 'utf8')).toContain('\\"resources\\":{\\"listChanged\\":false,\\"subscribe\\":false}');
  });

  for (const v of PY_VIEWS) {
    it(`${v.name}: a JSONRPC_ERROR whose why says the server announced no subscriptions; no CALL_NEVER_SENT (a subscription is no step to a tool call)`, async () => {
      const r = await run(C, ...v.inputs);
      expect(rows(r)).toEqual(['initialize - SUCCESS', 'resources/subscribe docs://readme JSONRPC_ERROR -32601']);
      expect(r.attempts[1]!.detail?.why).toBe(NO_SUBSCRIBE);
      expect(codes(r)).toEqual([]);
    });
  }

  it('must not: the same client log with subscribe: true in the initialize result says nothing of capabilities', async () => {
    const path = edited(C, 'client.ndjson', '\\"subscribe\\":false', '\\"subscribe\\":true');
    const r = await analyze({ inputs: [{ path, side: 'client' }] });
    expect(rows(r)).toEqual(['initialize - SUCCESS', 'resources/subscribe docs://readme JSONRPC_ERROR -32601']);
    expect(r.attempts[1]!.detail?.why).toBeUndefined();
  });
});

describe('the Python MCPServer\'s prompts: a missing argument and an unknown prompt come back with code 0', () => {
  const C = 'py-prompts';
  const ZERO = "error code 0 is no JSON-RPC or MCP code: the Python SDK's server sends it for any exception a handler raised but an MCPError of its own (where JSON-RPC has -32603, internal error), so the code cannot tell a refused request from a server fault; the message can";

  it('what happened: both errors had code 0 (the SDK\'s catch-all for a handler\'s ValueError), the good one answered and ran once', () => {
    expect(step(C, 'get missing arg')).toEqual({ label: 'get missing arg', error: "McpError 0 MCP error 0: Missing required arguments: {'code'}" });
    expect(step(C, 'get unknown')).toEqual({ label: 'get unknown', error: 'McpError 0 MCP error 0: Unknown prompt: summarize' });
    expect(step(C, 'get ok')).toMatchObject({ ok: { messages: 1 } });
    expect(observed(C)).toContainEqual({ serverRan: ['prompt python'] });
  });

  for (const v of PY_VIEWS) {
    it(`${v.name}: each prompts/get named, its code 0 explained (before: a bare code 0); no finding`, async () => {
      const r = await run(C, ...v.inputs);
      expect(rows(r)).toEqual(['initialize - SUCCESS', 'prompts/list - SUCCESS', 'prompts/get review_code JSONRPC_ERROR 0', 'prompts/get summarize JSONRPC_ERROR 0', 'prompts/get review_code SUCCESS']);
      const [missing, unknown, ok] = r.attempts.filter((a) => a.method === 'prompts/get');
      expect(missing!.detail).toEqual({ errorCode: 0, errorMessage: "Missing required arguments: {'code'}", why: ZERO });
      expect(unknown!.detail?.why).toBe(ZERO);
      expect(ok!.detail).toBeUndefined();
      expect(codes(r)).toEqual([]);
    });
  }

  it('must not: the v2 server\'s -32602 for the same prompts says nothing of code 0', async () => {
    const r = await run('v2-resources-prompts', ['client.ndjson', 'client']);
    for (const a of r.attempts.filter((x) => x.method === 'prompts/get')) expect(a.detail?.why).toBeUndefined();
  });
});

describe('the Python MCPServer\'s tools: logging/setLevel it does not offer, a log at level error before a success, structured output, a raised error, a ping', () => {
  const C = 'py-tools-logging';

  it('what happened: setLevel -32601, yet the "error" log came on the call\'s stream and the tool succeeded; structuredContent; the raised PermissionError an isError result', () => {
    expect(step(C, 'list')).toEqual({ label: 'list', ok: { tools: ['sync_orders (outputSchema)', 'disk_usage (outputSchema)'] } });
    expect(step(C, 'setLevel')).toEqual({ label: 'setLevel', error: 'McpError -32601 MCP error -32601: Method not found' });
    expect(observed(C)).toContainEqual({ log: 'error', logger: 'db', data: 'replica lag 12s for berlin, falling back to primary' });
    expect(step(C, 'sync')).toMatchObject({ ok: { isError: false, text: 'synced 42 orders for berlin' } });
    expect(step(C, 'usage ok')).toMatchObject({ ok: { isError: false, structuredContent: { bytes: 1024, files: 3 } } });
    expect(step(C, 'usage denied')).toMatchObject({ ok: { isError: true, text: 'Error executing tool disk_usage' } });
    expect(step(C, 'ping')).toEqual({ label: 'ping', ok: {} });
    expect(observed(C)).toContainEqual({ serverRan: ['sync berlin', 'usage /home', 'usage /denied'] });
  });

  for (const v of PY_VIEWS) {
    it(`${v.name}: setLevel's -32601 says the server announced no logging (before: "Method not found" alone); the success keeps its log line and says the server should have declared logging (before: the log line alone); no finding`, async () => {
      const r = await run(C, ...v.inputs);
      expect(rows(r)).toEqual(['initialize - SUCCESS', 'tools/list - SUCCESS', 'logging/setLevel - JSONRPC_ERROR -32601', 'tools/call sync_orders - TOOL_SUCCESS', 'tools/call disk_usage - TOOL_SUCCESS', 'tools/call disk_usage - TOOL_ERROR', 'ping - SUCCESS']);
      expect(r.attempts[2]!.detail?.why).toBe(NO_LOGGING);
      expect(r.attempts[3]!.detail?.why).toBe(`${LOGGED}; the server's initialize had announced no logging capability, which a server that sends log messages MUST declare`);
      expect(r.attempts[4]!.detail).toBeUndefined();
      expect(r.attempts[5]!.detail).toEqual({ errorMessage: 'Error executing tool disk_usage' });
      expect(codes(r)).toEqual([]);
    });
  }

  it('must not: the same client log with a logging capability in the initialize result does not say the server offers none, nor that it should have declared it', async () => {
    const path = edited(C, 'client.ndjson', '\\"capabilities\\":{\\"prompts\\"', '\\"capabilities\\":{\\"logging\\":{},\\"prompts\\"');
    const r = await analyze({ inputs: [{ path, side: 'client' }] });
    expect(rows(r)[2]).toBe('logging/setLevel - JSONRPC_ERROR -32601');
    expect(r.attempts[2]!.detail?.why).toBeUndefined();
    expect(r.attempts[3]!.detail?.why).toBe(LOGGED);
  });
});

describe('the v2 client and McpServer (2026-07-28): an unknown resource, a template that throws, prompt errors', () => {
  const C = 'v2-resources-prompts';

  it('what happened: on 2026-07-28, -32602 "Resource not found" (the spec\'s code on this revision), -32603 with the callback\'s message twice, -32602 for the prompts', () => {
    expect(observed(C)[0]).toEqual({ era: '2026-07-28' });
    expect(step(C, 'read missing #1')).toEqual({ label: 'read missing #1', error: 'ResourceNotFoundError -32602 Resource not found: docs://changelog' });
    expect(step(C, 'read billing #2')).toEqual({ label: 'read billing #2', error: 'ProtocolError -32603 upstream wiki timed out fetching billing' });
    expect(step(C, 'get missing arg')).toMatchObject({ error: expect.stringMatching(/^ProtocolError -32602 Invalid arguments for prompt review_code/) });
    expect(step(C, 'get unknown')).toEqual({ label: 'get unknown', error: 'ProtocolError -32602 Prompt summarize not found' });
    expect(observed(C)).toContainEqual({ serverRan: ['page billing', 'page billing', 'page intro'] });
  });

  for (const v of V2_VIEWS) {
    it(`${v.name}: each failure named by its target with its code, re-reads linked without a session; no other finding`, async () => {
      const r = await run(C, ...v.inputs);
      expect(rows(r)).toEqual([
        'server/discover - SUCCESS', 'resources/list - SUCCESS',
        'resources/read docs://changelog JSONRPC_ERROR -32602', 'resources/read docs://changelog JSONRPC_ERROR -32602',
        'resources/read docs://pages/billing JSONRPC_ERROR -32603', 'resources/read docs://pages/billing JSONRPC_ERROR -32603',
        'resources/read docs://pages/intro SUCCESS',
        'prompts/get review_code JSONRPC_ERROR -32602', 'prompts/get summarize JSONRPC_ERROR -32602', 'prompts/get review_code SUCCESS',
      ]);
      expect(r.attempts.every((a) => a.session === null && a.status === 200)).toBe(true);
      const reads = r.attempts.filter((a) => a.method === 'resources/read');
      expect(reads.map((a) => a.attempt)).toEqual([1, 2, 1, 2, 1]);
      expect(reads[1]!.call).toBe(reads[0]!.call);
      expect(reads[3]!.call).toBe(reads[2]!.call);
      expect(codes(r)).toEqual(['resources/read#2:RETRY_ORIGIN_AMBIGUOUS', 'resources/read#2:RETRY_ORIGIN_AMBIGUOUS']);
    });
  }
});

describe('the v2 packages on logging and ping: on 2026-07-28 neither setLevel nor ping goes on the wire; in legacy mode the stalled ping is answered after the client gave up', () => {
  const M = 'v2-logging-ping';
  const L = 'v2-legacy-logging-ping';

  it('what happened: on 2026-07-28 the client refused setLevel and ping itself (never sent; the server\'s ping handler never ran); the log level in the call\'s _meta brought the "error" log. In legacy mode: setLevel ok, ping #1 timed out at 0.5 s (its answer came later, "unknown message ID"), ping #2 answered', () => {
    expect(observed(M)[0]).toEqual({ era: '2026-07-28' });
    expect(step(M, 'setLevel')).toMatchObject({ error: expect.stringMatching(/^SdkError METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION Method 'logging\/setLevel' is not supported/) });
    expect(step(M, 'ping #1')).toMatchObject({ error: expect.stringMatching(/^SdkError METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION Method 'ping' is not supported/) });
    expect(observed(M)).toContainEqual({ log: 'error', logger: 'db', data: 'replica lag 12s for berlin, falling back to primary' });
    expect(observed(M)).toContainEqual({ serverRan: ['sync berlin'], serverPingHandlerRan: 0 });
    expect(observed(L)[0]).toEqual({ era: '2025-11-25' });
    expect(step(L, 'setLevel')).toEqual({ label: 'setLevel', ok: {} });
    expect(step(L, 'ping #1')).toEqual({ label: 'ping #1', error: 'SdkError REQUEST_TIMEOUT Request timed out' });
    expect(step(L, 'ping #2')).toEqual({ label: 'ping #2', ok: {} });
    expect(observed(L)).toContainEqual({ onerror: 'Received a response for an unknown message ID: {"jsonrpc":"2.0","id":3,"result":{}}' });
    expect(observed(L)).toContainEqual({ serverRan: ['sync berlin'], serverPingHandlerRan: 2 });
  });

  for (const v of V2_VIEWS) {
    it(`${v.name}: on 2026-07-28 the report has only what went on the wire: the call, a success that keeps its log line`, async () => {
      const r = await run(M, ...v.inputs);
      expect(rows(r)).toEqual(['server/discover - SUCCESS', 'tools/call sync_orders - TOOL_SUCCESS']);
      expect(r.attempts[1]!.detail?.why).toBe(LOGGED);
      expect(codes(r)).toEqual([]);
    });

    it(`${v.name}: legacy mode: the late-answered ping is what the client saw (STREAM_INCOMPLETE: its SUCCESS came after the client cancelled; before the sixtieth audit SUCCESS; the server's log: SUCCESS), whose why says it was answered only after the client gave up, and the app's second ping is attempt 2 of it`, async () => {
      const r = await run(L, ...v.inputs);
      // (the server's log: what the server sent; every other view: what the client saw)
      const late = v.name === 'server' ? 'SUCCESS' : 'STREAM_INCOMPLETE';
      expect(rows(r)).toEqual(['initialize - SUCCESS', 'logging/setLevel - SUCCESS', 'tools/call sync_orders - TOOL_SUCCESS', `ping - ${late}`, 'ping - SUCCESS']);
      expect(r.attempts.every((a) => a.session === null)).toBe(true);
      const [p1, p2] = r.attempts.filter((a) => a.method === 'ping');
      expect(p2).toMatchObject({ call: p1!.call, attempt: 2 });
      if (v.name === 'server') expect(p1!.detail?.why).toMatch(/^a ping, which the receiver MUST answer promptly \(the SDKs answer it without the application\), was answered only 1\.5\d s after it was sent, when the client had given up on it at 0\.5\d s: the server, or a hop before it, was slow to respond, and the caller saw its ping fail$/);
      else expect(p1!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.5\d s after sending it, before any response came: its caller got its own timeout or cancellation, not a result; the server's SUCCESS answer came 1\.0\d s after that, when the client had given up on it \(the SDK clients drop such an answer\); a ping, which the receiver MUST answer promptly \(the SDKs answer it without the application\), was answered only 1\.5\d s after it was sent: the server, or a hop before it, was slow to respond$/);
      expect(p1!.findings.find((x) => x.code === 'CANCELLED')!.message).toMatch(/with the reason "SdkError: Request timed out" .*its SUCCESS result came after that, when the client had given up on it: there is no session/);
      // Must not: the ping answered at once.
      expect(p2!.detail).toBeUndefined();
      expect(r.attempts[1]!.detail).toBeUndefined();
      // Must not: this server announced logging; its log line is named alone.
      expect(r.attempts[2]!.detail?.why).toBe(LOGGED);
      expect(codes(r)).toEqual(['ping#1:CANCELLED', 'ping#2:RETRY_ORIGIN_AMBIGUOUS']);
    });
  }
});
