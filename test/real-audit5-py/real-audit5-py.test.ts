// Fifth audit (test/fixtures/real-audit5-py): the Python SDK 2.3.0 client on the fourth audit's hops, its server with the
// SDK 1.32.2 client, and its client's timeout and the app's retry; what mcp-triage must say of each against what the caller
// got (observed.json). The recordings are committed; node test/real-audit5-py/record.mjs re-records them (needs dist/ and
// the Python SDK in /work/py-venv).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingRunner, triageCli, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit5-py/', import.meta.url));
const AUDIT4 = fileURLToPath(new URL('../fixtures/real-audit4/', import.meta.url));
const AUDIT3 = fileURLToPath(new URL('../fixtures/real-audit3/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; findings: Finding[]; detail?: { why?: string; errorCode?: number; errorMessage?: string }; protocolVersion?: string;
}
interface SessionFinding { type: 'finding'; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; ms: number; summary?: { text?: string; isError?: boolean; content?: { text: string }[] }; error?: { name: string; message: string; code?: number } }
interface Observed { steps: Step[]; notes: Record<string, unknown>[]; serverRan?: string[] }

const HOP_PY_TS = ['empty-200-json', 'duplicate-response-sse', 'error-then-result-same-id', 'batch-of-one-response', 'string-id-response', 'multiline-sse-data', 'html-in-sse-after-head'].map((h) => `py-client-${h}`);
const HOP_PY_PY = ['empty-200-json', 'batch-of-one-response', 'string-id-response', 'html-in-sse-after-head'].map((h) => `py-auto-${h}`);
const TIMEOUT = ['py-client-timeout-retry-legacy', 'py-client-timeout-retry-auto', 'py-client-timeout-retry-stateless'];
const PY_SERVER = ['py-server-stateful', 'py-server-stateless', 'py-server-json'];
// the same hops in stateless mode, the Python client in legacy mode (2025-11-25): the SDK 1.32.2 server, the Python server
const STATELESS_TS = ['empty-200-json', 'duplicate-response-sse', 'error-then-result-same-id', 'batch-of-one-response', 'string-id-response', 'multiline-sse-data', 'html-in-sse-after-head'];
const STATELESS_PY = ['duplicate-response-sse', 'error-then-result-same-id', 'html-in-sse-after-head'];
const STATELESS = [...STATELESS_TS.map((h) => `py-stateless-${h}`), ...STATELESS_PY.map((h) => `py-stateless-py-${h}`)];
// auto mode to the stateless SDK 1.32.2 server: the server/discover probe refused (400), the client falls back to initialize
const STATELESS_AUTO = ['duplicate-response-sse', 'html-in-sse-after-head'];
const ABORT = ['py-client-abort-between-progress', 'py-stateless-abort-between-progress'];
const ALL = [...HOP_PY_TS, ...HOP_PY_PY, ...TIMEOUT, ...PY_SERVER, 'py-server-mcperror-retry', ...STATELESS, ...STATELESS_AUTO.map((h) => `py-stateless-auto-${h}`), ...ABORT];

const run: (s: string, view?: View) => Run = recordingRunner<Attempt, SessionFinding>(DIR);
const codes = (a: Attempt) => a.findings.map((f) => f.code).sort();
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const step = (s: string, label: RegExp) => observed(s).steps.find((x) => label.test(x.step))!;
const firstCall = (r: Run) => calls(r)[0]!;
const byTool = (r: Run, tool: string) => calls(r).filter((a) => a.tool === tool);

describe('fifth audit (Python SDK): every recording', () => {
  it.each(ALL)('%s: read whole in each view; the last call is a clean TOOL_SUCCESS; other methods have no findings', (s) => {
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run(s, view);
      expect(r.code === 0 || r.code === 1, view).toBe(true);
      expect(r.unusable, view).toBe(0);
      const last = calls(r).at(-1)!;
      expect([last.tool, last.outcome, last.findings], view).toEqual(['lookup_order', 'TOOL_SUCCESS', []]);
      for (const a of r.attempts.filter((x) => x.method !== 'tools/call')) expect(a.findings, `${view} ${a.method}`).toEqual([]);
      expect(r.findings, view).toEqual([]);
    }
  });

  it.each([...HOP_PY_TS, ...HOP_PY_PY, ...STATELESS, ...STATELESS_AUTO.map((h) => `py-stateless-auto-${h}`)])('%s: the hop touched only the first call; the server ran it (TOOL_SUCCESS in its view) and nothing is taken for a retry', (s) => {
    for (const view of ['both', 'client', 'server'] as View[]) expect(run(s, view).summary.retries, view).toBe(0);
    const server = calls(run(s, 'server')).map((a) => a.outcome);
    // the HTML hop on an SSE stream cuts the server's stream before its result (py-auto- is a JSON body, written whole)
    expect(server).toEqual(/^py-(client|stateless|stateless-py|stateless-auto)-html-in-sse-after-head$/.test(s) ? ['STREAM_INCOMPLETE', 'TOOL_SUCCESS'] : ['TOOL_SUCCESS', 'TOOL_SUCCESS']);
  });

  it('no why or message on the Python client\'s traffic credits the TypeScript SDK with what the Python client did', () => {
    for (const s of [...HOP_PY_TS, ...HOP_PY_PY, ...TIMEOUT, ...STATELESS]) {
      const r = run(s);
      const texts = r.attempts.flatMap((a) => [a.detail?.why ?? '', ...a.findings.map((f) => f.message)]).filter((t) => /TypeScript/.test(t));
      // only the string id's orphan names both SDKs that take it
      for (const t of texts) expect(t, s).toMatch(/the TypeScript SDK \(1\.x and v2\) and the Python SDK take as its answer$/);
    }
  });
});

