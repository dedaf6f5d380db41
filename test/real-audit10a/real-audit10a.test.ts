// Tenth audit, part A (beyond tools/call): the SDK 1.32.2 client and McpServer recorded three ways (recordingFetch + recordingHandler, the record proxy, a HAR-lines proxy): resources and prompts refused, a log line "error" before a success, results beyond text and outputSchema, ping timeouts; and the Python client on the same.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { auditFixtures, FIVE_VIEWS, type ViewSide } from '../helpers/recordings.js';
import { BIN } from '../helpers/triage-cli.js';

const { f, run, observed } = auditFixtures('real-audit10a');
type Result = Awaited<ReturnType<typeof analyze>>;
type Side = ViewSide;
const VIEWS = FIVE_VIEWS;
/** The Python client's scenarios: no recordingFetch, so its own view is the proxy's (and the HAR's) beside the server's. */
const PY_VIEWS: { name: string; inputs: [string, Side?][] }[] = [
  { name: 'server', inputs: [['server.ndjson', 'server']] },
  { name: 'proxy', inputs: [['proxy.ndjson']] },
  { name: 'har', inputs: [['capture.har.ndjson']] },
  { name: 'proxy as client, with the server', inputs: [['proxy.ndjson', 'client'], ['server.ndjson', 'server']] },
];
const step = (c: string, label: string) => observed(c).find((x) => x.label === label)!;
const codes = (r: Result) => [...r.attempts.flatMap((a) => a.findings.map((x) => `${a.tool ?? a.method}#${a.attempt}:${x.code}`)), ...r.findings.map((x) => `session:${x.code}`)].sort();
const rows = (r: Result) => r.attempts.map((a) => `${a.method}${a.tool ? ` ${a.tool}` : ''} ${a.outcome}`);

describe('a failed request of another feature (resources/read) is no CALL_NEVER_SENT; a refused tools/list still is', () => {
  const C = 'resources-only';

  it('what happened: the reader\'s one read got -32602 "Resource … not found" (not the spec\'s -32002); the agent\'s tools/list got -32601', () => {
    expect(step(C, 'reader: read missing')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 .*Resource docs:\/\/changelog not found/) });
    expect(step(C, 'agent: list tools')).toMatchObject({ error: expect.stringMatching(/^McpError -32601 .*Method not found/) });
  });

  for (const v of VIEWS) {
    it(`${v.name}: CALL_NEVER_SENT only for the agent's session, quoting the -32601 (before: also for the reader, "a fault meant for tools/call may have hit an earlier request")`, async () => {
      const r = await run(C, ...v.inputs);
      expect(rows(r)).toEqual(['initialize SUCCESS', 'resources/read JSONRPC_ERROR', 'initialize SUCCESS', 'tools/list JSONRPC_ERROR']);
      const agent = r.attempts.find((a) => a.method === 'tools/list')!.session;
      expect(r.findings.map((x) => `${x.code} ${x.session === agent ? 'agent' : 'reader'}`)).toEqual(['CALL_NEVER_SENT agent']);
      expect(r.findings[0]!.message).toMatch(/tools\/list failed \(JSONRPC_ERROR, HTTP 200\) and no tools\/call was sent afterwards: the server answered it with JSON-RPC error -32601 \("Method not found"\); its initialize had announced no tools capability: the server offers no tools, so the client never got to call one$/);
    });
  }

  it('must not: the same client log with a tools capability in the initialize result does not say the server offers no tools', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-a10a-'));
    const orig = readFileSync(f(C, 'client.ndjson'), 'utf8');
    const text = orig.replaceAll('\\"capabilities\\":{\\"resources\\":{\\"listChanged\\":true}}', '\\"capabilities\\":{\\"resources\\":{\\"listChanged\\":true},\\"tools\\":{}}');
    expect(text).not.toBe(orig);
    writeFileSync(join(dir, 'client.ndjson'), text);
    const r = await analyze({ inputs: [{ path: join(dir, 'client.ndjson'), side: 'client' }] });
    expect(r.findings.map((x) => x.code)).toEqual(['CALL_NEVER_SENT']);
    expect(r.findings[0]!.message).toMatch(/the server answered it with JSON-RPC error -32601 \("Method not found"\), so the client never got to call a tool$/);
  });
});

