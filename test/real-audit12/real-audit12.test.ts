// Twelfth audit (mcporter and mcp-proxy): mcporter 0.12.3's runtime and CLI against the SDK 1.32.2 McpServer, and mcp-proxy 6.7.19 bridging a stdio server with the SDK 1.32.2 and v2 clients (test/fixtures/real-audit12, recorded by record.mjs), read five ways; every expectation is derived from what the app saw (observed.json).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { allCodes, auditKit, codesOf, FIVE_VIEWS, toolCalls as calls, viewNamed as view, type View } from '../helpers/recordings.js';

type Result = Awaited<ReturnType<typeof analyze>>;
interface Err { name: string; message: string; code?: number | string }
interface Step { label: string; ok?: unknown; error?: Err }

const { observed, scenarios, steps, step, hop, serverRan, runView, expectedToolCalls } = auditKit<Step>('real-audit12');

const TOOL_STEP = /^(lookup_order|send_invoice|crash|refuse|slow_report|no_such_tool|die)\b/;

/** What a thrown error says of the wire: an HTTP status, the client's own timeout (no response came), a JSON-RPC error, or nothing sent. */
function fromError(e: Err): string | null {
  if (e.name === 'StreamableHTTPError') return 'HTTP_ERROR'; // its code is the HTTP status
  if (e.code === -32001) return 'STREAM_INCOMPLETE'; // the SDK's own timeout
  if (e.name === 'McpError' && typeof e.code === 'number') return 'JSONRPC_ERROR';
  return null; // mcporter's SSE fallback failed: no tools/call went out
}
function outcomeOf(st: Step): string | null {
  if (st.error) return fromError(st.error);
  const ok = st.ok as { isError?: boolean } | null;
  return ok && ok.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
}
/** The tools/call outcomes a view must show, in order: those the hop answered are not behind it. */
const expectedCalls = (s: string, v: View) => expectedToolCalls(s, v, { toolStep: TOOL_STEP, outcomeOf, codeOf: (st) => st.error!.code });
const sessionsOf = (r: Result) => [...new Set(r.attempts.map((a) => a.session))];

