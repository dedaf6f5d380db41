// A 404 to a GET that resumes a call's stream (Last-Event-ID): SESSION_EXPIRED only when the session did not go on.
// The chaos streams profile (test/real-chaos/real-chaos-streams.test.ts): a hop refused the resumption with 404, the
// SDK resumed again and got the answer, and the session went on; that read as a lost session.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = 'sess-1';
const rec = (kind: string, t: number, xid: string, extra: Record<string, unknown>) => ({ v: 1, kind, ts: at(t), side: 'client', session: S, xid, ...extra });
const sseHead = { status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } };
const result = JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } });
const lines = (after: Record<string, unknown>[]) => [
  rec('request', 0, 'x-1', { method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow_report', arguments: {} } } }),
  rec('response', 5, 'x-1', sseHead),
  rec('event', 6, 'x-1', { id: 'ev-1', data: '' }),
  rec('end', 120, 'x-1', { end: 'error', error: 'terminated' }),
  rec('request', 220, 'x-2', { method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream', 'last-event-id': 'ev-1' } }),
  rec('response', 222, 'x-2', { status: 404, responseHeaders: { 'content-type': 'text/plain' } }),
  rec('end', 223, 'x-2', { end: 'complete', recvText: 'Not Found' }),
  ...after,
];

describe('a 404 to a resumption GET', () => {
  it('is no SESSION_EXPIRED when the server answered in the session after it (the next resumption brought the result)', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: lines([
      rec('request', 420, 'x-3', { method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream', 'last-event-id': 'ev-1' } }),
      rec('response', 422, 'x-3', sseHead),
      rec('event', 430, 'x-3', { id: 'ev-2', event: 'message', data: result }),
      rec('end', 431, 'x-3', { end: 'complete' }),
    ]) }]);
    expect(r.attempts.filter((a) => a.method === 'tools/call')).toMatchObject([{ outcome: 'TOOL_SUCCESS', resumed: true }]);
    expect(r.findings).toEqual([]);
  });

  it('must not: is SESSION_EXPIRED when nothing worked in the session after it (a server restarted mid-call)', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: lines([]) }]);
    expect(r.findings.map((f) => [f.code, f.message])).toEqual([['SESSION_EXPIRED', expect.stringContaining("HTTP 404 to a GET resuming a call's stream (Last-Event-ID), which carried the session id")]]);
  });

  // The Python SDK client against a restarted SDK 1.32.2 server (test/real-xsdk-resume py-ts-restart): its resumptions
  // got 404, then its DELETE as it closed; the finding named only the DELETE, as "a notification or a response".
  it('is named by the resumption, not by the DELETE the client sent as it closed', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: lines([
      rec('request', 400, 'x-3', { method: 'DELETE', requestHeaders: { 'mcp-session-id': S } }),
      rec('response', 402, 'x-3', { status: 404, responseHeaders: { 'content-type': 'application/json' } }),
      rec('end', 403, 'x-3', { end: 'complete', recvText: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}' }),
    ]) }]);
    expect(r.findings.map((f) => [f.code, f.message])).toEqual([['SESSION_EXPIRED', expect.stringContaining("HTTP 404 to a GET resuming a call's stream (Last-Event-ID), which carried the session id")]]);
  });

  it('must not: a refusal of the GET stream (not a DELETE) after it still takes its place', async () => {
    const r = await analyzeInputs([{ side: 'client', lines: lines([
      rec('request', 400, 'x-3', { method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream' } }),
      rec('response', 402, 'x-3', { status: 404, responseHeaders: { 'content-type': 'text/plain' } }),
      rec('end', 403, 'x-3', { end: 'complete', recvText: 'Not Found' }),
    ]) }]);
    expect(r.findings.map((f) => [f.code, f.message])).toEqual([['SESSION_EXPIRED', expect.stringContaining('HTTP 404 to the GET stream, which carried the session id')]]);
  });
});
