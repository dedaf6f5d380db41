// The MCP test kitchen's unregistered transport-fault and timeout scenarios (test/fixtures/real-audit62), emulated in
// front of real SDK servers and recorded with real clients behind an application that re-calls: what mcp-triage says of
// each tools/call, in each view, against what the application saw (observed.json, truth.md). Two fixes: the Python SDK
// client's DEBUG log shows a JSON body it refused ("Error parsing JSON response", "dropping response for unknown/late
// request id"): MALFORMED_JSON or INVALID_ENVELOPE, not UNANSWERED; and on 2026-07-28 a connection the server itself
// dropped (errors.connection_close) is not said to be closed by something between them. node
// test/real-audit62/record.mjs re-records them.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { triageCli, type CliRun, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit62/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
type Run = CliRun<ReportAttempt, ReportFinding>;
type View = 'both' | 'client' | 'server' | 'proxy' | 'log';
const cache = new Map<string, Run>();
function run(c: string, view: View = 'both'): Run {
  const key = `${c}|${view}`;
  let r = cache.get(key);
  if (!r) {
    const f = (n: string) => `${DIR}${c}/${n}`;
    const args = { both: ['--client', f('client.ndjson'), '--server', f('server.ndjson')], client: ['--client', f('client.ndjson')], server: ['--server', f('server.ndjson')], proxy: ['--client', f('proxy.ndjson')], log: ['--client', f('client.log')] }[view];
    r = triageCli<ReportAttempt, ReportFinding>(args);
    cache.set(key, r);
  }
  return r;
}
const calls = (r: Run) => r.attempts.filter((a) => a.method === 'tools/call');
const shape = (r: Run) => calls(r).map((a) => `${a.status ?? '-'} ${a.outcome} ${a.call === calls(r)[0]!.call ? 'c1' : 'c+'}/${a.attempt}`);
const codes = (a: ReportAttempt) => a.findings.map((f) => f.code).sort();

