// Audit 52's real captures (test/fixtures/real-audit52): HAProxy 2.6's httplog line read as the gateway's account of each request, judged against the programs' truth files.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { parseHaproxyLine, terminationText } from '../../src/formats/haproxy-log.js';

const DIR = 'test/fixtures/real-audit52/';
const A49 = 'test/fixtures/real-audit49/';

type Finding = { code: string; severity: string; message: string };
type Row = { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; side?: string; call?: string; attempt?: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; detail?: { why?: string }; sources: { file: string; line: number }[] };
type ServerTruth = { server: string; tool?: string; id?: number; phase?: string };

const lines = <T>(f: string): T[] => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
const runs = readdirSync(DIR).filter((d) => d.startsWith('hap-'));
const why = (r: Row) => r.detail?.why ?? '';
const servers = (dir: string, run: string) => readdirSync(`${dir}${run}`).filter((f) => /^server-[AB]\.ndjson$/.test(f)).map((f) => ({ path: `${dir}${run}/${f}`, side: 'server' as const }));

async function withClient(run: string, more: { path: string; side: 'server' }[] = []) {
  const r = await analyze({ inputs: [{ path: `${DIR}${run}/client.ndjson`, side: 'client' }, { path: `${DIR}${run}/haproxy.log`, side: 'server' }, ...more] });
  return { rows: r.attempts as unknown as Row[], notes: r.summary.notes ?? [] };
}
const joined = (rows: Row[], run: string) => rows.filter((r) => r.sources.some((s) => s.file === `${DIR}${run}/haproxy.log`));

describe('real-audit52: HAProxy 2.6.12 httplog lines as written', () => {
  it('reads option httplog (raw), after a syslog header, option httplog clf and the log-format with %[capture.req.hdr(0)]', () => {
    const first = (run: string, n: number) => readFileSync(`${DIR}${run}/haproxy.log`, 'utf8').split('\n')[n]!;
    const raw = parseHaproxyLine(first('hap-slow-json', 4))!;
    expect(raw).toMatchObject({ ts: '2026-12-06T04:33:09.363', backend: 'ups', server: 'A', status: 504, state: 'sH--', retries: 0, request: 'POST /mcp HTTP/1.1' });
    expect(raw.timers).toEqual([0, 0, 0, -1, 2002]);
    expect(raw.captured[0]).toMatch(/^[0-9a-f-]{36}$/);
    const syslog = parseHaproxyLine(first('hap-kill-sse', 3))!;
    expect(first('hap-kill-sse', 3)).toMatch(/^<134>Dec {2}6 \d\d:\d\d:\d\d haproxy\[\d+\]: /);
    expect(syslog).toMatchObject({ state: 'SD--', status: 200 });
    const clf = parseHaproxyLine(first('hap-healthy-clf', 1))!;
    expect(clf).toMatchObject({ ts: '2026-12-06T04:35:11.068+00:00', status: 202, server: 'A', state: '----', retries: 0 });
    expect(parseHaproxyLine(first('hap-healthy-clf', 3))!.timers).toEqual([0, 0, 0, 10, 1210]);
    expect(clf.captured[0]).toMatch(/^[0-9a-f-]{36}$/);
    const redispatched = parseHaproxyLine(first('hap-retry-redispatch', 4))!;
    expect(redispatched).toMatchObject({ retries: 1, redispatched: true, server: 'B' });
    expect(terminationText('SD--')).toContain('while the response body was being sent');
    expect(terminationText('----')).toBeUndefined();
  });
});

describe('real-audit52: what is not HAProxy\'s httplog is not taken for it', () => {
  it('nginx\'s combined access log (real-audit48) stays unread, a long line costs one scan', () => {
    for (const l of readFileSync('test/fixtures/real-audit48/ts1-right-sse/access.log', 'utf8').split('\n').filter(Boolean)) expect(parseHaproxyLine(l)).toBeUndefined();
    const t0 = Date.now();
    expect(parseHaproxyLine(`${'a'.repeat(60_000)}:1 [06/Dec/2026:04:33:09.363] ${'x/'.repeat(2000)}`)).toBeUndefined();
    expect(parseHaproxyLine(' [06/Dec/2026:04:33:09.363] '.repeat(2000))).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(500);
  });
});

