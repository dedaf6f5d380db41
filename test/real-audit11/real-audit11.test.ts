// Eleventh audit (more npm peers): Genkit's and Strands Agents' MCP clients against the SDK 1.32.2 McpServer, and the NestJS server @rekog/mcp-nest against the SDK 1.32.2 and v2 clients (test/fixtures/real-audit11, recorded by record.mjs), read five ways; every expectation is derived from what the app saw (observed.json).
import { describe, expect, it } from 'vitest';
import { allCodes, auditKit, codesOf, FIVE_VIEWS, toolCalls as calls, viewNamed as view, type View } from '../helpers/recordings.js';

interface Err { name: string; message: string; code?: number | string }
interface Step { label: string; ok?: Record<string, unknown> | null; error?: Err }

const { observed, scenarios, steps, step, hop, serverRan, runView, expectedToolCalls } = auditKit<Step>('real-audit11');

const CONCURRENT = new Set(['nx-two-clients']);
const TOOL_STEP = /^(?:[a-z-]+-agent: )?(lookup_order|send_invoice|crash|slow_report|no_such_tool)\b/;

/** What a thrown error says of the wire: an HTTP status, the client's own timeout/abort (no response came), a JSON-RPC error, or nothing sent. */
function fromError(e: Err): string | null {
  if (e.name === 'StreamableHTTPError') return 'HTTP_ERROR'; // its code is the HTTP status
  if (e.code === -32001) return 'STREAM_INCOMPLETE';
  if ((e.name === 'McpError' || e.name === 'ProtocolError') && typeof e.code === 'number') return 'JSONRPC_ERROR';
  return null; // thrown before anything was sent (Genkit's ValidationError, code 400; Strands' "Already connected")
}
/**
 * The outcome the app's step implies, from what it got: Strands records what the SDK client inside returned or threw
 * (`sdk`), since its ToolResultBlock says "error" for both; Genkit returns `{ error }` for an isError result; the SDK
 * clients return `isError`. null: no request went out.
 */
function outcomeOf(st: Step): string | null {
  const ok = st.ok as Record<string, unknown> | null | undefined;
  if (ok && 'sdk' in ok) {
    const sdk = ok.sdk as { isError?: boolean; threw?: Err } | null;
    if (!sdk) return null;
    return sdk.threw ? fromError(sdk.threw) : sdk.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  }
  if (st.error) return fromError(st.error);
  if (ok && 'isError' in ok) return ok.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  if (ok && 'error' in ok) return 'TOOL_ERROR';
  return 'TOOL_SUCCESS';
}
/** The tools/call outcomes a view must show, in order: those the hop answered are not behind it. */
const expectedCalls = (s: string, v: View) => expectedToolCalls(s, v, { toolStep: TOOL_STEP, outcomeOf, codeOf: (st) => (st.error ?? (st.ok as { sdk: { threw: Err } }).sdk.threw).code });

describe('every recording, every view', () => {
  it('has the scenarios the recorder writes', () => {
    expect(scenarios).toEqual(['gk-503', 'gk-baseline', 'gk-errors', 'gk-init-refused', 'gk-restart', 'gks-errors', 'nx-503', 'nx-errors', 'nx-restart', 'nx-stateful', 'nx-stateless', 'nx-stateless-restart', 'nx-two-clients', 'nx-v2-client', 'st-429', 'st-baseline', 'st-cut-cancel', 'st-errors', 'st-restart', 'st-tasks-config', 'xm-errors', 'xm-restart', 'xm-v2-client']);
  });

  for (const s of scenarios) {
    for (const v of FIVE_VIEWS) {
      it(`${s} / ${v.name}: read whole; each tools/call has the outcome its caller got, in order`, async () => {
        const r = await runView(s, v);
        expect(r.summary.inputs.every((i) => i.unusable === 0)).toBe(true);
        const got = calls(r).map((a) => `${a.tool} ${a.outcome}`);
        // observed.json lists steps as they ended; where two apps ran at once, their order is not the sending order
        if (CONCURRENT.has(s)) expect(got.sort()).toEqual(expectedCalls(s, v).sort());
        else expect(got).toEqual(expectedCalls(s, v));
      });
    }
  }
});

