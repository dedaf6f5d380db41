// Tenth audit, part A (beyond tools/call): the SDK 1.32.2 client and McpServer recorded three ways (recordingFetch + recordingHandler, the record proxy, a HAR-lines proxy): resources and prompts refused, a log line "error" before a success, results beyond text and outputSchema, ping timeouts; and the Python client on the same.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit10a/', import.meta.url));
type Result = Awaited<ReturnType<typeof analyze>>;
type Side = 'client' | 'server';
const f = (c: string, file: string) => `${ROOT}${c}/${file}`;
const run = (c: string, ...inputs: [string, Side?][]) => analyze({ inputs: inputs.map(([file, side]) => ({ path: f(c, file), ...(side ? { side } : {}) })) });
/** The five ways each incident was recorded: the client's log, the server's, both, the proxy's, the HAR. */
const VIEWS: { name: string; inputs: [string, Side?][] }[] = [
  { name: 'client', inputs: [['client.ndjson', 'client']] },
  { name: 'server', inputs: [['server.ndjson', 'server']] },
  { name: 'both', inputs: [['client.ndjson', 'client'], ['server.ndjson', 'server']] },
  { name: 'proxy', inputs: [['proxy.ndjson']] },
  { name: 'har', inputs: [['capture.har.ndjson']] },
];
/** The Python client's scenarios: no recordingFetch, so its own view is the proxy's (and the HAR's) beside the server's. */
const PY_VIEWS: { name: string; inputs: [string, Side?][] }[] = [
  { name: 'server', inputs: [['server.ndjson', 'server']] },
  { name: 'proxy', inputs: [['proxy.ndjson']] },
  { name: 'har', inputs: [['capture.har.ndjson']] },
  { name: 'proxy as client, with the server', inputs: [['proxy.ndjson', 'client'], ['server.ndjson', 'server']] },
];
const observed = (c: string) => JSON.parse(readFileSync(f(c, 'observed.json'), 'utf8')) as Record<string, unknown>[];
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
      expect(r.findings[0]!.message).toMatch(/tools\/list failed \(JSONRPC_ERROR, HTTP 200\) and no tools\/call was sent afterwards: the server answered it with JSON-RPC error -32601 \("Method not found"\), so the client never got to call a tool$/);
    });
  }
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
      // sync_all's log went on the session's GET stream (sendLoggingMessage without the request): it is no part of the call.
      expect(r.attempts.find((a) => a.tool === 'sync_all')!.detail?.why).toBeUndefined();
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
