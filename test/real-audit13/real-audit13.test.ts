// Thirteenth audit (published servers): mongodb-mcp-server 3.0.4 (its database down) and @playwright/mcp 0.0.86 (no browser) on their Streamable HTTP transport, with the SDK 1.32.2, v2 2.4.0 and Python 2.3.0 clients (test/fixtures/real-audit13, recorded by record.mjs), read five ways; every expectation is derived from what the app saw (observed.json).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { allCodes, auditKit, codesOf, FIVE_VIEWS, toolCalls as calls, viewNamed as view, type View } from '../helpers/recordings.js';

type Result = Awaited<ReturnType<typeof analyze>>;
interface Err { name: string; message: string; code?: number | string }
interface Step { label: string; ok?: unknown; error?: Err }
interface PyStep { step: string; ok: boolean; summary?: { isError?: boolean }; error?: Err }

const { observed, scenarios, step, runView, expectedToolCalls } = auditKit<Step>('real-audit13');
const serverLog = (s: string) => (observed(s).find((x) => x.serverLog) as { serverLog: string[] } | undefined)?.serverLog ?? [];
const python = (s: string) => (observed(s).find((x) => x.python) as { python: { steps: PyStep[]; notes: Record<string, unknown>[] } }).python;
const sessionsOf = (r: Result) => [...new Set(r.attempts.map((a) => a.session))];

// The steps that are tool calls (the `connect` tool, not a client's connect), the tool's name first.
const TOOL_STEP = /^(?:app-[ab] )?(list-connections|list-databases|list-collections|find|connect(?= to)|count|aggregate|delete-many|collection-schema|no_such_tool|browser_navigate|browser_tabs)\b/;