describe('every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual(['mp-503', 'mp-baseline', 'mp-cli', 'mp-cut', 'mp-errors', 'mp-init-503', 'mp-restart', 'px-child-crash', 'px-errors', 'px-mcporter', 'px-restart', 'px-stateless', 'px-timeout', 'px-v2-client']);
  });

  for (const s of scenarios.filter((x) => x !== 'mp-cli')) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: read whole; each tools/call has the outcome its caller got, in order`, async () => {
        const r = await runView(s, v);
        expect(r.summary.inputs.every((i) => i.unusable === 0)).toBe(true);
        expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(expectedCalls(s, v));
      });
    }
  }
});

describe('mcporter 0.12.3: its runtime (createRuntime, callTool) on the SDK 1.32.2 client', () => {
  for (const v of FIVE_VIEWS) {
    it(`must not: mp-baseline / ${v.name}: one session, no finding`, async () => {
      const r = await runView('mp-baseline', v);
      expect(sessionsOf(r)).toHaveLength(1);
      expect(allCodes(r)).toEqual([]);
    });
  }

  it('what happened: tool errors are isError results (no throw, the connection kept); the timeout threw -32001, mcporter closed its connection at once, and the tool ran to its end', () => {
    expect(steps('mp-errors').slice(0, 3).map((x) => (x.ok as { isError: boolean }).isError)).toEqual([true, true, true]);
    expect(step('mp-errors', 'slow_report 10x100 (timeoutMs 300)').error).toMatchObject({ name: 'McpError', code: -32001 });
    expect(serverRan('mp-errors')).toEqual(['crash', 'slow_report 10x100', 'slow_report done', 'lookup_order 1002']);
  });

  for (const v of FIVE_VIEWS) {
    it(`mp-errors / ${v.name}: the call after the timeout went in a new session (mcporter dropped the old one, no DELETE)`, async () => {
      const r = await runView('mp-errors', v);
      expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(2);
      expect(calls(r).at(-1)!.session).not.toBe(calls(r)[0]!.session);
      expect(r.attempts.map((a) => a.method)).not.toContain('DELETE');
    });
  }

  for (const s of ['mp-errors', 'mp-cut']) {
    it(`${s} / client: CANCELLED says the POST that carried the cancellation ended with no response, so the server may never have got it (before: "the client sent notifications/cancelled" alone, though the tool ran to its end)`, async () => {
      const a = calls(await runView(s, view('client'))).find((x) => x.tool === 'slow_report')!;
      const f = a.findings.find((x) => x.code === 'CANCELLED')!;
      expect(f.message).toMatch(/; but the POST that carried it ended \(aborted\) with no response: the client closed it \(as mcporter does, closing its connection right after its timeout\), so the server may never have got the cancellation and may have run the request to its end$/);
      expect(serverRan(s)).toContain('slow_report done');
    });

    it(`${s} / both: CANCELLED says the cancellation never reached the server (its log has none)`, async () => {
      const a = calls(await runView(s, view('both'))).find((x) => x.tool === 'slow_report')!;
      expect(a.findings.find((x) => x.code === 'CANCELLED')!.message).toMatch(/the server's log has no notifications\/cancelled for it: the cancellation never reached the server, which did not stop the request$/);
    });

    for (const name of ['server', 'proxy', 'har']) {
      it(`${s} / ${name}: no cancellation arrived there: NO_FINAL_RESULT, no CANCELLED`, async () => {
        const a = calls(await runView(s, view(name))).find((x) => x.tool === 'slow_report')!;
        expect(codesOf(a)).toEqual(['NO_FINAL_RESULT']);
      });
    }
  }

  for (const v of FIVE_VIEWS) {
    it(`must not: px-timeout / ${v.name}: a cancellation whose POST was answered (202) is CANCELLED as before, and the tool stopped`, async () => {
      const [a] = calls(await runView('px-timeout', v));
      const f = a!.findings.find((x) => x.code === 'CANCELLED')!;
      expect(f.message).toMatch(/^tools\/call slow_report id \d+: the client sent notifications\/cancelled for it after 0\.\d+ s, with the reason "McpError: MCP error -32001: Request timed out" \(its own timeout, not an answer from the server\)$/);
      expect(serverRan('px-timeout')).toContain('slow_report aborted');
    });
  }

  for (const v of FIVE_VIEWS) {
    it(`mp-restart / ${v.name}: the 404 made mcporter drop its connection; the app's next callTool opened a new session by itself: SESSION_EXPIRED, the retry linked`, async () => {
      const r = await runView('mp-restart', v);
      const [, lost, again] = calls(r);
      expect(lost).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32001 } });
      expect(again).toMatchObject({ call: lost!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
      expect(again!.session).not.toBe(lost!.session);
      expect(again!.retryOrigin?.origin).toBe(v.name === 'client' || v.name === 'both' ? 'app' : 'unknown');
      expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
    });
  }

  for (const name of ['client', 'both']) {
    it(`mp-503 / ${name}: after the gateway's 503 mcporter opened a new session; the app's call 0.5 s later is linked across it, RETRY_AFTER_IGNORED (Retry-After: 1)`, async () => {
      const [a, b] = calls(await runView('mp-503', view(name)));
      expect(a).toMatchObject({ status: 503, outcome: 'HTTP_ERROR' });
      expect(b).toMatchObject({ call: a!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
      expect(b!.session).not.toBe(a!.session);
      expect(codesOf(b!).sort()).toEqual(['RETRY_AFTER_IGNORED', 'RETRY_ORIGIN_AMBIGUOUS']);
    });
  }

  for (const name of ['server', 'proxy', 'har']) {
    it(`mp-503 / ${name}: behind the gateway, one attempt and no finding`, async () => {
      const r = await runView('mp-503', view(name));
      expect(calls(r).map((a) => `${a.attempt} ${a.outcome}`)).toEqual(['1 TOOL_SUCCESS']);
      expect(allCodes(r)).toEqual([]);
    });
  }

  it('mp-init-503: after the 503 to initialize mcporter fell back to HTTP+SSE (a GET on the same URL), which the SDK server refused with 400', () => {
    expect(observed('mp-init-503')[0]).toEqual({ mcporterLog: "Falling back to SSE transport for 'orders': Streamable HTTP error: Error POSTing to endpoint: no healthy upstream" });
    expect(step('mp-init-503', 'lookup_order 1001').error).toMatchObject({ name: 'SseError', code: 400 });
    expect(hop('mp-init-503')).toEqual([{ request: 'POST initialize', n: 1, action: 'respond' }, { request: 'GET', n: 1, action: 'forward' }]);
  });

  for (const name of ['server', 'both', 'proxy', 'har']) {
    it(`mp-init-503 / ${name}: GET_STREAM_REFUSED says a sessionless GET before any initialize is an HTTP+SSE connect (before: "the stream was not opened, so what the server sends outside a call had no way to the client")`, async () => {
      const r = await runView('mp-init-503', view(name));
      const f = r.findings.find((x) => x.code === 'GET_STREAM_REFUSED')!;
      expect(f.message).toMatch(/^traffic without a session: HTTP 400 to a GET \(saying "Bad Request: No valid session ID provided"\): a GET without a session id, with no initialize before it in this log: that is how a client connects by the old HTTP\+SSE transport \(2024-11-05\)/);
    });
  }

  it('mp-init-503 / client: the GET is the setup\'s probe; CALL_NEVER_SENT quotes the gateway', async () => {
    const r = await runView('mp-init-503', view('client'));
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
  });

  for (const v of FIVE_VIEWS) {
    it(`must not: px-child-crash / ${v.name}: a GET refused in a session keeps the session stream's words (409, one stream per session)`, async () => {
      const f = (await runView('px-child-crash', v)).findings.find((x) => x.code === 'GET_STREAM_REFUSED')!;
      expect(f.message).toMatch(/HTTP 409 to the client's GET stream \(saying "Conflict: Only one SSE stream is allowed per session"\): the stream was not opened/);
    });
  }

  it('mp-cli: the CLI corrected a near-miss tool name by itself; a tool error exits 1; its own timeout (300 ms) closed the connection with no notifications/cancelled', () => {
    expect(step('mp-cli', 'mcporter call orders.lookup-order orderId=1001').ok).toMatchObject({ exit: 0, stderr: '[mcporter] Auto-corrected tool call to orders.lookup_order (input: orders.lookup-order).' });
    expect(step('mp-cli', 'mcporter call orders.crash').ok).toMatchObject({ exit: 1 });
    expect(step('mp-cli', 'mcporter call orders.slow_report steps=10 stepMs=100 --timeout 300').ok).toMatchObject({ exit: 1, stdout: expect.stringContaining('timed out after 300ms') });
    expect(serverRan('mp-cli')).toEqual(['lookup_order 1001', 'crash', 'slow_report 10x100', 'slow_report done']);
  });

  for (const v of FIVE_VIEWS) {
    it(`mp-cli / ${v.name}: one session per command; the corrected call is a call of its own (another tool), not a retry; the timed-out report NO_FINAL_RESULT without CANCELLED`, async () => {
      const r = await runView('mp-cli', v);
      expect(sessionsOf(r)).toHaveLength(3);
      expect(r.attempts.filter((a) => a.method !== 'initialize').map((a) => `${a.method} ${a.tool ?? ''} ${a.outcome} #${a.attempt}`.replace('  ', ' '))).toEqual([
        'tools/call lookup-order TOOL_ERROR #1', 'tools/list SUCCESS #1', 'tools/call lookup_order TOOL_SUCCESS #1',
        'tools/call crash TOOL_ERROR #1',
        'tools/list SUCCESS #1', 'tools/call slow_report STREAM_INCOMPLETE #1',
      ]);
      expect(allCodes(r)).toEqual(['NO_FINAL_RESULT']);
    });
  }
});

describe('mcp-proxy 6.7.19: a stdio server (SDK 1.32.2) bridged to Streamable HTTP', () => {
  it('px-errors: the stdio server\'s isError results pass as they are; progress crosses (the last step, sent right before the result, not always); the DELETE is accepted', () => {
    expect(step('px-errors', 'crash (the tool throws)').ok).toEqual({ isError: true, text: 'database connection refused' });
    const seen = (step('px-errors', 'slow_report 3x50 with progress').ok as { progressSeen: number[] }).progressSeen;
    expect(seen).toEqual([1, 2, 3].slice(0, Math.max(2, seen.length)));
    expect(step('px-errors', 'terminateSession (DELETE)').ok).toBe('terminated');
  });

  for (const v of FIVE_VIEWS) {
    it(`must not: px-errors / ${v.name}: no finding`, async () => {
      expect(allCodes(await runView('px-errors', v))).toEqual([]);
    });

    it(`px-v2-client / ${v.name}: the v2 client negotiated 2026-07-28 (server/discover, no session); no finding`, async () => {
      expect(step('px-v2-client', 'connect').ok).toEqual({ protocolVersion: '2026-07-28' });
      const r = await runView('px-v2-client', v);
      expect(r.attempts[0]!.method).toBe('server/discover');
      expect(sessionsOf(r)).toEqual([null]);
      expect(allCodes(r)).toEqual([]);
    });

    it(`px-stateless / ${v.name}: --stateless: no session id, no finding`, async () => {
      expect(step('px-stateless', 'sessionId after initialize').ok).toBeNull();
      const r = await runView('px-stateless', v);
      expect(sessionsOf(r)).toEqual([null]);
      expect(allCodes(r)).toEqual([]);
    });

    it(`px-restart / ${v.name}: mcp-proxy restarted answers the old session 404 -32001; SESSION_EXPIRED, the new session's call linked`, async () => {
      const r = await runView('px-restart', v);
      const [, lost, again] = calls(r);
      expect(lost).toMatchObject({ status: 404, detail: { errorCode: -32001, errorMessage: 'Session not found' } });
      expect(again).toMatchObject({ call: lost!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
      expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
    });
  }

  it('px-child-crash: the stdio server exited during a call (-32603 Connection closed); mcp-proxy answers every later call -32603 Not connected, also in a new session whose initialize it answered itself; it does not start the server again', () => {
    expect(step('px-child-crash', 'die (the stdio server exits)').error).toMatchObject({ code: -32603, message: 'MCP error -32603: Connection closed' });
    expect(step('px-child-crash', 'lookup_order 1002 (same session)').error).toMatchObject({ code: -32603, message: 'MCP error -32603: Not connected' });
    expect(step('px-child-crash', 'connect again (a new session)').ok).toBe('connected');
    expect(step('px-child-crash', 'lookup_order 1002 (new session)').error).toMatchObject({ code: -32603, message: 'MCP error -32603: Not connected' });
    expect(serverRan('px-child-crash')).toEqual(['lookup_order 1001', 'die (exit 1)']);
  });

  for (const v of FIVE_VIEWS) {
    it(`px-child-crash / ${v.name}: the whys name the bridge's lost upstream; the app's retry after "Not connected" is no UNSAFE_RETRY (before: an error in the server's and both views, "the server view shows the earlier attempt reached the server")`, async () => {
      const r = await runView('px-child-crash', v);
      const [, die, first, again] = calls(r);
      expect(die!.detail!.why).toMatch(/^"Connection closed" is the TypeScript SDK's error for a request still waiting when its connection closed: a bridge built on it \(mcp-proxy\)/);
      expect(first!.detail!.why).toMatch(/^"Not connected" is the TypeScript SDK's refusal to send on a connection it does not have: .*the request went no further than the bridge$/);
      expect(again).toMatchObject({ call: first!.call, attempt: 2, outcome: 'JSONRPC_ERROR' });
      expect(codesOf(again!)).not.toContain('UNSAFE_RETRY');
      expect(codesOf(again!)).toContain('RETRY_POLICY'); // the app called again 30-50 ms later
    });
  }

  for (const name of ['client', 'both']) {
    it(`px-mcporter / ${name}: mcporter through mcp-proxy: after the rate limiter's 429 it opened a new session; the app's call is linked, no RETRY_AFTER_IGNORED (Retry-After: 0)`, async () => {
      const [, , a, b] = calls(await runView('px-mcporter', view(name)));
      expect(a).toMatchObject({ tool: 'send_invoice', status: 429, outcome: 'HTTP_ERROR' });
      expect(b).toMatchObject({ call: a!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
      expect(b!.session).not.toBe(a!.session);
      expect(codesOf(b!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    });
  }
});
