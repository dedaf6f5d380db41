// Audit 48's real captures (test/fixtures/real-audit48): SDK clients and servers through a real nginx, judged against the programs' truth files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit48/';

type Finding = { code: string; severity: string; message: string };
type Row = { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string; call?: string; attempt?: number; findings: Finding[] };
type Post = { id: number; method: string; tool: string | null; status: number | null | 'pending'; ctype?: string; body?: { answer: string; isError?: boolean; end: string } };
type Step = { step?: string; ok?: boolean; error?: string; code?: number | null; posts?: Post[]; progressOf?: string; ts: string };

const lines = <T>(f: string): T[] => readFileSync(`${DIR}${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

async function run(inputs: { path: string; side?: 'client' | 'server' }[]) {
  const r = await analyze({ inputs: inputs.map((i) => ({ ...i, path: `${DIR}${i.path}` })) });
  return { rows: r.attempts as unknown as Row[], findings: r.findings as unknown as Finding[], summary: r.summary as unknown as { inputs: { formats: Record<string, number>; cannotShow: string[] }[] } };
}

/** The tools/call POSTs of a run as the TypeScript client app's fetch saw them (truth-client.ndjson). */
const toolPosts = (run: string): Post[] => lines<Step>(`${run}/truth-client.ndjson`).flatMap((s) => s.posts ?? []).filter((p) => p.method === 'tools/call');

describe('real-audit48: nginx JSON access log (log_format escape=json with $request_body), read on its own', () => {
  for (const name of ['ts1-right-sse', 'ts1-noaccel-sse', 'ts1-timeout3s-sse', 'ts1-timeout3s-json', 'ts1-limits-burst']) {
    it(`${name}: read as nginx-json; every tools/call nginx passed on is judged by what its line can show`, async () => {
      const { rows, summary } = await run([{ path: `${name}/access.json` }]);
      expect(Object.keys(summary.inputs[0]!.formats)).toEqual(['nginx-json']);
      // it keeps the requests' bodies, not the responses': no word of results rebuilt from attributes
      expect(summary.inputs[0]!.cannotShow[0]).toMatch(/^no response bodies \(the requests' are kept;/);
      for (const p of toolPosts(name)) {
        const row = rows.find((a) => a.id === p.id && a.method === 'tools/call');
        if (typeof p.status === 'number' && p.status >= 400) {
          // nginx refused it before reading the body (413): its line has no request body, so no attempt
          if (p.status === 413) expect(row).toBeUndefined();
          else expect([row?.status, row?.outcome]).toEqual([p.status, 'HTTP_ERROR']);
        } else if (p.status === 200 && p.body?.answer === 'none' && p.body.end.startsWith('error')) {
          // the stream nginx cut (proxy_read_timeout) before its first event: nginx sent no body byte
          expect(row?.outcome).toBe('STREAM_INCOMPLETE');
        } else if (p.status === 200) {
          // a 2xx nginx passed on: the answer is not in an access log, and no failure is made of it
          expect(row?.outcome).toBe('UNANSWERED');
          expect(row?.findings.map((f) => f.code)).not.toContain('NO_FINAL_RESULT');
        } else {
          // the client gave up before any head (buffered): nginx logged 499 when the client's connection closed
          expect(row?.outcome).toBe('NO_RESPONSE');
        }
      }
      // two like calls (the same echo) with 2xx answers are two calls, not a call and its retry
      expect(rows.every((a) => a.attempt === 1)).toBe(true);
    });
  }

  it('ts1-limits: limit_req (no burst) refused notifications/initialized with 503; the initialize nginx passed on is not said to have failed', async () => {
    const connect = lines<Step>('ts1-limits/truth-client.ndjson').find((s) => s.step === 'connect')!;
    expect([connect.ok, connect.code]).toEqual([false, 503]);
    const { findings } = await run([{ path: 'ts1-limits/access.json' }]);
    expect(findings.map((f) => f.code)).not.toContain('CALL_NEVER_SENT');
  });
});

describe('real-audit48: nginx\'s JSON access log joined as the client\'s view of the server (--client access.json --server server.ndjson)', () => {
  it('ts1-timeout3s-json: the 2xx calls stay UNANSWERED beside the server\'s answers; the 504 nginx made up after proxy_read_timeout is a SIDE_DIVERGENCE', async () => {
    const { rows } = await run([{ path: 'ts1-timeout3s-json/access.json', side: 'client' }, { path: 'ts1-timeout3s-json/server.ndjson', side: 'server' }]);
    for (const p of toolPosts('ts1-timeout3s-json')) {
      const row = rows.find((a) => a.id === p.id && a.method === 'tools/call')!;
      if (p.status === 504) {
        expect(row.outcome).toBe('HTTP_ERROR');
        expect(row.findings.find((f) => f.code === 'SIDE_DIVERGENCE')?.message).toMatch(/answered HTTP 504 itself/);
      } else expect([row.outcome, row.serverOutcome]).toEqual(['UNANSWERED', p.body?.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS']);
    }
  });
});

describe('real-audit48: nginx buffering a server\'s SSE stream (proxy_buffering on, X-Accel-Buffering ignored)', () => {
  const progressTimes = (run: string, step: string) => lines<Step>(`${run}/truth-client.ndjson`).filter((s) => s.progressOf === step).map((s) => Date.parse(s.ts));

  it('the truth: buffered, the three progress events came together; the long call timed out with none (the SDK\'s reset-on-progress never fired)', () => {
    const prog = progressTimes('ts1-noaccel-sse', 'prog');
    expect(prog).toHaveLength(3);
    expect(Math.max(...prog) - Math.min(...prog)).toBeLessThan(50);
    expect(progressTimes('ts1-noaccel-sse', 'longprog')).toEqual([]);
    const longprog = lines<Step>('ts1-noaccel-sse/truth-client.ndjson').find((s) => s.step === 'longprog')!;
    expect([longprog.ok, longprog.code, longprog.posts![0]!.status]).toEqual([false, -32001, 'pending']);
    // unbuffered (the right config) the same events came 400 ms apart
    const right = progressTimes('ts1-right-sse', 'prog');
    expect(right[2]! - right[0]!).toBeGreaterThan(600);
  });

  it('client and server: the call the client gave up on is a SIDE_DIVERGENCE that says the response was held between them', async () => {
    const { rows } = await run([{ path: 'ts1-noaccel-sse/client.ndjson', side: 'client' }, { path: 'ts1-noaccel-sse/server.ndjson', side: 'server' }]);
    const id = lines<Step>('ts1-noaccel-sse/truth-client.ndjson').find((s) => s.step === 'longprog')!.posts![0]!.id;
    const row = rows.find((a) => a.id === id)!;
    expect(row.outcome).toBe('NO_RESPONSE');
    const held = row.findings.find((f) => f.code === 'SIDE_DIVERGENCE')!;
    expect(held.message).toMatch(/never got the HTTP 200 head the server sent, nor any of the 3 progress notifications it sent on that stream before the client gave up/);
    expect(held.message).toMatch(/held the response back/);
  });

  it('the Python client\'s DEBUG log and the server: the call it cancelled at its 2.5 s timeout, having read none of the progress sent, is a SIDE_DIVERGENCE too', async () => {
    const step = lines<Step>('py-noaccel-sse/truth-client.ndjson').find((s) => s.step === 'longprog')!;
    // the truth: no head came (the httpx hook saw none), the SDK raised its timeout, no progress callback before that
    expect([step.ok, step.code, step.posts![0]!.status]).toEqual([false, -32001, null]);
    expect(progressTimes('py-noaccel-sse', 'longprog').filter((t) => t < Date.parse(step.ts))).toEqual([]);
    const { rows } = await run([{ path: 'py-noaccel-sse/client-debug.log', side: 'client' }, { path: 'py-noaccel-sse/server.ndjson', side: 'server' }]);
    const row = rows.find((a) => a.id === step.posts![0]!.id)!;
    expect(row.findings.find((f) => f.code === 'SIDE_DIVERGENCE')?.message).toMatch(/shows no answer and none of the 3 progress notifications the server sent on the request's HTTP 200 stream before the client cancelled it .*held the response back/);
    const right = await run([{ path: 'py-right-sse/client-debug.log', side: 'client' }, { path: 'py-right-sse/server.ndjson', side: 'server' }]);
    expect(right.rows.flatMap((a) => a.findings).map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
  });

  it('the right config: the same calls, no SIDE_DIVERGENCE', async () => {
    const { rows } = await run([{ path: 'ts1-right-sse/client.ndjson', side: 'client' }, { path: 'ts1-right-sse/server.ndjson', side: 'server' }]);
    expect(rows.flatMap((a) => a.findings).map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
  });
});
