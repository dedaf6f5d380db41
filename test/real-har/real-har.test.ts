// The analyzer on real browser captures recorded by test/real-har/record.mjs into test/fixtures/real-har: the SDK 1.32.2
// client (and the v2 client on 2026-07-28) running in Chromium, its traffic written to a HAR by Playwright's recorder, and the SDK server's own view
// written by recordingHandler. Each scenario is read from the HAR alone, then as client (HAR) and server (canonical).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type AttemptRow } from '../../src/index.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'real-har');
const har = (s: string) => join(FIXTURES, `${s}.har`);
const server = (s: string) => join(FIXTURES, `${s}.server.ndjson`);
const OBSERVED = JSON.parse(readFileSync(join(import.meta.dirname, 'observed.json'), 'utf8')) as { scenarios: Record<string, { what: string; value: unknown }[]> };

const SCENARIOS = ['baseline', 'http-503-app-retry', 'jsonrpc-error', 'sse-cut', 'client-timeout', 'sse-resumed-last-event-id', 'elicitation-roundtrip', 'v2-baseline', 'v2-mrtr-roundtrip'];
const alone = (s: string) => analyze({ inputs: [{ path: har(s) }] });
const joined = (s: string) => analyze({ inputs: [{ path: har(s), side: 'client' }, { path: server(s), side: 'server' }] });

const codes = (a: AttemptRow | undefined) => (a?.findings ?? []).map((f) => f.code).sort();
const row = (a: AttemptRow) => `${a.tool} ${a.status} ${a.outcome}`;
type Entry = { request: { method: string; url: string; postData?: { text?: string } }; response: { status: number; _failureText?: string; content: { size: number; text?: string } } };
const entries = (s: string) => (JSON.parse(readFileSync(har(s), 'utf8')) as { log: { entries: Entry[] } }).log.entries;

describe('real-har: what Chromium and Playwright wrote', () => {
  it('every scenario was played, and the page assets are entries without MCP traffic', async () => {
    for (const s of SCENARIOS) {
      expect(OBSERVED.scenarios[s], s).toBeDefined();
      const r = await alone(s);
      expect(r.summary.inputs[0]!.mode).toBe('har');
      expect(r.summary.inputs[0]).toMatchObject({ skipped: 2, unusable: 0, reasons: {} }); // the page and its script
    }
  });

  it('marks the unread bodies of a 202, a DELETE and the closed GET stream as aborted; none becomes an attempt or a finding', async () => {
    const aborted = entries('baseline').filter((e) => e.response._failureText === 'net::ERR_ABORTED').map((e) => `${e.request.method} ${e.response.status}`);
    expect(aborted).toEqual(expect.arrayContaining(['DELETE 200', 'POST 202']));
    for (const a of aborted) expect(['DELETE 200', 'POST 202', 'GET 200']).toContain(a); // the GET stream too, when the page closed it first
    const r = await alone('baseline');
    expect(r.attempts.map((a) => a.method)).toEqual(['initialize', 'tools/list', 'tools/call', 'tools/call', 'tools/call']);
    expect(r.attempts.flatMap((a) => codes(a))).toEqual([]);
    expect(r.findings).toEqual([]);
  });
});

