// The loose join (client views without a session id meeting server views that have one) starts only for a log that leaves session ids out, not for a refused initialize.
import { describe, expect, it } from 'vitest';
import { JoinEngine } from '../../src/join/engine.js';
import { SessionTracker } from '../../src/join/sessions.js';
import { Matcher } from '../../src/join/match.js';

const T0 = Date.parse('2026-03-01T08:00:00Z');

/** A client log's first POST (an initialize answered `status`, or a call logged without its session id), then 500 server views of calls in sessions. */
function run(first: { method: 'initialize' | 'tools/call'; status: number; session: string | null }) {
  const m = new Matcher({ windowMs: 60_000, skewMs: 120_000, bothSides: true, onAttempt: () => undefined });
  const engine = new JoinEngine({ windowMs: 60_000, openMs: 600_000, sessions: new SessionTracker(300_000, () => undefined), onView: (v) => m.add(v) });
  const post = (input: number, side: 'client' | 'server', xid: string, ts: number, session: string | null, method: string, status: number, answer: unknown) => {
    const src = { file: `${side}.ndjson`, line: ts - T0 + 1 };
    const headers = new Map<string, string>(session === null ? [] : [['mcp-session-id', session]]);
    const params = method === 'initialize' ? { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'app', version: '1' } } : { name: 'search', arguments: { q: xid } };
    engine.request({ input, ts, side, xid, session, conn: undefined, client: undefined, httpMethod: 'POST', headers, body: { jsonrpc: '2.0', id: 1, method, params }, src, http: true, weakId: false });
    engine.response(input, xid, status, new Map([['content-type', 'application/json']]), ts + 5, src);
    if (answer !== undefined) engine.payload(input, xid, { parsed: answer, hasParsed: true }, ts + 5, src);
    engine.end(input, xid, 'complete', undefined, ts + 5, src);
  };
  post(0, 'client', 'c0', T0, first.session, first.method, first.status, first.status >= 400 ? undefined : { jsonrpc: '2.0', id: 1, result: { content: [] } });
  for (let i = 1; i <= 500; i++) post(1, 'server', `s${i}`, T0 + i * 10, `sess-${i}`, 'tools/call', 200, { jsonrpc: '2.0', id: 1, result: { content: [] } });
  return m;
}

describe('the loose join', () => {
  it('is not started by an initialize refused with 503 (no session opened): no server view is held for it', () => {
    const m = run({ method: 'initialize', status: 503, session: null });
    expect(m.looseCount).toEqual({ on: false, entries: 0 });
  });

  it('is not started by an initialize refused with 401 either', () => {
    expect(run({ method: 'initialize', status: 401, session: null }).looseCount).toEqual({ on: false, entries: 0 });
  });

  it('must not: a call logged without its session id (a logger that left Mcp-Session-Id out) starts it, and the server views wait in it', () => {
    const m = run({ method: 'tools/call', status: 200, session: null });
    expect(m.looseCount.on).toBe(true);
    expect(m.looseCount.entries).toBeGreaterThan(400);
  });

  it('must not: an initialize that worked, logged without the session id its answer opened, starts it', () => {
    const m = run({ method: 'initialize', status: 200, session: null });
    expect(m.looseCount.on).toBe(true);
  });
});