describe('the Python client on the fourth audit\'s hops', () => {
  it.each(['py-client-empty-200-json', 'py-auto-empty-200-json'])('%s: the caller got -32700 "Failed to parse JSON response"; STREAM_INCOMPLETE with NO_FINAL_RESULT, SIDE_DIVERGENCE joined', (s) => {
    expect(step(s, /hop/).error).toMatchObject({ name: 'MCPError', code: -32700 });
    expect(step(s, /hop/).error!.message).toMatch(/^Failed to parse JSON response/);
    const a = firstCall(run(s));
    expect([a.outcome, a.serverOutcome, a.status, a.detail?.why]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', 200, 'empty response body']);
    expect(codes(a)).toEqual(['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(codes(firstCall(run(s, 'client')))).toEqual(['NO_FINAL_RESULT']);
  });

  it('py-client-duplicate-response-sse: the caller took the first result; TOOL_SUCCESS with ORPHAN_RESPONSE for the second, no DUPLICATE_RECORD', () => {
    expect(step('py-client-duplicate-response-sse', /hop/).summary?.text).toBe('invoice for order 1001 sent');
    for (const view of ['both', 'client'] as View[]) {
      const a = firstCall(run('py-client-duplicate-response-sse', view));
      expect([a.outcome, codes(a)], view).toEqual(['TOOL_SUCCESS', ['ORPHAN_RESPONSE']]);
    }
  });

  it('py-client-error-then-result-same-id: the caller got the error (-32603); JSONRPC_ERROR, ORPHAN_RESPONSE for the result after it, SIDE_DIVERGENCE joined', () => {
    expect(step('py-client-error-then-result-same-id', /hop/).error).toMatchObject({ code: -32603, message: 'upstream timeout' });
    const a = firstCall(run('py-client-error-then-result-same-id'));
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS', ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
  });

  it.each(['py-client-batch-of-one-response', 'py-auto-batch-of-one-response'])('%s: the Python client fails on a batch of one (-32700); INVALID_ENVELOPE naming it, not TOOL_SUCCESS; SIDE_DIVERGENCE joined', (s) => {
    expect(step(s, /hop/).error).toMatchObject({ name: 'MCPError', code: -32700 });
    for (const view of ['both', 'client'] as View[]) {
      const a = firstCall(run(s, view));
      expect(a.outcome, view).toBe('INVALID_ENVELOPE');
      expect(a.detail?.why, view).toMatch(/^the response came inside a JSON array \(a batch of one\) although the request was sent alone: .*; the client \(User-Agent "python-httpx2\/2\.13\.1": the Python SDK's HTTP client\) reads one object and fails on it \("Failed to parse JSON response", -32700\)$/);
    }
    expect(codes(firstCall(run(s)))).toEqual(['SIDE_DIVERGENCE']);
    expect(codes(firstCall(run(s, 'client')))).toEqual([]);
    // the server wrote one object: the hop added the array
    const server = firstCall(run(s, 'server'));
    expect([server.outcome, server.detail?.why]).toEqual(['TOOL_SUCCESS', undefined]);
  });

  it('a batch of one to the TypeScript SDK client (real-audit4) stays TOOL_SUCCESS with no findings, and its why says which SDK takes it', () => {
    const r = triageCli<Attempt, SessionFinding>(['--client', `${AUDIT4}batch-of-one-response/client.ndjson`]);
    const a = firstCall(r);
    expect([a.outcome, a.findings]).toEqual(['TOOL_SUCCESS', []]);
    expect(a.detail?.why).toMatch(/; the TypeScript SDK takes it, the Python SDK fails on it \(-32700\), a client that expects one object may not$/);
  });

  it.each(['py-client-string-id-response', 'py-auto-string-id-response'])('%s: the Python client took "3" for 3 and returned the result; INVALID_ENVELOPE, and the why and the orphan say that this client takes it', (s) => {
    expect(step(s, /hop/).summary).toEqual({ text: 'order 1001: shipped', isError: false });
    const a = firstCall(run(s));
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['INVALID_ENVELOPE', 'TOOL_SUCCESS', ['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toBe('response id "3" is not the request id 3: the same value as a string, which this client (User-Agent "python-httpx2/2.13.1": the Python SDK, which reads a string of digits as the number) takes as the answer; a client that compares ids with their type drops it');
    expect(a.findings.find((f) => f.code === 'ORPHAN_RESPONSE')!.message).toMatch(s === 'py-auto-string-id-response' ? /matches no request sent in the same log \(there is no session\): it is this request's id as a string, which the TypeScript SDK \(1\.x and v2\) and the Python SDK take as its answer$/ : /matches no request sent in its session: it is this request's id as a string, which the TypeScript SDK \(1\.x and v2\) and the Python SDK take as its answer$/);
  });

  it('an id that differs in value (real/wrong-response-id, 1 → 1001) names no SDK that takes it, in the why or the orphan', () => {
    const r = triageCli<Attempt, SessionFinding>(['--client', fileURLToPath(new URL('../fixtures/real/wrong-response-id.client.ndjson', import.meta.url))]);
    const a = r.attempts.find((x) => x.outcome === 'INVALID_ENVELOPE')!;
    expect(a.detail?.why).toBe('response id 1001 is not the request id 1');
    expect(a.findings.find((f) => f.code === 'ORPHAN_RESPONSE')!.message).toBe('response with id 1001 on the exchange of tools/call lookup_order id 1 matches no request sent in its session');
  });

  it('py-client-multiline-sse-data: the result over several data: lines is read whole; TOOL_SUCCESS, no findings', () => {
    expect(step('py-client-multiline-sse-data', /hop/).ok).toBe(true);
    for (const view of ['both', 'client'] as View[]) expect([firstCall(run('py-client-multiline-sse-data', view)).outcome, firstCall(run('py-client-multiline-sse-data', view)).findings], view).toEqual(['TOOL_SUCCESS', []]);
  });

  it('py-client-html-in-sse-after-head: the Python client raised -32000 at once (no timeout, no cancellation); STREAM_INCOMPLETE with NO_FINAL_RESULT, no CANCELLED, the page quoted', () => {
    const st = step('py-client-html-in-sse-after-head', /hop/);
    expect(st.error).toMatchObject({ code: -32000, message: 'SSE stream ended without a response' });
    expect(st.ms).toBeLessThan(1000);
    for (const view of ['both', 'client'] as View[]) {
      const a = firstCall(run('py-client-html-in-sse-after-head', view));
      expect([a.outcome, codes(a)], view).toEqual(['STREAM_INCOMPLETE', ['NO_FINAL_RESULT']]);
      expect(a.detail?.why, view).toMatch(/the stream carried text that is no SSE field, which an SSE client ignores \(an error page written into it\?\): "502 Bad Gateway"$/);
    }
  });

  it('py-auto-html-in-sse-after-head: an nginx page as the body of a 200 application/json; MALFORMED_JSON whose why quotes the page; SIDE_DIVERGENCE joined', () => {
    expect(step('py-auto-html-in-sse-after-head', /hop/).error).toMatchObject({ code: -32700 });
    const a = firstCall(run('py-auto-html-in-sse-after-head'));
    expect([a.outcome, a.serverOutcome, codes(a)]).toEqual(['MALFORMED_JSON', 'TOOL_SUCCESS', ['SIDE_DIVERGENCE']]);
    expect(a.detail?.why).toBe('body is not JSON (Unexpected token (not valid JSON)); it says: "502 Bad Gateway"');
  });

  it('a body of broken JSON (real/malformed-json-body) is not quoted back as what the body says', () => {
    const r = triageCli<Attempt, SessionFinding>(['--client', fileURLToPath(new URL('../fixtures/real/malformed-json-body.client.ndjson', import.meta.url))]);
    expect(firstCall(r).detail?.why).toBe('body is not JSON (Unexpected end of JSON input)');
  });
});

describe('the Python server with the TypeScript SDK client', () => {
  it.each(PY_SERVER)('%s: a tool that raises, a ToolError and an isError result are TOOL_ERROR in each view, with no findings', (s) => {
    for (const tool of ['charge_card', 'validate_address', 'check_stock']) expect(step(s, new RegExp(`^${tool}`)).summary?.isError, tool).toBe(true);
    for (const view of ['both', 'client', 'server'] as View[]) {
      for (const tool of ['charge_card', 'validate_address', 'check_stock']) {
        const [a] = byTool(run(s, view), tool);
        expect([a!.outcome, a!.findings], `${view} ${tool}`).toEqual(['TOOL_ERROR', []]);
      }
    }
  });

  it.each(['py-server-stateful', 'py-server-json'])('%s: the timed-out call was stopped by the server (-32800): JSONRPC_ERROR with CANCELLED; the app\'s retry is UNSAFE_RETRY (proven) and RETRY_ORIGIN_AMBIGUOUS', (s) => {
    expect(step(s, /300 ms timeout/).error).toMatchObject({ code: -32001 });
    expect(step(s, /app retries/).ok).toBe(true);
    const [first, retry] = byTool(run(s), 'export_orders');
    expect([first!.outcome, first!.serverOutcome, codes(first!)]).toEqual(['JSONRPC_ERROR', 'JSONRPC_ERROR', ['CANCELLED']]);
    expect(first!.findings[0]!.message).toMatch(/with the reason "McpError: MCP error -32001: Request timed out" \(its own timeout, not an answer from the server\); the server then answered it with -32800 \(Request cancelled\) \d+\.\d\d s after that: it stopped the request without a result, but what the tool had done by then \(or shields from cancellation, as a commit\) is done$/);
    expect([retry!.call, retry!.attempt, retry!.outcome]).toEqual([first!.call, 2, 'TOOL_SUCCESS']);
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
    expect(retry!.findings.find((f) => f.code === 'UNSAFE_RETRY')!.severity).toBe('error');
  });

  it('py-server-stateless: the stateless server ran the cancelled call to the end; STREAM_INCOMPLETE with CANCELLED (the result came after, when the caller had its timeout; the server\'s TOOL_SUCCESS its serverOutcome), and the retry ran the tool twice: UNSAFE_RETRY', () => {
    const [first, retry] = byTool(run('py-server-stateless'), 'export_orders');
    expect([first!.outcome, first!.serverOutcome, codes(first!)]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', ['CANCELLED']]);
    expect(first!.findings[0]!.message).toMatch(/its TOOL_SUCCESS result came after that, when the client had given up on it: there is no session, and a stateless server takes the cancellation in a request of its own, apart from the running one, which it cannot stop$/);
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
    // only the client's view: the tool's result, which came after the client gave up, proves it ran (an error since
    // stop 47; a warning, "may have run", before); the server's view proves it too
    const alone = byTool(run('py-server-stateless', 'client'), 'export_orders')[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
    expect(alone.severity).toBe('error');
    expect(alone.message).toMatch(/the earlier attempt's TOOL_SUCCESS result came after the client had given up on it: the tool ran to its result, which the caller did not get, and its effect happened all the same$/);
    // Must not: the stateful server's -32800 to the cancelled call (above) is no result: proven only by the server's view.
    expect(byTool(run('py-server-stateful', 'client'), 'export_orders')[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).not.toBe('error');
    expect(byTool(run('py-server-stateless', 'server'), 'export_orders')[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')!.severity).toBe('error');
  });

  it('a late result in a session (tmcp, stateful, which ignores the cancellation) blames no stateless server', () => {
    const dir = fileURLToPath(new URL('../fixtures/real-servers/', import.meta.url));
    const r = triageCli<Attempt, SessionFinding>(['--client', `${dir}tmcp-timeout-cancel/client.ndjson`, '--server', `${dir}tmcp-timeout-cancel/server.ndjson`]);
    const cancelled = calls(r).flatMap((a) => a.findings).filter((f) => f.code === 'CANCELLED');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.message).toMatch(/when the client had given up on it$/);
  });

  it('a tool declared idempotent (--idempotent export_orders) gets no UNSAFE_RETRY on the same retry', () => {
    const f = (side: string) => `${DIR}py-server-stateful/${side}.ndjson`;
    const r = triageCli<Attempt, SessionFinding>(['--client', f('client'), '--server', f('server'), '--idempotent', 'export_orders']);
    expect(codes(byTool(r, 'export_orders')[1]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });
});

describe('a tool on the Python server that raises MCPError after its work, and the app\'s retry', () => {
  /** The recording with `edit` applied to each log's text, written to a temporary folder: the report of both. */
  const edited = (edit: (text: string) => string): Run => {
    const dir = mkdtempSync(join(tmpdir(), 'audit5py-'));
    for (const side of ['client', 'server']) writeFileSync(join(dir, `${side}.ndjson`), edit(readFileSync(`${DIR}py-server-mcperror-retry/${side}.ndjson`, 'utf8')));
    return triageCli<Attempt, SessionFinding>(['--client', join(dir, 'client.ndjson'), '--server', join(dir, 'server.ndjson')]);
  };

  it('the caller got the tool\'s own -32603 and -32602 as McpError; the retry of each ran the tool again', () => {
    expect(step('py-server-mcperror-retry', /^refund_order 1001 \(/).error).toMatchObject({ code: -32603 });
    expect(step('py-server-mcperror-retry', /^reserve_stock 1001 \(/).error).toMatchObject({ code: -32602 });
    expect(step('py-server-mcperror-retry', /^reserve_stock 1001 again/).ok).toBe(true);
  });

  it('-32603 raised by the tool: the retry is UNSAFE_RETRY (proven), in both views and the server\'s', () => {
    for (const view of ['both', 'server'] as View[]) {
      const [first, retry] = byTool(run('py-server-mcperror-retry', view), 'refund_order');
      expect(first!.outcome, view).toBe('JSONRPC_ERROR');
      expect(retry!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity, view).toBe('error');
    }
  });

  it('-32602 raised by the tool with arguments that keep its inputSchema: no refusal, so the retry is UNSAFE_RETRY (proven), and the why says the tool raised it', () => {
    for (const view of ['both', 'server'] as View[]) {
      const [first, retry] = byTool(run('py-server-mcperror-retry', view), 'reserve_stock');
      expect([first!.outcome, first!.detail?.why], view).toEqual(['JSONRPC_ERROR', "the arguments keep the tool's inputSchema (tools/list): no check of the request refused them, the error came once the tool ran (raised by the tool, or by the server's check of its result)"]);
      expect(codes(retry!), view).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
      expect(retry!.findings.find((f) => f.code === 'UNSAFE_RETRY')!.severity, view).toBe('error');
    }
  });

  it('-32602 for arguments that break the inputSchema (orderId a number) is a refusal: no UNSAFE_RETRY, no such why', () => {
    const r = edited((t) => t.replaceAll('"name":"reserve_stock","arguments":{"orderId":"1001"}', '"name":"reserve_stock","arguments":{"orderId":1001}'));
    const [first, retry] = byTool(r, 'reserve_stock');
    expect([first!.outcome, first!.detail?.why]).toEqual(['JSONRPC_ERROR', undefined]);
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('-32602 whose message refuses the arguments (the SDKs\' "Invalid arguments for tool ...") is a refusal, whatever the listed schema says: no UNSAFE_RETRY', () => {
    const r = edited((t) => t.replaceAll('warehouse rejected the reservation of 1001 after holding it', 'Invalid arguments for tool reserve_stock: orderId: Expected a SKU'));
    const [first, retry] = byTool(r, 'reserve_stock');
    expect([first!.outcome, first!.detail?.why]).toEqual(['JSONRPC_ERROR', undefined]);
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('-32602 when the inputSchema has a keyword mcp-triage does not check (minProperties) proves nothing: no UNSAFE_RETRY', () => {
    const r = edited((t) => t.replaceAll('\\"title\\":\\"reserve_stockArguments\\"', '\\"title\\":\\"reserve_stockArguments\\",\\"minProperties\\":1'));
    expect(r.attempts.filter((a) => a.method === 'tools/list')).toHaveLength(1);
    const [first, retry] = byTool(r, 'reserve_stock');
    expect(first!.detail?.why).toBeUndefined();
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS']);
  });

  it('a loose inputSchema ({"type": "object"}, the samples\' search_tickets) proves nothing: its -32602 for query: 42 stays a refusal with its own why', () => {
    const samples = fileURLToPath(new URL('../../samples/', import.meta.url));
    const r = triageCli<Attempt, SessionFinding>(['--client', `${samples}client.ndjson`, '--server', `${samples}server.ndjson`]);
    const a = r.attempts.find((x) => x.tool === 'search_tickets' && x.outcome === 'JSONRPC_ERROR')!;
    expect(a.detail?.why).toBeUndefined();
  });

  it('in the client\'s view alone the -32603 (an internal error: the server failed while it handled the request) and the -32602 the tool raised with valid arguments each make the retry an UNSAFE_RETRY warning (the tool ran, the server\'s log would prove it; before audit 44 the -32603 counted as nothing run)', () => {
    const r = run('py-server-mcperror-retry', 'client');
    expect(codes(byTool(r, 'refund_order')[1]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
    expect(byTool(r, 'refund_order')[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
    expect(codes(byTool(r, 'reserve_stock')[1]!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
    expect(byTool(r, 'reserve_stock')[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
  });
});

describe('the Python client\'s own timeout, then the app\'s retry', () => {
  it('py-client-timeout-retry-legacy: CANCELLED quotes the Python client\'s reason; the server stopped it (-32800); the retry is UNSAFE_RETRY', () => {
    expect(step('py-client-timeout-retry-legacy', /0\.3 s timeout/).error).toMatchObject({ code: -32001, message: "Request 'tools/call' timed out" });
    const [first, retry] = byTool(run('py-client-timeout-retry-legacy'), 'export_orders');
    expect([first!.outcome, codes(first!)]).toEqual(['JSONRPC_ERROR', ['CANCELLED']]);
    expect(first!.findings[0]!.message).toMatch(/with the reason "timed out after 0\.3s" \(its own timeout, not an answer from the server\); the server then answered it with -32800/);
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
  });

  it('py-client-timeout-retry-auto: on 2026-07-28 the client closed the connection before any head: NO_RESPONSE with CANCELLED (no NO_FINAL_RESULT), the retry UNSAFE_RETRY', () => {
    const [first, retry] = byTool(run('py-client-timeout-retry-auto'), 'export_orders');
    expect([first!.outcome, codes(first!)]).toEqual(['NO_RESPONSE', ['CANCELLED']]);
    expect(first!.findings[0]!.message).toMatch(/on 2026-07-28 closing the stream is the cancellation/);
    // the why says it was the client's own close, not a connection lost
    for (const view of ['both', 'client'] as View[]) {
      expect(byTool(run('py-client-timeout-retry-auto', view), 'export_orders')[0]!.detail?.why, view).toBe('the client closed the request 0.30 s after sending it, before any response head came (on 2026-07-28 that is the cancellation): the client closed the connection');
    }
    // the proxy in front of the server (side server) sees its peer close, which may be a hop: the server's log cannot
    // tell the client from something between them (real-audit6/py-hop-cuts-stream, real-audit7/sdk-html-in-sse-after-head)
    expect(byTool(run('py-client-timeout-retry-auto', 'server'), 'export_orders')[0]!.detail?.why).toBe("the connection closed 0.30 s after the request came, before a response was sent (on 2026-07-28 that is how a client cancels; the server's log cannot tell the client from something between them)");
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
  });

  it('a 2026-07-28 request whose connection the network dropped (real-python/py-client-auto-response-dropped) is no close by the client', () => {
    const d = fileURLToPath(new URL('../fixtures/real-python/py-client-auto-response-dropped/', import.meta.url));
    const r = triageCli<Attempt, SessionFinding>(['--client', `${d}client.ndjson`, '--server', `${d}server.ndjson`]);
    expect(r.attempts.find((a) => a.outcome === 'NO_RESPONSE')!.detail?.why).toBe('socket hang up');
  });

  it('py-client-timeout-retry-stateless: the result came after the cancellation (the stateless server ran it on); STREAM_INCOMPLETE (what the caller saw) with CANCELLED, the retry UNSAFE_RETRY', () => {
    const [first, retry] = byTool(run('py-client-timeout-retry-stateless'), 'export_orders');
    expect([first!.outcome, first!.serverOutcome, codes(first!)]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', ['CANCELLED']]);
    expect(first!.findings[0]!.message).toMatch(/with the reason "timed out after 0\.3s" .*: there is no session, and a stateless server takes the cancellation in a request of its own/);
    expect(codes(retry!)).toEqual(['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']);
  });
});

describe('the Python client on the fourth audit\'s hops, the server stateless (no session ids)', () => {
  it.each(STATELESS)('%s: no session in any view; 2025-11-25; no GET stream and no DELETE (nothing to open or end without a session id)', (s) => {
    for (const view of ['both', 'client', 'server'] as View[]) {
      for (const a of run(s, view).attempts) expect([a.session, a.protocolVersion], `${view} ${a.method}`).toEqual([null, '2025-11-25']);
    }
    const methods = readFileSync(`${DIR}${s}/client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; method?: string }).filter((r) => r.kind === 'request').map((r) => r.method);
    expect(new Set(methods)).toEqual(new Set(['POST']));
  });

  it.each(STATELESS_TS)('py-stateless-%s: the caller got what it got with sessions (py-client-%s), and mcp-triage says the same of the first call in every view', (h) => {
    const faulted = (s: string) => observed(s).steps[1]!;
    const [stateless, stateful] = [faulted(`py-stateless-${h}`), faulted(`py-client-${h}`)];
    expect([stateless.ok, stateless.error?.code, stateless.summary?.text], h).toEqual([stateful.ok, stateful.error?.code, stateful.summary?.text]);
    for (const view of ['both', 'client', 'server'] as View[]) {
      const [a, b] = [firstCall(run(`py-stateless-${h}`, view)), firstCall(run(`py-client-${h}`, view))];
      expect([a.outcome, a.serverOutcome, codes(a), a.detail?.why], view).toEqual([b.outcome, b.serverOutcome, codes(b), b.detail?.why]);
    }
  });

  it.each(STATELESS_PY)('py-stateless-py-%s: the stateless Python server behind the same hop; the caller got what the TypeScript server\'s caller got, and the client\'s view says the same', (h) => {
    const [py, ts] = [observed(`py-stateless-py-${h}`).steps[1]!, observed(`py-stateless-${h}`).steps[1]!];
    expect([py.ok, py.error?.code, py.error?.message, py.summary?.text], h).toEqual([ts.ok, ts.error?.code, ts.error?.message, ts.summary?.text]);
    for (const view of ['both', 'client'] as View[]) {
      const [a, b] = [firstCall(run(`py-stateless-py-${h}`, view)), firstCall(run(`py-stateless-${h}`, view))];
      expect([a.outcome, codes(a), a.detail?.why], view).toEqual([b.outcome, codes(b), b.detail?.why]);
    }
  });

  it.each(STATELESS_AUTO)('py-stateless-auto-%s: auto mode; the 1.32.2 server refuses the server/discover probe (400 "Unsupported protocol version"), the client falls back to initialize (2025-11-25); the probe is its own HTTP_ERROR, no retry, and the hop\'s call reads as in legacy mode', (h) => {
    const s = `py-stateless-auto-${h}`;
    expect(observed(s).steps.map((x) => x.ok)).toEqual(observed(`py-stateless-${h}`).steps.map((x) => x.ok));
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run(s, view);
      const [probe, init] = r.attempts;
      expect([probe!.method, probe!.status, probe!.outcome, probe!.findings], view).toEqual(['server/discover', 400, 'HTTP_ERROR', []]);
      expect([probe!.detail?.errorCode, probe!.detail?.errorMessage], view).toEqual([-32000, 'Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)']);
      expect([init!.method, init!.outcome, init!.protocolVersion, init!.attempt], view).toEqual(['initialize', 'SUCCESS', '2025-11-25', 1]);
      expect(r.summary.retries, view).toBe(0);
      const [a, b] = [firstCall(r), firstCall(run(`py-stateless-${h}`, view))];
      expect([a.outcome, codes(a), a.detail?.why], view).toEqual([b.outcome, codes(b), b.detail?.why]);
    }
  });

  it('an orphan without a session says "in the same log (there is no session)", where the stateful recording says "in its session"', () => {
    for (const h of ['duplicate-response-sse', 'error-then-result-same-id']) {
      const orphan = (s: string) => firstCall(run(s)).findings.find((f) => f.code === 'ORPHAN_RESPONSE')!.message;
      expect(orphan(`py-stateless-${h}`), h).toMatch(/came after the request with that id in the same log \(there is no session\) had been answered or had ended: a second response/);
      expect(orphan(`py-stateless-py-${h}`), h).toMatch(/in the same log \(there is no session\)/);
      expect(orphan(`py-client-${h}`), h).toMatch(/came after the request with that id in its session had been answered or had ended/);
    }
  });

  // Before: the server's recording proxy (side server) in front of the stateless Python server saw its peer, the hop,
  // close the stream after writing the page, and the why said "the client closed the stream 0.01 s after sending it,
  // before any response came, and sent no notifications/cancelled": the Python client closed nothing (it raised -32000
  // when the stream ended). A proxy in front of the server cannot tell the client from a hop between them.
  it('py-stateless-py-html-in-sse-after-head, the server\'s log alone: the connection closed, and the why says the server\'s log cannot tell who closed it, not that the client did', () => {
    expect(step('py-stateless-py-html-in-sse-after-head', /hop/).error).toMatchObject({ code: -32000, message: 'SSE stream ended without a response' });
    const a = firstCall(run('py-stateless-py-html-in-sse-after-head', 'server'));
    expect([a.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['NO_FINAL_RESULT']]);
    expect(a.detail?.why).toMatch(/^the connection closed 0\.\d\d s after the request came, before the response was sent \(the server's log cannot tell the client from something between them\), and no notifications\/cancelled came$/);
    expect(a.findings[0]!.message).not.toMatch(/the client closed/);
    // the client's view of the same exchange: the stream ended (with the page in it), nothing closed by the client
    expect(firstCall(run('py-stateless-py-html-in-sse-after-head', 'client')).detail?.why).toMatch(/^SSE stream ended after 0 events without the response; the stream carried text that is no SSE field/);
  });

  it('must not: a recording proxy\'s view that is not the server\'s (real-audit3/client-close-in-flight, a client that did close) still says the client closed the stream', () => {
    const r = triageCli<Attempt, SessionFinding>([`${AUDIT3}client-close-in-flight/proxy.ndjson`]);
    const slow = calls(r).find((a) => a.tool === 'slow_report')!;
    expect(slow.detail?.why).toMatch(/^the client closed the stream 0\.1\d s after sending it, before any response came, and sent no notifications\/cancelled/);
  });
});

describe('the Python app cancels its call\'s task between two progress notifications (legacy mode, the SDK 1.32.2 server), then calls again', () => {
  it.each(ABORT)('%s: the caller got CancelledError after 2 progress notifications; the client sent notifications/cancelled ("caller cancelled"); CANCELLED quotes it in every view', (s) => {
    expect(step(s, /task cancelled/).error).toMatchObject({ name: 'CancelledError' });
    expect(observed(s).notes[1]).toEqual({ progressSeenBeforeAbort: [1, 2] });
    for (const view of ['both', 'client', 'server'] as View[]) {
      const [a, again] = byTool(run(s, view), 'export_report');
      expect(codes(a!), view).toEqual(['CANCELLED']);
      expect(a!.findings[0]!.message, view).toMatch(/^tools\/call export_report id \d+: the client sent notifications\/cancelled for it after 0\.\d\d s, with the reason "caller cancelled" \(the caller's decision, not an answer from the server\)/);
      expect([again!.call, again!.attempt, again!.outcome, codes(again!)], view).toEqual([a!.call, 2, 'TOOL_SUCCESS', ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY']]);
    }
  });

  it('py-client-abort-between-progress: the stateful server stopped the tool (step 3) and sent no result; STREAM_INCOMPLETE, no NO_FINAL_RESULT; the re-call\'s UNSAFE_RETRY says the earlier attempt reached the server, not that it ran to its result', () => {
    expect(observed('py-client-abort-between-progress').serverRan).toEqual(['export 2026-11 stopped at step 3', 'export 2026-11 done']);
    const [a, again] = byTool(run('py-client-abort-between-progress'), 'export_report');
    expect([a!.outcome, a!.serverOutcome, a!.detail?.why]).toEqual(['STREAM_INCOMPLETE', 'STREAM_INCOMPLETE', expect.stringMatching(/^the client cancelled it \(notifications\/cancelled\) 0\.\d\d s after sending it, before any response came \(2 SSE events before that\); its last progress notification came 0\.\d\d s before the cancellation$/)]);
    const unsafe = again!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
    expect([unsafe.severity, unsafe.message]).toEqual(['error', expect.stringMatching(/the server view shows the earlier attempt reached the server$/)]);
  });

  it('py-stateless-abort-between-progress: the stateless server could not stop the tool (it ran to its end twice); TOOL_SUCCESS with CANCELLED saying why, and the re-call\'s UNSAFE_RETRY says the earlier attempt ran to its result', () => {
    expect(observed('py-stateless-abort-between-progress').serverRan).toEqual(['export 2026-11 done', 'export 2026-11 done']);
    for (const view of ['both', 'client', 'server'] as View[]) {
      const [a] = byTool(run('py-stateless-abort-between-progress', view), 'export_report');
      // (the client's view says what its caller saw; the server's log, what the server sent)
      expect([a!.session, a!.outcome], view).toEqual([null, view === 'server' ? 'TOOL_SUCCESS' : 'STREAM_INCOMPLETE']);
      expect(a!.findings[0]!.message, view).toMatch(/its TOOL_SUCCESS result came after that, when the client had given up on it: there is no session, and a stateless server takes the cancellation in a request of its own, apart from the running one, which it cannot stop$/);
    }
    const [, again] = byTool(run('py-stateless-abort-between-progress'), 'export_report');
    expect(again!.findings.find((f) => f.code === 'UNSAFE_RETRY')!.message).toMatch(/the server view shows the earlier attempt ran to its result \(TOOL_SUCCESS\), which the caller did not get: its effect happened before this retry$/);
  });
});

