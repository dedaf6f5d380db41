// A server log message on the session's standalone GET stream: named in the why of the one request open when it came, and of none when that is not known.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = 'sess-log';
const rec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', session: S, xid, ...extra });
const H = { accept: 'application/json, text/event-stream', 'mcp-session-id': S };
const sseHead = { status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } };
const log = (level: string, data: string) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: 'db', data } });
const result = (id: number, text: string) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

/** A tools/call logged as it happened: request at t, its head 2 ms later, its result at t + ms. */
const call = (xid: string, id: number, name: string, t: number, ms: number) => [
  rec('request', t, xid, { method: 'POST', requestHeaders: H, send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } } }),
  rec('response', t + 2, xid, sseHead),
  rec('event', t + ms, xid, { event: 'message', data: result(id, `${name} done`) }),
  rec('end', t + ms, xid, { end: 'complete' }),
];
const getOpen = (t: number) => [
  rec('request', t, 'get', { method: 'GET', requestHeaders: { accept: 'text/event-stream', 'mcp-session-id': S } }),
  rec('response', t + 1, 'get', sseHead),
];
const getLog = (t: number, level = 'error', data = 'replica lag 30s') => rec('event', t, 'get', { event: 'message', data: log(level, data) });
const byTime = (l: Record<string, unknown>[]) => l.sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
const whys = async (lines: Record<string, unknown>[]) => {
  const r = await analyzeInputs([{ side: 'client', lines: byTime(lines) }]);
  return Object.fromEntries(r.attempts.map((a) => [a.tool ?? a.method, a.detail?.why]));
};
const NAMED = 'the server logged a message at level "error" (logger "db") on the session\'s GET stream, naming no request, while this was the session\'s only request open: "replica lag 30s"; a log message is not the request\'s answer and does not decide its outcome';

describe('a log message on the session GET stream', () => {
  it('is named in the why of the only request open when it came', async () => {
    const w = await whys([...getOpen(0), ...call('a', 2, 'sync_all', 100, 60), getLog(120)]);
    expect(w.sync_all).toBe(NAMED);
  });

  it('a less severe message on the request\'s own stream does not take its place, nor the GET\'s mark', async () => {
    const own = [...call('a', 2, 'sync_all', 100, 60)];
    own.splice(2, 0, rec('event', 110, 'a', { event: 'message', data: log('warning', 'slow shard') }));
    const w = await whys([...getOpen(0), ...own, getLog(120)]);
    expect(w.sync_all).toBe(NAMED.replace('a message at level', '2 messages, the most severe at level'));
    const first = await whys([...getOpen(0), ...call('a', 2, 'sync_all', 100, 60).toSpliced(2, 0, rec('event', 110, 'a', { event: 'message', data: log('critical', 'disk full') })), getLog(120)]);
    expect(first.sync_all).toMatch(/^the server logged 2 messages, the most severe at level "critical" on the request's stream \(logger "db"\): "disk full"/);
  });

  it('must not: two requests open when it came: tied to neither', async () => {
    const w = await whys([...getOpen(0), ...call('a', 2, 'sync_all', 100, 60), ...call('b', 3, 'sync_orders', 105, 60), getLog(120)]);
    expect(w.sync_all).toBeUndefined();
    expect(w.sync_orders).toBeUndefined();
  });

  it('must not: it came after the request was answered, or before it was sent', async () => {
    expect((await whys([...getOpen(0), ...call('a', 2, 'sync_all', 100, 60), getLog(200)])).sync_all).toBeUndefined();
    expect((await whys([...getOpen(0), getLog(50), ...call('a', 2, 'sync_all', 100, 60)])).sync_all).toBeUndefined();
  });

  it('must not: a log below warning is not named', async () => {
    expect((await whys([...getOpen(0), ...call('a', 2, 'sync_all', 100, 60), getLog(120, 'info')])).sync_all).toBeUndefined();
  });

  it('must not: a GET written whole at its end (a HAR) gives no time for each event: tied to nothing', async () => {
    const whole = { v: 1, kind: 'exchange', ts: at(0), side: 'client', session: S, method: 'GET', requestHeaders: { accept: 'text/event-stream', 'mcp-session-id': S }, ...sseHead, recvText: `data: ${log('error', 'replica lag 30s')}\n\n`, durationMs: 300 };
    expect((await whys([whole, ...call('a', 2, 'sync_all', 100, 60)])).sync_all).toBeUndefined();
  });
});