describe('real-har: outcomes from the HAR alone, and with the server view', () => {
  it('baseline: a result, an isError result, and the SDK turning an unknown tool into an isError result', async () => {
    for (const r of [await alone('baseline'), await joined('baseline')]) {
      expect(calls(r).map(row)).toEqual(['lookup_order 200 TOOL_SUCCESS', 'validate_quantity 200 TOOL_ERROR', 'no_such_tool 200 TOOL_ERROR']);
    }
    expect(calls(await joined('baseline')).map((a) => a.serverOutcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR', 'TOOL_ERROR']);
  });

  it('http-503-app-retry: the bare 503 is HTTP_ERROR, the page script repeated the call, so the retry has no known origin', async () => {
    const observed = OBSERVED.scenarios['http-503-app-retry']!;
    expect(String(observed[0]!.value)).toMatch(/Error POSTing to endpoint/);
    for (const r of [await alone('http-503-app-retry'), await joined('http-503-app-retry')]) {
      const [first, second] = calls(r);
      expect([row(first!), row(second!)]).toEqual(['send_invoice 503 HTTP_ERROR', 'send_invoice 200 TOOL_SUCCESS']);
      expect(second!.call).toBe(first!.call);
      expect(second!.attempt).toBe(2);
      expect(second!.retryOrigin?.origin).toBe('unknown');
      expect(codes(second)).toContain('RETRY_ORIGIN_AMBIGUOUS');
    }
  });

  it('jsonrpc-error: a 200 application/json error envelope is JSONRPC_ERROR; the next call (other arguments) is not its retry', async () => {
    for (const r of [await alone('jsonrpc-error'), await joined('jsonrpc-error')]) {
      const [first, second] = calls(r);
      expect([row(first!), row(second!)]).toEqual(['lookup_order 200 JSONRPC_ERROR', 'lookup_order 200 TOOL_SUCCESS']);
      expect(first!.detail?.errorCode).toBe(-32602);
      expect(second!.call).not.toBe(first!.call);
    }
  });

  it('sse-cut: a stream cut after its head, kept with no body and net::ERR_INCOMPLETE_CHUNKED_ENCODING, is STREAM_INCOMPLETE', async () => {
    const cut = entries('sse-cut').find((e) => e.request.postData?.text?.includes('cut_stream'))!;
    expect([cut.response.status, cut.response._failureText, cut.response.content.text]).toEqual([200, 'net::ERR_INCOMPLETE_CHUNKED_ENCODING', undefined]);
    for (const r of [await alone('sse-cut'), await joined('sse-cut')]) {
      const [a] = calls(r);
      expect(row(a!)).toBe('cut_stream 200 STREAM_INCOMPLETE');
      // The stream was cut first; the SDK timed out and cancelled it 1.5 s later: a transport failure, then the cancel.
      expect(codes(a)).toEqual(['CANCELLED', 'NO_FINAL_RESULT']);
    }
    expect(calls(await joined('sse-cut'))[0]!.serverOutcome).toBe('STREAM_INCOMPLETE');
  });

  it('client-timeout: the SDK gave up after 300 ms and Chromium kept an empty body with no failure: STREAM_INCOMPLETE, CANCELLED', async () => {
    const slow = entries('client-timeout').find((e) => e.request.postData?.text?.includes('slow_report'))!;
    expect([slow.response.status, slow.response._failureText, slow.response.content.size]).toEqual([200, undefined, 0]);
    for (const r of [await alone('client-timeout'), await joined('client-timeout')]) {
      const [a] = calls(r);
      expect(row(a!)).toBe('slow_report 200 STREAM_INCOMPLETE');
      // The client cancelled before the stream ended: no response is expected after that, so no NO_FINAL_RESULT.
      expect(codes(a)).toEqual(['CANCELLED']);
    }
  });

  it('sse-resumed-last-event-id: the POST stream closes after its priming event, the GET with Last-Event-ID brings the result', async () => {
    const gets = entries('sse-resumed-last-event-id').filter((e) => e.request.method === 'GET' && e.response.content.text?.includes('archive exported'));
    expect(gets).toHaveLength(1);
    for (const r of [await alone('sse-resumed-last-event-id'), await joined('sse-resumed-last-event-id')]) {
      const [a] = calls(r);
      expect(row(a!)).toBe('export_archive 200 TOOL_SUCCESS');
      expect(a!.resumed).toBe(true);
      expect(a!.sources.length).toBeGreaterThanOrEqual(2); // the POST and the GET that resumed it
      expect(codes(a)).toEqual([]);
    }
  });

  it('elicitation-roundtrip: elicitation/create on the call\'s stream, the answer POSTed (a 202 Chromium marks aborted)', async () => {
    for (const r of [await alone('elicitation-roundtrip'), await joined('elicitation-roundtrip')]) {
      const [a] = calls(r);
      expect(row(a!)).toBe('approve_refund 200 TOOL_SUCCESS');
      expect(a!.sse?.serverRequests).toBe(1);
      expect(codes(a)).toEqual([]);
    }
  });

  it('v2-baseline: 2026-07-28 with no sessions - the server/discover probe, then JSON results', async () => {
    expect(OBSERVED.scenarios['v2-baseline']![0]).toEqual({ what: 'protocol', value: '2026-07-28' });
    for (const r of [await alone('v2-baseline'), await joined('v2-baseline')]) {
      expect(r.attempts.map((a) => `${a.method} ${a.outcome}`)).toEqual(['server/discover SUCCESS', 'tools/list SUCCESS', 'tools/call TOOL_SUCCESS', 'tools/call TOOL_ERROR']);
      expect(r.attempts.every((a) => a.session === null && a.protocolVersion === '2026-07-28')).toBe(true);
    }
  });

  it('v2-mrtr-roundtrip: input_required, then the follow-up with inputResponses continues the call and is no retry', async () => {
    for (const r of [await alone('v2-mrtr-roundtrip'), await joined('v2-mrtr-roundtrip')]) {
      const [asked, answered] = calls(r);
      expect([row(asked!), row(answered!)]).toEqual(['approve_refund 200 INPUT_REQUIRED', 'approve_refund 200 TOOL_SUCCESS']);
      expect(answered!).toMatchObject({ call: asked!.call, attempt: 2, continuation: true });
      expect([...codes(asked), ...codes(answered)]).toEqual([]);
      expect(r.summary.retries).toBe(0);
    }
  });

  it('no recording gives a false side disagreement, id reuse or orphan', async () => {
    for (const s of SCENARIOS) {
      const r = await joined(s);
      const all = [...r.attempts.flatMap((a) => codes(a)), ...r.findings.map((f) => f.code)];
      for (const never of ['SIDE_DIVERGENCE', 'ID_REUSED', 'ORPHAN_RESPONSE', 'CALL_NEVER_SENT']) expect(all, `${s} ${never}`).not.toContain(never);
    }
  });
});
