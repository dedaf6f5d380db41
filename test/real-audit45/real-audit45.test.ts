// Audit 45's real runs (test/fixtures/real-audit45): each attempt's outcome and layer, per view, held to the truth the
// programs saw (the client app, its fetch or httpx hook, the fault hop, the server's handlers).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
// @ts-expect-error: the fixture folder's judge is plain JavaScript, shared with its command-line table
import { judge } from '../fixtures/real-audit45/judge.mjs';

const DIR = new URL('../fixtures/real-audit45/', import.meta.url).pathname;
type Verdict = { run: string; view: string; kind: string; step: string; id: number; n: number; want: string; got: string; ok: boolean };
type Inputs = { path: string; side: 'client' | 'server' }[];
const attempts = async (inputs: Inputs) => (await analyze({ inputs, onDiagnostic: () => {} })).attempts;

/** What a view cannot show, reported against the truth on purpose (see the fixtures README, forty-fifth audit). */
const KNOWN: string[] = [
  // The DEBUG log leaves out what the server sent as application/json (its "cannot show" says so): in the JSON runs a
  // result, an isError, a JSON-RPC error, an answer that came after the SDK gave up and a JSON body the hop cut are
  // not in it, and those calls say UNANSWERED, "not evidence that none came". (The JSON body the hop cut, `prog` id 23,
  // is STREAM_INCOMPLETE since the ninety-fourth audit: httpcore's receive_response_body.failed after its 2xx head.)
  'py-py-2026-json debug/client badargs id 6#1: want TOOL_ERROR got UNANSWERED',
  'py-py-2026-json debug/client boom id 4#1: want TOOL_ERROR got UNANSWERED',
  'py-py-2026-json debug/client ok id 15#1: want TOOL_SUCCESS got UNANSWERED',
  'py-py-2026-json debug/client ok id 17#1: want TOOL_SUCCESS got UNANSWERED',
  'py-py-2026-json debug/client ok id 2#1: want TOOL_SUCCESS got UNANSWERED',
  'py-py-2026-json debug/client ok id 22#1: want TOOL_SUCCESS got UNANSWERED',
  'py-py-2026-json debug/client soft id 3#1: want TOOL_ERROR got UNANSWERED',
  'py-py-2026-json debug/client unknown id 5#1: want TOOL_ERROR got UNANSWERED',
  'py-ts1-stateless-json debug/client abort id 10#1: want STREAM_INCOMPLETE got UNANSWERED',
  'py-ts1-stateless-json debug/client badargs id 7#1: want TOOL_ERROR got UNANSWERED',
  'py-ts1-stateless-json debug/client boom id 5#1: want TOOL_ERROR got UNANSWERED',
  'py-ts1-stateless-json debug/client ok id 16#1: want TOOL_SUCCESS got UNANSWERED',
  'py-ts1-stateless-json debug/client ok id 18#1: want TOOL_SUCCESS got UNANSWERED',
  'py-ts1-stateless-json debug/client ok id 23#1: want TOOL_SUCCESS got UNANSWERED',
  'py-ts1-stateless-json debug/client ok id 3#1: want TOOL_SUCCESS got UNANSWERED',
  'py-ts1-stateless-json debug/client prog id 24#1: want STREAM_INCOMPLETE got UNANSWERED',
  'py-ts1-stateless-json debug/client rpcerr id 8#1: want JSONRPC_ERROR got UNANSWERED',
  'py-ts1-stateless-json debug/client soft id 4#1: want TOOL_ERROR got UNANSWERED',
  'py-ts1-stateless-json debug/client timeout id 9#1: want STREAM_INCOMPLETE got UNANSWERED',
  'py-ts1-stateless-json debug/client unknown id 6#1: want TOOL_ERROR got UNANSWERED',
  // (On 2026-07-28 the SDK aborts a cancelled request's POST; where httpcore's lines show it waiting for its head, it is
  // NO_RESPONSE since the hundred-and-fourth audit, as the capture says: the four `abort` and `timeout` calls of
  // py-py-2026-json and py-v2-2026 were listed here as UNANSWERED before.)
  // A hop's 200 whose JSON body is an error for id null: the log has only the dispatcher's "dropping response for
  // unknown/late request id None", which names no request; the call then timed out (CANCELLED). Where that line comes
  // right after httpcore read the one POST's JSON body, it is that body's (INVALID_ENVELOPE since the sixty-second
  // audit: py-py-2026-json, py-py-sse, py-v2-2026); here it does not (another POST's lines between, or none of httpcore's).
  'py-ts1-sse debug/client fnull200 id 20#1: want INVALID_ENVELOPE got UNANSWERED',
  'py-ts1-stateless-json debug/client fnull200 id 20#1: want INVALID_ENVELOPE got UNANSWERED',
  'py-v2-legacy debug/client fnull200 id 20#1: want INVALID_ENVELOPE got UNANSWERED',
  // The cut stream's "SSE stream ended" tied to no request: two cancelled calls' streams were still open (py-ts1-sse),
  // or the 202 to a notifications/cancelled came while the cancelled call's POST still waited for its head, which the
  // v2 server's legacy path sends with its first event (py-v2-legacy: a status two POSTs may own; every later stream
  // end is doubted).
  'py-ts1-sse debug/client prog id 24#1: want STREAM_INCOMPLETE got UNANSWERED',
  'py-v2-legacy debug/client prog id 24#1: want STREAM_INCOMPLETE got UNANSWERED',
];

