// Real Gemini CLI 0.61.0 traffic (test/fixtures/real-gemini): both views of its Streamable HTTP MCP wire, its local telemetry file, and what mcp-triage says of them.
// The recordings are committed; re-recording needs the npm package (see record.mjs): npm test never runs Gemini CLI.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, triageCli, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes, allCodes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-gemini/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; layer?: string;
  serverOutcome?: string; call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; cancelled?: boolean;
  detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;

const both = recordedPairs<Attempt, SessionFinding>(DIR);
const outcomes = (r: Run) => calls(r).map((a) => `${a.tool} ${a.outcome}`);
interface Observed {
  geminiCli: string; exit: number; offered: string[]; response: string | null;
  functionResponses: { id: string; name: string; response: { output?: string; error?: string } }[];
}
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const wire = (s: string, side: 'client' | 'server') =>
  readFileSync(`${DIR}${s}/${side}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; method?: string; url?: string; send?: { method?: string } });
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

describe('every Gemini CLI recording', () => {
  it('has the recorded scenarios, all from Gemini CLI 0.61.0, each run ending with exit 0', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(12);
    for (const s of scenarios) {
      expect(observed(s).geminiCli, s).toBe('0.61.0');
      expect(observed(s).exit, s).toBe(0);
    }
  });

  it.each(scenarios)('%s: both views read whole, analyzed with exit 0', (s) => {
    const r = both(s);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
  });

  it.each(scenarios)('%s: each tools/call on the wire succeeded exactly when the CLI gave the model an output (not an error)', (s) => {
    const told = observed(s).functionResponses.map((f) => (f.response.output !== undefined ? 'ok' : 'failed'));
    const read = calls(both(s)).map((a) => (a.outcome === 'TOOL_SUCCESS' ? 'ok' : 'failed'));
    expect(read).toEqual(told);
  });

  it.each(scenarios)('%s: the CLI never retries a call (every attempt is the first of its call) and no retry finding fires', (s) => {
    const r = both(s);
    for (const a of r.attempts) {
      expect(a.attempt, `${a.method} ${a.id}`).toBe(1);
      expect(a.retryOrigin).toBeUndefined();
    }
    expect(allCodes(r)).not.toContain('UNSAFE_RETRY');
    expect(allCodes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
    expect(allCodes(r)).not.toContain('OUTCOME_MISMATCH');
  });
});

describe('Gemini CLI 0.61.0 on the wire', () => {
  it('baseline: initialize, notifications/initialized, a GET stream, tools/list, then three TOOL_SUCCESS calls and no finding; the GET it drops at exit is no failure', () => {
    const r = both('baseline');
    expect(r.attempts.map((a) => a.method)).toEqual(['initialize', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    expect(outcomes(r)).toEqual(['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_SUCCESS', 'strict_lookup TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
    const sent = wire('baseline', 'client').filter((m) => m.kind === 'request');
    expect(sent.map((m) => m.send?.method ?? m.method)).toEqual(['initialize', 'notifications/initialized', 'GET', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    // no DELETE at exit: the session is left to the server
    expect(sent.some((m) => m.method === 'DELETE')).toBe(false);
    expect(observed('baseline').offered).toContain('mcp_web_lookup_order');
  });

  it('tool-error: an isError result and a tool that threw are TOOL_ERROR at the application layer, with no transport finding', () => {
    const r = both('tool-error');
    expect(outcomes(r)).toEqual(['validate_quantity TOOL_ERROR', 'crash TOOL_ERROR']);
    for (const a of calls(r)) expect(a.layer).toBe('application');
    expect(allCodes(r)).not.toContain('NO_FINAL_RESULT');
  });

  it('jsonrpc-error: -32602 is JSONRPC_ERROR at the protocol layer (the CLI told the model "reported tool error" all the same), the next call TOOL_SUCCESS', () => {
    const r = both('jsonrpc-error');
    expect(outcomes(r)).toEqual(['strict_lookup JSONRPC_ERROR', 'strict_lookup TOOL_SUCCESS']);
    expect(calls(r)[0].layer).toBe('protocol');
    expect(calls(r)[0].detail?.errorCode).toBe(-32602);
    expect(observed('jsonrpc-error').functionResponses[0].response.error).toMatch(/reported tool error.*-32602/);
  });

  it.each([
    ['http-503', 503],
    ['http-429', 429],
    ['http-401', 401],
  ])('%s: HTTP_ERROR %i at the transport layer, which the server never saw, and no retry (a 429 Retry-After is ignored)', (s, status) => {
    const r = both(s);
    const [failed, ...rest] = calls(r);
    expect(failed.outcome).toBe('HTTP_ERROR');
    expect(failed.status).toBe(status);
    expect(failed.layer).toBe('transport');
    expect(failed.serverOutcome).toBeUndefined();
    for (const a of rest) {
      expect(a.outcome).toBe('TOOL_SUCCESS');
      expect(a.call).not.toBe(failed.call);
    }
    expect(observed(s).functionResponses[0].response.error).toContain(`HTTP ${status}`);
  });

  it('http-401: the Bearer challenge starts no OAuth discovery: every request goes to /mcp', () => {
    const urls = wire('http-401', 'client').filter((m) => m.kind === 'request').map((m) => new URL(m.url ?? '').pathname);
    expect(new Set(urls)).toEqual(new Set(['/mcp']));
    expect(calls(both('http-401'))[0].detail?.why).toContain('invalid_token');
  });

  it('session-expired: both calls get 404 in the forgotten session, the CLI never re-initializes, and one SESSION_EXPIRED says so for both', () => {
    const r = both('session-expired');
    expect(outcomes(r)).toEqual(['lookup_order HTTP_ERROR', 'lookup_order HTTP_ERROR']);
    expect(calls(r).map((a) => a.status)).toEqual([404, 404]);
    expect(r.attempts.filter((a) => a.method === 'initialize')).toHaveLength(1);
    const expired = r.findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toMatch(/: HTTP 404 to 2 requests that carried the session id, over 0\.\d\d s \(tools\/call lookup_order id 2; tools\/call lookup_order id 3\); then the client did not re-initialize$/);
    for (const f of expired) {
      expect(f.message).toContain('did not re-initialize');
      expect(f.message).not.toContain('retried');
    }
  });

  it('sse-cut: a call stream cut before its result is STREAM_INCOMPLETE with NO_FINAL_RESULT, SIDE_DIVERGENCE (the server sent the result) and CANCELLED when the 20 s timeout fires', () => {
    const r = both('sse-cut');
    const [cut, next] = calls(r);
    expect(cut.outcome).toBe('STREAM_INCOMPLETE');
    expect(cut.serverOutcome).toBe('TOOL_SUCCESS');
    expect(codes(cut).sort()).toEqual(['CANCELLED', 'NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(cut.findings.find((f) => f.code === 'CANCELLED')?.message).toMatch(/after 2\d\.\d s/);
    // no resumption: the server's events carry no id, and the CLI waits out its timeout
    expect(wire('sse-cut', 'client').filter((m) => m.kind === 'request' && m.method === 'GET')).toHaveLength(1);
    expect(next.outcome).toBe('TOOL_SUCCESS');
    expect(observed('sse-cut').functionResponses[0].response.error).toContain('Request timed out');
  });

  it('socket-destroyed: NO_RESPONSE that the server never saw, so no SIDE_DIVERGENCE; the CLI reports "fetch failed"', () => {
    const [lost] = calls(both('socket-destroyed'));
    expect(lost.outcome).toBe('NO_RESPONSE');
    expect(lost.serverOutcome).toBeUndefined();
    expect(codes(lost)).not.toContain('SIDE_DIVERGENCE');
    expect(observed('socket-destroyed').functionResponses[0].response.error).toContain('fetch failed');
  });

  it('response-dropped: NO_RESPONSE on the client, TOOL_SUCCESS on the server: SIDE_DIVERGENCE, and the next call is no retry of it', () => {
    const r = both('response-dropped');
    const [lost, next] = calls(r);
    expect(lost.outcome).toBe('NO_RESPONSE');
    expect(lost.serverOutcome).toBe('TOOL_SUCCESS');
    expect(codes(lost)).toContain('SIDE_DIVERGENCE');
    expect(next.call).not.toBe(lost.call);
  });

  it('timeout: past the server entry\'s timeout (3000 ms) the CLI sends notifications/cancelled and keeps the stream open: CANCELLED after ~3 s, not NO_FINAL_RESULT', () => {
    const r = both('timeout');
    const [slow, next] = calls(r);
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(slow.cancelled).toBe(true);
    expect(codes(slow)).toEqual(['CANCELLED']);
    expect(slow.findings[0].message).toMatch(/after 3\.\d\d s/);
    expect(slow.detail?.why).toContain('notifications/cancelled');
    expect(next.outcome).toBe('TOOL_SUCCESS');
  });

  it('timeout-then-exit: when the timed-out call is the last, the CLI exits before its notifications/cancelled reaches the wire: NO_FINAL_RESULT says none was sent', () => {
    // This recording caught the race one way; re-recording may catch the cancellation sent (then: CANCELLED, as in timeout).
    expect(wire('timeout-then-exit', 'client').some((m) => m.send?.method === 'notifications/cancelled')).toBe(false);
    const [slow] = calls(both('timeout-then-exit'));
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(codes(slow)).toEqual(['NO_FINAL_RESULT']);
    expect(slow.detail?.why).toMatch(/the client closed the stream 3\.\d+ s after sending it, before any response came, and sent no notifications\/cancelled/);
  });

  it('server-down-at-start: initialize gets no response, the CLI does not retry it, offers the model no MCP tool, and CALL_NEVER_SENT says no call went out', () => {
    const r = both('server-down-at-start');
    expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['initialize NO_RESPONSE']);
    expect(r.findings.map((f) => f.code)).toEqual(['CALL_NEVER_SENT']);
    expect(observed('server-down-at-start').offered).toEqual([]);
    expect(observed('server-down-at-start').functionResponses).toEqual([]);
  });
});

describe('Gemini CLI\'s local telemetry file (telemetry.target "local", outfile)', () => {
  const files = scenarios.filter((s) => existsSync(`${DIR}${s}/gemini-telemetry.json.gz`));

  it('is kept for baseline, tool-error and timeout', () => {
    expect(files.sort()).toEqual(['baseline', 'timeout', 'tool-error']);
  });

  it.each(files)('%s: pretty-printed JS SDK objects, not OTLP JSON lines: every line is counted unusable and no call is invented', (s) => {
    const r = triageCli<Attempt, SessionFinding>([`${DIR}${s}/gemini-telemetry.json.gz`]);
    expect(r.code).toBe(0);
    expect(r.attempts).toEqual([]);
    const summary = r.summary as { lines: { read: number; used: number; unusable: number }; diagnostics: { first: { line?: number; message: string }[] } };
    expect(summary.lines.read).toBeGreaterThan(1000);
    expect(summary.lines.used).toBe(0);
    expect(summary.lines.unusable).toBe(summary.lines.read);
    // its first line is a lone "{", and the diagnostic says what that means
    expect(summary.diagnostics.first[0]).toMatchObject({ line: 1, message: expect.stringContaining('pretty-printed JSON') });
  });
});

describe('Gemini CLI\'s OTLP/HTTP export (otlpProtocol "http", each request one line as a Collector file exporter writes it)', () => {
  const OTLP = `${DIR}otlp-http/gemini-otlp.ndjson.gz`;
  const alone = () => triageCli<Attempt & { claim?: { outcome?: string; errorCode?: number; only?: true } }, SessionFinding>([OTLP]);
  const expected = ['lookup_order TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'strict_lookup JSONRPC_ERROR', 'lookup_order HTTP_ERROR', 'lookup_order NO_RESPONSE', 'slow_report UNANSWERED', 'lookup_order TOOL_SUCCESS'];

  it('alone: each gemini_cli.tool_call log is a claimed call with the outcome its error text tells; the trace line (no MCP attribute on any span) is the one skipped line', () => {
    const r = alone();
    expect(r.code).toBe(0);
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(expected);
    expect(r.summary).toMatchObject({ lines: { read: 2, used: 1, skipped: 1, unusable: 0 }, claims: { total: 7, matched: 0, alone: 7 } });
    expect(calls(r)[3].status).toBe(503);
    expect(calls(r)[2].detail?.errorCode).toBe(-32602);
    // -32001 is the SDK client's own timeout: no outcome is claimed for it
    expect(calls(r)[5].detail?.why).toContain('-32001 is');
  });

  it('alone: seven claims of one export line are seven calls, none a retry of another', () => {
    const r = alone();
    expect(new Set(calls(r).map((a) => a.call)).size).toBe(7);
    for (const a of calls(r)) {
      expect(a.attempt).toBe(1);
      expect(codes(a)).toEqual([]);
    }
  });

  it('with both views of the wire: every claim joins its call on the wire, the outcomes agree (no OUTCOME_MISMATCH), and the timed-out call is the wire\'s STREAM_INCOMPLETE', () => {
    const r = triageCli<Attempt & { claim?: { outcome?: string } }, SessionFinding>(['--client', `${DIR}otlp-http/client.ndjson`, '--server', `${DIR}otlp-http/server.ndjson`, OTLP]);
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ claims: { total: 7, matched: 7, alone: 0 } });
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual(expected.map((e) => e.replace('UNANSWERED', 'STREAM_INCOMPLETE')));
    expect(allCodes(r)).not.toContain('OUTCOME_MISMATCH');
    expect(codes(calls(r)[5])).toContain('CANCELLED');
  });
});