describe('logging: the server logs an "error" on the call\'s stream, then returns a success', () => {
  const C = 'log-error-then-success';

  it('what happened: setLevel ok; the client got the "error" log and then the result, and the tool ran to its end', () => {
    const o = observed(C);
    expect(step(C, 'setLevel')).toEqual({ label: 'setLevel', ok: {} });
    expect(o).toContainEqual({ log: 'error', data: 'replica lag 12s for berlin, falling back to primary' });
    expect(step(C, 'sync #1')).toMatchObject({ ok: { isError: false, text: 'synced 42 orders for berlin' } });
    expect(step(C, 'sync all')).toMatchObject({ ok: { isError: false } });
    expect(o).toContainEqual({ ran: ['berlin', 'all'] });
  });

  for (const v of VIEWS) {
    it(`${v.name}: the success stays TOOL_SUCCESS, no finding, and its why keeps the log line (before: it vanished)`, async () => {
      const r = await run(C, ...v.inputs);
      expect(rows(r)).toEqual(['initialize SUCCESS', 'logging/setLevel SUCCESS', 'tools/call sync_orders TOOL_SUCCESS', 'tools/call sync_all TOOL_SUCCESS']);
      expect(codes(r)).toEqual([]);
      const sync = r.attempts.find((a) => a.tool === 'sync_orders')!;
      expect(sync.detail?.why).toBe('the server logged a message at level "error" on the request\'s stream (logger "db"): "replica lag 12s for berlin, falling back to primary"; a log message is not the request\'s answer and does not decide its outcome');
      // sync_all's log went on the session's GET stream (sendLoggingMessage without the request) while sync_all was the
      // session's only request open: it is named as such. A HAR writes the GET's body only when the stream ends, with
      // no time for each event: nothing tells that the log came while sync_all ran, so it is tied to nothing there.
      const all = r.attempts.find((a) => a.tool === 'sync_all')!;
      if (v.name === 'har') expect(all.detail?.why).toBeUndefined();
      else expect(all.detail?.why).toBe('the server logged a message at level "error" (logger "db") on the session\'s GET stream, naming no request, while this was the session\'s only request open: "replica lag 30s, falling back to primary"; a log message is not the request\'s answer and does not decide its outcome');
    });
  }

  it('must not: the same recording with the log at level "info" names no log line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-a10a-'));
    const text = readFileSync(f(C, 'server.ndjson'), 'utf8').replaceAll('\\"level\\":\\"error\\"', '\\"level\\":\\"info\\"');
    expect(text).not.toBe(readFileSync(f(C, 'server.ndjson'), 'utf8'));
    writeFileSync(join(dir, 'server.ndjson'), text);
    const r = await analyze({ inputs: [{ path: join(dir, 'server.ndjson'), side: 'server' }] });
    expect(rows(r)).toContain('tools/call sync_orders TOOL_SUCCESS');
    for (const a of r.attempts) expect(a.detail?.why).toBeUndefined();
  });
});