/** What a thrown error says of the wire: an HTTP status, the client's own timeout (no response came), a JSON-RPC error. */
function fromError(e: Err, noHead: boolean): string {
  if (e.name === 'StreamableHTTPError') return 'HTTP_ERROR'; // its code is the HTTP status
  if (e.code === -32001) return noHead ? 'NO_RESPONSE' : 'STREAM_INCOMPLETE'; // the client's own timeout
  return 'JSONRPC_ERROR';
}
const fromResult = (isError: boolean | undefined) => (isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS');

/** The tools/call outcomes a view must show, in order: those the hop answered are not behind it. */
function expectedCalls(s: string, v: View): string[] {
  if (s.startsWith('py-')) {
    // The Python client on 2026-07-28 (py-mdb): its timeout closed the request before mongodb-mcp-server sent any head.
    return python(s).steps.filter((x) => x.step !== 'list_tools').map((x) => `${x.step.split(' ')[0]} ${x.ok ? fromResult(x.summary?.isError) : fromError(x.error!, true)}`);
  }
  return expectedToolCalls(s, v, { toolStep: TOOL_STEP, outcomeOf: (st) => (st.error ? fromError(st.error, false) : fromResult((st.ok as { isError?: boolean } | null)?.isError)), codeOf: (st) => st.error?.code });
}

describe('every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual(['mdb-503', 'mdb-cut', 'mdb-errors', 'mdb-idle', 'mdb-json', 'mdb-keepalive', 'mdb-max-sessions', 'mdb-restart', 'mdb-timeout', 'mdb-v2-client', 'pw-429', 'pw-errors', 'pw-restart', 'pw-roots', 'pw-v2-client', 'py-mdb', 'py-pw']);
  });

  for (const s of scenarios) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: read whole; each tools/call has the outcome its caller got, in order`, async () => {
        const r = await runView(s, v);
        expect(r.summary.inputs.every((i) => i.unusable === 0)).toBe(true);
        expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(expectedCalls(s, v));
      });
    }
  }
});

describe('mongodb-mcp-server 3.0.4, its database down', () => {
  it('what happened: tools answer isError results (the driver\'s error), bad arguments isError, an unknown tool -32602', () => {
    expect(step('mdb-errors', 'list-databases (database down)').ok).toMatchObject({ isError: true, text: expect.stringMatching(/^Could not connect to MongoDB\. Last error: connect ECONNREFUSED/) });
    expect(step('mdb-errors', 'find without connectionId (bad arguments)').ok).toMatchObject({ isError: true, text: expect.stringMatching(/^Input validation error: Invalid arguments for tool find: connectionId/) });
    expect(step('mdb-errors', 'no_such_tool').error).toMatchObject({ code: -32602, message: 'MCP error -32602: Tool no_such_tool not found' });
    expect(serverLog('mdb-errors').some((l) => l.includes('Error executing list-databases'))).toBe(true);
  });

  for (const s of ['mdb-errors', 'mdb-json', 'mdb-keepalive', 'mdb-v2-client']) {
    for (const v of FIVE_VIEWS) {
      it(`must not: ${s} / ${v.name}: tool errors and an unknown tool raise no finding`, async () => {
        expect(allCodes(await runView(s, v))).toEqual([]);
      });
    }
  }

  for (const v of FIVE_VIEWS) {
    it(`mdb-errors / ${v.name}: the tool errors carry the driver's error as their why`, async () => {
      const [, down] = calls(await runView('mdb-errors', v));
      expect(down).toMatchObject({ tool: 'list-databases', outcome: 'TOOL_ERROR', detail: { errorMessage: expect.stringMatching(/^Could not connect to MongoDB/) } });
    });
  }

  it('mdb-keepalive: the server sent its keep-alive "ping" as a notification on the GET stream, which the SDK client took', () => {
    expect(observed('mdb-keepalive')).toContainEqual({ notificationSeen: 'ping' });
  });

  for (const v of FIVE_VIEWS) {
    it(`mdb-v2-client / ${v.name}: the v2 client negotiated 2026-07-28 (server/discover, no session)`, async () => {
      expect(step('mdb-v2-client', 'connect').ok).toEqual({ protocolVersion: '2026-07-28', sessionId: null });
      const r = await runView('mdb-v2-client', v);
      expect(r.attempts[0]!.method).toBe('server/discover');
      expect(sessionsOf(r)).toEqual([null]);
    });
  }

  for (const s of ['mdb-restart', 'mdb-idle']) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: the old session gets 404 -32003 "session not found"; SESSION_EXPIRED, the new session's call linked`, async () => {
        const r = await runView(s, v);
        const [, lost, again] = calls(r);
        expect(lost).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32003, errorMessage: 'session not found' } });
        expect(again).toMatchObject({ call: lost!.call, attempt: 2 });
        expect(again!.session).not.toBe(lost!.session);
        expect(again!.retryOrigin?.origin).toBe(v.name === 'client' || v.name === 'both' ? 'app' : 'unknown');
        expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
      });
    }
  }

  for (const name of ['client', 'both']) {
    it(`must not: mdb-503 / ${name}: the app waited 1.1 s after the gateway's 503 (Retry-After: 1): linked, no RETRY_AFTER_IGNORED`, async () => {
      const [a, b] = calls(await runView('mdb-503', view(name)));
      expect(a).toMatchObject({ status: 503, outcome: 'HTTP_ERROR' });
      expect(b).toMatchObject({ call: a!.call, attempt: 2, retryOrigin: { origin: 'app' } });
      expect(codesOf(b!)).toEqual([]);
    });
  }

  for (const name of ['server', 'proxy', 'har']) {
    it(`mdb-503 / ${name}: behind the gateway, one attempt and no finding`, async () => {
      const r = await runView('mdb-503', view(name));
      expect(calls(r).map((a) => `${a.attempt} ${a.outcome}`)).toEqual(['1 TOOL_ERROR']);
      expect(allCodes(r)).toEqual([]);
    });
  }

  it('mdb-timeout: what happened: the database host hangs; both tools timed out at 500 ms and ran on, the app called each again; tools/list says aggregate is read-only, delete-many destructive', () => {
    expect(step('mdb-timeout', 'tools/list').ok).toEqual([
      { name: 'aggregate', annotations: { title: 'aggregate', readOnlyHint: true, destructiveHint: false, openWorldHint: true } },
      { name: 'delete-many', annotations: { title: 'delete-many', readOnlyHint: false, destructiveHint: true, openWorldHint: true } },
    ]);
    expect(step('mdb-timeout', 'delete-many shop.orders (client timeout 500 ms)').error).toMatchObject({ code: -32001 });
    expect(serverLog('mdb-timeout').filter((l) => /Error executing (aggregate|delete-many)/.test(l))).toHaveLength(4);
  });

  for (const v of FIVE_VIEWS) {
    it(`mdb-timeout / ${v.name}: both timeouts CANCELLED; the read-only aggregate's retry is safe (must not: UNSAFE_RETRY), the destructive delete-many's is not`, async () => {
      const [agg1, agg2, del1, del2] = calls(await runView('mdb-timeout', v));
      expect(codesOf(agg1!)).toEqual(['CANCELLED']);
      expect(codesOf(del1!)).toEqual(['CANCELLED']);
      expect(agg2).toMatchObject({ call: agg1!.call, attempt: 2 });
      expect(codesOf(agg2!)).not.toContain('UNSAFE_RETRY');
      const unsafe = del2!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
      expect(unsafe.message).toMatch(/tools\/list says it is not read-only \(readOnlyHint false\) and gives no idempotentHint, so by the spec default it is not idempotent/);
      // Only a server's log proves the first attempt reached the server.
      expect(unsafe.severity).toBe(v.name === 'server' || v.name === 'both' ? 'error' : 'warning');
    });
  }

  for (const v of FIVE_VIEWS) {
    it(`mdb-cut / ${v.name}: the cut stream NO_FINAL_RESULT and the SDK client's later CANCELLED; the next call clean`, async () => {
      const [cut, next] = calls(await runView('mdb-cut', v));
      expect(codesOf(cut!)).toEqual(['NO_FINAL_RESULT', 'CANCELLED']);
      expect(codesOf(next!)).toEqual([]);
    });
  }

  it('mdb-max-sessions: what happened: the second app\'s initialize was refused by the server itself (503, -32006); after the first app\'s DELETE it connected', () => {
    expect(step('mdb-max-sessions', 'app-b connect (over the session limit)').error).toMatchObject({ name: 'StreamableHTTPError', code: 503, message: expect.stringContaining('"code":-32006') });
    expect(step('mdb-max-sessions', 'app-b connect again').ok).toBe('connected');
  });

  for (const v of FIVE_VIEWS) {
    it(`mdb-max-sessions / ${v.name}: the server's own 503 to initialize is in every view (no hop made it), the reconnect linked to it`, async () => {
      const r = await runView('mdb-max-sessions', v);
      const inits = r.attempts.filter((a) => a.method === 'initialize');
      expect(inits.map((a) => `${a.status} ${a.call}#${a.attempt}`)).toEqual([`200 ${inits[0]!.call}#1`, `503 ${inits[1]!.call}#1`, `200 ${inits[1]!.call}#2`]);
      expect(inits[1]!.detail).toMatchObject({ errorCode: -32006, errorMessage: 'server has reached the maximum number of concurrent sessions, try again later' });
      expect(allCodes(r)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    });
  }
});