/** Each case's tools/call attempts in the client's view (the recording proxy's too), as the truth has them. */
const EXPECTED: Record<string, string[]> = {
  'ts-close-tool': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'v2-close-tool': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-close-tool': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-close-init': ['200 TOOL_SUCCESS c1/1'],
  'py-close-init': ['200 TOOL_SUCCESS c1/1'],
  'ts-malformed-json': ['200 MALFORMED_JSON c1/1', '200 TOOL_SUCCESS c1/2'],
  'v2-malformed-json': ['200 MALFORMED_JSON c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-malformed-json': ['200 MALFORMED_JSON c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-malformed-wrong-id': ['200 INVALID_ENVELOPE c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-malformed-wrong-id': ['200 INVALID_ENVELOPE c1/1', '200 TOOL_SUCCESS c1/2'],
  'v2-malformed-missing-jsonrpc': ['200 INVALID_ENVELOPE c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-malformed-missing-jsonrpc': ['200 INVALID_ENVELOPE c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-malformed-duplicate': ['200 MALFORMED_JSON c1/1', '200 TOOL_SUCCESS c1/2', '200 TOOL_SUCCESS c+/1'],
  'py-malformed-duplicate': ['200 MALFORMED_JSON c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-envelope-init': ['200 TOOL_SUCCESS c1/1'],
  'ts-envelope-tool': ['400 HTTP_ERROR c1/1', '200 TOOL_SUCCESS c1/2'],
  'v2-envelope-tool': ['400 HTTP_ERROR c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-envelope-tool': ['400 HTTP_ERROR c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-status-per-method': ['401 HTTP_ERROR c1/1', '401 HTTP_ERROR c1/2'],
  'v2-status-per-method': ['401 HTTP_ERROR c1/1', '401 HTTP_ERROR c1/2'],
  'py-status-per-method': ['401 HTTP_ERROR c1/1', '401 HTTP_ERROR c1/2'],
  'ts-cooperative': ['200 STREAM_INCOMPLETE c1/1', '200 TOOL_SUCCESS c1/2'],
  'v2-cooperative': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-cooperative': ['200 STREAM_INCOMPLETE c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-late-response': ['200 STREAM_INCOMPLETE c1/1', '200 TOOL_SUCCESS c1/2'],
  'v2-late-response': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-late-response': ['200 STREAM_INCOMPLETE c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-uncooperative-hang': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'v2-uncooperative-hang': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'py-uncooperative-hang': ['- NO_RESPONSE c1/1', '200 TOOL_SUCCESS c1/2'],
  'ts-init-hang': ['200 TOOL_SUCCESS c1/1'],
  'v2-init-hang': ['200 TOOL_SUCCESS c1/1'],
  'py-init-hang': ['200 TOOL_SUCCESS c1/1'],
};

describe('the test kitchen\'s unregistered fault and timeout scenarios: each tools/call as the application saw it', () => {
  it.each(Object.keys(EXPECTED))('%s: the client\'s view (and the proxy\'s) has each try the app made, its failure where it failed, the re-call linked', (c) => {
    for (const view of (c.startsWith('py-') ? ['client', 'both'] : ['client', 'proxy', 'both']) as View[]) {
      const r = run(c, view);
      expect(r.unusable, view).toBe(0);
      expect(shape(r), view).toEqual(EXPECTED[c]);
    }
  });

  it('the hangs: the client\'s timeout is CANCELLED on every client, and a result that came after it is said to have come after', () => {
    for (const c of ['ts-cooperative', 'v2-cooperative', 'py-cooperative', 'ts-late-response', 'v2-late-response', 'py-late-response', 'ts-uncooperative-hang', 'v2-uncooperative-hang', 'py-uncooperative-hang']) {
      expect(codes(calls(run(c, 'client'))[0]!), c).toContain('CANCELLED');
    }
    for (const c of ['ts-cooperative', 'ts-late-response', 'py-late-response']) expect(calls(run(c, 'client'))[0]!.detail?.why, c).toMatch(/came .* after that, when the client had given up/);
  });

  it('timeout.init_hang: the 2025-11-25 connect that timed out is a cancelled initialize, the next one a retry of it; the v2 client (server/discover) never meets it', () => {
    const init = run('ts-init-hang', 'client').attempts.filter((a) => a.method === 'initialize');
    expect(init.map((a) => `${a.outcome} ${a.attempt}`)).toEqual(['NO_RESPONSE 1', 'SUCCESS 2']);
    expect(codes(init[0]!)).toContain('CANCELLED');
    expect(run('v2-init-hang', 'client').attempts.some((a) => a.method === 'initialize')).toBe(false);
  });
});

describe('the Python SDK client\'s DEBUG log: a JSON body the SDK refused (errors.malformed_payload)', () => {
  it('not JSON ("Error parsing JSON response", pydantic\'s json_invalid): MALFORMED_JSON, HTTP 200, the re-call its retry', () => {
    for (const c of ['py-malformed-json', 'py-malformed-duplicate']) {
      const a = calls(run(c, 'log'));
      expect(a.map((x) => `${x.outcome} ${x.attempt}`), c).toEqual(['MALFORMED_JSON 1', 'TOOL_SUCCESS 2']);
      expect(a[0], c).toMatchObject({ status: 200, layer: 'protocol' });
      expect(a[0]!.detail?.why, c).toMatch(/is not JSON: the Python SDK logged "Error parsing JSON response".*-32700/);
      expect(a[1]!.call, c).toBe(a[0]!.call);
    }
  });

  it('JSON but no JSON-RPC message (pydantic\'s "Field required"), and a response to another id the SDK dropped: INVALID_ENVELOPE', () => {
    const shapeless = calls(run('py-malformed-missing-jsonrpc', 'log'));
    expect(shapeless.map((x) => `${x.outcome} ${x.attempt}`)).toEqual(['INVALID_ENVELOPE 1', 'TOOL_SUCCESS 2']);
    expect(shapeless[0]!.detail?.why).toMatch(/is JSON but no JSON-RPC message .*type=missing/);
    const wrong = calls(run('py-malformed-wrong-id', 'log'));
    expect(wrong.map((x) => `${x.outcome} ${x.attempt}`)).toEqual(['INVALID_ENVELOPE 1', 'TOOL_SUCCESS 2']);
    expect(wrong[0]!.detail?.why).toMatch(/answered id 99999, not the request id 2/);
    // the caller waited on to its own timeout: the cancellation after the drop is still the request's
    expect(codes(wrong[0]!)).toContain('CANCELLED');
  });

  it('near misses: a JSON body the SDK read without complaint stays answered-but-unlogged, a late SSE answer it dropped stays the cancelled stream, and no other case\'s log turns MALFORMED_JSON or INVALID_ENVELOPE', () => {
    const ok = calls(triageCli<ReportAttempt, ReportFinding>(['--client', `${FIXTURES}real-audit59/py-jsonrpc-32602/client.log`]));
    expect(ok[0]!.outcome).toBe('UNANSWERED');
    expect(ok[0]!.detail?.why).toMatch(/^answered: HTTP 200/);
    const late = calls(triageCli<ReportAttempt, ReportFinding>(['--client', `${FIXTURES}real-audit59/py-baseline-delay/client.log`]));
    expect(late.map((x) => x.outcome)).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS']);
    for (const c of Object.keys(EXPECTED).filter((x) => x.startsWith('py-') && !x.startsWith('py-malformed'))) {
      expect(calls(run(c, 'log')).filter((a) => a.outcome === 'MALFORMED_JSON' || a.outcome === 'INVALID_ENVELOPE'), c).toEqual([]);
    }
  });
});

describe('errors.connection_close on 2026-07-28: the server\'s side closed the connection', () => {
  it('joined, the SIDE_DIVERGENCE says the server\'s side closed it (the server itself or something between them), not surely a hop', () => {
    const [cut] = calls(run('v2-close-tool'));
    const div = cut!.findings.find((f) => f.code === 'SIDE_DIVERGENCE')!;
    expect(div.message).toMatch(/the client did not close its stream \(it failed with "fetch failed: other side closed \(UND_ERR_SOCKET\)"\): the server's side closed it: something between them, or the server itself behind its log \(a fault injector's abort, a crash\); both sides logged no response NO_RESPONSE$/);
  });

  it('near miss: a client that closed the request itself (its timeout, v2-cooperative) has no SIDE_DIVERGENCE; 2025-11-25 (ts-close-tool) none either', () => {
    for (const c of ['v2-cooperative', 'v2-late-response', 'ts-close-tool']) expect(calls(run(c)).flatMap((a) => codes(a)), c).not.toContain('SIDE_DIVERGENCE');
  });
});

describe('errors.non_compliant_envelope: HTTP 400 with a canned JSON-RPC result from the wire layer (no tool ran)', () => {
  it('the why says the result under the error status does not prove a tool ran, not that the request was handled', () => {
    for (const c of ['ts-envelope-tool', 'v2-envelope-tool', 'py-envelope-tool']) {
      const why = calls(run(c, 'client'))[0]!.detail?.why ?? '';
      expect(why, c).toMatch(/^HTTP 400 Bad Request, though its body holds a JSON-RPC result \(the handler's, or a layer's in front of it.*it does not prove a tool ran\), yet the SDK clients fail it on the status/);
      expect(why, c).not.toMatch(/the request was handled/);
    }
  });

  it('near miss: a bare 401 (errors.http_status_per_method) keeps its bare-status why', () => {
    expect(calls(run('ts-status-per-method', 'client'))[0]!.detail?.why).toMatch(/^HTTP 401 Unauthorized: a bare status line \(no body, no Content-Type\)/);
  });
});

describe('stop 47: the Python DEBUG log without times, a call given up at its timeout whose answer never came', () => {
  it.each(['py-uncooperative-hang', 'py-cooperative', 'py-late-response'])('%s: the re-call is attempt 2 of the call given up on, as the timed log of the same run has it', (c) => {
    const untimed = calls(run(c, 'log'));
    const timed = calls(triageCli<ReportAttempt, ReportFinding>(['--client', `${DIR}${c}/client-timed.log`]));
    expect(untimed.map((a) => `${a.outcome} ${a.attempt}`)).toEqual(timed.map((a) => `${a.outcome} ${a.attempt}`));
    expect(untimed.map((a) => a.attempt)).toEqual([1, 2]);
    expect(untimed[1]!.call).toBe(untimed[0]!.call);
  });
});

describe('stop 47: a body of one response sent twice (malformed_payload duplicate_response) says so', () => {
  it('ts-malformed-duplicate, the client\'s and the proxy\'s view: the why names the two messages and the one id', () => {
    for (const view of ['client', 'proxy'] as const) {
      const [first] = calls(run('ts-malformed-duplicate', view));
      expect(first!.outcome).toBe('MALFORMED_JSON');
      expect((first as ReportAttempt & { detail?: { why?: string } }).detail?.why).toMatch(/^body is not JSON \(.*\): it holds 2 JSON-RPC messages, one per line, each a response to id 1 \(one response sent twice\), where a JSON body must be one JSON value/);
    }
  });

  it('near miss: a body that is no JSON at all (malformed_payload invalid_json) says only that', () => {
    const [first] = calls(run('ts-malformed-json', 'client'));
    expect(first!.outcome).toBe('MALFORMED_JSON');
    expect((first as ReportAttempt & { detail?: { why?: string } }).detail?.why).not.toMatch(/JSON-RPC messages, one per line/);
  });
});
