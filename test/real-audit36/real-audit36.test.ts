// The thirty-sixth audit: who closed a Python client's broken SSE stream (the peer's cut is no CANCELLED), and an
// UNSAFE_RETRY whose tools/list the Python DEBUG log asked for but does not show the answer of.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const FIX = fileURLToPath(new URL('../fixtures/', import.meta.url));
type Side = 'client' | 'server';
const run = (inputs: [string, Side?][]) => analyze({ inputs: inputs.map(([path, side]) => ({ path, ...(side ? { side } : {}) })) });
type Row = Awaited<ReturnType<typeof analyze>>['attempts'][number];
const codes = (a: Row) => a.findings.map((x) => x.code);
const derived = (from: string, edit: (lines: string[]) => string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'audit36-')), 'client.log');
  writeFileSync(path, `${edit(readFileSync(from, 'utf8').trimEnd().split('\n')).join('\n')}\n`);
  return path;
};

describe("a Python client's SSE stream that the other end cut is no cancellation by the client (2026-07-28)", () => {
  // real-audit18/py-mrtr-followup-cut: the hop passed the follow-up's 200 head and cut the stream (its
  // ground-truth.json: hop action cutAfterEvents; the server booked, not aborted). The client's log says httpcore's
  // RemoteProtocolError "peer closed connection without sending complete message body"; the client sent no
  // notifications/cancelled and closed nothing itself.
  const log = `${FIX}real-audit18/py-mrtr-followup-cut/client.log`;
  const server = `${FIX}real-audit18/py-mrtr-followup-cut/server.ndjson`;

  it('alone: STREAM_INCOMPLETE, cut by the peer, no CANCELLED; the app\'s new call is still an unsafe retry', async () => {
    const r = await run([[log]]);
    const cut = r.attempts.find((a) => a.id === 3)!;
    expect([cut.outcome, cut.status]).toEqual(['STREAM_INCOMPLETE', 200]);
    expect(cut.detail.why).toContain('cut by the peer (the server, a hop between them, or the network), not closed by the client');
    expect(cut.detail.why).toContain('RemoteProtocolError: peer closed connection without sending complete message body');
    // must not: "the client closed the response ... closing the stream is the cancellation"
    expect(codes(cut)).not.toContain('CANCELLED');
    expect(codes(r.attempts.find((a) => a.id === 4)!)).toContain('UNSAFE_RETRY');
  });

  it("joined with the server's log: no CANCELLED, the lost result is SIDE_DIVERGENCE and the retry proven unsafe", async () => {
    const r = await run([[log, 'client'], [server, 'server']]);
    const cut = r.attempts.find((a) => a.id === 3)!;
    expect(codes(cut)).not.toContain('CANCELLED');
    expect(codes(cut)).toContain('SIDE_DIVERGENCE');
    const retry = r.attempts.find((a) => a.id === 4)!.findings.find((f) => f.code === 'UNSAFE_RETRY')!;
    expect(retry.severity).toBe('error');
  });

  it("the same log with the client's own read timeout in httpcore's place is still the client's close: CANCELLED", async () => {
    const timedOut = derived(log, (lines) => lines.map((l) => l.replace(/receive_response_body\.failed exception=RemoteProtocolError\(.*$/, 'receive_response_body.failed exception=ReadTimeout(ReadTimeout(\'\'))')));
    const r = await run([[timedOut]]);
    const cut = r.attempts.find((a) => a.id === 3)!;
    expect(cut.detail.why).toContain("at the client's own read timeout");
    expect(codes(cut)).toContain('CANCELLED');
  });

  it('a stream the server (or a hop) ended cleanly without the answer is no CANCELLED either (real-audit24/py-v2 cut_stream)', async () => {
    const r = await run([[`${FIX}real-audit24/py-v2/python-debug.log`]]);
    const cut = r.attempts.find((a) => a.id === 13)!;
    expect([cut.tool, cut.outcome]).toEqual(['cut_stream', 'STREAM_INCOMPLETE']);
    expect(cut.detail.why).toContain('closed by the server or a hop in front of it, not by the client');
    expect(codes(cut)).toContain('NO_FINAL_RESULT');
    expect(codes(cut)).not.toContain('CANCELLED');
  });

  it("the client's aborted POST (its own timeout) stays CANCELLED (real-audit19/s2-python)", async () => {
    const r = await run([[`${FIX}real-audit19/s2-python/client.log`]]);
    const slow = r.attempts.find((a) => a.id === 6 && a.tool === 'slow')!;
    expect(codes(slow)).toContain('CANCELLED');
  });
});

describe("UNSAFE_RETRY from the Python DEBUG log alone: the tools/list was asked for, its answer is not in the log", () => {
  // real-audit34/py-errors-json: a JSON-response server; the DEBUG log shows the client's tools/list (line 48) and no
  // JSON answer at all. The tool `slow` has no annotations (the server's log shows the list).
  const log = `${FIX}real-audit34/py-errors-json/client-debug.log`;
  const unsafe = (r: Awaited<ReturnType<typeof analyze>>) => r.attempts.flatMap((a) => a.findings).filter((f) => f.code === 'UNSAFE_RETRY');
  const listLine = () => readFileSync(log, 'utf8').split('\n').findIndex((l) => /method='tools\/list'/.test(l)) + 1;

  it('alone: says the list was asked for at its line and its answer is not in this log; a warning (the run is not proven)', async () => {
    const [f, ...more] = unsafe(await run([[log]]));
    expect(more).toEqual([]);
    expect(f!.message).toContain(`the client asked for tools/list at ${log}:${listLine()}, but its answer is not in this log`);
    // must not: "no tools/list before it in the logs"
    expect(f!.message).not.toContain('no tools/list');
    expect(f!.severity).toBe('warning');
  });

  it("with the server's log the list is known: unannotated, proven, an error", async () => {
    const [f] = unsafe(await run([[log, 'client'], [`${FIX}real-audit34/py-errors-json/server.ndjson`, 'server']]));
    expect(f!.message).toContain('it has no annotations');
    expect(f!.severity).toBe('error');
  });

  it('a log without the tools/list request still says there was none', async () => {
    const [f] = unsafe(await run([[derived(log, (lines) => lines.filter((l) => !/method='tools\/list'/.test(l)))]]));
    expect(f!.message).toContain('no tools/list before it in the logs');
    expect(f!.severity).toBe('warning');
  });
});