describe('@playwright/mcp 0.0.86, no browser installed', () => {
  it('what happened: every tools/call, an unknown tool and bad arguments too, is an isError result saying the browser is missing', () => {
    for (const label of ['browser_navigate (no browser)', 'browser_tabs list', 'browser_navigate without url (bad arguments)', 'no_such_tool']) {
      expect(step('pw-errors', label).ok).toMatchObject({ isError: true, text: expect.stringContaining("Chromium distribution 'chrome' is not found") });
    }
  });

  for (const s of ['pw-errors', 'pw-roots', 'pw-v2-client', 'py-pw']) {
    for (const v of FIVE_VIEWS) {
      it(`must not: ${s} / ${v.name}: tool errors raise no finding; each says the browser is missing`, async () => {
        const r = await runView(s, v);
        expect(allCodes(r)).toEqual([]);
        for (const a of calls(r)) expect(a.detail.errorMessage).toMatch(/Chromium distribution 'chrome' is not found/);
      });
    }
  }

  it('pw-roots: a client with roots was asked for them (roots/list, a request from the server on the session\'s GET stream as soon as it opened)', () => {
    expect(observed('pw-roots')[0]).toEqual({ rootsListAsked: true });
  });

  for (const v of FIVE_VIEWS) {
    it(`pw-v2-client / ${v.name}: the v2 client's server/discover got 400, which reads as a version probe refused; it fell back to initialize (2025-11-25)`, async () => {
      expect(step('pw-v2-client', 'connect').ok).toEqual({ protocolVersion: '2025-11-25', sessionId: 'set' });
      const [probe, init] = (await runView('pw-v2-client', v)).attempts;
      expect(probe).toMatchObject({ method: 'server/discover', status: 400, detail: { why: expect.stringMatching(/^a version probe the server refused/) } });
      expect(init!.method).toBe('initialize');
    });

    it(`pw-restart / ${v.name}: the old session gets 404 "Session not found" (plain text); SESSION_EXPIRED, the new session's call linked`, async () => {
      const r = await runView('pw-restart', v);
      const [, lost, again] = calls(r);
      expect(lost).toMatchObject({ status: 404, detail: { why: 'the body says: Session not found' } });
      expect(again).toMatchObject({ call: lost!.call, attempt: 2, outcome: 'TOOL_ERROR' });
      expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
    });
  }

  for (const name of ['client', 'both']) {
    it(`pw-429 / ${name}: the rate limiter's 429 (Retry-After: 0), the app's immediate call linked: RETRY_POLICY, no RETRY_AFTER_IGNORED`, async () => {
      const [a, b] = calls(await runView('pw-429', view(name)));
      expect(a).toMatchObject({ status: 429, outcome: 'HTTP_ERROR' });
      expect(b).toMatchObject({ call: a!.call, attempt: 2, outcome: 'TOOL_ERROR' });
      expect(codesOf(b!)).toEqual(['RETRY_POLICY']);
    });
  }
});

