// The join and the call linker release their state: finished exchanges, answered requests, the scopes that held them, and what was kept per caller.
import { describe, expect, it } from 'vitest';
import { JoinEngine } from '../../src/join/engine.js';
import { SessionTracker } from '../../src/join/sessions.js';
import { scopeKeyOf, type AttemptView } from '../../src/join/attempt.js';
import { Matcher } from '../../src/join/match.js';
import { CallLinker } from '../../src/calls.js';
import { DEFAULT_POLICY } from '../../src/findings/rules.js';
import { TOOL_LISTS_KEPT } from '../../src/join/tool-lists.js';

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
    expect(engine.held()).toEqual({ exchanges: 0, open: 0, scopes: 0, tokens: 0, reconnects: 0 });
  });

  it('remembers the requests that asked for progress only a few seconds after their response (PROGRESS_UNMATCHED)', () => {
    const { engine, views, lastTs } = run(2000, true, true);
    expect(views).toHaveLength(2000);
    // Those answered within RECENT_TOKEN_MS (5 s) of the last sweep (at most every second of log time): ~60 of 2000.
    expect(engine.held().tokens).toBeGreaterThan(0);
    expect(engine.held().tokens).toBeLessThanOrEqual(120);
    engine.advance(lastTs + 20_000);
    expect(engine.held()).toEqual({ exchanges: 0, open: 0, scopes: 0, tokens: 0, reconnects: 0 });
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
    expect(engine.held()).toEqual({ exchanges: 0, open: 0, scopes: 0, tokens: 0, reconnects: 0 });
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

describe('the plain GETs after broken resumptions (the TypeScript SDK reconnecting a stream that gave it no event id)', () => {
  // Each session: a tools/call whose SSE stream sent a priming event and was cut, a GET resuming it (Last-Event-ID)
  // that ended before its first event, then the SDK's plain GET without Last-Event-ID (refused with 409).
  function reconnecting(sessions: number) {
    const views: AttemptView[] = [];
    const tracker = new SessionTracker(300_000, () => undefined);
    const engine = new JoinEngine({ windowMs: 60_000, openMs: 600_000, sessions: tracker, onView: (v) => views.push(v) });
    const sse = new Map([['content-type', 'text/event-stream']]);
    for (let i = 0; i < sessions; i++) {
      const t = T0 + i * 100;
      const session = `sess-${i}`;
      const src = { file: 'client.ndjson', line: i * 3 + 1 };
      const get = (xid: string, extra: [string, string][]) => engine.request({ input: 0, ts: t + (extra.length ? 30 : 50), side: 'client', xid, session, conn: undefined, client: undefined, httpMethod: 'GET', headers: new Map([['mcp-session-id', session], ...extra]), body: undefined, src, http: true, weakId: false });
      engine.request({ input: 0, ts: t, side: 'client', xid: `p${i}`, session, conn: undefined, client: undefined, httpMethod: 'POST', headers: new Map([['mcp-session-id', session]]), body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'report', arguments: { n: i } } }, src, http: true, weakId: false });
      engine.response(0, `p${i}`, 200, sse, t + 5, src);
      engine.payload(0, `p${i}`, { sse: { id: 'ev-1', data: '', hasData: true }, hasParsed: false, timing: 'order' }, t + 6, src);
      engine.end(0, `p${i}`, 'error', 'terminated', t + 20, src);
      get(`r${i}`, [['last-event-id', 'ev-1']]);
      engine.response(0, `r${i}`, 200, sse, t + 31, src);
      engine.end(0, `r${i}`, 'error', 'terminated', t + 40, src);
      get(`g${i}`, []);
      engine.response(0, `g${i}`, 409, new Map(), t + 51, src);
      engine.end(0, `g${i}`, 'complete', undefined, t + 52, src);
      engine.advance(t - 5_000);
    }
    return { engine, views, lastTs: T0 + sessions * 100 };
  }

  it("are told to the call they reconnect (the view's why has them)", () => {
    const { engine, views, lastTs } = reconnecting(10);
    engine.advance(lastTs + 700_000);
    engine.advance(lastTs + 800_000);
    const calls = views.filter((v) => v.method === 'tools/call');
    expect(calls).toHaveLength(10);
    expect(calls.every((v) => v.plainGetAfter?.length === 1 && v.plainGetAfter[0]!.status === 409)).toBe(true);
  });

  it("keep the latest 4,096 sessions' reconnect chains, not one per session of the whole log", () => {
    const { engine } = reconnecting(6000);
    expect(engine.held().reconnects).toBeGreaterThanOrEqual(4096);
    expect(engine.held().reconnects).toBeLessThanOrEqual(4096 + 512);
  });
});