describe("audit 45: every attempt's outcome and failure layer on fresh real runs", () => {
  let verdicts: Verdict[] = [];
  it('judges every view of every run', async () => {
    ({ verdicts } = (await judge(attempts)) as { verdicts: Verdict[] });
    expect(verdicts.length).toBeGreaterThan(1500);
  });

  it('agrees with the truth on every attempt, but for the KNOWN limits of a view', () => {
    const wrong = verdicts.filter((v) => !v.ok).map((v) => `${v.run} ${v.view}/${v.kind} ${v.step} id ${v.id}#${v.n}: want ${v.want} got ${v.got}`);
    expect(wrong.sort()).toEqual([...KNOWN].sort());
  });
});

describe("the Python client's DEBUG log: a stream's end the log does not follow with another line", () => {
  it('a 2026-07-28 log that ends with "SSE stream ended" and its traceback: the cut call is STREAM_INCOMPLETE', async () => {
    const path = `${DIR}py-v2-2026/client-debug.log`;
    const r = await analyze({ inputs: [{ path, side: 'client' }], onDiagnostic: () => {} });
    const prog = r.attempts.find((a) => a.tool === 'prog')!;
    expect([prog.outcome, prog.layer, prog.status]).toEqual(['STREAM_INCOMPLETE', 'transport', 200]);
    expect(prog.detail.why).toMatch(/^its POST's SSE stream broke before the response, cut by the peer .*"SSE stream ended" at line \d+, not resumed/);
    // The record said at the end of the input belongs to a line already counted: every line is accounted for once.
    const input = r.summary.inputs[0]!;
    expect(input.blank + input.used + input.skipped + input.unusable).toBe(input.lines);
  });

  it('a call the client cancelled after its SSE head, with no answer by the end of the log, is STREAM_INCOMPLETE', async () => {
    const r = await analyze({ inputs: [{ path: `${DIR}py-ts1-sse/client-debug.log`, side: 'client' }], onDiagnostic: () => {} });
    // Truth: the app's httpx hook saw each POST's 200 text/event-stream head; the SDK call then timed out or was cancelled.
    const truth = readFileSync(`${DIR}py-ts1-sse/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { step?: string; ok?: boolean; posts?: { id: number; status: number; ctype: string }[] });
    for (const step of ['timeout', 'abort']) {
      const t = truth.find((x) => x.step === step)!;
      expect([t.ok, t.posts![0]!.status, t.posts![0]!.ctype], step).toEqual([false, 200, 'text/event-stream']);
      const a = r.attempts.find((x) => x.method === 'tools/call' && x.id === t.posts![0]!.id);
      expect(a, step).toBeDefined();
      expect([a!.outcome, a!.status], step).toEqual(['STREAM_INCOMPLETE', 200]);
      expect(a!.detail.why).toMatch(/^its POST's SSE stream brought no response before the log ended: the client had cancelled the request \(notifications\/cancelled at line \d+\)/);
      expect(a!.findings.map((f) => f.code)).toContain('CANCELLED');
    }
  });
});

const truthOf = (run: string) => readFileSync(`${DIR}${run}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { step?: string; ok?: boolean; error?: string; posts?: { id: number; status: number; ctype: string | null }[] });
const idOf = (run: string, step: string) => truthOf(run).find((t) => t.step === step)!.posts![0]!.id;

describe('a 200 whose body is a captive page (text/html): refused unread by the SDK clients', () => {
  it('is STREAM_INCOMPLETE in every HTTP view, the why quoting the page, not MALFORMED_JSON', async () => {
    const t = truthOf('ts1-ts1-sse').find((x) => x.step === 'fhtml200')!;
    expect([t.ok, t.error, t.posts![0]!.status, t.posts![0]!.ctype]).toEqual([false, 'Streamable HTTP error: Unexpected content type: text/html', 200, 'text/html']);
    for (const file of ['client.ndjson', 'client.har', 'proxy.ndjson']) {
      const a = (await attempts([{ path: `${DIR}ts1-ts1-sse/${file}`, side: 'client' }])).find((x) => x.method === 'tools/call' && x.id === t.posts![0]!.id)!;
      expect([a.outcome, a.layer, a.status], file).toEqual(['STREAM_INCOMPLETE', 'transport', 200]);
      expect(a.detail.why, file).toMatch(/^the SDK clients take no response from it: its Content-Type "text\/html" is neither application\/json nor text\/event-stream, so they refuse the body unread .*; nor is the body JSON: body is not JSON .*Sign in to the network/);
    }
  });
});

describe("the Python client's DEBUG log: the SDK's own lines end a request it read no answer from", () => {
  it('"Unexpected content type: text/html" and "Received 202 Accepted" end the tied request; the cut stream after them is tied again', async () => {
    for (const run of ['py-py-sse', 'py-v2-2026']) {
      const r = await attempts([{ path: `${DIR}${run}/client-debug.log`, side: 'client' }]);
      const at = (step: string) => r.find((x) => x.method === 'tools/call' && x.id === idOf(run, step))!;
      expect([at('fhtml200').outcome, at('fhtml200').status], run).toEqual(['STREAM_INCOMPLETE', 200]);
      expect(at('fhtml200').detail.why).toMatch(/^its POST's HTTP 200 answer has Content-Type "text\/html", neither application\/json nor text\/event-stream: refused unread by the client's own transport/);
      expect([at('facc202').outcome, at('facc202').status], run).toEqual(['STREAM_INCOMPLETE', 202]);
      expect(at('facc202').detail.why).toMatch(/^HTTP 202 Accepted to a request \(httpx's "HTTP Request:" line, then the SDK's "Received 202 Accepted"\)/);
      // Its transport refused the body; it did not cancel (2026-07-28: closing a stream is the cancellation).
      for (const step of ['fhtml200', 'facc202']) expect(at(step).findings.map((f) => f.code), `${run} ${step}`).not.toContain('CANCELLED');
      expect(at('prog').outcome, run).toBe('STREAM_INCOMPLETE');
    }
  });
});