describe('resources/read refused and failing, retried by the app; prompts/get refused; completion/complete', () => {
  const R = 'resources-errors';
  const P = 'prompts-errors';

  it('what happened: -32602 "Resource … not found" twice, the template\'s callback threw twice (-32603) and ran for intro; the prompt\'s missing argument and an unknown prompt -32602, the completion answered', () => {
    expect(step(R, 'read missing #1')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 .*Resource docs:\/\/changelog not found$/) });
    expect(step(R, 'read missing #2')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 /) });
    expect(step(R, 'read billing #1')).toMatchObject({ error: 'McpError -32603 MCP error -32603: upstream wiki timed out fetching billing' });
    expect(observed(R)).toContainEqual({ templateCallbackRan: ['billing', 'billing', 'intro'] });
    expect(step(P, 'get missing arg')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 .*Invalid arguments for prompt review_code/) });
    expect(step(P, 'get unknown')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 .*Prompt summarize not found/) });
    expect(step(P, 'complete language')).toMatchObject({ ok: { values: ['python'] } });
  });

  for (const v of VIEWS) {
    it(`${v.name}: each read names its URI (before: "resources/read" alone, the two retried reads told apart only by their error text), and the app's re-reads are linked`, async () => {
      const r = await run(R, ...v.inputs);
      expect(r.attempts.map((a) => `${a.method} ${a.target ?? '-'} ${a.outcome} ${a.detail?.errorCode ?? ''} ${a.attempt}`)).toEqual([
        'initialize - SUCCESS  1', 'resources/list - SUCCESS  1',
        'resources/read docs://changelog JSONRPC_ERROR -32602 1', 'resources/read docs://changelog JSONRPC_ERROR -32602 2',
        'resources/read docs://pages/billing JSONRPC_ERROR -32603 1', 'resources/read docs://pages/billing JSONRPC_ERROR -32603 2',
        'resources/read docs://pages/intro SUCCESS  1',
      ]);
      const reads = r.attempts.filter((a) => a.method === 'resources/read');
      expect(reads[1]!.call).toBe(reads[0]!.call);
      expect(reads[3]!.call).toBe(reads[2]!.call);
      expect(reads[2]!.call).not.toBe(reads[0]!.call);
      // A re-read is judged as any retry, but a read is no tool: no UNSAFE_RETRY, and no CALL_NEVER_SENT for a session that went on.
      expect(codes(r)).toEqual(['resources/read#2:RETRY_ORIGIN_AMBIGUOUS', 'resources/read#2:RETRY_ORIGIN_AMBIGUOUS']);
      expect(reads[3]!.findings[0]!.message).toMatch(/^resources\/read docs:\/\/pages\/billing: POST 2 of the call after JSONRPC_ERROR/);
    });

    it(`${v.name}: each prompts/get names its prompt, completion/complete its ref; no finding (the session went on)`, async () => {
      const r = await run(P, ...v.inputs);
      expect(r.attempts.map((a) => `${a.method} ${a.target ?? '-'} ${a.outcome} ${a.detail?.errorCode ?? ''}`)).toEqual([
        'initialize - SUCCESS ', 'prompts/list - SUCCESS ', 'completion/complete review_code SUCCESS ',
        'prompts/get review_code JSONRPC_ERROR -32602', 'prompts/get summarize JSONRPC_ERROR -32602', 'prompts/get review_code SUCCESS ',
      ]);
      expect(codes(r)).toEqual([]);
    });
  }

  it('must not: a tools/call has its tool and no target; the terminal table names the URI in "method / tool"', async () => {
    const r = await run('results-beyond-text', ['client.ndjson', 'client']);
    for (const a of r.attempts) expect(a.target).toBeUndefined();
    const p = spawnSync(process.execPath, [BIN, '--client', f(R, 'client.ndjson')], { encoding: 'utf8', env: { ...process.env, COLUMNS: '200' } });
    expect(p.stdout).toMatch(/│ resources\/read docs:\/\/pages\/billing +│ 200 +│ JSONRPC_ERROR/);
    const md = spawnSync(process.execPath, [BIN, '--client', f(R, 'client.ndjson'), '--format', 'markdown'], { encoding: 'utf8' });
    expect(md.stdout).toMatch(/\| c4 \| resources\/read docs:\/\/pages\/billing \| #1 `JSONRPC_ERROR` \(200\)/);
  });
});