describe('the Python client (mcp 2.3.0)', () => {
  it('py-mdb: what happened: it negotiated 2026-07-28 with mongodb-mcp-server; its 0.5 s timeout ended the count before any answer', () => {
    expect(python('py-mdb').notes).toContainEqual({ protocolVersion: '2026-07-28' });
    expect(python('py-mdb').steps.at(-1)).toMatchObject({ ok: false, error: { name: 'MCPError', code: -32001 } });
  });

  for (const v of FIVE_VIEWS) {
    it(`py-mdb / ${v.name}: the timed-out count is NO_RESPONSE and CANCELLED (closing the request is the cancellation on 2026-07-28)${v.name === 'har' ? ' (before, from the HAR: the why "net::ERR_ABORTED" alone, no finding)' : ''}`, async () => {
      const r = await runView('py-mdb', v);
      expect(r.attempts[0]!.method).toBe('server/discover');
      const count = calls(r).at(-1)!;
      expect(count).toMatchObject({ tool: 'count', outcome: 'NO_RESPONSE', status: null });
      expect(codesOf(count)).toEqual(['CANCELLED']);
      expect(allCodes(r)).toEqual(['CANCELLED']);
    });
  }

  it('py-mdb / har: the why says the client closed the request', async () => {
    const count = calls(await runView('py-mdb', view('har'))).at(-1)!;
    expect(count.detail.why).toMatch(/^the client closed the request 0\.\d+ s after sending it, before any response head came \(on 2026-07-28 that is the cancellation\): net::ERR_ABORTED$/);
  });
});
