// GET_STREAM_REFUSED: the client's GET for the server's stream answered with an HTTP error (not 405, not a lost session).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post, sse, toolText } from '../helpers/analyze.js';
import { recordingRunner, type RecordingView as View } from '../helpers/triage-cli.js';

const S = 'sess-g1';
const init = (t: number, session: string | undefined) =>
  post({ t, id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } }, status: 200, ...(session ? { headers: { 'mcp-session-id': session } } : {}), body: ok(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }) });
const call = (t: number, session: string, id: number) => post({ t, id, session, tool: 'search', status: 200, body: ok(id, toolText('found')) });
const CONFLICT = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' }, id: null });
/** A GET exchange; `accept` null leaves the Accept header out (a log that keeps no headers but the session). */
function get(t: number, o: { session?: string; status: number; body?: string; ct?: string; accept?: string | null; url?: string; lastEventId?: string }) {
  const headers: Record<string, string> = {};
  if (o.accept !== null) headers.accept = o.accept ?? 'text/event-stream';
  if (o.session) headers['mcp-session-id'] = o.session;
  if (o.lastEventId) headers['last-event-id'] = o.lastEventId;
  return { v: 1, kind: 'exchange', ts: at(t), method: 'GET', url: o.url ?? 'http://127.0.0.1:3000/mcp', requestHeaders: headers, status: o.status, responseHeaders: { 'content-type': o.ct ?? 'application/json' }, recvText: o.body ?? '', durationMs: 2 };
}

async function findings(lines: unknown[], side: 'client' | 'server' = 'client') {
  const r = await analyzeInputs([{ side, lines }]);
  return [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => `${f.code}: ${f.message}`);
}
const refused = (fs: string[]) => fs.filter((f) => f.startsWith('GET_STREAM_REFUSED'));