describe('Genkit (@genkit-ai/mcp 1.42.0): its tools are Genkit actions over the SDK 1.32.2 client', () => {
  it('what happened: isError results come back as { error } (no throw); arguments its JSON Schema rejects throw a ValidationError before anything is sent', () => {
    expect(step('gk-errors', 'crash (the tool throws)').ok).toEqual({ error: 'database connection refused' });
    expect(step('gk-errors', 'lookup_order with a number (bad arguments)').error).toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/^INVALID_ARGUMENT: Schema validation failed/) });
    expect(serverRan('gk-errors')).toEqual(['crash', 'crash', 'lookup_order 1002']);
  });

  for (const v of FIVE_VIEWS) {
    it(`gk-errors / ${v.name}: the refused arguments left no attempt; the app's noted retry of crash is no retry of the first (each its own call), no finding`, async () => {
      const r = await runView('gk-errors', v);
      expect(calls(r).filter((a) => a.tool === 'lookup_order')).toHaveLength(1);
      expect(allCodes(r)).toEqual([]);
    });
  }

  it('gk-init-refused: a 503 to initialize; Genkit disables the server and lists no tools, silently', () => {
    expect(step('gk-init-refused', 'getActiveTools').ok).toEqual([]);
    expect(step('gk-init-refused', 'isEnabled').ok).toBe(false);
    expect(hop('gk-init-refused')).toEqual([{ request: 'POST initialize', n: 1, action: 'respond' }]);
  });

  for (const name of ['client', 'both']) {
    it(`gk-init-refused / ${name}: CALL_NEVER_SENT quotes what the gateway said (before: only "a fault meant for tools/call may have hit an earlier request")`, async () => {
      const r = await runView('gk-init-refused', view(name));
      expect(r.attempts.map((a) => `${a.method} ${a.outcome} ${a.status}`)).toEqual(['initialize HTTP_ERROR 503']);
      expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
      expect(r.findings[0]!.message).toMatch(/initialize failed \(HTTP_ERROR, HTTP 503\) and no tools\/call was sent afterwards: a fault meant for tools\/call may have hit an earlier request \(the body says: no healthy upstream\)$/);
    });
  }

  for (const v of FIVE_VIEWS) {
    it(`must not: gk-baseline / ${v.name}: no finding (CALL_NEVER_SENT, RETRY_*, SESSION_EXPIRED)`, async () => {
      expect(allCodes(await runView('gk-baseline', v))).toEqual([]);
    });
  }

  it('gk-503: the app called again 0.5 s after a 503 that asked for 1 s (Retry-After)', () => {
    expect(step('gk-503', 'send_invoice 1001 #1').error).toMatchObject({ code: 503 });
    expect(step('gk-503', 'send_invoice 1001 #2').ok).toEqual({ output: 'invoice for 1001 sent' });
  });

  for (const name of ['client', 'both']) {
    it(`gk-503 / ${name}: one call of two attempts, linked, origin unknown; RETRY_AFTER_IGNORED`, async () => {
      const [a, b] = calls(await runView('gk-503', view(name)));
      expect(b).toMatchObject({ call: a!.call, attempt: 2, retryOrigin: { origin: 'unknown' } });
      expect(codesOf(b!).sort()).toEqual(['RETRY_AFTER_IGNORED', 'RETRY_ORIGIN_AMBIGUOUS']);
    });
  }

  it('gk-restart: the old session\'s call threw the 404; client.restart() opened a new session where the app called again', () => {
    expect(step('gk-restart', 'send_invoice 1002 (old session)').error).toMatchObject({ name: 'StreamableHTTPError', code: 404 });
    expect(step('gk-restart', 'send_invoice 1002 (after restart)').ok).toEqual({ output: 'invoice for 1002 sent' });
  });

  for (const v of FIVE_VIEWS) {
    it(`gk-restart / ${v.name}: SESSION_EXPIRED for the old session; the call in the new one is its retry`, async () => {
      const r = await runView('gk-restart', v);
      const [, lost, again] = calls(r);
      expect(lost).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32001 } });
      expect(again).toMatchObject({ call: lost!.call, attempt: 2 });
      expect(again!.session).not.toBe(lost!.session);
      expect(r.findings.map((f) => `${f.code} ${f.session === lost!.session}`)).toEqual(['SESSION_EXPIRED true']);
    });
  }
});

