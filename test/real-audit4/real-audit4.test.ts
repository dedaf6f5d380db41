// Fourth audit (test/fixtures/real-audit4): SDK 1.32.2 client and server with a hop that changed the server's answer
// to a tools/call, and what mcp-triage must say of each against what the caller got (observed.json). The recordings are
// committed; node test/real-audit4/record.mjs re-records them (needs dist/).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordingRunner, triageCli, type CliRun, type RecordingView as View } from '../helpers/triage-cli.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit4/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; findings: Finding[]; detail?: { why?: string };
}
interface SessionFinding { type: 'finding'; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; summary?: { content?: { text: string }[]; isError?: boolean }; error?: { name: string; message: string; code?: number } }
interface Observed { steps: Step[]; onerror: { message: string }[] }

const SCENARIOS = ['empty-200-json', 'duplicate-response-sse', 'batch-of-one-response', 'string-id-response', 'multiline-sse-data', 'html-in-sse-after-head', 'error-then-result-same-id'];
const run: (s: string, view?: View) => Run = recordingRunner<Attempt, SessionFinding>(DIR);
const codes = (a: Attempt) => a.findings.map((f) => f.code).sort();
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const firstCall = (r: Run) => calls(r)[0]!;

describe('fourth audit: every recording', () => {
  it.each(SCENARIOS)('%s: read whole in each view; the call after the fault is a clean TOOL_SUCCESS; no retries invented', (s) => {
    for (const view of ['both', 'client', 'server'] as View[]) {
      const r = run(s, view);
      expect(r.code === 0 || r.code === 1, view).toBe(true);
      expect(r.unusable, view).toBe(0);
      expect(calls(r), view).toHaveLength(2);
      expect(calls(r)[1]!.outcome, view).toBe('TOOL_SUCCESS');
      expect(calls(r)[1]!.findings, view).toEqual([]);
      expect(r.summary.retries, view).toBe(0);
      for (const a of r.attempts.filter((x) => x.method !== 'tools/call')) expect(a.findings, `${view} ${a.method}`).toEqual([]);
    }
    // the server ran every call: its view is a success each time
    expect(calls(run(s, 'server')).map((a) => a.outcome)).toEqual(s === 'html-in-sse-after-head' ? ['STREAM_INCOMPLETE', 'TOOL_SUCCESS'] : ['TOOL_SUCCESS', 'TOOL_SUCCESS']);
  });

  it('empty-200-json: the SDK threw "Unexpected end of JSON input"; STREAM_INCOMPLETE with NO_FINAL_RESULT, and SIDE_DIVERGENCE with both views', () => {
    expect(observed('empty-200-json').steps[1]!.error?.message).toBe('Unexpected end of JSON input');
    const a = firstCall(run('empty-200-json'));
    expect([a.outcome, a.serverOutcome, a.status]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS', 200]);
    expect(a.detail?.why).toBe('empty response body');
    expect(codes(a)).toEqual(['NO_FINAL_RESULT', 'SIDE_DIVERGENCE']);
    expect(codes(firstCall(run('empty-200-json', 'client')))).toEqual(['NO_FINAL_RESULT']);
  });

  it('duplicate-response-sse: the caller took the first result and the SDK reported the second as unknown; TOOL_SUCCESS with ORPHAN_RESPONSE, not DUPLICATE_RECORD', () => {
    const o = observed('duplicate-response-sse');
    expect(o.steps[1]!.summary?.content?.[0]?.text).toBe('invoice for order 1001 sent');
    expect(o.onerror[0]!.message).toMatch(/^Received a response for an unknown message ID/);
    for (const view of ['both', 'client'] as View[]) {
      const r = run('duplicate-response-sse', view);
      const a = firstCall(r);
      expect(a.outcome, view).toBe('TOOL_SUCCESS');
      expect(codes(a), view).toEqual(['ORPHAN_RESPONSE']);
      expect(a.findings[0]!.message, view).toMatch(/a second response, which a client drops as unknown/);
      expect(r.findings.map((f) => f.code), view).not.toContain('DUPLICATE_RECORD');
    }
  });

  it('a truly duplicated event row (same time, same content) is still one DUPLICATE_RECORD and no ORPHAN_RESPONSE', () => {
    const lines = readFileSync(`${DIR}duplicate-response-sse/client.ndjson`, 'utf8').split('\n');
    // drop the hop's second (different) result and repeat the first one's row instead, as a log export does
    const second = lines.findIndex((l) => l.includes('FAILED'));
    lines.splice(second, 1, lines[second - 1]!);
    const f = join(mkdtempSync(join(tmpdir(), 'audit4-')), 'client.ndjson');
    writeFileSync(f, lines.join('\n'));
    const r = triageCli<Attempt, SessionFinding>(['--client', f]);
    expect(firstCall(r).outcome).toBe('TOOL_SUCCESS');
    expect(firstCall(r).findings).toEqual([]);
    expect(r.findings.map((x) => x.code)).toEqual(['DUPLICATE_RECORD']);
  });

  it('error-then-result-same-id: the caller got the error (-32603); JSONRPC_ERROR, the result after it an ORPHAN_RESPONSE, SIDE_DIVERGENCE joined', () => {
    expect(observed('error-then-result-same-id').steps[1]!.error).toMatchObject({ name: 'McpError', code: -32603 });
    const a = firstCall(run('error-then-result-same-id'));
    expect([a.outcome, a.serverOutcome]).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS']);
    expect(codes(a)).toEqual(['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']);
    expect(run('error-then-result-same-id').findings.map((f) => f.code)).not.toContain('DUPLICATE_RECORD');
    expect(codes(firstCall(run('error-then-result-same-id', 'client')))).toEqual(['ORPHAN_RESPONSE']);
  });

  it('batch-of-one-response: the SDK accepts an array around its one response; TOOL_SUCCESS, no findings, and the why names the batch of one', () => {
    expect(observed('batch-of-one-response').steps[1]!.ok).toBe(true);
    for (const view of ['both', 'client'] as View[]) {
      const a = firstCall(run('batch-of-one-response', view));
      expect([a.outcome, a.findings], view).toEqual(['TOOL_SUCCESS', []]);
      expect(a.detail?.why, view).toMatch(/^the response came inside a JSON array \(a batch of one\) although the request was sent alone: .*the TypeScript SDK takes it/);
      // the call after it went through untouched
      expect(calls(run('batch-of-one-response', view))[1]!.detail?.why, view).toBeUndefined();
    }
    // the server wrote one object: the hop added the array
    expect(firstCall(run('batch-of-one-response', 'server')).detail?.why).toBeUndefined();
  });

  it('string-id-response: the SDK matched "2" to id 2 by Number() and returned the result; INVALID_ENVELOPE, and the why says the client may have taken it', () => {
    expect(observed('string-id-response').steps[1]!.ok).toBe(true);
    const a = firstCall(run('string-id-response'));
    expect([a.outcome, a.serverOutcome]).toEqual(['INVALID_ENVELOPE', 'TOOL_SUCCESS']);
    expect(a.detail?.why).toBe('response id "2" is not the request id 2: the same value as a string, which a client that matches ids by Number() (the TypeScript SDK, 1.x and v2) or reads a string of digits as the number (the Python SDK) takes as the answer and one that compares ids with their type drops');
    expect(codes(a)).toEqual(['ORPHAN_RESPONSE', 'SIDE_DIVERGENCE']);
  });

  it('an id that differs in value (real/wrong-response-id, 1 → 1001) says nothing of Number()', () => {
    const r = triageCli<Attempt, SessionFinding>(['--client', fileURLToPath(new URL('../fixtures/real/wrong-response-id.client.ndjson', import.meta.url))]);
    const a = r.attempts.find((x) => x.outcome === 'INVALID_ENVELOPE')!;
    expect(a.detail?.why).toBe('response id 1001 is not the request id 1');
  });

  it('multiline-sse-data: a result over several data: lines is read whole; TOOL_SUCCESS in each view, no findings', () => {
    expect(observed('multiline-sse-data').steps[1]!.ok).toBe(true);
    for (const view of ['both', 'client'] as View[]) expect(firstCall(run('multiline-sse-data', view)).findings, view).toEqual([]);
    expect(firstCall(run('multiline-sse-data')).outcome).toBe('TOOL_SUCCESS');
  });

  it('html-in-sse-after-head: the caller timed out (-32001) and cancelled; STREAM_INCOMPLETE with NO_FINAL_RESULT and CANCELLED, and the why quotes the page the hop wrote into the stream', () => {
    expect(observed('html-in-sse-after-head').steps[1]!.error).toMatchObject({ code: -32001 });
    const why = 'SSE stream ended after 0 events without the response; the stream carried text that is no SSE field, which an SSE client ignores (an error page written into it?): "502 Bad Gateway"';
    for (const view of ['both', 'client'] as View[]) {
      const a = firstCall(run('html-in-sse-after-head', view));
      expect([a.outcome, a.status], view).toEqual(['STREAM_INCOMPLETE', 200]);
      expect(codes(a).filter((c) => c !== 'SIDE_DIVERGENCE'), view).toEqual(['CANCELLED', 'NO_FINAL_RESULT']);
      expect(a.detail?.why, view).toBe(why);
    }
    expect(firstCall(run('html-in-sse-after-head')).serverOutcome).toBe('STREAM_INCOMPLETE');
    // the recorders keep the page in the stream's end record; the server wrote no page, and its view says nothing of one
    expect(readFileSync(`${DIR}html-in-sse-after-head/client.ndjson`, 'utf8')).toContain('"nonSseText":"<html><head><title>502 Bad Gateway</title>');
    expect(firstCall(run('html-in-sse-after-head', 'server')).detail?.why).not.toMatch(/no SSE field/);
    // an SSE stream cut without any foreign text (the other audits) says nothing of it either
    expect(calls(run('empty-200-json', 'client'))[0]!.detail?.why).toBe('empty response body');
  });
});
