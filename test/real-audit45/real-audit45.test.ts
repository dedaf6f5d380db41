// Audit 45's real runs (test/fixtures/real-audit45): each attempt's outcome and layer, per view, held to the truth the
// programs saw (the client app, its fetch or httpx hook, the fault hop, the server's handlers).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = new URL('../fixtures/real-audit45/', import.meta.url).pathname;
type Inputs = { path: string; side: 'client' | 'server' }[];
const attempts = async (inputs: Inputs) => (await analyze({ inputs, onDiagnostic: () => {} })).attempts;

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