describe('Genkit as an MCP server (@genkit-ai/mcp 1.42.0 GenkitMcpServer, the low-level SDK Server)', () => {
  it('what happened: a tool that throws is a JSON-RPC error -32603, not an isError result; refused arguments 400 and an unknown tool 404, HTTP statuses as JSON-RPC codes; the refused requests never ran a tool', () => {
    expect(step('gks-errors', 'crash (the tool throws)').error).toMatchObject({ name: 'McpError', code: -32603, message: 'MCP error -32603: database connection refused' });
    expect(step('gks-errors', 'lookup_order with a number (bad arguments)').error).toMatchObject({ code: 400, message: expect.stringMatching(/^MCP error 400: INVALID_ARGUMENT: Schema validation failed/) });
    expect(step('gks-errors', 'no_such_tool').error).toMatchObject({ code: 404, message: "MCP error 404: NOT_FOUND: Tried to call tool 'no_such_tool' but it could not be found." });
    expect(serverRan('gks-errors')).toEqual(['lookup_order 1001', 'crash', 'crash', 'lookup_order 1002']);
  });

  for (const v of FIVE_VIEWS) {
    it(`gks-errors / ${v.name}: the same refused requests sent again (400, 404) are retries, and no UNSAFE_RETRY (before: an error in the server's and both views: "the server view shows the earlier attempt reached the server")`, async () => {
      const r = await runView('gks-errors', v);
      const again = calls(r).filter((a) => a.attempt === 2);
      expect(again.map((a) => `${a.tool} ${a.detail?.errorCode}`)).toEqual(['crash -32603', 'lookup_order 400', 'no_such_tool 404']);
      for (const a of again.slice(1)) expect(codesOf(a)).not.toContain('UNSAFE_RETRY');
      // The crash did run (and threw) before the app's retry: the server's view proves it (an error); every other view
      // has its -32603, an internal error: the server failed while it handled the request (a warning; before audit 44
      // a JSON-RPC error without progress counted as nothing run there)
      const unsafe = again[0]!.findings.filter((f) => f.code === 'UNSAFE_RETRY');
      expect(unsafe.map((f) => f.severity)).toEqual([v.name === 'server' || v.name === 'both' ? 'error' : 'warning']);
    });
  }
});

