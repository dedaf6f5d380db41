// Real traffic of the official Python MCP SDK (mcp 2.3.0) as server and client (test/fixtures/real-python), and what mcp-triage says of it.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, type CliRun } from '../helpers/triage-cli.js';
import { codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-python/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; resumed?: boolean; notSeenByServer?: boolean; continuation?: boolean; retryOrigin?: { origin: string }; findings: Finding[];
  detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
type Run = CliRun<Attempt, Finding>;
interface Step { step: string; ok: boolean; summary?: { isError?: boolean }; error?: { name: string; message: string; code?: number } }
interface Observed { steps: Step[]; notes: unknown[] }

const both = recordedPairs<Attempt, Finding>(DIR);
const observed = (scenario: string) => JSON.parse(readFileSync(`${DIR}${scenario}/observed.json`, 'utf8')) as Observed;
const calls = (r: Run, tool?: string) => r.attempts.filter((a) => a.method === 'tools/call' && (tool === undefined || a.tool === tool));
/** The client log's GETs that carried Last-Event-ID, with the status each got. */
function resumeGets(scenario: string): (number | null)[] {
  const recs = readFileSync(`${DIR}${scenario}/client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; xid: string; method?: string; status?: number; requestHeaders?: Record<string, string> });
  const gets = recs.filter((r) => r.kind === 'request' && r.method === 'GET' && r.requestHeaders?.['last-event-id']);
  return gets.map((g) => recs.find((r) => r.kind === 'response' && r.xid === g.xid)?.status ?? null);
}

describe('every Python SDK recording', () => {
  it.each(readdirSync(DIR).filter((d) => !d.includes('.')))('%s: read whole, analyzed without error', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    // Every tool call the caller made is on the wire once per POST it sent, and the views agree where nothing sat between them.
    expect(r.attempts.length).toBeGreaterThan(0);
  });
});

describe('the Python server (MCPServer) with the TypeScript and Python clients', () => {
  it.each(['ts-client-stateful', 'py-client-legacy', 'py-client-auto'])('%s: each tool result reads as the caller saw it, with no findings', (scenario) => {
    const r = both(scenario);
    const seen = observed(scenario).steps.filter((s) => s.ok && s.summary?.isError !== undefined);
    const toolCalls = calls(r);
    expect(toolCalls).toHaveLength(seen.length);
    expect(toolCalls.filter((a) => a.outcome === 'TOOL_ERROR')).toHaveLength(seen.filter((s) => s.summary!.isError).length);
    expect(toolCalls.filter((a) => a.outcome === 'TOOL_SUCCESS')).toHaveLength(seen.filter((s) => !s.summary!.isError).length);
    // An exception in the tool, an unknown tool and arguments that break the input schema are all isError results.
    for (const tool of ['validate_quantity', 'crash', 'no_such_tool']) expect(calls(r, tool)[0]?.outcome, tool).toBe('TOOL_ERROR');
    expect(calls(r, 'lookup_order').map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR']);
    // The outputSchema the SDK derives from a return annotation ({"result": integer}, a model's fields) holds.
    for (const tool of ['count_items', 'order_summary', 'slow_report']) expect(calls(r, tool)[0]?.outcome, tool).toBe('TOOL_SUCCESS');
    expect(allCodes(r)).toEqual([]);
    for (const a of r.attempts) expect(a.serverOutcome, `${a.method} ${a.id}`).toBe(a.outcome);
  });

  it('an unknown resource is a JSON-RPC -32602 on 2025-11-25, and HTTP 400 keeping the code on 2026-07-28', () => {
    const legacy = both('py-client-legacy').attempts.filter((a) => a.method === 'resources/read');
    const modern = both('py-client-auto').attempts.filter((a) => a.method === 'resources/read');
    expect(legacy.map((a) => `${a.status} ${a.outcome} ${a.detail?.errorCode ?? ''}`)).toEqual(['200 SUCCESS ', '200 JSONRPC_ERROR -32602']);
    expect(modern.map((a) => `${a.status} ${a.outcome} ${a.detail?.errorCode ?? ''}`)).toEqual(['200 SUCCESS ', '400 HTTP_ERROR -32602']);
    expect(observed('py-client-auto').steps.find((s) => s.step === 'read_resource config://missing')?.error?.code).toBe(-32602);
  });

  it('the Python client in its default mode probes server/discover and speaks 2026-07-28 with the Python server', () => {
    const r = both('py-client-auto');
    expect(r.attempts[0]).toMatchObject({ method: 'server/discover', outcome: 'SUCCESS' });
    expect(r.attempts.some((a) => a.method === 'initialize')).toBe(false);
    // ... and falls back to initialize when a TypeScript SDK 1.x server refuses the probe with 400: nothing else is said of it.
    const ts = both('py-client-auto-ts-server');
    expect(ts.attempts.slice(0, 2).map((a) => `${a.method} ${a.status} ${a.outcome}`)).toEqual(['server/discover 400 HTTP_ERROR', 'initialize 200 SUCCESS']);
    expect(allCodes(ts)).toEqual([]);
  });

  it('a timeout on 2025-11-25: notifications/cancelled, then the server answers -32800, which CANCELLED reads as the request stopped (TypeScript and Python clients)', () => {
    for (const scenario of ['ts-client-timeout-cancel', 'py-client-timeout-legacy']) {
      const [slow] = calls(both(scenario), 'slow_report');
      expect(slow, scenario).toMatchObject({ outcome: 'JSONRPC_ERROR', serverOutcome: 'JSONRPC_ERROR', detail: { errorCode: -32800 } });
      expect(codes(slow!), scenario).toEqual(['CANCELLED']);
      expect(slow!.findings[0]!.message, scenario).toMatch(/the server then answered it with -32800 \(Request cancelled\) \d+\.\d\d s after that: it stopped the request without a result, but what the tool had done by then \(or shields from cancellation, as a commit\) is done$/);
      expect(observed(scenario).steps[0]!.error?.code, scenario).toBe(-32001); // the caller saw its own timeout, not the -32800
    }
  });

  it('a timeout on 2026-07-28 closes the stream before any head: NO_RESPONSE and CANCELLED, no SIDE_DIVERGENCE (Python and TypeScript v2 clients)', () => {
    for (const scenario of ['py-client-timeout-auto', 'v2-client-auto']) {
      const slow = calls(both(scenario), 'slow_report').find((a) => a.outcome !== 'TOOL_SUCCESS')!;
      expect(slow, scenario).toMatchObject({ outcome: 'NO_RESPONSE', status: null });
      expect(codes(slow), scenario).toEqual(['CANCELLED']);
    }
  });

  it('a timeout on 2026-07-28 after progress committed the response to SSE: the close is the cancellation, not a stream without its result', () => {
    const [slow] = calls(both('py-client-timeout-auto-progress'), 'slow_report');
    expect(slow).toMatchObject({ status: 200, outcome: 'STREAM_INCOMPLETE' });
    expect(codes(slow!)).toEqual(['CANCELLED']);
    expect(slow!.detail?.why).toMatch(/^the client closed the stream 0\.3\d s after sending it, before any response came \(on 2026-07-28 that is the cancellation\); \d SSE events? came before that$/);
    expect(observed('py-client-timeout-auto-progress').steps[0]!.error?.code).toBe(-32001);
  });

  it('a server restart: the old session gets 404 with -32600 "Session not found", the app retries with a new Client, and nothing ran twice', () => {
    for (const scenario of ['ts-client-restart-404', 'py-client-restart-404']) {
      const r = both(scenario);
      const [lost, again] = calls(r, 'send_invoice');
      expect(lost, scenario).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', serverOutcome: 'HTTP_ERROR', detail: { errorCode: -32600, errorMessage: 'Session not found' } });
      // The SDK neither re-initializes nor re-sends on 404: the repeat is the application's, in a new session.
      expect(again, scenario).toMatchObject({ call: lost!.call, attempt: 2, outcome: 'TOOL_SUCCESS', retryOrigin: { origin: 'unknown' } });
      expect(codes(again!), scenario).not.toContain('UNSAFE_RETRY');
      expect(r.findings.find((f) => f.code === 'SESSION_EXPIRED')?.message, scenario).toMatch(/HTTP 404 to tools\/call send_invoice .* the client re-initialized and retried the call$/);
    }
    // The Python client names the lost session in its error; the TypeScript client quotes the body.
    expect(observed('py-client-restart-404').steps[1]!.error).toMatchObject({ name: 'MCPError', code: -32600, message: 'Session not found' });
    expect(observed('ts-client-restart-404').steps[1]!.error).toMatchObject({ name: 'StreamableHTTPError', code: 404 });
  });

  it('a server that closes the POST stream after its priming event: the client resumes with Last-Event-ID and the call is one resumed success', () => {
    for (const scenario of ['py-client-resumed', 'py-client-ts-sse-cut-resumed']) {
      const r = both(scenario);
      const tool = scenario === 'py-client-resumed' ? 'resumable_report' : 'slow_report';
      expect(calls(r, tool), scenario).toMatchObject([{ outcome: 'TOOL_SUCCESS', resumed: true, findings: [] }]);
      expect(resumeGets(scenario), scenario).toEqual([200]);
    }
  });

  it('the standalone GET stream the server ends is reopened by the Python client (with Last-Event-ID), and changes nothing', () => {
    const r = both('py-client-get-stream-resumed');
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
    expect(resumeGets('py-client-get-stream-resumed')).toEqual([200]);
  });

  it('JSON-response and stateless servers have no back channel: elicitation fails with -32600 (HTTP 200 on 2025-11-25, HTTP 400 on 2026-07-28)', () => {
    for (const scenario of ['ts-client-json-response', 'ts-client-stateless']) {
      expect(calls(both(scenario), 'ask_user'), scenario).toMatchObject([{ status: 200, outcome: 'JSONRPC_ERROR', detail: { errorCode: -32600 } }]);
    }
    expect(calls(both('py-client-elicitation-auto'), 'ask_user').map((a) => `${a.status} ${a.outcome} ${a.detail?.errorCode}`)).toEqual(['400 HTTP_ERROR -32600', '400 HTTP_ERROR -32600']);
  });

  it('a resolver that asks (Resolve + Elicit): elicitation/create mid-call on 2025-11-25, input_required and a follow-up on 2026-07-28, one call either way', () => {
    expect(calls(both('py-client-elicitation-legacy'), 'approve_refund')).toMatchObject([{ outcome: 'TOOL_SUCCESS', attempt: 1, findings: [] }]);
    const [asked, answered] = calls(both('py-client-elicitation-auto'), 'approve_refund');
    expect(asked).toMatchObject({ outcome: 'INPUT_REQUIRED', attempt: 1, findings: [] });
    expect(answered).toMatchObject({ call: asked!.call, attempt: 2, continuation: true, outcome: 'TOOL_SUCCESS', findings: [] });
    expect(answered!.id).not.toBe(asked!.id); // the follow-up is a new request
  });

  it('elicitation on a stateful server: the client answers elicitation/create with a POST whose id is the server\'s, and the call is one success', () => {
    for (const scenario of ['ts-client-elicitation', 'py-client-elicitation-legacy']) {
      const r = both(scenario);
      expect(calls(r, 'ask_user').every((a) => a.outcome === 'TOOL_SUCCESS' && a.attempt === 1), scenario).toBe(true);
      expect(allCodes(r), scenario).toEqual([]);
    }
  });

  it('a request from another Origin is refused by the DNS-rebinding check with 403, which is no authorization failure', () => {
    const r = both('ts-client-origin-rejected');
    expect(r.attempts).toMatchObject([{ method: 'initialize', status: 403, outcome: 'HTTP_ERROR' }]);
    // the check's words, and (the eighty-fourth audit) that an Origin check refused it before any handler read it
    expect(r.attempts[0]!.detail.why).toMatch(/^the body says: Invalid Origin header; an Origin check refused it before any MCP handler read it, so nothing ran/);
    const f = r.findings.find((x) => x.code === 'CALL_NEVER_SENT')!;
    expect(f.message).toMatch(/the server refused the client without an authentication challenge \(no WWW-Authenticate; "Invalid Origin header"\): an Origin check \(DNS-rebinding protection\) refused the Origin the request carried/);
    expect(f.message).not.toMatch(/could not authorize/);
  });

  it('a full server (max_sessions) answers initialize with 503 and -32603; the app\'s second initialize is its retry', () => {
    const r = both('py-client-max-sessions-503');
    const inits = r.attempts.filter((a) => a.method === 'initialize');
    expect(inits.map((a) => `${a.status} ${a.outcome}`)).toEqual(['200 SUCCESS', '503 HTTP_ERROR', '200 SUCCESS']);
    expect(inits[1]!.detail).toMatchObject({ errorCode: -32603, errorMessage: 'Too many open sessions' });
    expect(inits[2]).toMatchObject({ call: inits[1]!.call, attempt: 2 });
  });
});

describe('the Python client against the TypeScript SDK server, through a fault hop', () => {
  it('503 and 429 from the hop: never seen by the server, not retried by the SDK; the app\'s retries are linked, Retry-After ignored is said', () => {
    const r = both('py-client-ts-http-errors');
    const [lost, ok] = calls(r, 'lookup_order');
    expect(lost).toMatchObject({ status: 503, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { why: 'the body says: upstream unavailable' } });
    expect(ok).toMatchObject({ call: lost!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
    const [limited, again] = calls(r, 'send_invoice');
    expect(limited).toMatchObject({ status: 429, outcome: 'HTTP_ERROR', notSeenByServer: true, detail: { errorCode: -32000, errorMessage: 'rate limited' } });
    expect(again).toMatchObject({ call: limited!.call, attempt: 2 });
    expect(codes(again!)).toEqual(expect.arrayContaining(['RETRY_AFTER_IGNORED']));
    expect(codes(again!)).not.toContain('UNSAFE_RETRY'); // a 429 refused the call: nothing ran
    // The Python client surfaces the JSON-RPC error of a 4xx body, and a stand-in -32603 for a plain-text 503.
    expect(observed('py-client-ts-http-errors').steps.map((s) => s.error?.code ?? null)).toEqual([-32603, null, -32000, null]);
  });

  it('a stream cut without event ids: the Python client gives up at once (no timeout, no notifications/cancelled)', () => {
    const r = both('py-client-ts-sse-cut-no-ids');
    const [cut] = calls(r, 'slow_report');
    expect(cut).toMatchObject({ status: 200, outcome: 'STREAM_INCOMPLETE' });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT']);
    expect(cut!.detail?.why).toMatch(/^SSE stream ended \(error\) after 1 event without the response$/);
    expect(observed('py-client-ts-sse-cut-no-ids').steps[0]!.error).toMatchObject({ code: -32000, message: 'SSE stream ended without a response' });
  });

  it('resumptions refused: the why says the client tried twice (its limit) and what each GET got', () => {
    const r = both('py-client-ts-resume-refused');
    const [cut] = calls(r, 'slow_report');
    const gets = resumeGets('py-client-ts-resume-refused');
    expect(gets).toEqual([503, 503]);
    expect(cut).toMatchObject({ outcome: 'STREAM_INCOMPLETE' });
    expect(codes(cut!)).toEqual(['NO_FINAL_RESULT']);
    expect(cut!.detail?.why).toMatch(/the client tried to resume it 2 times \(GET with Last-Event-ID\), answered HTTP 503, HTTP 503, and none delivered it$/);
    expect(observed('py-client-ts-resume-refused').steps[0]!.error?.message).toBe('SSE stream ended and reconnection attempts were exhausted');
  });

  it('the session forgotten by the server: 404 with -32001, the Python client does not re-initialize, the app does', () => {
    const r = both('py-client-ts-session-lost');
    const [lost, again] = calls(r, 'send_invoice');
    expect(lost).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', detail: { errorCode: -32001 } });
    expect(again).toMatchObject({ call: lost!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
    expect(r.findings.map((f) => f.code)).toContain('SESSION_EXPIRED');
  });
});

describe('HeaderMismatch on 2026-07-28', () => {
  it('a 400 with -32020 (a hop rewrote Mcp-Name): the Python client re-lists tools and re-sends once, its own corrective re-send', () => {
    const r = both('py-client-auto-header-mismatch');
    const [refused, again] = calls(r, 'lookup_order');
    expect(refused).toMatchObject({ status: 400, outcome: 'HTTP_ERROR', detail: { errorCode: -32020 } });
    expect(again).toMatchObject({ call: refused!.call, attempt: 2, outcome: 'TOOL_SUCCESS', retryOrigin: { origin: 'sdk' } });
    expect(allCodes(r)).toEqual([]);
    expect(r.attempts.map((a) => a.method)).toEqual(['server/discover', 'tools/call', 'tools/list', 'tools/call']);
  });
});

describe('a subscription on 2026-07-28 (Client.listen)', () => {
  it('the acknowledged subscriptions/listen stream the client closed is a success, not a stream without its result', () => {
    const r = both('py-client-auto-listen');
    const listen = r.attempts.find((a) => a.method === 'subscriptions/listen')!;
    expect(listen).toMatchObject({ id: 'listen-1', status: 200, outcome: 'SUCCESS', serverOutcome: 'SUCCESS', findings: [] });
    expect(listen.detail?.why).toMatch(/closed from the client's side: subscriptions\/listen ends so$/);
    expect(allCodes(r)).toEqual([]);
    expect(observed('py-client-auto-listen').steps.map((s) => s.ok)).toEqual([true, true, true]);
  });
});

describe('a dropped connection on 2026-07-28 (Python client and server, no sessions)', () => {
  it('the server ran send_invoice and the client got nothing; the app\'s retry from a new Client is linked by the client name in _meta, a proven unsafe retry', () => {
    const r = both('py-client-auto-response-dropped');
    const [dropped, again] = calls(r, 'send_invoice');
    expect(dropped).toMatchObject({ status: null, outcome: 'NO_RESPONSE', serverOutcome: 'TOOL_SUCCESS' });
    expect(codes(dropped!)).toEqual(['SIDE_DIVERGENCE']);
    expect(again).toMatchObject({ call: dropped!.call, attempt: 2, outcome: 'TOOL_SUCCESS' });
    expect(again!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('error');
    const [gateway] = calls(r, 'lookup_order');
    expect(gateway).toMatchObject({ status: 502, outcome: 'HTTP_ERROR', detail: { why: 'the body says: 502 Bad Gateway' } });
    // What the Python caller saw: the whole Client failed (its task group), the call a bare CancelledError.
    expect(observed('py-client-auto-response-dropped').steps[0]!.error?.name).toBe('CancelledError');
  });
});