describe('real-audit52: HAProxy\'s log alone invents no tools/call', () => {
  for (const run of runs) {
    it(`${run}: no attempts, an account of its requests in a note`, async () => {
      const r = await analyze({ inputs: [{ path: `${DIR}${run}/haproxy.log` }] });
      expect(r.attempts).toHaveLength(0);
      const note = (r.summary.notes ?? []).find((n) => n.includes("HAProxy's account of"));
      expect(note).toBeDefined();
      expect(r.summary.inputs[0]!.unusable).toBe(0);
    });
  }
});

describe('real-audit52: the termination state says where the failure was, joined with the client\'s log', () => {
  it('hap-kill-sse: the killed server\'s cut stream is SD (the server\'s doing); the next call\'s 503 is SC, HAProxy\'s own answer', async () => {
    const truth = lines<ServerTruth>(`${DIR}hap-kill-sse/truth-server.ndjson`);
    expect(truth.some((t) => t.phase === 'killed')).toBe(true);
    const { rows } = await withClient('hap-kill-sse');
    const charge = rows.find((r) => r.tool === 'charge')!;
    expect(charge.outcome).toBe('STREAM_INCOMPLETE');
    expect(why(charge)).toContain('termination state SD: the server closed');
    const after = rows.find((r) => r.id === 3)!;
    expect(after.status).toBe(503);
    expect(why(after)).toContain('termination state SC');
    expect(why(after)).toContain('HAProxy answered 503 itself');
    // the calls that went well take no line's words (and the normal lines none of the failed calls')
    for (const r of rows.filter((x) => x.outcome === 'TOOL_SUCCESS' || x.outcome === 'SUCCESS')) expect(why(r)).not.toContain('HAProxy');
  });
  it('hap-slow-json and hap-noretry-json: the 504 is sH, HAProxy\'s timeout server, no server\'s head', async () => {
    for (const run of ['hap-slow-json', 'hap-noretry-json']) {
      const { rows } = await withClient(run);
      const charge = rows.find((r) => r.tool === 'charge')!;
      expect(charge.status).toBe(504);
      expect(why(charge)).toContain('termination state sH: the server sent nothing within timeout server');
      expect(why(charge)).toContain('HAProxy answered 504 itself');
    }
  });
  it('hap-deny-ratelimit: the 403 of http-request deny and the 429s of the rate limit are PR, HAProxy\'s refusal', async () => {
    const { rows } = await withClient('hap-deny-ratelimit');
    const refused = rows.filter((r) => r.status === 403 || r.status === 429);
    expect(refused.map((r) => r.status)).toEqual([403, 429, 429]);
    for (const r of refused) expect(why(r)).toContain('termination state PR: HAProxy refused the request itself');
  });
  it('hap-down: initialize\'s 503 is SC (nothing listened)', async () => {
    const { rows } = await withClient('hap-down');
    expect(rows).toHaveLength(1);
    expect(why(rows[0]!)).toContain('termination state SC');
  });
  it('hap-client-quit-abort-*: with option abortonclose the client\'s leaving is CD (SSE) and CH (JSON), on the call it left', async () => {
    for (const [run, state] of [['hap-client-quit-abort-sse', 'CD'], ['hap-client-quit-abort-json', 'CH']] as const) {
      const { rows } = await withClient(run);
      const slow = rows.find((r) => r.tool === 'slow')!;
      expect(why(slow)).toContain(`termination state ${state}: the client closed`);
      expect(joined(rows, run).map((r) => r.tool)).toEqual(['slow']);
    }
  });
  it('near misses: healthy runs and a client that quit without abortonclose (HAProxy logged ----) join no words to any call', async () => {
    for (const run of ['hap-healthy-sse', 'hap-healthy-clf', 'hap-client-quit-sse', 'hap-client-quit-json']) {
      const { rows, notes } = await withClient(run);
      expect(joined(rows, run)).toHaveLength(0);
      expect(notes.find((n) => n.includes("HAProxy's account of"))).toContain('all ended normally');
    }
  });
});

