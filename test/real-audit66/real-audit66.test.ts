// Audit 66's real captures (test/fixtures/real-audit66): Apache httpd 2.4.71's combined access log (plain, and with %D and the Mcp-Session-Id headers) and its error log beside SDK clients' and servers' own logs, judged against what each client app saw (observed.json).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit66/';

type Row = { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; findings: { code: string; severity: string }[]; sources: { file: string; line: number }[]; detail?: { why?: string } };
type Post = { id: number; method: string; tool: string | null; status: number | null | 'pending'; body?: { answer: string; end: string } };
type Call = { step?: string; label?: string; ok?: boolean; error?: string; code?: number | null; ms?: number; posts?: Post[]; progressOf?: string; ts: string };
type Observed = { run: string; client: string; upstream: string; config: string; calls: Call[]; events: { what: string }[]; server: { tool?: string; phase?: string; id?: number; post?: boolean; status?: number; ended?: boolean }[]; serverB?: { tool?: string; phase?: string; id?: number }[] };
type Input = { name: string; formats: Record<string, number>; lines: number; used: number; skipped: number; unusable: number };

const RUNS = readdirSync(DIR).filter((d) => existsSync(`${DIR}${d}/observed.json`));
const observed = (name: string): Observed => JSON.parse(readFileSync(`${DIR}${name}/observed.json`, 'utf8')) as Observed;
/** The client's log of a run: recordingFetch's (TypeScript) or the Python client's DEBUG log. */
const clientLog = (name: string) => (name.startsWith('py-') ? `${name}/client-debug.log` : `${name}/client.ndjson`);
const why = (r: Row | undefined) => r?.detail?.why ?? '';
const lines = (name: string, file: string) => readFileSync(`${DIR}${name}/${file}`, 'utf8').split('\n').filter(Boolean);

async function run(paths: string[]) {
  const r = await analyze({ inputs: paths.map((p) => ({ path: `${DIR}${p}` })) });
  const summary = r.summary as unknown as { notes: string[]; inputs: Input[] };
  return { rows: r.attempts as unknown as Row[], notes: summary.notes, inputs: summary.inputs };
}

/** The POST the client app made for a step (connect: its initialize; `ok#2`: the second ok), as its fetch saw it. */
function postOf(name: string, step: string, method = 'tools/call'): Post {
  const [label, nth] = step.split('#') as [string, string | undefined];
  const call = observed(name).calls.filter((c) => (c.step ?? c.label) === label && c.posts?.some((p) => p.method === method))[Number(nth ?? 1) - 1];
  const post = call?.posts?.find((p) => p.method === method);
  if (!post) throw new Error(`${name}: no ${method} POST under step ${step} in observed.json`);
  return post;
}