describe('GET_STREAM_REFUSED', () => {
  it('a 409 to the GET stream, retried: one finding that counts them, quotes the body and says what a 409 means', async () => {
    expect(refused(await findings([init(0, S), call(100, S, 1), get(200, { session: S, status: 409, body: CONFLICT }), get(1_200, { session: S, status: 409, body: CONFLICT }), call(2_000, S, 2)]))).toEqual([
      `GET_STREAM_REFUSED: session ${S}: HTTP 409 to the client's GET stream, 2 times over 1.00 s (saying "Conflict: Only one SSE stream is allowed per session"): the stream was not opened, so what the server sends outside a call (list changes, resource updates, its own requests) had no way to the client by it; a 409 is how the TypeScript and Python SDK servers refuse a second GET stream while they hold one for the session (one the client may have lost without the server noticing)`,
    ]);
  });

  it('other statuses each get their own finding, without the 409 note; a log without Accept headers still counts a GET that names its session', async () => {
    const got = refused(await findings([init(0, S), get(100, { session: S, status: 503, body: '<html><head><title>503 Service Unavailable</title></head></html>', ct: 'text/html', accept: null }), get(300, { session: S, status: 409, body: CONFLICT }), call(400, S, 1)]));
    expect(got).toHaveLength(2);
    expect(got[0]).toBe(`GET_STREAM_REFUSED: session ${S}: HTTP 503 to the client's GET stream (saying "503 Service Unavailable"): the stream was not opened, so what the server sends outside a call (list changes, resource updates, its own requests) had no way to the client by it`);
    expect(got[1]).toMatch(/^GET_STREAM_REFUSED: session sess-g1: HTTP 409 to the client's GET stream \(saying/);
  });

  it('a quoted body that names a token survives the redaction of the message (401 "invalid_token")', async () => {
    const expired = JSON.stringify({ error: 'invalid_token', error_description: 'The access token expired' });
    const [f] = refused(await findings([init(0, S), call(100, S, 1), get(200, { session: S, status: 401, body: expired })]));
    expect(f).toMatch(/^GET_STREAM_REFUSED: session sess-g1: HTTP 401 to the client's GET stream \(saying "[^"]+"\): the stream was not opened, so what the server sends outside a call/);
    expect(f).not.toContain('[redacted');
  });

  it('one finding when the client\'s and the server\'s logs both show the refusal', async () => {
    const lines = [init(0, S), call(100, S, 1), get(200, { session: S, status: 409, body: CONFLICT })];
    const r = await analyzeInputs([{ side: 'client', lines }, { side: 'server', lines }]);
    expect(r.findings.filter((f) => f.code === 'GET_STREAM_REFUSED')).toHaveLength(1);
    const sessionless = [get(0, { status: 404, body: 'Cannot GET /sse', ct: 'text/html', url: 'http://127.0.0.1:3000/sse' })];
    const r2 = await analyzeInputs([{ side: 'client', lines: sessionless }, { side: 'server', lines: sessionless }]);
    expect(r2.findings.map((f) => `${f.code}: ${f.message}`)).toEqual([
      // (No initialize before it in either log: the old HTTP+SSE transport's connect, as real-audit12's mp-init-503 records.)
      `GET_STREAM_REFUSED: traffic without a session: HTTP 404 to a GET (saying "Cannot GET /sse"): a GET without a session id, with no initialize before it in this log: that is how a client connects by the old HTTP+SSE transport (2024-11-05), which clients fall back to when their Streamable HTTP initialize failed (mcporter does after any failure but an OAuth one); this endpoint did not serve that transport, so the client got no connection by it`,
    ]);
  });

  // The chaos streams profile (test/real-chaos/real-chaos-streams.test.ts): the server refused a second GET stream (409,
  // in both logs, the server's record a moment earlier), then a hop refused another (409, only in the client's log).
  it("with both logs, the count is the client's, which saw every refusal, though the server's log showed the first", async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [init(0, S), call(100, S, 1), get(201, { session: S, status: 409, body: CONFLICT }), get(1_200, { session: S, status: 409, body: CONFLICT })] },
      { side: 'server', lines: [init(0, S), call(100, S, 1), get(199, { session: S, status: 409, body: CONFLICT })] },
    ]);
    expect(r.findings.filter((f) => f.code === 'GET_STREAM_REFUSED').map((f) => f.message)).toEqual([expect.stringMatching(/^session sess-g1: HTTP 409 to the client's GET stream, 2 times over 1\.00 s/)]);
  });

  it("must not: with both logs, refusals that only the server's log shows are its finding, counted there", async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [init(0, S), call(100, S, 1)] },
      { side: 'server', lines: [init(0, S), call(100, S, 1), get(199, { session: S, status: 409, body: CONFLICT }), get(699, { session: S, status: 409, body: CONFLICT })] },
    ]);
    expect(r.findings.filter((f) => f.code === 'GET_STREAM_REFUSED').map((f) => f.message)).toEqual([expect.stringMatching(/^session sess-g1: HTTP 409 to the client's GET stream, 2 times over 0\.50 s/)]);
  });

  it('is not raised for a 405 (no GET stream offered), a lost session\'s 404 (SESSION_EXPIRED), a 2xx, OAuth discovery or a health check', async () => {
    expect(await findings([init(0, S), get(100, { session: S, status: 405 }), call(200, S, 1)])).toEqual([]);
    expect(await findings([init(0, S), get(100, { session: S, status: 200, ct: 'text/event-stream' }), call(200, S, 1)])).toEqual([]);
    const lost = await findings([init(0, S), call(100, S, 1), get(200, { session: S, status: 404 })]);
    expect(lost.map((f) => f.split(':')[0])).toEqual(['SESSION_EXPIRED']);
    const discovery = get(0, { status: 404, accept: 'application/json', url: 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp' });
    const health = get(10, { status: 404, accept: '*/*', url: 'http://127.0.0.1:3000/healthz' });
    expect(await findings([discovery, health, init(100, S), call(200, S, 1)])).toEqual([]);
  });

  it('is not raised for a GET without a session around the client\'s initialize (a probe, or the old stream while a new session comes)', async () => {
    const probe = get(0, { status: 400, body: 'No sessionId', ct: 'text/plain' });
    expect(await findings([probe, init(50, S), call(100, S, 1)])).toEqual([]);
    expect(await findings([init(0, S), get(10, { status: 400, body: 'No sessionId', ct: 'text/plain' }), call(100, S, 1)])).toEqual([]);
    // LangChain's fallback seen by the server: GET at the MCP URL refused, then the HTTP+SSE session's initialize,
    // whose session is in its URL (real-agents/lc-initialize-429-sse-fallback)
    const legacyInit = { ...init(30, undefined), url: 'http://127.0.0.1:3000/messages?sessionId=abc', status: 202, recvText: 'Accepted' };
    expect(refused(await findings([get(0, { status: 400, body: 'Bad Request: No valid session ID provided' }), legacyInit], 'server'))).toEqual([]);
    expect(refused(await findings([get(0, { status: 400, body: 'Bad Request: No valid session ID provided' })], 'server'))).toHaveLength(1);
  });

  it('is not raised for a refused resumption of a call\'s stream: the call\'s why tells it', async () => {
    const cut = post({ t: 100, id: 1, session: S, tool: 'report', status: 200, ct: 'text/event-stream', body: sse({ id: 'e1', data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }), end: 'error' });
    const lines = [init(0, S), cut, get(300, { session: S, status: 409, body: CONFLICT, lastEventId: 'e1' })];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(r.findings.map((f) => f.code)).not.toContain('GET_STREAM_REFUSED');
    expect(r.attempts.find((a) => a.method === 'tools/call')!.detail.why).toMatch(/the client tried to resume it once \(GET with Last-Event-ID\), answered HTTP 409/);
  });
});

describe('GET_STREAM_REFUSED for the SDK\'s plain GET after a broken resumption (the chaos audit\'s streams profile)', () => {
  // A call whose stream was cut after event e1; the SDK resumes it (Last-Event-ID e1); the hop resets that GET after its
  // head, before any event; 100 ms later the SDK reconnects without Last-Event-ID: a plain GET, refused with 409.
  const cut = post({ t: 100, id: 1, session: S, tool: 'report', status: 200, ct: 'text/event-stream', body: sse({ id: 'e1', data: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }), end: 'error' });
  const brokenResume = { ...get(300, { session: S, status: 200, ct: 'text/event-stream', lastEventId: 'e1' }), end: 'error', error: 'terminated' };

  it('a 409 to that plain GET names it as the reconnect of the call\'s stream, not a stream the client lost', async () => {
    const got = refused(await findings([init(0, S), cut, brokenResume, get(402, { session: S, status: 409, body: CONFLICT })]));
    expect(got).toEqual([
      `GET_STREAM_REFUSED: session ${S}: HTTP 409 to the client's GET stream (saying "Conflict: Only one SSE stream is allowed per session"): the stream was not opened, so what the server sends outside a call (list changes, resource updates, its own requests) had no way to the client by it; it came right after a GET resuming a call's stream (Last-Event-ID) broke before its first event: the client reconnected that stream without Last-Event-ID (it had no event id of it; the TypeScript SDK, 1.x and v2, does so), which asks for the session's standalone stream, not the call's, so the call's response could not come by it; a 409 is how the TypeScript and Python SDK servers refuse a second GET stream while they hold one for the session`,
    ]);
  });

  it('its retry after the refusal is counted with it; a 409 long after is the other reading', async () => {
    const got = refused(await findings([init(0, S), cut, brokenResume, get(402, { session: S, status: 409, body: CONFLICT }), get(610, { session: S, status: 409, body: CONFLICT }), get(20_000, { session: S, status: 409, body: CONFLICT })]));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/, 3 times over 19\.6 s .*; 2 of them came right after a GET resuming a call's stream \(Last-Event-ID\) broke before its first event: .*; a 409 is how the TypeScript and Python SDK servers refuse a second GET stream while they hold one for the session \(one the client may have lost without the server noticing\)$/);
  });

  it('must not: after a resumption that carried an event, or a refused one, a plain GET\'s 409 keeps the lost-stream reading', async () => {
    const carried = { ...brokenResume, recvText: 'id: e2\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}\n\n' };
    const refusedResume = get(300, { session: S, status: 503, ct: 'text/plain', body: 'busy', lastEventId: 'e1' });
    for (const before of [carried, refusedResume]) {
      const got = refused(await findings([init(0, S), cut, before, get(402, { session: S, status: 409, body: CONFLICT })]));
      expect(got).toHaveLength(1);
      expect(got[0]).not.toMatch(/came right after/);
      expect(got[0]).toMatch(/\(one the client may have lost without the server noticing\)$/);
    }
  });
});

describe('GET_STREAM_REFUSED on real recordings', () => {
  const run = recordingRunner<Record<string, unknown>, { code: string; message: string }>(fileURLToPath(new URL('../fixtures/', import.meta.url)));
  it('the SDK 1.32.2 client reconnecting its GET stream after a cut connection, refused with 409 twice (real-audit2/resume-cut-before-event): one finding in each view', () => {
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run('real-audit2/resume-cut-before-event', view);
      const found = r.findings.filter((f) => f.code === 'GET_STREAM_REFUSED');
      expect(found, view).toHaveLength(1);
      expect(found[0]!.message, view).toMatch(/^session [0-9a-f-]{36}: HTTP 409 to the client's GET stream, 2 times over 0\.1\d s \(saying "Conflict: Only one SSE stream is allowed per session"\)/);
    }
  });

  it('mcp-remote\'s GET probes before its session, and its OAuth discovery GETs, are no refused stream (real-bridges/remote-auto-fastmcp)', () => {
    for (const view of ['both', 'client', 'server'] as View[]) {
      expect(run('real-bridges/remote-auto-fastmcp', view).findings.map((f) => f.code), view).not.toContain('GET_STREAM_REFUSED');
    }
  });
});
