// The join (dist/bin.cjs --client --server) on REAL tshark 4.0 captures of both legs of a hop (test/fixtures/real-tshark/legs-*/, recorded by record.mjs): one capture on lo, split per port with -Y; the unsplit export read alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCodes, codesOf, toolCalls } from '../helpers/recordings.js';
import { triageCli, type CliRun } from '../helpers/triage-cli.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'real-tshark');
const f = (s: string, file: string) => join(FIXTURES, s, file);

type Step = { step?: string; ok?: boolean; isError?: boolean; error?: { name: string; message: string; code?: number } };
const OBSERVED = JSON.parse(readFileSync(join(FIXTURES, 'observed.json'), 'utf8')) as Record<string, { tshark: string; ports: { hop: number; server: number }; steps: Step[] }>;
const LEGS = ['legs-normal', 'legs-hop-503', 'legs-hop-cut', 'legs-hop-destroy', 'legs-session-lost'];

interface Attempt {
  method: string;
  id: number;
  tool: string | null;
  session: string | null;
  outcome: string;
  status: number | null;
  serverStatus?: number | null;
  serverOutcome?: string;
  notSeenByServer?: boolean;
  call: string;
  attempt: number;
  sources: { file: string }[];
  findings: { code: string; severity: string; message: string }[];
}
type Run = CliRun<Attempt, { code: string; session?: string }>;