describe('tools/list answers kept for the calls to come', () => {
  // A recording proxy's log of a stateless server: every request on a connection of its own (a conn per request), no
  // session id; each connection lists the tools once. The caller is the connection: one tool list per caller.
  function listing(connections: number) {
    const attempts: string[] = [];
    const m = new Matcher({ windowMs: 60_000, skewMs: 0, bothSides: false, onAttempt: (a) => attempts.push(a.method) });
    const tracker = new SessionTracker(300_000, () => undefined);
    const engine = new JoinEngine({ windowMs: 60_000, openMs: 600_000, sessions: tracker, onView: (v) => m.add(v) });
    const tools = [{ name: 'delete_file', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } }];
    for (let i = 0; i < connections; i++) {
      const ts = T0 + i * 100;
      const src = { file: 'proxy.ndjson', line: i + 1 };
      engine.request({ input: 0, ts, side: 'client', xid: `x${i}`, session: null, conn: `c${i}`, client: undefined, httpMethod: 'POST', headers: new Map(), body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, src, http: true, weakId: false });
      engine.response(0, `x${i}`, 200, new Map([['content-type', 'application/json']]), ts + 5, src);
      engine.payload(0, `x${i}`, { parsed: { jsonrpc: '2.0', id: 1, result: { tools } }, hasParsed: true }, ts + 5, src);
      engine.end(0, `x${i}`, 'complete', undefined, ts + 5, src);
      engine.advance(ts - 5_000);
      m.advance(ts - 70_000);
    }
    return { m, attempts };
  }

  it('are learned per caller (the connection that asked)', () => {
    const { m, attempts } = listing(50);
    expect(m.toolListCount.callers).toBe(50);
    m.flush();
    expect(attempts).toEqual(Array(50).fill('tools/list'));
  });

  it(`keep the latest ${TOOL_LISTS_KEPT} callers' lists, not one per connection of the whole log`, () => {
    const { m } = listing(6000);
    expect(m.toolListCount.callers).toBeGreaterThanOrEqual(TOOL_LISTS_KEPT);
    expect(m.toolListCount.callers).toBeLessThanOrEqual(TOOL_LISTS_KEPT + TOOL_LISTS_KEPT / 8);
  });
});

describe("the callers' last times (their last tools/call, initialize and connect) kept by the call linker", () => {
  // A fleet's log: each process (the record's client field, as the benchmark's generator writes it: app-N@version)
  // initializes once (clientInfo named) and calls a tool, then is never seen again. The linker keeps when each caller
  // last did so, for the findings of the calls and sessions to come; a log of many must not keep an entry per each.
  function connections(n: number) {
    const tools: string[] = [];
    const linker = new CallLinker({ retryWindowMs: 60_000, policy: DEFAULT_POLICY, idempotent: new Set(), onAttempt: (a) => tools.push(a.method), onFinding: () => undefined });
    const m = new Matcher({ windowMs: 60_000, skewMs: 0, bothSides: false, onAttempt: (a) => linker.attempt(a) });
    const tracker = new SessionTracker(300_000, () => undefined);
    const engine = new JoinEngine({ windowMs: 60_000, openMs: 600_000, sessions: tracker, onView: (v) => m.add(v) });
    let line = 0;
    const exchange = (conn: string, ts: number, body: Record<string, unknown>, result: Record<string, unknown>) => {
      const src = { file: 'proxy.ndjson', line: ++line };
      const xid = `x${line}`;
      engine.request({ input: 0, ts, side: 'client', xid, session: null, conn, client: `agent-${conn}@1.0.0`, httpMethod: 'POST', headers: new Map(), body, src, http: true, weakId: false });
      engine.response(0, xid, 200, new Map([['content-type', 'application/json']]), ts + 5, src);
      engine.payload(0, xid, { parsed: { jsonrpc: '2.0', id: body.id, result }, hasParsed: true }, ts + 5, src);
      engine.end(0, xid, 'complete', undefined, ts + 5, src);
    };
    for (let i = 0; i < n; i++) {
      const ts = T0 + i * 100;
      exchange(`c${i}`, ts, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } } }, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } });
      exchange(`c${i}`, ts + 10, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { q: i } } }, { content: [] });
      engine.advance(ts - 5_000);
      m.advance(ts - 70_000);
    }
    engine.flush();
    m.flush();
    return { linker, tools };
  }

  it('are kept for every caller of a log of few', () => {
    const { linker } = connections(100);
    // each caller under its key and under its key with its client's name
    expect(linker.callerTimesCount).toBe(200);
  });

  it("keep the latest callers' only, not one per connection of the whole log", () => {
    const { linker, tools } = connections(6000);
    expect(tools.length).toBe(12_000);
    expect(linker.callerTimesCount).toBeGreaterThanOrEqual(8192);
    expect(linker.callerTimesCount).toBeLessThanOrEqual(8192 + 1024);
  });
});
