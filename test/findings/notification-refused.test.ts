// NOTIFICATION_REFUSED: a POST with no request in it (a notification, an answer to the server) answered with an HTTP error.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post, toolText } from '../helpers/analyze.js';

const S = 'sess-n1';
const init = (t: number, session: string) =>
  post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } }, status: 200, headers: { 'mcp-session-id': session }, body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) });
const notify = (t: number, session: string, status: number, body = '', ct?: string, send: unknown = { jsonrpc: '2.0', method: 'notifications/initialized' }) =>
  post({ t, session, send, status, body, ...(ct ? { ct } : {}) });
const call = (t: number, session: string, id: number) => post({ t, id, session, tool: 'search', status: 200, body: ok(id, toolText('found')) });

async function findings(lines: unknown[]) {
  const r = await analyzeInputs([{ side: 'client', lines }]);
  return [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => `${f.code}: ${f.message}`);
}

describe('NOTIFICATION_REFUSED', () => {
  it('a 503 to notifications/initialized, then a new session: named, with what followed', async () => {
    expect(await findings([init(0, S), notify(20, S, 503), init(300, 'sess-n2'), notify(320, 'sess-n2', 202), call(400, 'sess-n2', 1)])).toEqual([
      `NOTIFICATION_REFUSED: session ${S}: HTTP 503 to its notifications/initialized, a POST with no request in it: it was not accepted, so the session never became usable (the TypeScript SDK's connect(), 1.x and v2, throws on that refusal, and no request worked in this session after it); the client began a new session (initialize) after it`,
    ]);
  });

  it("a client that went on after the refused notifications/initialized (the Python SDK) is not said to have stopped there: its own failed requests made the session unusable (real-chaos-py/sessions-seed-5, -6)", async () => {
    // The Python SDK 2.3.0 ignores a notification's HTTP error and sends tools/list in the session; here that failed too.
    const list503 = post({ t: 100, id: 1, session: S, method: 'tools/list', params: {}, status: 503, body: 'Service Unavailable', ct: 'text/plain' });
    const got = (await findings([init(0, S), notify(20, S, 503), list503, init(400, 'sess-n2'), notify(420, 'sess-n2', 202), call(500, 'sess-n2', 1)])).filter((f) => f.startsWith('NOTIFICATION_REFUSED'));
    expect(got).toEqual([
      `NOTIFICATION_REFUSED: session ${S}: HTTP 503 to its notifications/initialized, a POST with no request in it: it was not accepted, and the session never became usable: the client went on regardless (as the Python SDK does, which ignores that refusal), but the request sent in it afterwards failed; the client began a new session (initialize) after it`,
    ]);
    // Must not: a client that sent nothing more in the session (the TypeScript SDK's connect() threw) is said so.
    const stopped = (await findings([init(0, S), notify(20, S, 503), init(400, 'sess-n2'), notify(420, 'sess-n2', 202), call(500, 'sess-n2', 1)])).filter((f) => f.startsWith('NOTIFICATION_REFUSED'));
    expect(stopped[0]).toContain("so the session never became usable (the TypeScript SDK's connect(), 1.x and v2, throws on that refusal");
    expect(stopped[0]).not.toContain('went on regardless');
  });

  it('a session that went on after its refused notifications/initialized is said to have gone on, though the client connected again later (real-chaos-py/sessions-seed-5, -6)', async () => {
    // The Python SDK went on in the session (tools/list, calls worked); a reset much later made the app connect again.
    const list = post({ t: 100, id: 1, session: S, method: 'tools/list', params: {}, status: 200, body: ok(1, { tools: [] }) });
    const got = (await findings([init(0, S), notify(20, S, 503), list, call(200, S, 2), init(2000, 'sess-n2'), notify(2020, 'sess-n2', 202), call(2100, 'sess-n2', 1)])).filter((f) => f.startsWith('NOTIFICATION_REFUSED'));
    expect(got).toEqual([
      `NOTIFICATION_REFUSED: session ${S}: HTTP 503 to its notifications/initialized, a POST with no request in it: it was not accepted (the TypeScript SDK's connect() throws on that); the session went on`,
    ]);
    // Must not: nothing worked in the session after the refusal, then a new session: that is what followed.
    const next = (await findings([init(0, S), notify(20, S, 503), init(300, 'sess-n2'), notify(320, 'sess-n2', 202), call(400, 'sess-n2', 1)])).filter((f) => f.startsWith('NOTIFICATION_REFUSED'));
    expect(next[0]).toMatch(/; the client began a new session \(initialize\) after it$/);
  });

  it('says whether the session went on or nothing more came, and quotes the body', async () => {
    const cancelled = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } };
    const [wentOn] = (await findings([init(0, S), notify(20, S, 202), notify(100, S, 500, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'queue full' } }), 'application/json', cancelled), call(200, S, 1)])).filter((f) => f.startsWith('NOTIFICATION_REFUSED'));
    expect(wentOn).toBe(`NOTIFICATION_REFUSED: session ${S}: HTTP 500 to its notifications/cancelled, a POST with no request in it (saying "queue full"): it was not accepted; the session went on`);
    const answer = { jsonrpc: '2.0', id: 4, result: { action: 'accept', content: {} } };
    const [nothing] = await findings([init(0, S), notify(20, S, 202), notify(100, S, 413, '<html><head><title>413 Request Entity Too Large</title></head></html>', 'text/html', answer)]);
    expect(nothing).toBe(`NOTIFICATION_REFUSED: session ${S}: HTTP 413 to its answer to the server's request id 4, a POST with no request in it (saying "413 Request Entity Too Large"): it was not accepted; nothing more came in this session`);
  });

  it('is not raised for a 202, nor for a lost session (404, or 400 saying so), which is SESSION_EXPIRED', async () => {
    expect(await findings([init(0, S), notify(20, S, 202), call(100, S, 1)])).toEqual([]);
    const lost = await findings([init(0, S), notify(20, S, 202), call(100, S, 1), notify(500, S, 404, '', 'text/plain', { jsonrpc: '2.0', method: 'notifications/roots/list_changed' })]);
    expect(lost.map((f) => f.split(':')[0])).toEqual(['SESSION_EXPIRED']);
    const said = await findings([init(0, S), notify(20, S, 202), call(100, S, 1), notify(500, S, 400, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }), 'application/json', { jsonrpc: '2.0', method: 'notifications/roots/list_changed' })]);
    expect(said.map((f) => f.split(':')[0])).toEqual(['SESSION_EXPIRED']);
    // the same 400 after the session's GET stream was refused so first (real-old-sdk/c113-s113-cut-then-restart)
    const get = { v: 1, kind: 'exchange', ts: '2026-10-17T10:00:00.400Z', method: 'GET', requestHeaders: { 'mcp-session-id': S, accept: 'text/event-stream' }, status: 400, responseHeaders: { 'content-type': 'text/plain' }, recvText: 'Bad Request: No valid session ID provided', end: 'complete' };
    const twice = await findings([init(0, S), notify(20, S, 202), call(100, S, 1), get, notify(500, S, 400, 'Bad Request: No valid session ID provided', 'text/plain', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })]);
    expect(twice.filter((f) => f.startsWith('NOTIFICATION_REFUSED'))).toEqual([]);
  });

  it('names a POST whose body is not JSON and that was refused (tmcp\'s 400 Parse error), not one that was accepted', async () => {
    const broken = (status: number) => ({ v: 1, kind: 'exchange', ts: '2026-10-17T10:00:00.050Z', method: 'POST', requestHeaders: { 'content-type': 'application/json', 'mcp-session-id': S }, sendText: '{"jsonrpc":"2.0","id":9,"method":"tools/call",', status, responseHeaders: { 'content-type': 'application/json' }, recvText: status === 400 ? JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }) : '', end: 'complete' });
    expect(await findings([init(0, S), notify(20, S, 202), broken(400)])).toEqual([
      `NOTIFICATION_REFUSED: session ${S}: HTTP 400 to a body that is not JSON, a POST with no request in it (saying "Parse error"): it was not accepted; nothing more came in this session`,
    ]);
    expect(await findings([init(0, S), notify(20, S, 202), broken(202)])).toEqual([]);
  });

  it('is not raised for a redirect (fetch follows it: real-audit2/redirect-trailing-slash)', async () => {
    expect(await findings([init(0, S), notify(20, S, 307, '', undefined), notify(25, S, 202), call(100, S, 1)])).toEqual([]);
  });

  it('one finding when the client\'s and the server\'s logs both show the refusal', async () => {
    const lines = [init(0, S), notify(20, S, 503), init(300, 'sess-n2'), notify(320, 'sess-n2', 202), call(400, 'sess-n2', 1)];
    const r = await analyzeInputs([{ side: 'client', lines }, { side: 'server', lines }]);
    expect(r.findings.filter((f) => f.code === 'NOTIFICATION_REFUSED')).toHaveLength(1);
  });
});