const cache = new Map<string, Run>();
const joined = (s: string): Run => {
  if (!cache.has(s)) cache.set(s, triageCli<Attempt, { code: string; session?: string }>(['--client', f(s, 'client-leg.ek.ndjson'), '--server', f(s, 'server-leg.ek.ndjson')]));
  return cache.get(s)!;
};
const lines = (s: string, file: string) => readFileSync(f(s, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
type Layers = { frame: Record<string, string>; tcp?: Record<string, unknown> };
const packets = (s: string, file: string) => lines(s, file).filter((l) => 'layers' in l).map((l) => l.layers as Layers);
const toolSteps = (s: string) => OBSERVED[s]!.steps.filter((x) => x.step !== undefined && x.step !== 'tools/list');
const pair = (a: Attempt) => [a.outcome, a.status, a.serverOutcome ?? null, a.serverStatus ?? null];
const files = (a: Attempt) => [...new Set(a.sources.map((x) => x.file.replace(/^.*\//, '')))].sort();

describe('real-tshark legs: what tshark wrote when one capture is split per port with -Y', () => {
  it('each leg keeps the capture\'s frame numbers and an index line per packet it keeps; the two legs are the whole capture', () => {
    for (const s of LEGS) {
      const { hop, server } = OBSERVED[s]!.ports;
      for (const [file, port] of [['client-leg.ek.ndjson', hop], ['server-leg.ek.ndjson', server]] as const) {
        const ls = lines(s, file);
        expect(ls.filter((l) => 'index' in l).length, `${s} ${file}`).toBe(ls.length / 2);
        for (const p of packets(s, file)) expect([p.tcp?.tcp_tcp_srcport, p.tcp?.tcp_tcp_dstport], `${s} ${file}`).toContain(String(port));
      }
      const numbers = [...packets(s, 'client-leg.ek.ndjson'), ...packets(s, 'server-leg.ek.ndjson')].map((p) => Number(p.frame.frame_frame_number)).sort((a, b) => a - b);
      expect(numbers, s).toEqual(numbers.map((_, i) => i + 1)); // not renumbered: frame numbers (and http.request_in) are the capture's
    }
  });

  it('the unsplit export is the two legs\' lines interleaved: the display filter changes no dissection (only frame.time_delta_displayed)', () => {
    const strip = (l: Record<string, unknown>) => JSON.stringify(l, (k, v) => (k === 'frame_frame_time_delta_displayed' ? undefined : v));
    const whole = new Set(lines('legs-normal', 'capture.ek.ndjson').map(strip));
    const legs = [...lines('legs-normal', 'client-leg.ek.ndjson'), ...lines('legs-normal', 'server-leg.ek.ndjson')];
    expect(legs.length).toBe(lines('legs-normal', 'capture.ek.ndjson').length);
    for (const l of legs) expect(whole.has(strip(l))).toBe(true);
  });
});

describe('real-tshark legs: --client client-leg --server server-leg (the CLI)', () => {
  it('no unusable line, no diagnostic; every attempt of the client leg has its server view unless the hop kept it', () => {
    for (const s of LEGS) {
      const r = joined(s);
      expect(r.unusable, s).toBe(0);
      expect((r.summary.diagnostics as { total: number }).total, s).toBe(0);
      for (const a of r.attempts) {
        if (a.notSeenByServer) expect(files(a), s).toEqual(['client-leg.ek.ndjson']);
        else expect(files(a), `${s} ${a.method} ${a.id}`).toEqual(['client-leg.ek.ndjson', 'server-leg.ek.ndjson']);
      }
    }
  });

  it('legs-normal: one attempt per call, both views the same, no finding', () => {
    const r = joined('legs-normal');
    expect(r.attempts.map((a) => [a.method, ...pair(a)])).toEqual([
      ['initialize', 'SUCCESS', 200, 'SUCCESS', 200],
      ['tools/list', 'SUCCESS', 200, 'SUCCESS', 200],
      ['tools/call', 'TOOL_SUCCESS', 200, 'TOOL_SUCCESS', 200],
    ]);
    expect(toolSteps('legs-normal').map((x) => x.ok)).toEqual([true]);
    expect(allCodes(r)).toEqual([]);
  });

  it('legs-hop-503: the hop\'s 503 "not seen by the server" (no SIDE_DIVERGENCE), the retry linked and seen by both', () => {
    expect(toolSteps('legs-hop-503').map((x) => [x.ok, x.error?.code])).toEqual([[false, 503], [true, undefined]]);
    const [first, retry] = toolCalls(joined('legs-hop-503'));
    expect(pair(first!)).toEqual(['HTTP_ERROR', 503, null, null]);
    expect(first!.notSeenByServer).toBe(true);
    expect(pair(retry!)).toEqual(['TOOL_SUCCESS', 200, 'TOOL_SUCCESS', 200]);
    expect([retry!.call, retry!.attempt]).toEqual([first!.call, 2]);
    expect(allCodes(joined('legs-hop-503'))).not.toContain('SIDE_DIVERGENCE');
    expect(allCodes(joined('legs-hop-503'))).not.toContain('UNSAFE_RETRY');
  });

  it('legs-hop-cut: the client\'s empty stream against the server\'s result (SIDE_DIVERGENCE, NO_FINAL_RESULT), the destructive retry an UNSAFE_RETRY error', () => {
    expect(toolSteps('legs-hop-cut').map((x) => [x.ok, x.error?.code])).toEqual([[false, -32001], [true, undefined]]);
    const [cut, retry] = toolCalls(joined('legs-hop-cut'));
    expect(pair(cut!)).toEqual(['STREAM_INCOMPLETE', 200, 'TOOL_SUCCESS', 200]);
    expect(codesOf(cut!)).toEqual(expect.arrayContaining(['SIDE_DIVERGENCE', 'NO_FINAL_RESULT', 'CANCELLED']));
    expect(cut!.notSeenByServer).toBeUndefined();
    expect(pair(retry!)).toEqual(['TOOL_SUCCESS', 200, 'TOOL_SUCCESS', 200]);
    expect([retry!.call, retry!.attempt]).toEqual([cut!.call, 2]);
    const unsafe = retry!.findings.find((x) => x.code === 'UNSAFE_RETRY')!;
    expect(unsafe.severity).toBe('error');
    expect(unsafe.message).toMatch(/server view shows the earlier attempt ran to its result/);
    expect(allCodes(joined('legs-hop-cut'))).not.toContain('NO_RESPONSE');
  });

  it('legs-hop-destroy: the hop closed the client\'s connection before forwarding: NO_RESPONSE not seen by the server; the retry is no UNSAFE_RETRY', () => {
    expect(toolSteps('legs-hop-destroy').map((x) => [x.ok, x.error?.message])).toEqual([[false, 'fetch failed'], [true, undefined]]);
    const [gone, retry] = toolCalls(joined('legs-hop-destroy'));
    expect(pair(gone!)).toEqual(['NO_RESPONSE', null, null, null]);
    expect(gone!.notSeenByServer).toBe(true);
    expect(pair(retry!)).toEqual(['TOOL_SUCCESS', 200, 'TOOL_SUCCESS', 200]);
    expect([retry!.call, retry!.attempt]).toEqual([gone!.call, 2]);
    expect(allCodes(joined('legs-hop-destroy'))).not.toContain('UNSAFE_RETRY');
    expect(allCodes(joined('legs-hop-destroy'))).not.toContain('SIDE_DIVERGENCE');
    // The client leg alone cannot tell: the earlier attempt may have run (a warning), which the server leg disproves.
    const alone = triageCli<Attempt>(['--client', f('legs-hop-destroy', 'client-leg.ek.ndjson')]);
    expect(toolCalls(alone)[1]!.findings.find((x) => x.code === 'UNSAFE_RETRY')).toMatchObject({ severity: 'warning', message: expect.stringMatching(/may have run/) });
  });

  it('legs-session-lost: the server\'s 404 through the hop on both legs, SESSION_EXPIRED, the call repeated on a new session; the same session ids on both legs', () => {
    const r = joined('legs-session-lost');
    expect(toolCalls(r).map(pair)).toEqual([
      ['TOOL_SUCCESS', 200, 'TOOL_SUCCESS', 200],
      ['HTTP_ERROR', 404, 'HTTP_ERROR', 404],
      ['TOOL_SUCCESS', 200, 'TOOL_SUCCESS', 200],
    ]);
    expect(toolSteps('legs-session-lost').map((x) => [x.ok, x.error?.code])).toEqual([[true, undefined], [false, 404], [true, undefined]]);
    expect(allCodes(r)).toContain('SESSION_EXPIRED');
    expect(allCodes(r)).not.toContain('SIDE_DIVERGENCE');
    expect(new Set(toolCalls(r).map((a) => a.session)).size).toBe(2);
    expect(toolCalls(r)[2]!.call).toBe(toolCalls(r)[1]!.call);
    // The hop passes Mcp-Session-Id on: each leg alone shows the same two sessions.
    for (const side of ['client', 'server'] as const) {
      const one = triageCli<Attempt>([`--${side}`, f('legs-session-lost', `${side}-leg.ek.ndjson`)]);
      expect(new Set(toolCalls(one).map((a) => a.session)), side).toEqual(new Set(toolCalls(r).map((a) => a.session)));
    }
  });
});

describe('real-tshark legs: the unsplit export (both legs in one file)', () => {
  it('is read as the client\'s view once its first request with a session id shows the hop: the inner leg skipped from there, said once with the commands to split it; only its initialize (no session id yet) is read twice', () => {
    const r = triageCli<Attempt>([f('legs-normal', 'capture.ek.ndjson')]);
    // An initialize carries no session id: the same one on two ports may be one client starting two servers, so the
    // inner leg's is read; the notifications/initialized after it (with the session id) reveals the hop.
    expect(r.attempts.map((a) => [a.method, a.outcome])).toEqual([['initialize', 'SUCCESS'], ['initialize', 'SUCCESS'], ['tools/list', 'SUCCESS'], ['tools/call', 'TOOL_SUCCESS']]);
    expect(allCodes(r)).not.toContain('ID_REUSED');
    expect(r.attempts.flatMap(files)).toEqual(r.attempts.map(() => 'capture.ek.ndjson'));
    expect(r.unusable).toBe(1);
    const { hop, server } = OBSERVED['legs-normal']!.ports;
    const said = (r.summary.diagnostics as { first: { message: string }[] }).first[0]!.message;
    expect(said).toContain('both legs of a hop');
    expect(said).toContain(`-Y tcp.port==${hop} -T ek > client-leg.ek.ndjson`);
    expect(said).toContain(`-Y tcp.port==${server} -T ek > server-leg.ek.ndjson`);
    // The client leg alone reads the same.
    const client = triageCli<Attempt>([f('legs-normal', 'client-leg.ek.ndjson')]);
    expect(client.attempts.map((a) => [a.method, a.outcome, a.status])).toEqual(r.attempts.filter((_, i) => i !== 1).map((a) => [a.method, a.outcome, a.status]));
    expect(client.unusable).toBe(0);
  });
});
