// The side-local join releases its state: finished exchanges, answered requests and the scopes that held them.
import { describe, expect, it } from 'vitest';
import { JoinEngine } from '../../src/join/engine.js';
import { SessionTracker } from '../../src/join/sessions.js';
import { scopeKeyOf, type AttemptView } from '../../src/join/attempt.js';

const T0 = Date.parse('2026-03-01T08:00:00Z');

function run(sessions: number, answered: boolean, progressToken = false) {
  const views: AttemptView[] = [];
  const tracker = new SessionTracker(300_000, () => undefined);
  const engine = new JoinEngine({ windowMs: 60_000, openMs: 600_000, sessions: tracker, onView: (v) => views.push(v) });
  for (let i = 0; i < sessions; i++) {
    const ts = T0 + i * 100;
    const session = `sess-${i}`;
    const src = { file: 'client.ndjson', line: i + 1 };
    engine.request({
      input: 0, ts, side: 'client', xid: `x${i}`, session, conn: undefined, client: undefined, httpMethod: 'POST',
      headers: new Map([['mcp-session-id', session]]), body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { q: i }, ...(progressToken ? { _meta: { progressToken: 1 } } : {}) } },
      src, http: true, weakId: false,
    });
    if (answered) {
      engine.response(0, `x${i}`, 200, new Map([['content-type', 'application/json']]), ts + 5, src);
      engine.payload(0, `x${i}`, { parsed: { jsonrpc: '2.0', id: 1, result: { content: [] } }, hasParsed: true }, ts + 5, src);
      engine.end(0, `x${i}`, 'complete', undefined, ts + 5, src);
    }
    engine.advance(ts - 5_000);
  }
  return { engine, views, lastTs: T0 + sessions * 100 };
}

describe('join engine state', () => {
  it('holds nothing for sessions whose requests were answered, once the sweep has passed', () => {
    const { engine, views, lastTs } = run(2000, true);
    engine.advance(lastTs + 20_000);
    expect(views).toHaveLength(2000);
    expect(views.every((v) => v.response !== undefined)).toBe(true);
    expect(engine.held()).toEqual({ exchanges: 0, open: 0, scopes: 0, tokens: 0 });
  });

  it('remembers the requests that asked for progress only a few seconds after their response (PROGRESS_UNMATCHED)', () => {
    const { engine, views, lastTs } = run(2000, true, true);
    expect(views).toHaveLength(2000);
    // Those answered within RECENT_TOKEN_MS (5 s) of the last sweep (at most every second of log time): ~60 of 2000.
    expect(engine.held().tokens).toBeGreaterThan(0);
    expect(engine.held().tokens).toBeLessThanOrEqual(120);
    engine.advance(lastTs + 20_000);
    expect(engine.held()).toEqual({ exchanges: 0, open: 0, scopes: 0, tokens: 0 });
  });

  it('holds the unanswered requests until 10 minutes of silence pass, then releases them too', () => {
    const { engine, views, lastTs } = run(2000, false);
    const before = engine.held();
    expect(before.open).toBe(2000); // the requests of the last 10 minutes (all of them here) are still open
    // Scopes emptied since the last sweep (10 s of log time, 100 sessions here) may wait for the next one.
    expect(before.scopes).toBeGreaterThanOrEqual(before.open);
    expect(before.scopes).toBeLessThanOrEqual(before.open + 100);
    engine.advance(lastTs + 500_000);
    expect(engine.held().open).toBe(2000);
    // The first step abandons the exchanges (no end came), the next one finalizes what that scheduled.
    engine.advance(lastTs + 700_000);
    engine.advance(lastTs + 800_000);
    expect(views).toHaveLength(2000);
    expect(views.every((v) => v.response === undefined && v.streamEnd === 'cut')).toBe(true);
    expect(engine.held()).toEqual({ exchanges: 0, open: 0, scopes: 0, tokens: 0 });
  });
});

describe("a long-lived session's request ids", () => {
  // One session, one call every 100 ms for 5 minutes; `open` leaves every 10th one unanswered (a slow tool).
  function busy(open: boolean) {
    const tracker = new SessionTracker(240_000, () => undefined, 60_000);
    const engine = new JoinEngine({ windowMs: 60_000, openMs: 600_000, sessions: tracker, onView: () => undefined });
    const headers = new Map([['mcp-session-id', 'S']]);
    const end = T0 + 300_000;
    for (let i = 0, ts = T0; ts < end; i++, ts += 100) {
      const src = { file: 'client.ndjson', line: i + 1 };
      engine.request({ input: 0, ts, side: 'client', xid: `x${i}`, session: 'S', conn: undefined, client: undefined, httpMethod: 'POST', headers, body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search', arguments: { q: i } } }, src, http: true, weakId: false });
      if (!open || i % 10 !== 0) {
        engine.response(0, `x${i}`, 200, new Map([['content-type', 'application/json']]), ts + 5, src);
        engine.payload(0, `x${i}`, { parsed: { jsonrpc: '2.0', id: i, result: { content: [] } }, hasParsed: true }, ts + 5, src);
        engine.end(0, `x${i}`, 'complete', undefined, ts + 5, src);
      }
      engine.advance(ts - 1_000);
      tracker.advance(ts - 1_000);
    }
    return tracker.get(scopeKeyOf('client', 0, 'S'))!;
  }

  it('are forgotten once their exchange ended more than the join window ago, not kept for the close delay', () => {
    const s = busy(false);
    // 3,000 calls; those that ended within the last window and sweep (60 s + up to 30 s + 1 s) are remembered: at most 910.
    expect(s.requestIds.size).toBeGreaterThan(500);
    expect(s.requestIds.size).toBeLessThanOrEqual(910);
    const oldest = Math.min(...[...s.requestIds.values()].map((x) => x.ts!));
    expect(oldest).toBeGreaterThanOrEqual(T0 + 300_000 - 91_100);
  });

  it('must not: an id whose exchange has not ended is kept until the close delay (4 minutes here) has passed since it was sent', () => {
    const s = busy(true);
    const unended = [...s.requestIds.values()].filter((x) => x.end === undefined).map((x) => x.ts!);
    // The unanswered ones of the last 240 s (+ the sweep's 30 s) are kept; the ended ones of the same minutes are not.
    expect(unended.length).toBeGreaterThanOrEqual(240);
    expect(Math.min(...unended)).toBeLessThan(T0 + 300_000 - 200_000);
    expect([...s.requestIds.values()].filter((x) => x.end !== undefined && x.end < T0 + 300_000 - 92_000)).toEqual([]);
  });
});