describe('real-audit66: what Apache httpd 2.4.71 did, as the programs saw it', () => {
  it('mod_proxy_http passes SSE progress on as it comes (no flushpackets needed): the events reached the app ~400 ms apart', () => {
    for (const name of ['ts1-healthy-sse', 'v2-stateless']) {
      const times = observed(name).calls.filter((c) => c.progressOf === 'prog').map((c) => Date.parse(c.ts));
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThan(300);
    }
  });

  it('ProxyTimeout 3 before any head: 502 (not 504) after ~3 s, the tool had started; after the SSE head: 200 with no body byte, the stream cut', () => {
    expect(postOf('ts1-timeout-json', 'slow5').status).toBe(502);
    expect(observed('ts1-timeout-json').server.some((e) => e.tool === 'slow' && e.phase === 'start')).toBe(true);
    expect(lines('ts1-timeout-json', 'timed.log').some((l) => / 502 381 "-" "node" 30\d{5} /.test(l))).toBe(true);
    const sse = postOf('ts1-timeout-sse', 'slow5');
    expect([sse.status, sse.body?.answer]).toEqual([200, 'none']);
    expect(lines('ts1-timeout-sse', 'timed.log').some((l) => /"POST \/mcp HTTP\/1\.1" 200 - "-" "node" 30\d{5} /.test(l))).toBe(true);
  });

  it('an upstream down: 503 at once; a lone ProxyPass worker is not held in error state (retry=60): the next calls, once it was back, reached it', () => {
    expect(postOf('ts1-down', 'connect', 'initialize').status).toBe(503);
    for (const name of ['ts1-restart-retry', 'ts1-restart-retry0']) {
      const oks = observed(name).calls.filter((c) => c.step === 'ok').map((c) => c.posts?.[0]?.status);
      expect(oks, name).toEqual([200, 503, 200, 200]);
      // the GET stream's reconnection and the POST each tried to connect (AH00957), within the same second
      expect(lines(name, 'error.log').filter((l) => /AH00957/.test(l))).toHaveLength(2);
      expect(lines(name, 'error.log').some((l) => /AH00959|AH00940/.test(l))).toBe(false);
    }
  });

  it('a balancer with its first member down sent the POST on to the other (the app saw only 200s) and disabled the dead one for 60 s', () => {
    const o = observed('ts1-lb-down');
    expect(o.calls.filter((c) => c.step === 'ok').map((c) => c.posts?.[0]?.status)).toEqual([200, 200, 200]);
    expect(lines('ts1-lb-down', 'error.log').some((l) => /AH00959: ap_proxy_connect_backend disabling worker for \(127\.0\.0\.1:\d+\) for 60s/.test(l))).toBe(true);
  });

  it('after ProxyTimeout the balancer did not send the POST to its other member: 502, the tool ran on one server only; failonstatus put that member in error state', () => {
    const o = observed('ts1-lb-resend');
    expect(postOf('ts1-lb-resend', 'slow5').status).toBe(502);
    expect([...o.server, ...(o.serverB ?? [])].filter((e) => e.tool === 'slow' && e.phase === 'start')).toHaveLength(1);
    expect(lines('ts1-lb-resend', 'error.log').some((l) => /AH01174: .*failonstatus/.test(l))).toBe(true);
  });

  it('LimitRequestBody 1024 (server-wide or in <Location /mcp>) did not refuse a 4 KB tools/call passed on by ProxyPass: 200', () => {
    for (const name of ['ts1-bodylimit', 'ts1-bodylimit-loc']) {
      expect(readFileSync(`${DIR}${name}/httpd.conf`, 'utf8')).toMatch(/LimitRequestBody 1024/);
      expect(postOf(name, 'big').status, name).toBe(200);
    }
  });

  it('an app interrupted while its call waited for a JSON answer: Apache waited for the server and logged 200 with the answer, sent to no one', () => {
    expect(observed('ts1-ctrlc').events.map((e) => e.what)).toContain('client app interrupted (SIGINT)');
    expect(observed('ts1-ctrlc').server.some((e) => e.post && e.tool === 'slow' && e.status === 200 && e.ended)).toBe(true);
    expect(lines('ts1-ctrlc', 'timed.log').some((l) => /"POST \/mcp HTTP\/1\.1" 200 87 "-" "node" 50\d{5} /.test(l))).toBe(true);
  });

  it("Apache's access log keeps no Authorization or Cookie (the recorder's own POST sent both)", () => {
    expect(observed('ts1-auth-401').events.some((e) => /wrong-token-66/.test(e.what))).toBe(true);
    for (const f of ['access.log', 'timed.log', 'error.log']) expect(readFileSync(`${DIR}ts1-auth-401/${f}`, 'utf8')).not.toMatch(/wrong-token-66|cookie-secret-66/);
  });
});