describe('tool results beyond text, and an outputSchema the result breaks', () => {
  const M = 'results-beyond-text';
  const L = 'output-schema-violated';

  it('what happened: resource_link and an embedded resource came back; McpServer turned the broken structuredContent into isError; the low-level server sent it as it was and callTool threw -32602 twice (the tool ran twice)', () => {
    expect(step(M, 'find')).toMatchObject({ ok: { isError: false, types: ['text', 'resource_link', 'resource'] } });
    expect(step(M, 'usage broken')).toMatchObject({ ok: { isError: true, text: expect.stringMatching(/^MCP error -32602: Output validation error: Invalid structured content for tool disk_usage/) } });
    expect(step(M, 'usage denied')).toMatchObject({ ok: { isError: true, text: 'permission denied: /denied' } });
    expect(step(L, 'usage /var #1')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 .*Structured content does not match the tool's output schema: data\/bytes must be number/) });
    expect(step(L, 'usage /var #2')).toMatchObject({ error: expect.stringMatching(/^McpError -32602 /) });
    expect(step(L, 'usage denied')).toMatchObject({ ok: { isError: true } });
    expect(observed(L)).toContainEqual({ ran: ['/var', '/var', '/denied', '/home'] });
  });

  for (const v of VIEWS) {
    it(`${v.name}: links and embedded resources are a TOOL_SUCCESS; McpServer's output check is a TOOL_ERROR whose why says the tool ran and its result broke the schema (before: only "MCP error -32602: …", read as a refusal)`, async () => {
      const r = await run(M, ...v.inputs);
      expect(rows(r)).toEqual(['initialize SUCCESS', 'tools/list SUCCESS', 'tools/call find_file TOOL_SUCCESS', 'tools/call disk_usage TOOL_SUCCESS', 'tools/call disk_usage TOOL_ERROR', 'tools/call disk_usage TOOL_ERROR']);
      const [, broken, denied] = r.attempts.filter((a) => a.tool === 'disk_usage');
      expect(broken!.detail?.why).toMatch(/^the server's SDK \(McpServer\) checked the tool's result against its outputSchema and sent this error in its place: the tool ran/);
      // Must not: an isError of the tool's own, with no structuredContent although the tool declares an outputSchema, is a plain TOOL_ERROR.
      expect(denied!.detail).toEqual({ errorMessage: 'permission denied: /denied' });
      expect(codes(r)).toEqual([]);
    });

    it(`${v.name}: the low-level server's broken structuredContent is INVALID_TOOL_RESULT saying the tool ran and the TypeScript client throws; its re-run is a proven or possible UNSAFE_RETRY; isError without structuredContent is a TOOL_ERROR`, async () => {
      const r = await run(L, ...v.inputs);
      expect(rows(r)).toEqual(['initialize SUCCESS', 'tools/list SUCCESS', 'tools/call disk_usage INVALID_TOOL_RESULT', 'tools/call disk_usage INVALID_TOOL_RESULT', 'tools/call disk_usage TOOL_ERROR', 'tools/call disk_usage TOOL_SUCCESS']);
      const [first, again] = r.attempts.filter((a) => a.outcome === 'INVALID_TOOL_RESULT');
      expect(first!.detail?.why).toBe('structuredContent/bytes must be number, by the outputSchema tools/list declares: the tool ran, and a client that checks it (the TypeScript SDK 1.x) throws -32602 from callTool instead of returning the result');
      expect(again).toMatchObject({ call: first!.call, attempt: 2 });
      expect(codes(r)).toEqual(['disk_usage#2:RETRY_ORIGIN_AMBIGUOUS', 'disk_usage#2:UNSAFE_RETRY']);
      expect(r.attempts.find((a) => a.outcome === 'TOOL_ERROR')!.detail).toEqual({ errorMessage: 'permission denied: /denied' });
    });
  }
});

describe('ping: the server stalls, the client\'s ping times out; the server pings the client', () => {
  const P = 'ping';
  const H = 'ping-health-check';

  it('what happened: ping #1 timed out (-32001, the client\'s own), ping #2 answered; the server\'s pings to the client were answered inside and outside a call; the health probe\'s only ping timed out and it closed', () => {
    expect(step(P, 'ping #1')).toMatchObject({ error: 'McpError -32001 MCP error -32001: Request timed out' });
    expect(step(P, 'ping #2')).toEqual({ label: 'ping #2', ok: {} });
    expect(step(P, 'check')).toEqual({ label: 'check', ok: 'client answered ping in N ms' });
    expect(observed(P)).toContainEqual({ serverPingHandlerRan: 2, serverToClientPingOutsideCall: ['ok'] });
    expect(step(H, 'ping')).toMatchObject({ error: 'McpError -32001 MCP error -32001: Request timed out' });
  });

  for (const v of VIEWS) {
    it(`${v.name}: the timed-out ping is STREAM_INCOMPLETE and the app's second ping is attempt 2 of it; the server's ping inside the call is counted on the call, which succeeded`, async () => {
      const r = await run(P, ...v.inputs);
      expect(rows(r)).toEqual(['initialize SUCCESS', 'ping STREAM_INCOMPLETE', 'ping SUCCESS', 'tools/call check TOOL_SUCCESS', 'tools/call check_idle TOOL_SUCCESS']);
      const [p1, p2] = r.attempts.filter((a) => a.method === 'ping');
      expect(p2).toMatchObject({ call: p1!.call, attempt: 2 });
      expect(p1!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.5\d s after sending it, before any response came; a ping, which the receiver MUST answer promptly \(the SDKs answer it without the application\), got no answer in 0\.5\d s: the server, or a hop before it, was not responding/);
      // Must not: the answered ping.
      expect(p2!.detail).toBeUndefined();
      expect(r.attempts.find((a) => a.tool === 'check')!.sse).toMatchObject({ serverRequests: 1 });
      expect(codes(r)).toEqual(['ping#1:CANCELLED', 'ping#2:RETRY_ORIGIN_AMBIGUOUS']);
    });

    it(`${v.name}: a health probe whose only request, a ping, timed out is no CALL_NEVER_SENT (before: "ping failed … a fault meant for tools/call may have hit an earlier request")`, async () => {
      const r = await run(H, ...v.inputs);
      expect(rows(r)).toEqual(['initialize SUCCESS', 'ping STREAM_INCOMPLETE']);
      expect(r.findings.map((x) => x.code)).toEqual([]);
      // Before: the why said only how the stream ended, as of any request the client gave up on.
      expect(r.attempts[1]!.detail?.why).toMatch(/; a ping, which the receiver MUST answer promptly .*got no answer in 0\.5\d s: the server, or a hop before it, was not responding, and the spec lets the sender take the connection as stale$/);
    });
  }
});

describe('the Python SDK client (2.3.0, legacy mode): an unknown resource, a prompt missing an argument, a ping that timed out and one that did not', () => {
  const C = 'py-resources-prompts';

  it('what happened: -32602 for the read and the prompt; the first ping timed out after 0.5 s, the second answered', () => {
    expect(step(C, 'read missing')).toEqual({ label: 'read missing', error: 'MCPError -32602: MCP error -32602: Resource docs://changelog not found' });
    expect(step(C, 'get missing arg')).toMatchObject({ error: expect.stringMatching(/^MCPError -32602: .*Invalid arguments for prompt review_code/) });
    expect(step(C, 'ping #1')).toEqual({ label: 'ping #1', error: "MCPError -32001: Request 'ping' timed out" });
    expect(step(C, 'ping #2')).toMatchObject({ ok: true });
  });

  for (const v of PY_VIEWS) {
    it(`${v.name}: each failure named by its target, the ping's retry linked, its cancellation quoted; no CALL_NEVER_SENT`, async () => {
      const r = await run(C, ...v.inputs);
      expect(r.attempts.map((a) => `${a.method} ${a.target ?? '-'} ${a.outcome} ${a.detail?.errorCode ?? ''}`)).toEqual([
        'initialize - SUCCESS ', 'resources/list - SUCCESS ', 'resources/read docs://changelog JSONRPC_ERROR -32602',
        'prompts/get review_code JSONRPC_ERROR -32602', 'ping - STREAM_INCOMPLETE ', 'ping - SUCCESS ',
      ]);
      const [p1, p2] = r.attempts.filter((a) => a.method === 'ping');
      expect(p2).toMatchObject({ call: p1!.call, attempt: 2 });
      expect(p1!.findings.find((x) => x.code === 'CANCELLED')?.message).toMatch(/with the reason "timed out after 0\.5s"/);
      expect(r.findings).toEqual([]);
    });
  }
});
