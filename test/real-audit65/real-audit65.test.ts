// Audit 65's real captures (test/fixtures/real-audit65): Caddy 2.6.2's JSON access log and error log (and its console format) beside SDK clients' and servers' own logs, judged against what each client app saw (observed.json).
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit65/';

type Row = { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; retryOrigin?: string; findings: { code: string; severity: string }[]; sources: { file: string; line: number }[]; detail?: { why?: string } };
type Post = { id: number; method: string; tool: string | null; status: number | null | 'pending'; body?: { answer: string; end: string } };
type Call = { step?: string; label?: string; ok?: boolean; error?: string; code?: number | null; ms?: number; posts?: Post[]; progressOf?: string; ts: string };
type Observed = { run: string; client: string; upstream: string; config: string; calls: Call[]; events: { what: string }[]; server: { tool?: string; phase?: string; id?: number }[]; serverB?: { tool?: string; phase?: string; id?: number }[] };
type Input = { name: string; formats: Record<string, number>; lines: number; used: number; skipped: number; unusable: number };

const RUNS = readdirSync(DIR).filter((d) => existsSync(`${DIR}${d}/observed.json`));
const observed = (name: string): Observed => JSON.parse(readFileSync(`${DIR}${name}/observed.json`, 'utf8')) as Observed;
/** The client's log of a run: recordingFetch's (TypeScript) or the Python client's DEBUG log. */
const clientLog = (name: string) => (name.startsWith('py-') ? `${name}/client-debug.log` : `${name}/client.ndjson`);
const why = (r: Row | undefined) => r?.detail?.why ?? '';

async function run(paths: string[], more: { client?: string[]; server?: string[] } = {}) {
  const inputs = [
    ...paths.map((p) => ({ path: `${DIR}${p}` })),
    ...(more.client ?? []).map((p) => ({ path: `${DIR}${p}`, side: 'client' as const })),
    ...(more.server ?? []).map((p) => ({ path: `${DIR}${p}`, side: 'server' as const })),
  ];
  const r = await analyze({ inputs });
  const summary = r.summary as unknown as { notes: string[]; inputs: Input[]; findings: { byCode: Record<string, number> } };
  return { rows: r.attempts as unknown as Row[], notes: summary.notes, inputs: summary.inputs, byCode: summary.findings.byCode };
}

/** The POST the client app made for a step (connect: its initialize; `ok#2`: the second ok), as its fetch saw it. */
function postOf(name: string, step: string, method = 'tools/call'): Post {
  const [label, nth] = step.split('#') as [string, string | undefined];
  const call = observed(name).calls.filter((c) => c.step === label && c.posts?.some((p) => p.method === method))[Number(nth ?? 1) - 1];
  const post = call?.posts?.find((p) => p.method === method);
  if (!post) throw new Error(`${name}: no ${method} POST under step ${step} in observed.json`);
  return post;
}

describe('real-audit65: what Caddy 2.6.2 did, as the programs saw it', () => {
  it('Caddy passes SSE progress on as it comes (no flush_interval needed): the events reached the app ~400 ms apart', () => {
    for (const name of ['ts1-healthy-sse', 'v2-stateless']) {
      const times = observed(name).calls.filter((c) => c.progressOf === 'prog').map((c) => Date.parse(c.ts));
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThan(300);
    }
  });

  it('the POST re-sent by lb_retries after response_header_timeout never reached the second upstream: the tool ran once, the app got 502', () => {
    const o = observed('ts1-lb-resend');
    expect(postOf('ts1-lb-resend', 'slow5').status).toBe(502);
    const ran = [...o.server, ...(o.serverB ?? [])].filter((e) => e.tool === 'slow' && e.phase === 'start');
    expect(ran).toHaveLength(1);
  });

  it("request_body's max_size answered 502, not 413, and the next POST on that connection got 502 too", () => {
    expect(postOf('ts1-bodylimit', 'big').status).toBe(502);
    const ok = observed('ts1-bodylimit').calls.filter((c) => c.step === 'ok');
    expect(ok.map((c) => c.posts?.[0]?.status)).toEqual([200, 502]);
  });

  it('Caddy 2.6.2 writes Authorization and Cookie as empty lists in its access log', () => {
    const text = readFileSync(`${DIR}ts1-auth-401/access.json`, 'utf8');
    expect(observed('ts1-auth-401').events.some((e) => /wrong-token-65/.test(e.what))).toBe(true);
    expect(text).toContain('"Authorization":[],"Cookie":[]');
    expect(text).not.toMatch(/wrong-token-65|cookie-secret-65/);
  });
});