describe('Strands Agents (@strands-agents/sdk 1.19.0): McpClient and McpTool', () => {
  it('what happened: every failure becomes a ToolResultBlock with status "error"; the SDK client inside tells an isError result from a thrown error', () => {
    expect(steps('st-errors').map((x) => (x.ok as { status: string }).status)).toEqual(['error', 'error', 'error', 'success']);
    // SDK 1.32.2's McpServer answers bad arguments and an unknown tool with isError results, not JSON-RPC errors
    expect(steps('st-errors').map((x) => (x.ok as { sdk: unknown }).sdk)).toEqual([{ isError: true }, { isError: true }, { isError: true }, { isError: false }]);
  });

  it('st-restart: after the 404 the same McpClient fails again; connect(true) cannot reconnect (the SDK transport is "already started") and leaves it unusable; only a new McpClient works', () => {
    expect(step('st-restart', 'connect(true)').error!.message).toMatch(/^StreamableHTTPClientTransport already started!/);
    expect(step('st-restart', 'send_invoice 1002 (after connect(true))').ok).toMatchObject({ status: 'error', sdk: { threw: { message: expect.stringMatching(/^Already connected to a transport/) } } });
    expect(step('st-restart', 'send_invoice 1002 (a new McpClient)').ok).toMatchObject({ status: 'success' });
  });

  for (const v of FIVE_VIEWS) {
    it(`st-restart / ${v.name}: three attempts of one call (404, 404 into the same expired session, success in a new one); SESSION_EXPIRED names the re-send`, async () => {
      const r = await runView('st-restart', v);
      const [, a, b, c] = calls(r);
      expect([a, b, c].map((x) => `${x!.call} #${x!.attempt} ${x!.outcome}`)).toEqual([`${a!.call} #1 HTTP_ERROR`, `${a!.call} #2 HTTP_ERROR`, `${a!.call} #3 TOOL_SUCCESS`]);
      expect(b!.session).toBe(a!.session);
      expect(c!.session).not.toBe(a!.session);
      // the third was noted by the app (withCallNote) in the client's log only
      expect(c!.retryOrigin?.origin).toBe(v.name === 'client' || v.name === 'both' ? 'app' : 'unknown');
      expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
      expect(r.findings[0]!.message).toMatch(/HTTP 404 to 2 requests that carried the session id, .*re-sent as id 4 into the expired session\); then the client re-initialized and retried the call$/);
    });
  }

  it('st-cut-cancel: the hop ended the first stream before the result (the tool ran to its end); the agent\'s cancel signal fired at 1 s; the second was cancelled at 400 ms and the tool stopped', () => {
    expect(hop('st-cut-cancel').filter((h) => h.action !== 'forward')).toEqual([{ request: 'POST tools/call slow_report', n: 1, action: 'cut' }]);
    expect(serverRan('st-cut-cancel')).toEqual(['slow_report 3x100', 'slow_report done', 'slow_report 10x100', 'slow_report aborted', 'lookup_order 1001']);
    expect(step('st-cut-cancel', 'slow_report 3x100 (stream cut, cancel at 1 s)').ok).toMatchObject({ sdk: { threw: { code: -32001, message: expect.stringMatching(/aborted due to timeout/) } } });
  });

  for (const v of FIVE_VIEWS) {
    it(`st-cut-cancel / ${v.name}: NO_FINAL_RESULT only for the cut stream; CANCELLED for both; not for the call after`, async () => {
      const [cut, cancelled, after] = calls(await runView('st-cut-cancel', v));
      expect(codesOf(cut!).sort()).toEqual(['CANCELLED', 'NO_FINAL_RESULT']);
      expect(codesOf(cancelled!)).toEqual(['CANCELLED']);
      expect(codesOf(after!)).toEqual([]);
    });
  }

  it('st-429: the app tried three times; two 429s from the rate limiter (Retry-After: 0), then a success', () => {
    expect(steps('st-429').map((x) => (x.ok as { status: string }).status)).toEqual(['error', 'error', 'success']);
  });

  for (const name of ['client', 'both']) {
    it(`st-429 / ${name}: one call of three attempts, the app's (noted); no RETRY_AFTER_IGNORED (it asked for 0 s)`, async () => {
      const cs = calls(await runView('st-429', view(name)));
      expect(cs.map((a) => `${a.call} #${a.attempt} ${a.retryOrigin?.origin ?? '-'}`)).toEqual([`${cs[0]!.call} #1 -`, `${cs[0]!.call} #2 app`, `${cs[0]!.call} #3 app`]);
      expect(cs.flatMap(codesOf)).toEqual([]);
    });
  }

  it('st-tasks-config: tasksConfig against a server without tasks: plain calls (no params.task)', async () => {
    const r = await runView('st-tasks-config', view('client'));
    expect(steps('st-tasks-config').map((x) => (x.ok as { status: string }).status)).toEqual(['success', 'error']);
    expect(r.attempts.map((a) => a.method)).not.toContain('tasks/get');
  });
});