describe('real-audit52: HAProxy\'s retries counter is a gateway re-send', () => {
  it('hap-retry-redispatch, with the client\'s log only: UNSAFE_RETRY (a warning) on the charge the client sent once', async () => {
    const truth = lines<ServerTruth>(`${DIR}hap-retry-redispatch/truth-server.ndjson`);
    expect(truth.filter((t) => t.tool === 'charge' && t.phase === 'charged').map((t) => t.server)).toEqual(['A', 'B']);
    const { rows } = await withClient('hap-retry-redispatch');
    const charge = rows.filter((r) => r.tool === 'charge');
    expect(charge).toHaveLength(1);
    expect(why(charge[0]!)).toContain('HAProxy re-sent this request once (retries +1: redispatched');
    expect(charge[0]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('warning');
  });
  it('hap-retry-redispatch, with both servers\' logs (with and without the client\'s): A\'s try is attempt 1, B\'s the gateway\'s re-send, proven unsafe', async () => {
    const srv = servers(DIR, 'hap-retry-redispatch');
    for (const inputs of [[{ path: `${DIR}hap-retry-redispatch/client.ndjson`, side: 'client' as const }, { path: `${DIR}hap-retry-redispatch/haproxy.log`, side: 'server' as const }, ...srv], [{ path: `${DIR}hap-retry-redispatch/haproxy.log`, side: 'server' as const }, ...srv]]) {
      const r = await analyze({ inputs });
      const charge = (r.attempts as unknown as Row[]).filter((a) => a.tool === 'charge');
      expect(charge.map((a) => [a.attempt, a.outcome, a.retryOrigin?.origin])).toEqual([[1, 'NO_RESPONSE', undefined], [2, 'TOOL_SUCCESS', 'gateway']]);
      expect(charge[1]!.call).toBe(charge[0]!.call);
      expect(charge[1]!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('error');
      expect(charge[1]!.findings.map((f) => f.code)).not.toContain('RETRY_POLICY');
    }
  });
  it('near miss: hap-noretry-json (no retry-on: the client got the 504) links nothing, though both servers\' logs are given', async () => {
    const { rows } = await withClient('hap-noretry-json', servers(DIR, 'hap-noretry-json'));
    const charge = rows.filter((r) => r.tool === 'charge');
    expect(charge).toHaveLength(1);
    expect(charge[0]!.retryOrigin).toBeUndefined();
    expect(charge[0]!.findings.map((f) => f.code)).not.toContain('UNSAFE_RETRY');
  });
  it('near miss: without HAProxy\'s log the same servers\' logs leave A\'s try a call of its own (as before)', async () => {
    const r = await analyze({ inputs: [{ path: `${DIR}hap-retry-redispatch/client.ndjson`, side: 'client' }, ...servers(DIR, 'hap-retry-redispatch')] });
    const charge = (r.attempts as unknown as Row[]).filter((a) => a.tool === 'charge');
    expect(new Set(charge.map((a) => a.call)).size).toBe(2);
  });
  it('real-audit49\'s HAProxy runs: where the charge ran on both servers the re-send is linked; the pinned stateful run has none', async () => {
    for (const run of readdirSync(A49).filter((d) => d.startsWith('hap-'))) {
      const truth = existsSync(`${A49}${run}/truth-server.ndjson`) ? lines<ServerTruth>(`${A49}${run}/truth-server.ndjson`) : [];
      const twice = truth.filter((t) => t.tool === 'charge' && t.phase === 'charged').length > 1;
      const r = await analyze({ inputs: [{ path: `${A49}${run}/client.ndjson`, side: 'client' }, { path: `${A49}${run}/haproxy.log`, side: 'server' }, ...servers(A49, run)] });
      const gw = (r.attempts as unknown as Row[]).filter((a) => a.retryOrigin?.origin === 'gateway');
      expect(gw.length > 0).toBe(twice);
      for (const a of gw) expect(a.findings.map((f) => f.code)).toContain('UNSAFE_RETRY');
    }
  });
});