describe('real-audit65: every line of Caddy\'s logs is accounted for', () => {
  it('the access log and the error log are read as caddy (caddy-console in the console runs); nothing is unusable', async () => {
    for (const name of RUNS) {
      const { inputs, rows } = await run([`${name}/access.json`, `${name}/error.log`]);
      // Caddy's logs alone: no attempts (no body, no JSON-RPC id)
      expect(rows).toEqual([]);
      const [acc, err] = inputs as [Input, Input];
      expect(Object.keys(acc.formats)).toEqual(acc.used ? [observed(name).config === 'console' ? 'caddy-console' : 'caddy'] : []);
      expect(Object.keys(err.formats)).toEqual(err.used ? ['caddy'] : []);
      for (const i of inputs) expect([i.unusable, i.used + i.skipped]).toEqual([0, i.lines]);
    }
  });

  it('alone, each POST Caddy failed is counted in a note per file, by status, with the reasons of the error log', async () => {
    for (const [name, access, reasons] of [
      ['ts1-down', /access\.json: Caddy's access log has 1 POST it failed or cut \(HTTP 502 x1/, /dial tcp 127\.0\.0\.1:\d+: connect: connection refused \(HTTP 502\) x1/],
      ['ts1-timeout-json', /HTTP 504 x1/, /net\/http: timeout awaiting response headers \(HTTP 504\) x1/],
      ['ts1-bodylimit', /HTTP 502 x2/, /request body too large/],
      ['ts1-ctrlc', /status 0 \(the client left before any head\) x1/, null],
    ] as const) {
      const { notes } = await run([`${name}/access.json`, `${name}/error.log`]);
      expect(notes.join('\n'), name).toMatch(access);
      if (reasons) expect(notes.join('\n'), name).toMatch(reasons);
    }
  });

  it("a healthy run's logs say they told of no failed POST (before: 'no line of it carries MCP traffic')", async () => {
    const { notes } = await run(['ts1-healthy-sse/access.json']);
    expect(notes).toContain("ts1-healthy-sse/access.json: a gateway's log with no bodies (9 lines read as caddy): none of its 9 lines tells of a POST that failed (its 2xx answers, GET streams and DELETEs, and lines of no request, say nothing a client's log does not): nothing in it to give to a call".replace('ts1-healthy-sse/access.json', `${DIR}ts1-healthy-sse/access.json`));
  });
});

describe('real-audit65: a gateway log that told of no failed POST says so', () => {
  it("nginx's healthy access log too; near miss: a .NET server's console log with no MCP line keeps 'no line of it carries MCP traffic'", async () => {
    const nginx = await analyze({ inputs: [{ path: 'test/fixtures/real-audit51/ts1-healthy-sse/access.log' }] });
    expect((nginx.summary as unknown as { notes: string[] }).notes.join('\n')).toMatch(/access\.log: a gateway's log with no bodies \(\d+ lines read as nginx-combined\): none of its \d+ lines tells of a POST that failed/);
    const dotnet = await analyze({ inputs: [{ path: 'test/fixtures/dotnet-logs/console.server.log' }] });
    const notes = (dotnet.summary as unknown as { notes: string[] }).notes.join('\n');
    expect(notes).toMatch(/console\.server\.log: no line of it carries MCP traffic/);
    expect(notes).not.toMatch(/a gateway's log/);
  });
});

describe("real-audit65: with the client's log, each failed POST names what Caddy said of it", () => {
  // run, step, method, what the access line says, what the error log says
  const cases: [string, string, string, RegExp, RegExp | null][] = [
    ['ts1-down', 'connect', 'initialize', /HTTP 502 after \d+ ms: Caddy answered it itself/, /dial tcp .*connection refused \(HTTP 502\); the request never reached that upstream/],
    ['ts1-console-down', 'connect', 'initialize', /HTTP 502 after \d+ ms: Caddy answered it itself/, /dial tcp .*connection refused/],
    ['ts1-lb-down-first', 'connect', 'initialize', /HTTP 502 after 20\d\d ms/, /dial tcp .*connection refused/],
    ['ts1-timeout-json', 'slow5', 'tools/call', /HTTP 504 after 30\d\d ms: Caddy answered it itself/, /timeout awaiting response headers \(HTTP 504\); .*response_header_timeout/],
    ['ts1-timeout-sse', 'slow5', 'tools/call', /answered 200 \(text\/event-stream\) after 30\d\d ms with no body byte sent/, /aborting with incomplete response \(read tcp .*i\/o timeout\); .*silent for read_timeout: Caddy cut the stream/],
    ['ts1-killed-sse', 'longprog', 'tools/call', /^/, /aborting with incomplete response \(unexpected EOF\); .*server process died or closed it\): Caddy cut the stream/],
    ['ts1-bodylimit', 'big', 'tools/call', /HTTP 502 after \d+ ms: Caddy answered it itself/, /request body too large \(HTTP 502\); .*502 itself \(not 413\)/],
    ['ts1-lb-resend', 'slow5', 'tools/call', /HTTP 502 after 3\d\d\d ms: Caddy answered it itself/, /invalid Read on closed Body \(HTTP 502\); Caddy tried this POST on another upstream/],
    ['ts1-giveup', 'timeout', 'tools/call', /answered 200 \(text\/event-stream\) after \d+ ms with no body byte sent/, null],
    ['ts1-expired-404', 'ok#2', 'tools/call', /HTTP 404 after \d+ ms: the upstream's own answer/, null],
    ['ts1-auth-401', 'connect', 'initialize', /HTTP 401 after \d+ ms: the upstream's own answer/, null],
  ];
  for (const [name, step, method, access, reason] of cases) {
    it(`${name}: ${step}`, async () => {
      const post = postOf(name, step, method);
      const { rows } = await run([clientLog(name), `${name}/access.json`, `${name}/error.log`]);
      const row = rows.find((r) => r.id === post.id && r.method === method)!;
      expect(row, `${name} id ${post.id}`).toBeDefined();
      // the status the app's fetch saw, and its outcome: an error status, or a stream that carried no answer
      expect(row.status).toBe(post.status);
      expect(row.outcome).toBe(typeof post.status === 'number' && post.status >= 400 ? 'HTTP_ERROR' : 'STREAM_INCOMPLETE');
      if (post.status !== 200 || name !== 'ts1-killed-sse') expect(why(row)).toMatch(/Caddy's access log has this POST/);
      expect(why(row)).toMatch(access);
      if (reason) expect(why(row)).toMatch(reason);
      else expect(why(row)).not.toMatch(/Caddy's error log \[/);
      // the lines are among its sources
      expect(row.sources.some((s) => s.file.endsWith('access.json') || s.file.endsWith('error.log'))).toBe(true);
    });
  }

  it('ts1-ctrlc: the app interrupted mid-call; Caddy logged status 0 and it goes to the attempt with no answer', async () => {
    expect(observed('ts1-ctrlc').events.map((e) => e.what)).toContain('client app interrupted (SIGINT)');
    const { rows } = await run([clientLog('ts1-ctrlc'), 'ts1-ctrlc/access.json', 'ts1-ctrlc/error.log']);
    const slow = rows.find((r) => r.tool === 'slow')!;
    expect([slow.status, slow.outcome]).toEqual([null, 'NO_RESPONSE']);
    expect(why(slow)).toMatch(/status 0 after 1\d\d\d ms: the client closed its connection before any response head/);
  });

  it('near miss: no answered attempt takes a Caddy line; the notification\'s 502 after a killed server stays counted', async () => {
    for (const name of ['ts1-healthy-sse', 'ts1-healthy-json', 'v2-stateless', 'py-healthy', 'ts1-console', 'ts1-killed-sse', 'ts1-expired-404']) {
      const { rows } = await run([clientLog(name), `${name}/access.json`, `${name}/error.log`]);
      for (const r of rows.filter((x) => ['SUCCESS', 'TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR'].includes(x.outcome))) expect(why(r), `${name} ${r.method} ${String(r.id)}`).not.toMatch(/Caddy/);
    }
    const { notes } = await run([clientLog('ts1-killed-sse'), 'ts1-killed-sse/access.json', 'ts1-killed-sse/error.log']);
    // (the SDK's notifications/cancelled after the server died: Caddy's 502, no attempt)
    expect(notes.join('\n')).toMatch(/Caddy's access log has 1 POST it failed or cut \(HTTP 502 x1/);
  });

  it("Caddy's stderr in the journal (journalctl -o json) or Docker's json-file, access and error lines in one file: the same why", async () => {
    const raw = ['access.json', 'error.log'].flatMap((f) => readFileSync(`${DIR}ts1-down/${f}`, 'utf8').split('\n').filter(Boolean));
    const dir = mkdtempSync(`${tmpdir()}/audit65-`);
    writeFileSync(`${dir}/journal.json`, raw.map((l) => JSON.stringify({ __REALTIME_TIMESTAMP: String(Math.round((JSON.parse(l) as { ts: number }).ts * 1e6)), _SYSTEMD_UNIT: 'caddy.service', SYSLOG_IDENTIFIER: 'caddy', MESSAGE: l })).join('\n') + '\n');
    writeFileSync(`${dir}/docker.json`, raw.map((l) => JSON.stringify({ log: `${l}\n`, stream: 'stderr', time: '2026-12-06T19:41:12.000000000Z' })).join('\n') + '\n');
    for (const f of ['journal.json', 'docker.json']) {
      const r = await analyze({ inputs: [{ path: `${DIR}ts1-down/client.ndjson` }, { path: `${dir}/${f}` }] });
      const init = (r.attempts as unknown as Row[]).find((x) => x.method === 'initialize')!;
      expect([init.status, init.outcome]).toEqual([502, 'HTTP_ERROR']);
      expect(why(init)).toMatch(/Caddy answered it itself.*dial tcp .*connection refused/);
    }
  });

  it("with the server's log alone (--server): its request that got no answer takes what Caddy sent the client; near miss: answered requests take nothing", async () => {
    for (const [name, tool, access, reason] of [
      ['ts1-timeout-json', 'slow', /HTTP 504 after 30\d\d ms: Caddy answered it itself/, /timeout awaiting response headers/],
      ['ts1-ctrlc', 'slow', /status 0 after 1\d\d\d ms/, null],
      ['ts1-timeout-sse', 'slow', /answered 200 \(text\/event-stream\) after 30\d\d ms with no body byte sent/, /i\/o timeout\); .*silent for read_timeout/],
      ['ts1-expired-404', 'echo', /HTTP 404 after \d+ ms: the upstream's own answer/, null],
    ] as const) {
      const { rows } = await run([`${name}/access.json`, `${name}/error.log`], { server: [`${name}/server.ndjson`] });
      const failed = rows.filter((r) => r.tool === tool && !['TOOL_SUCCESS', 'TOOL_ERROR'].includes(r.outcome));
      expect(failed, name).toHaveLength(1);
      expect(why(failed[0]), name).toMatch(access);
      if (reason) expect(why(failed[0]), name).toMatch(reason);
      for (const r of rows.filter((x) => x !== failed[0])) expect(why(r), `${name} ${r.method}`).not.toMatch(/Caddy/);
    }
  });

  it("with the servers' logs (--client/--server): the re-send that failed is a SIDE_DIVERGENCE (the server that had it answered; the app got Caddy's 502)", async () => {
    const { rows } = await run(['ts1-lb-resend/access.json', 'ts1-lb-resend/error.log'], { client: ['ts1-lb-resend/client.ndjson'], server: ['ts1-lb-resend/server.ndjson', 'ts1-lb-resend/server-b.ndjson'] });
    const slow = rows.find((r) => r.tool === 'slow')!;
    expect([slow.status, slow.outcome]).toEqual([502, 'HTTP_ERROR']);
    expect(slow.findings.map((f) => f.code)).toContain('SIDE_DIVERGENCE');
    expect(why(slow)).toMatch(/invalid Read on closed Body/);
  });
});