describe('NestJS (@rekog/mcp-nest 2.0.5): McpStrategy + StreamableHttpTransport on the v2 SDK server', () => {
  it('nx-stateless: the default transport is stateless with JSON bodies: no session id, and progress asked for never comes', () => {
    expect(step('nx-stateless', 'sessionId after initialize').ok).toBeNull();
    expect(step('nx-stateless', 'slow_report 3x50 with progress').ok).toMatchObject({ isError: false, progressSeen: [] });
  });

  it('nx-errors: a tool that throws is an isError "Internal server error" (the message stays in Nest\'s log); bad arguments isError; an unknown tool -32602', () => {
    expect(step('nx-errors', 'crash (the tool throws)').ok).toEqual({ isError: true, text: 'Internal server error' });
    expect(step('nx-errors', 'no_such_tool').error).toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: no_such_tool' });
    expect(serverRan('nx-errors')).toContain('nest logged: [RpcExceptionsHandler] Error: database connection refused');
  });

  for (const v of FIVE_VIEWS) {
    it(`nx-errors / ${v.name}: the unknown tool's -32602 is the detail; the noted retry of crash is no retry of a failed attempt's call; no finding`, async () => {
      const r = await runView('nx-errors', v);
      expect(calls(r).find((a) => a.tool === 'no_such_tool')!.detail).toMatchObject({ errorCode: -32602, errorMessage: 'Unknown tool: no_such_tool' });
      expect(allCodes(r)).toEqual([]);
    });
  }

  it('nx-stateful: progress came on the GET stream, the last step after the result (the client reported an unknown token); the timed-out report ran to its end on the server, its result never sent', () => {
    const o = observed('nx-stateful');
    expect(o.filter((x) => typeof x.onerror === 'string' && (x.onerror as string).startsWith('Received a progress notification for an unknown token'))).toHaveLength(1);
    expect(step('nx-stateful', 'slow_report 8x100 (client timeout 300 ms)').error).toMatchObject({ code: -32001 });
    expect(serverRan('nx-stateful')).toEqual(['lookup_order 1001', 'slow_report 3x50', 'slow_report done', 'slow_report 8x100', 'slow_report done', 'send_invoice 1001']);
  });

  for (const v of FIVE_VIEWS) {
    it(`nx-stateful / ${v.name}: CANCELLED for the timed-out call only, no NO_FINAL_RESULT (the client gave up first)`, async () => {
      const r = await runView('nx-stateful', v);
      expect(calls(r).map((a) => codesOf(a).join(','))).toEqual(['', '', 'CANCELLED', '']);
    });
  }

  for (const name of ['client', 'server', 'both', 'proxy']) {
    it(`nx-stateful / ${name}: PROGRESS_UNMATCHED once, for the step the client dropped`, async () => {
      const r = await runView('nx-stateful', view(name));
      expect(r.findings.map((f) => f.code)).toEqual(['PROGRESS_UNMATCHED']);
    });
  }

  for (const v of FIVE_VIEWS) {
    it(`must not: nx-stateless / ${v.name}: no PROGRESS_UNMATCHED (no progress at all), no finding`, async () => {
      expect(allCodes(await runView('nx-stateless', v))).toEqual([]);
    });
  }

  for (const v of FIVE_VIEWS) {
    it(`nx-restart / ${v.name}: a restarted stateful process: 404 -32001 "Session not found", SESSION_EXPIRED, the app's new session's call linked`, async () => {
      const r = await runView('nx-restart', v);
      const [, lost, again] = calls(r);
      expect(lost).toMatchObject({ status: 404, detail: { errorCode: -32001, errorMessage: 'Session not found' } });
      expect(again).toMatchObject({ call: lost!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
      expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
    });

    it(`must not: nx-stateless-restart / ${v.name}: the same restart of a stateless server loses nothing: no SESSION_EXPIRED, no retry`, async () => {
      const r = await runView('nx-stateless-restart', v);
      expect(allCodes(r)).toEqual([]);
      expect(calls(r).map((a) => a.attempt)).toEqual([1, 1]);
    });
  }

  it('nx-two-clients: two apps at once against the stateless server, the same JSON-RPC ids, no session ids', () => {
    expect(steps('nx-two-clients').map((x) => x.label)).toEqual(['support-agent: lookup_order 2001', 'support-agent: crash', 'billing-agent: slow_report 4x100', 'support-agent: lookup_order 2002', 'billing-agent: send_invoice 1001']);
  });

  for (const v of FIVE_VIEWS) {
    it(`nx-two-clients / ${v.name}: each call its own (the same id in flight twice is no retry, no ID_REUSED); no finding`, async () => {
      const r = await runView('nx-two-clients', v);
      expect(calls(r).map((a) => a.attempt)).toEqual([1, 1, 1, 1, 1]);
      expect(new Set(calls(r).map((a) => a.call)).size).toBe(5);
      expect(allCodes(r)).toEqual([]);
    });
  }

  it('nx-v2-client: the v2 client negotiated 2026-07-28 (server/discover, no initialize)', () => {
    expect(step('nx-v2-client', 'connect').ok).toMatchObject({ protocolVersion: '2026-07-28' });
  });

  for (const v of FIVE_VIEWS) {
    it(`nx-v2-client / ${v.name}: server/discover, then the calls; no finding`, async () => {
      const r = await runView('nx-v2-client', v);
      expect(r.attempts[0]!.method).toBe('server/discover');
      expect(r.attempts.map((a) => a.method)).not.toContain('initialize');
      expect(allCodes(r)).toEqual([]);
    });
  }

  for (const name of ['client', 'both']) {
    it(`nx-503 / ${name}: the app's immediate call after the gateway's 503 is linked and RETRY_POLICY (no delay); not RETRY_AFTER_IGNORED (no Retry-After)`, async () => {
      const [a, b] = calls(await runView('nx-503', view(name)));
      expect(a).toMatchObject({ status: 503, outcome: 'HTTP_ERROR' });
      expect(b).toMatchObject({ call: a!.call, attempt: 2 });
      expect(codesOf(b!).sort()).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'RETRY_POLICY']);
    });
  }

  for (const name of ['server', 'proxy', 'har']) {
    it(`nx-503 / ${name}: behind the gateway, one attempt and no finding`, async () => {
      const r = await runView('nx-503', view(name));
      expect(calls(r).map((a) => `${a.attempt} ${a.outcome}`)).toEqual(['1 TOOL_SUCCESS']);
      expect(allCodes(r)).toEqual([]);
    });
  }
});

