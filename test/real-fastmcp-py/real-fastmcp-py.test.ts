// Real traffic of the Python FastMCP framework (fastmcp 4.0.10) as server and client (test/fixtures/real-fastmcp-py), and what mcp-triage says of it.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, triageCli, type CliRun } from '../helpers/triage-cli.js';
import { codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-fastmcp-py/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; resumed?: boolean; notSeenByServer?: boolean; retryOrigin?: { origin: string; how?: string }; findings: Finding[]; protocolVersion?: string;
  detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
type Run = CliRun<Attempt, Finding>;
interface Step { step: string; ok: boolean; summary?: { isError?: boolean; text?: string; content?: { text?: string }[] }; error?: { name: string; message: string; code?: number } }
interface Observed { steps: Step[]; notes: Record<string, unknown>[]; progress?: unknown[] }
interface Rec { kind: string; xid: string; ts: string; method?: string; status?: number; end?: string; data?: string; send?: { id?: unknown; method?: string; params?: Record<string, unknown> }; requestHeaders?: Record<string, string> }

const analyze = (client: string, server: string): Run => triageCli<Attempt, Finding>(['--client', client, '--server', server]);
const both = recordedPairs<Attempt, Finding>(DIR);
const observed = (scenario: string) => JSON.parse(readFileSync(`${DIR}${scenario}/observed.json`, 'utf8')) as Observed;
const records = (scenario: string, side: 'client' | 'server') =>
  readFileSync(`${DIR}${scenario}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Rec);
const calls = (r: Run, tool?: string) => r.attempts.filter((a) => a.method === 'tools/call' && (tool === undefined || a.tool === tool));
const step = (scenario: string, prefix: string) => {
  const s = observed(scenario).steps.find((x) => x.step.startsWith(prefix));
  if (!s) throw new Error(`${scenario}: no step ${prefix}`);
  return s;
};
/** Did the caller see this tool call fail in the tool? FastMCP's Client raises ToolError for an isError result; the TypeScript client returns it. */
const sawToolError = (s: Step) => (s.ok ? s.summary?.isError === true : s.error?.name === 'ToolError');

describe('every FastMCP recording', () => {
  it.each(readdirSync(DIR).filter((d) => !d.includes('.')))('%s: read whole, analyzed without error', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
  });
});

describe('the FastMCP server with the TypeScript client and the FastMCP Client', () => {
  const baseline = ['ts-client-stateful', 'ts-client-masked', 'fm-client-legacy', 'fm-client-auto'];
  it.each(baseline)('%s: each tool call reads as the caller saw it, with no findings', (scenario) => {
    const r = both(scenario);
    const seen = observed(scenario).steps.filter((s) => /^(lookup_order|validate_quantity|crash|no_such_tool|bounded_report|slow_report|order_summary|ask_user)/.test(s.step));
    const toolCalls = calls(r);
    expect(toolCalls).toHaveLength(seen.length);
    expect(toolCalls.filter((a) => a.outcome === 'TOOL_ERROR')).toHaveLength(seen.filter(sawToolError).length);
    expect(toolCalls.filter((a) => a.outcome === 'TOOL_SUCCESS')).toHaveLength(seen.filter((s) => !sawToolError(s)).length);
    // A ToolError, any other exception, an unknown tool, arguments that fail pydantic and FastMCP's own tool timeout
    // are all isError results on HTTP 200.
    for (const tool of ['validate_quantity', 'crash', 'no_such_tool', 'bounded_report']) {
      expect(calls(r, tool).map((a) => `${a.status} ${a.outcome}`), tool).toEqual(['200 TOOL_ERROR']);
    }
    expect(calls(r, 'lookup_order').map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR']);
    // FastMCP wraps a plain return in structuredContent {"result": ...} under an outputSchema marked x-fastmcp-wrap-result; it holds.
    for (const tool of ['slow_report', 'order_summary']) expect(calls(r, tool)[0]?.outcome, tool).toBe('TOOL_SUCCESS');
    expect(allCodes(r)).toEqual([]);
    for (const a of r.attempts) expect(a.serverOutcome, `${a.method} ${a.id}`).toBe(a.outcome);
  });

  it("the tool error's text is kept as the caller saw it; mask_error_details hides an exception but not a ToolError", () => {
    const plain = both('fm-client-legacy');
    expect(calls(plain, 'crash')[0]!.detail?.errorMessage).toBe(step('fm-client-legacy', 'crash').error!.message);
    expect(calls(plain, 'crash')[0]!.detail?.errorMessage).toBe("Error calling tool 'crash': database connection lost");
    const masked = both('fm-client-masked');
    expect(calls(masked, 'crash')[0]!.detail?.errorMessage).toBe("Error calling tool 'crash'");
    expect(calls(masked, 'bounded_report')[0]!.detail?.errorMessage).toBe("Error calling tool 'bounded_report'");
    expect(calls(masked, 'validate_quantity')[0]!.detail?.errorMessage).toBe('quantity must be positive, got -3');
    for (const s of observed('fm-client-masked').steps) expect(s.error?.name, s.step).toBe('ToolError');
    expect(allCodes(masked)).toEqual([]);
  });

  it('the close: the FastMCP Client and the TypeScript client end a stateful session with DELETE (200), which is no attempt', () => {
    for (const scenario of ['fm-client-legacy', 'ts-client-stateful']) {
      const recs = records(scenario, 'client');
      const del = recs.filter((x) => x.kind === 'request' && x.method === 'DELETE');
      expect(del, scenario).toHaveLength(1);
      expect(recs.find((x) => x.kind === 'response' && x.xid === del[0]!.xid)?.status, scenario).toBe(200);
      expect(both(scenario).attempts.some((a) => a.method === 'DELETE'), scenario).toBe(false);
    }
  });

  it('the FastMCP Client in auto mode (its default) settles on 2026-07-28 with FastMCP: server/discover, no session, a missing resource is HTTP 400', () => {
    const r = both('fm-client-auto');
    expect(observed('fm-client-auto').notes).toContainEqual({ protocolVersion: '2026-07-28' });
    expect(r.attempts[0]!.method).toBe('server/discover');
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    const read = r.attempts.filter((a) => a.method === 'resources/read');
    expect(read.map((a) => `${a.status} ${a.outcome} ${a.detail?.errorCode ?? ''}`)).toEqual(['200 SUCCESS ', '400 HTTP_ERROR -32602']);
    expect(step('fm-client-auto', 'read_resource config://missing').error?.code).toBe(-32602);
    // Elicitation by a server request is refused on 2026-07-28 by the FastMCP Client, and comes back as a tool error.
    expect(calls(r, 'ask_user').map((a) => a.outcome)).toEqual(['TOOL_ERROR']);
  });

  it('the FastMCP Client names itself "mcp" 0.1.0 on the wire in both modes, whatever the Client is called', () => {
    const legacy = records('fm-client-legacy', 'client').find((x) => x.send?.method === 'initialize')!;
    expect(legacy.send!.params!.clientInfo).toEqual({ name: 'mcp', version: '0.1.0' });
    const auto = records('fm-client-auto', 'client').find((x) => x.send?.method === 'server/discover')!;
    expect((auto.send!.params!._meta as Record<string, unknown>)['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'mcp', version: '0.1.0' });
  });

  it('after a tool result with structured content, the FastMCP Client fetches tools/list: the list follows the call', () => {
    const r = both('fm-client-parallel');
    // Five calls at once (two identical send_invoice among them): five calls, none a retry of another, then tools/list.
    expect(calls(r)).toHaveLength(5);
    expect(calls(r).every((a) => a.attempt === 1 && a.outcome === 'TOOL_SUCCESS')).toBe(true);
    expect(new Set(calls(r, 'send_invoice').map((a) => a.call)).size).toBe(2);
    expect(r.attempts.filter((a) => a.method === 'tools/list').length).toBeGreaterThan(0);
    expect(allCodes(r)).toEqual([]);
  });

  it('a JSON-response and a stateless FastMCP server: calls read as the caller saw them, elicitation fails in the tool', () => {
    for (const scenario of ['fm-client-stateless', 'fm-client-json-response', 'ts-client-stateless', 'ts-client-json-response']) {
      const r = both(scenario);
      expect(calls(r, 'ask_user').map((a) => a.outcome), scenario).toEqual(['TOOL_ERROR']);
      expect(calls(r, 'ask_user')[0]!.detail?.errorMessage, scenario).toContain("Cannot send 'elicitation/create'");
      expect(allCodes(r), scenario).toEqual([]);
    }
    expect(observed('fm-client-json-response').progress ?? []).toEqual([]);
  });
});

describe('timeouts', () => {
  // Client(timeout=0.3) on 2025-11-25 races its request timeout (notifications/cancelled) against the HTTP read
  // timeout it also sets (closing the streams); the recorder kept one run of each way it went.
  it('FastMCP Client timeout on 2025-11-25, the -32800 came after the client had closed the stream: no divergence, only CANCELLED', () => {
    const r = both('fm-client-timeout-legacy');
    const [first, second] = calls(r, 'slow_report');
    expect(step('fm-client-timeout-legacy', 'slow_report times out').error).toMatchObject({ name: 'MCPError', code: -32001 });
    expect(first!.outcome).toBe('STREAM_INCOMPLETE');
    expect(first!.serverOutcome).toBe('JSONRPC_ERROR');
    expect(codes(first!)).toEqual(['CANCELLED']);
    const cli = records('fm-client-timeout-legacy', 'client');
    const post = cli.find((x) => x.send?.method === 'tools/call' && x.send.id === first!.id)!;
    expect(cli.find((x) => x.kind === 'end' && x.xid === post.xid)?.end).toBe('aborted');
    expect(cli.some((x) => x.data?.includes('-32800') && x.xid === post.xid)).toBe(false);
    expect(records('fm-client-timeout-legacy', 'server').some((x) => x.kind === 'event' && x.data?.includes('"id":2,"error":{"code":-32800'))).toBe(true);
    // The per-call timeout keeps the stream open (no read timeout): the client got the -32800 itself.
    expect(second!.outcome).toBe('JSONRPC_ERROR');
    expect(second!.detail?.errorCode).toBe(-32800);
    expect(codes(second!)).toEqual(['CANCELLED']);
    expect(allCodes(r).filter((c) => c !== 'CANCELLED')).toEqual([]);
  });

  it('the same recording with a result in place of the -32800: a result the client never got is still a divergence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fastmcp-'));
    const first = calls(both('fm-client-timeout-legacy'), 'slow_report')[0]!;
    const result = JSON.stringify({ jsonrpc: '2.0', id: first.id, result: { content: [{ type: 'text', text: 'report ready after 10 steps' }] } });
    let replaced = 0;
    const server = records('fm-client-timeout-legacy', 'server').map((x) => {
      if (x.kind !== 'event' || !x.data?.includes('-32800') || replaced) return x;
      replaced++;
      return { ...x, data: result };
    });
    expect(replaced).toBe(1);
    writeFileSync(join(dir, 'server.ndjson'), server.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const r = analyze(`${DIR}fm-client-timeout-legacy/client.ndjson`, join(dir, 'server.ndjson'));
    const a = calls(r, 'slow_report')[0]!;
    expect(a.serverOutcome).toBe('TOOL_SUCCESS');
    expect(a.findings.find((f) => f.code === 'SIDE_DIVERGENCE')?.message).toContain('the server sent a final result the client never got');
  });

  it('FastMCP Client timeout on 2025-11-25, the close logged before the cancellation: no NO_FINAL_RESULT, the why says both', () => {
    const scenario = 'fm-client-timeout-legacy-close-first';
    const cli = records(scenario, 'client');
    const post = cli.find((x) => x.send?.method === 'tools/call' && x.send.id === 2)!;
    const end = cli.find((x) => x.kind === 'end' && x.xid === post.xid)!;
    const cancel = cli.find((x) => x.send?.method === 'notifications/cancelled')!;
    expect(end.end).toBe('aborted');
    expect(end.ts < cancel.ts).toBe(true);
    const [first] = calls(both(scenario), 'slow_report');
    expect(first!.outcome).toBe('STREAM_INCOMPLETE');
    expect(codes(first!)).toEqual(['CANCELLED']);
    expect(first!.detail?.why).toMatch(/^the client closed the stream [\d.]+ s after sending it and cancelled it \(notifications\/cancelled\) (at the same time|\d+ ms later), before any response came$/);
    expect(allCodes(both(scenario))).not.toContain('NO_FINAL_RESULT');
  });

  it('the same recording without the cancellation: a stream the client closed without cancelling is still NO_FINAL_RESULT on 2025-11-25', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fastmcp-'));
    const scenario = 'fm-client-timeout-legacy-close-first';
    const drop = (side: 'client' | 'server') => {
      const recs = records(scenario, side);
      const xids = new Set(recs.filter((x) => x.send?.method === 'notifications/cancelled').map((x) => x.xid));
      writeFileSync(join(dir, `${side}.ndjson`), recs.filter((x) => !xids.has(x.xid)).map((x) => JSON.stringify(x)).join('\n') + '\n');
    };
    drop('client');
    drop('server');
    const r = analyze(join(dir, 'client.ndjson'), join(dir, 'server.ndjson'));
    expect(codes(calls(r, 'slow_report')[0]!)).toEqual(['NO_FINAL_RESULT']);
  });

  it('FastMCP Client timeout on 2025-11-25 that kills the client: the later calls fail locally ("Connection closed") and never reach the wire', () => {
    const scenario = 'fm-client-timeout-legacy-client-died';
    const r = both(scenario);
    expect(observed(scenario).steps.slice(1).map((s) => s.error)).toEqual([
      { name: 'MCPError', message: 'Connection closed', code: -32000 },
      { name: 'MCPError', message: 'Connection closed', code: -32000 },
    ]);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(['slow_report STREAM_INCOMPLETE']);
    expect(allCodes(r)).toEqual(['CANCELLED']);
    // The notifications/cancelled POST itself got no answer within the read timeout: the client closed it too.
    const cli = records(scenario, 'client');
    const cancel = cli.find((x) => x.send?.method === 'notifications/cancelled')!;
    expect(cli.find((x) => x.kind === 'end' && x.xid === cancel.xid)?.end).toBe('aborted');
  });

  it('FastMCP Client timeout on 2026-07-28: closing the stream is the cancellation, no NO_FINAL_RESULT', () => {
    const r = both('fm-client-timeout-auto');
    const slow = calls(r, 'slow_report');
    expect(slow).toHaveLength(2);
    for (const a of slow) expect(codes(a)).toEqual(['CANCELLED']);
    expect(allCodes(r).filter((c) => c !== 'CANCELLED')).toEqual([]);
    expect(observed('fm-client-timeout-auto').steps.filter((s) => !s.ok).map((s) => s.error?.code)).toEqual([-32001, -32001]);
  });

  it('a sync tool that a cancellation cannot stop: the stream stays open after the cancellation, answered -32800 or not at all; calling it again is the app\'s retry', () => {
    const r = both('fm-client-timeout-blocking');
    const blocking = calls(r, 'blocking_report');
    expect(blocking).toHaveLength(2);
    // Whether the -32800 comes before the Client closes the stream depends on the worker thread (both were recorded).
    const [first, second] = blocking;
    if (first!.outcome === 'JSONRPC_ERROR') expect(first!.detail?.errorCode).toBe(-32800);
    else expect(first!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) [\d.]+ s after sending it, before any response came$/);
    for (const a of blocking) expect(codes(a)).toContain('CANCELLED');
    expect(`${second!.call} ${second!.attempt} ${second!.retryOrigin?.origin}`).toBe(`${first!.call} 2 unknown`);
    expect(allCodes(r)).not.toContain('SIDE_DIVERGENCE');
    expect(allCodes(r)).not.toContain('NO_FINAL_RESULT');
  });

  it('TypeScript client timeout against FastMCP: notifications/cancelled, then -32800 on the stream', () => {
    const r = both('ts-client-timeout-cancel');
    const [slow] = calls(r, 'slow_report');
    expect(slow!.detail?.errorCode).toBe(-32800);
    expect(slow!.findings.map((f) => f.message).join()).toContain('it stopped the request without a result');
  });
});

describe('rate limits, errors after the tool ran, HTTP errors', () => {
  it.each(['fm-client-rate-limited', 'fm-client-auto-rate-limited', 'ts-client-rate-limited'])(
    "%s: FastMCP's RateLimitingMiddleware refuses with -32000 before the tool runs: the app's retry of send_invoice is no UNSAFE_RETRY",
    (scenario) => {
      const r = both(scenario);
      const refused = r.attempts.filter((a) => a.detail?.errorCode === -32000);
      expect(refused.length).toBeGreaterThan(0);
      for (const a of refused) {
        expect(a.outcome).toBe('JSONRPC_ERROR');
        expect(a.status).toBe(200);
        expect(a.detail?.errorMessage).toMatch(/^Rate limit exceeded for client: global$/);
      }
      const invoice = calls(r, 'send_invoice');
      expect(invoice.map((a) => a.attempt)).toEqual([1, 2]);
      expect(invoice[1]!.retryOrigin?.origin).toBe('unknown');
      expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
      expect(step(scenario, 'send_invoice (rate limited)').error?.message).toContain('Rate limit exceeded');
    },
  );

  it('on 2026-07-28 the tools/list the FastMCP Client sends after a result got the refusal: the caller saw the call fail, the call itself succeeded', () => {
    const r = both('fm-client-auto-rate-limited');
    expect(step('fm-client-auto-rate-limited', 'lookup_order 1001').error?.message).toContain('Rate limit exceeded');
    expect(calls(r, 'lookup_order')[0]!.outcome).toBe('TOOL_SUCCESS');
    expect(r.attempts.find((a) => a.method === 'tools/list')?.detail?.errorCode).toBe(-32000);
  });

  it('a -32000 from a middleware after the tool ran is no refusal: the retry of send_invoice is a proven UNSAFE_RETRY, and says the tools/list came after', () => {
    const r = both('fm-client-error-after-tool');
    const [first, retry] = calls(r, 'send_invoice');
    expect(first!.detail).toMatchObject({ errorCode: -32000, errorMessage: 'audit log unavailable' });
    const unsafe = retry!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
    expect(unsafe.severity).toBe('error');
    expect(unsafe.message).toContain('no tools/list before it in the logs');
    expect(r.attempts.findIndex((a) => a.method === 'tools/list')).toBeGreaterThan(r.attempts.indexOf(retry!));
  });

  it.each(['fm-client-http-errors', 'fm-client-ts-http-errors'])('%s: the FastMCP Client never re-sends after 503 or 429; each retry is the app\'s (unknown), Retry-After honoured', (scenario) => {
    const r = both(scenario);
    for (const tool of ['lookup_order', 'send_invoice']) {
      const chain = calls(r, tool);
      expect(chain.map((a) => a.status), tool).toEqual([tool === 'lookup_order' ? 503 : 429, 200]);
      expect(chain[0]!.notSeenByServer).toBe(true);
      expect(chain[1]!.retryOrigin?.origin).toBe('unknown');
      expect(codes(chain[1]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
    }
    // The caller saw -32603 "Server returned an error response", a stand-in that is not on the wire.
    expect(step(scenario, 'lookup_order (503').error).toMatchObject({ code: -32603, message: 'Server returned an error response' });
  });
});

describe('sessions, restarts, cut streams, auth', () => {
  it.each(['fm-client-restart-404', 'ts-client-restart-404'])('%s: a 404 after a restart; the client does not re-initialize, the app\'s new connection retries', (scenario) => {
    const r = both(scenario);
    const chain = calls(r, 'send_invoice');
    expect(chain.map((a) => `${a.status} ${a.outcome}`)).toEqual(['404 HTTP_ERROR', '200 TOOL_SUCCESS']);
    expect(chain[0]!.detail).toMatchObject({ errorCode: -32600, errorMessage: 'Session not found' });
    expect(chain[1]!.retryOrigin?.origin).toBe('unknown');
    expect(chain[0]!.session).not.toBe(chain[1]!.session);
    expect(r.findings.map((f) => f.code)).toContain('SESSION_EXPIRED');
  });

  it('the same FastMCP Client entered twice: two sessions, ids from 1 again, no reuse and no retry', () => {
    const r = both('fm-client-reconnect-same-client');
    const inits = r.attempts.filter((a) => a.method === 'initialize');
    expect(inits.map((a) => a.id)).toEqual([1, 1]);
    expect(new Set(inits.map((a) => a.session)).size).toBe(2);
    expect(allCodes(r)).toEqual([]);
  });

  it('a cut stream without event ids: NO_FINAL_RESULT, as the caller saw "SSE stream ended without a response"', () => {
    for (const scenario of ['fm-client-sse-cut', 'fm-client-ts-sse-cut-no-ids']) {
      const [slow] = calls(both(scenario), 'slow_report');
      expect(slow!.outcome, scenario).toBe('STREAM_INCOMPLETE');
      expect(codes(slow!), scenario).toEqual(['NO_FINAL_RESULT']);
      expect(step(scenario, 'slow_report').error?.message, scenario).toBe('SSE stream ended without a response');
    }
  });

  it("a cut stream with FastMCP's EventStore or the TypeScript event store: resumed with Last-Event-ID, a success", () => {
    for (const scenario of ['fm-client-sse-cut-resumed', 'fm-client-ts-sse-cut-resumed']) {
      const r = both(scenario);
      const [slow] = calls(r, 'slow_report');
      expect(slow!.outcome, scenario).toBe('TOOL_SUCCESS');
      expect(slow!.resumed, scenario).toBe(true);
      expect(allCodes(r), scenario).toEqual([]);
      expect(records(scenario, 'client').some((x) => x.method === 'GET' && x.requestHeaders?.['last-event-id'])).toBe(true);
      expect(step(scenario, 'slow_report').ok).toBe(true);
    }
  });

  it('a wrong bearer token: 401 with WWW-Authenticate, no re-send; in auto mode the 401 to server/discover sends the client to initialize, refused too', () => {
    const legacy = both('fm-client-auth-refused-legacy');
    expect(legacy.attempts.map((a) => `${a.method} ${a.status}`)).toEqual(['initialize 401']);
    const auto = both('fm-client-auth-refused-auto');
    expect(auto.attempts.map((a) => `${a.method} ${a.status}`)).toEqual(['server/discover 401', 'initialize 401']);
    for (const r of [legacy, auto]) {
      expect(r.attempts[0]!.detail?.why).toContain('invalid_token');
      expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
      expect(r.findings[0]!.message).toContain('could not authorize');
    }
  });

  it('a foreign Origin is accepted: FastMCP 4.0.10 checks Host and Origin only when asked (http_host_origin_protection)', () => {
    const r = both('fm-client-foreign-origin');
    expect(records('fm-client-foreign-origin', 'server').find((x) => x.kind === 'request')?.requestHeaders?.origin).toBe('https://elsewhere.example');
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  it("FastMCP's HTTP+SSE transport (2024-11-05): each POST answered 202, each result on the GET stream, read as the caller saw it", () => {
    const scenario = 'fm-client-sse-transport';
    const r = both(scenario);
    const seen = observed(scenario).steps;
    expect(calls(r).map((a) => `${a.tool} ${a.status} ${a.outcome}`)).toEqual([
      'lookup_order 202 TOOL_SUCCESS', 'validate_quantity 202 TOOL_ERROR', 'slow_report 202 TOOL_SUCCESS', 'ask_user 202 TOOL_SUCCESS',
    ]);
    expect(seen.map(sawToolError)).toEqual([false, true, false, false]);
    expect(records(scenario, 'client').filter((x) => x.kind === 'request' && x.method === 'GET').length).toBe(1);
    expect(allCodes(r)).toEqual([]);
  });

  it.each(['fm-client-two-apps-legacy', 'fm-client-two-apps-auto'])('%s (known gap): two apps with their own FastMCP Client read as one client retrying, since both are "mcp" 0.1.0', (scenario) => {
    const r = both(scenario);
    const [a, b] = calls(r, 'send_invoice');
    expect(observed(scenario).steps.map((s) => s.step.slice(0, 5))).toEqual(['app A', 'app B']);
    expect(`${a!.status} ${b!.status}`).toBe('503 200');
    // What the analysis says today: app B's call is taken for app A's retry, of unknown origin.
    expect(b!.call).toBe(a!.call);
    expect(b!.retryOrigin?.origin).toBe('unknown');
  });

  it("without sessions, app B's call has app A's id: the how says the ids began again after a new server/discover, not that the request was re-posted", () => {
    const scenario = 'fm-client-two-apps-auto';
    const [, b] = calls(both(scenario), 'send_invoice');
    expect(b!.id).toBe(calls(both(scenario), 'send_invoice')[0]!.id);
    expect(b!.retryOrigin?.how).toBe("the same id again after a new server/discover (id 1) between them, ids counting from the start as a new client's do; nothing in the logs says who sent it");
    // The near miss: without app B's server/discover the same id is a plain re-post, and the how says so.
    const dir = mkdtempSync(join(tmpdir(), 'fastmcp-'));
    for (const side of ['client', 'server'] as const) {
      const recs = records(scenario, side);
      const discovers = recs.filter((x) => x.send?.method === 'server/discover').map((x) => x.xid);
      const drop = new Set(discovers.slice(1));
      writeFileSync(join(dir, `${side}.ndjson`), recs.filter((x) => !drop.has(x.xid)).map((x) => JSON.stringify(x)).join('\n') + '\n');
    }
    const [, b2] = calls(analyze(join(dir, 'client.ndjson'), join(dir, 'server.ndjson')), 'send_invoice');
    expect(b2!.retryOrigin).toEqual({ origin: 'unknown', how: 'same id re-posted with no auth challenge before it' });
  });

  it('the FastMCP Client against the TypeScript server: server/discover refused with 400, then initialize; -32602 errors come as isError results', () => {
    const r = both('fm-client-ts-stateful');
    expect(r.attempts.slice(0, 2).map((a) => `${a.method} ${a.status}`)).toEqual(['server/discover 400', 'initialize 200']);
    expect(observed('fm-client-ts-stateful').notes).toContainEqual({ protocolVersion: '2025-11-25' });
    expect(calls(r, 'no_such_tool').map((a) => a.outcome)).toEqual(['TOOL_ERROR']);
    expect(allCodes(r)).toEqual([]);
  });
});