describe("real-audit66: every line of Apache's logs is accounted for", () => {
  it('the access logs are read as nginx-combined, the error log as apache-error; alone, no attempts; nothing is unusable', async () => {
    for (const name of RUNS) {
      const { inputs, rows } = await run([`${name}/access.log`, `${name}/timed.log`, `${name}/error.log`]);
      expect(rows, name).toEqual([]);
      const [acc, timed, err] = inputs as [Input, Input, Input];
      expect(Object.keys(acc.formats), name).toEqual(acc.used ? ['nginx-combined'] : []);
      expect(Object.keys(timed.formats), name).toEqual(timed.used ? ['nginx-combined'] : []);
      expect(Object.keys(err.formats), name).toEqual(err.used ? ['apache-error'] : []);
      for (const i of inputs) expect([i.unusable, i.used + i.skipped], `${name} ${i.name}`).toEqual([0, i.lines]);
    }
  });

  it('alone, each failed POST is counted in a note per file, by status, and the error log by reason', async () => {
    for (const [name, access, reasons] of [
      ['ts1-down', /timed\.log: Apache's access log has 1 POST it answered with an error or with no body byte \(HTTP 503 x1/, /AH00957: http: attempt to connect to HOST failed \(111\)Connection refused x1, AH01114: HTTP: failed to make connection to backend: HOST x1/],
      ['ts1-timeout-json', /HTTP 502 x1/, /AH01102: error reading status line from remote server HOST \(70007\)The timeout specified has expired x1/],
      ['ts1-timeout-sse', /HTTP 200 with no body byte x1/, /AH01110: error reading response \(70007\)The timeout specified has expired x5/],
    ] as const) {
      const { notes } = await run([`${name}/timed.log`, `${name}/error.log`]);
      expect(notes.join('\n'), name).toMatch(access);
      expect(notes.join('\n'), name).toMatch(reasons);
    }
  });
});

describe("real-audit66: with the client's log, each failed POST names what Apache said of it", () => {
  // run, step, method, what the access line says, what the error log says
  const cases: [string, string, string, RegExp, RegExp | null][] = [
    ['ts1-down', 'connect', 'initialize', /HTTP 503 after \d+ ms/, /AH00957: .*\(111\)Connection refused, then \[proxy_http:error\]: AH01114: .*; Apache could not connect to the MCP server and answered the client itself \(503\)/],
    ['ts1-down-debug', 'connect', 'initialize', /HTTP 503 after \d+ ms/, /AH01114: HTTP: failed to make connection to backend/],
    ['ts1-restart-retry', 'ok#2', 'tools/call', /HTTP 503 after \d+ ms/, /AH01114/],
    ['ts1-timeout-json', 'slow5', 'tools/call', /HTTP 502 after 30\d\d ms/, /AH01102: .*\(70007\)The timeout specified has expired, then \[proxy:error\]: AH00898: .*; the MCP server had the request and sent no response head within ProxyTimeout/],
    ['ts1-lb-resend', 'slow5', 'tools/call', /HTTP 502 after 30\d\d ms/, /AH01102: .*AH01174: .*failonstatus/],
    ['ts1-timeout-sse', 'slow5', 'tools/call', /HTTP 200 and no byte of body after 30\d\d ms/, /AH01110: error reading response \(70007\)The timeout specified has expired; .*silent for ProxyTimeout: Apache cut the stream/],
    ['ts1-killed-sse', 'longprog', 'tools/call', /^/, /AH01110: error reading response \(70008\)Partial results are valid but processing is incomplete; .*connection closed before the end/],
    ['ts1-giveup', 'timeout', 'tools/call', /HTTP 200 and no byte of body after 9\d\d\d ms/, null],
    ['ts1-expired-404', 'ok#2', 'tools/call', /HTTP 404 after \d+ ms/, null],
    ['ts1-auth-401', 'connect', 'initialize', /HTTP 401 after \d+ ms/, null],
  ];
  for (const [name, step, method, access, reason] of cases) {
    it(`${name}: ${step}`, async () => {
      const post = postOf(name, step, method);
      const { rows } = await run([clientLog(name), `${name}/timed.log`, `${name}/error.log`]);
      const row = rows.find((r) => r.id === post.id && r.method === method)!;
      expect(row, `${name} id ${post.id}`).toBeDefined();
      expect(row.status).toBe(post.status);
      expect(row.outcome).toBe(typeof post.status === 'number' && post.status >= 400 ? 'HTTP_ERROR' : 'STREAM_INCOMPLETE');
      if (name !== 'ts1-killed-sse') expect(why(row)).toMatch(/Apache's access log has this POST/);
      expect(why(row)).toMatch(access);
      if (reason) expect(why(row)).toMatch(reason);
      else expect(why(row)).not.toMatch(/Apache's error log/);
      expect(row.sources.some((s) => s.file.endsWith('timed.log') || s.file.endsWith('error.log'))).toBe(true);
    });
  }

  it("given with the server's log alone, the request the server never answered takes what Apache sent the client; near miss: answered views take nothing", async () => {
    for (const [name, step, status, outcome, said] of [
      ['ts1-timeout-json', 'slow5', null, 'NO_RESPONSE', /HTTP 502 after 30\d\d ms; Apache's error log .*AH01102/],
      ['ts1-lb-resend', 'slow5', null, 'NO_RESPONSE', /HTTP 502 after 30\d\d ms; .*AH01174/],
      ['ts1-timeout-sse', 'slow5', 200, 'STREAM_INCOMPLETE', /HTTP 200 and no byte of body after 30\d\d ms.*AH01110: error reading response \(70007\)/],
      ['ts1-killed-sse', 'longprog', 200, 'STREAM_INCOMPLETE', /AH01110: error reading response \(70008\)/],
      ['ts1-expired-404', 'ok#2', 404, 'HTTP_ERROR', /HTTP 404 after \d+ ms/],
    ] as const) {
      const post = postOf(name, step);
      const r = await analyze({ inputs: [{ path: `${DIR}${name}/server.ndjson`, side: 'server' }, { path: `${DIR}${name}/timed.log` }, { path: `${DIR}${name}/error.log` }] });
      const row = (r.attempts as unknown as Row[]).find((x) => x.id === post.id && x.method === 'tools/call')!;
      expect([row.status, row.outcome], name).toEqual([status, outcome]);
      expect(why(row), name).toMatch(said);
    }
    for (const name of ['ts1-healthy-sse', 'ts1-healthy-json', 'ts1-ctrlc']) {
      const r = await analyze({ inputs: [{ path: `${DIR}${name}/server.ndjson`, side: 'server' }, { path: `${DIR}${name}/timed.log` }, { path: `${DIR}${name}/error.log` }] });
      for (const row of r.attempts as unknown as Row[]) expect(why(row), `${name} ${String(row.id)}`).not.toMatch(/Apache/);
    }
  });

  it("Debian's own combined (%O: no tell) joins the same failures, named as nginx's (a known gap)", async () => {
    const post = postOf('ts1-timeout-json', 'slow5');
    const { rows } = await run([clientLog('ts1-timeout-json'), 'ts1-timeout-json/access.log', 'ts1-timeout-json/error.log']);
    const row = rows.find((r) => r.id === post.id)!;
    expect(why(row)).toMatch(/nginx's access log has this POST answered with HTTP 502/);
    expect(why(row)).toMatch(/AH01102/);
  });

  it("near miss: no answered attempt takes an Apache line (a GET stream's cut at shutdown, the balancer's refused first try, Apache's 200 to an app that had left)", async () => {
    for (const name of ['ts1-healthy-sse', 'ts1-healthy-json', 'v2-stateless', 'py-healthy', 'ts1-lb-down', 'ts1-bodylimit', 'ts1-ctrlc', 'ts1-killed-sse', 'ts1-restart-retry']) {
      const { rows, notes } = await run([clientLog(name), `${name}/timed.log`, `${name}/error.log`]);
      for (const r of rows.filter((x) => ['SUCCESS', 'TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR', 'NO_RESPONSE'].includes(x.outcome))) expect(why(r), `${name} ${r.method} ${String(r.id)}`).not.toMatch(/Apache/);
      if (name === 'ts1-lb-down') expect(notes.join('\n')).toMatch(/error\.log: Apache's error log has 3 lines of mod_proxy .*AH00959.*a balancer that sent the request on to another member/);
    }
  });
});