describe('xmcp 1.1.3: a project built by its CLI, its HTTP transport', () => {
  it('what happened: stateless (no session id) with SSE answers; a throwing tool is isError with its message, bad arguments isError, an unknown tool -32602', () => {
    expect(step('xm-errors', 'sessionId after initialize').ok).toBeNull();
    expect(step('xm-errors', 'crash (the tool throws)').ok).toEqual({ isError: true, text: 'database connection refused' });
    expect(step('xm-errors', 'lookup_order with a number (bad arguments)').ok).toMatchObject({ isError: true, text: expect.stringMatching(/^Input validation error: Invalid arguments for tool lookup_order/) });
    expect(step('xm-errors', 'no_such_tool').error).toMatchObject({ code: -32602, message: 'MCP error -32602: Tool no_such_tool not found' });
    expect(serverRan('xm-errors')).toEqual(['lookup_order 1001', 'send_invoice 1001', 'crash', 'crash']);
  });

  for (const v of FIVE_VIEWS) {
    it(`xm-errors / ${v.name}: the app's retry of a tool error is linked to nothing (each its own call), no finding`, async () => {
      const r = await runView('xm-errors', v);
      expect(calls(r).every((a) => a.attempt === 1)).toBe(true);
      expect(allCodes(r)).toEqual([]);
    });

    it(`must not: xm-restart / ${v.name}: a restarted stateless server: no SESSION_EXPIRED, no retry`, async () => {
      const r = await runView('xm-restart', v);
      expect(calls(r).map((a) => `${a.attempt} ${a.outcome}`)).toEqual(['1 TOOL_SUCCESS', '1 TOOL_SUCCESS']);
      expect(allCodes(r)).toEqual([]);
    });

    it(`xm-v2-client / ${v.name}: the v2 client negotiated 2026-07-28 (server/discover), no finding`, async () => {
      expect(step('xm-v2-client', 'connect').ok).toMatchObject({ protocolVersion: '2026-07-28' });
      const r = await runView('xm-v2-client', v);
      expect(r.attempts[0]!.method).toBe('server/discover');
      expect(allCodes(r)).toEqual([]);
    });
  }
});
