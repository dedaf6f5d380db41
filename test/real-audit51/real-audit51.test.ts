// Audit 51's real captures (test/fixtures/real-audit51): nginx's default logs (the combined access log, the error log) beside SDK clients' own logs, judged against the programs' truth files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit51/';

type Row = { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; detail?: { why?: string } };
type Post = { id: number; method: string; tool: string | null; status: number | null | 'pending'; body?: { answer: string; end: string } };
type Step = { step?: string; ok?: boolean; posts?: Post[] };
type Input = { name: string; formats: Record<string, number>; lines: number; used: number; skipped: number; unusable: number };

const lines = <T>(f: string): T[] => readFileSync(`${DIR}${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

async function run(paths: string[]) {
  const r = await analyze({ inputs: paths.map((p) => ({ path: `${DIR}${p}` })) });
  const summary = r.summary as unknown as { notes: string[]; inputs: Input[] };
  return { rows: r.attempts as unknown as Row[], notes: summary.notes, inputs: summary.inputs };
}

/** The client's log of a run: recordingFetch's (TypeScript) or the Python client's DEBUG log. */
const clientLog = (name: string) => (name.startsWith('py-') ? `${name}/client-debug.log` : `${name}/client.ndjson`);
/** Every POST of a request the app made, as its fetch wrapper or httpx hooks saw it. */
const posts = (name: string): Post[] => lines<Step>(`${name}/truth-client.ndjson`).flatMap((s) => s.posts ?? []);
const why = (r: Row | undefined) => r?.detail?.why ?? '';

describe('real-audit51: nginx\'s combined access log and error log are read', () => {
  it('every line of both logs is accounted for: the access log (plain and with times appended) as nginx-combined, the error log as nginx-error', async () => {
    for (const name of ['ts1-limits', 'ts1-killed-sse', 'ts1-nextup-json', 'py-healthy-pysrv']) {
      const { inputs } = await run([`${name}/access.log`, `${name}/timed.log`, `${name}/error.log`]);
      // (formats counts used lines: an access log of 2xx lines only, all skipped, names none)
      const [plain, timed, errors] = inputs as [Input, Input, Input];
      for (const i of [plain, timed]) expect(Object.keys(i.formats)).toEqual(i.used ? ['nginx-combined'] : []);
      expect(Object.keys(errors.formats)).toEqual(errors.used ? ['nginx-error'] : []);
      // (the same lines but where $upstream_addr shows a re-send: the plain log cannot show one)
      if (name !== 'ts1-nextup-json') expect(timed.used).toBe(plain.used);
      for (const i of inputs) expect([i.unusable, i.used + i.skipped]).toEqual([0, i.lines]);
    }
  });

  it('an error log at level info (audit 48\'s): start-up, signals and closed keepalive connections are skipped, the POST\'s reason used', async () => {
    const { inputs, rows } = await run(['../real-audit48/ts1-timeout3s-json/error.log']);
    expect(rows).toEqual([]);
    expect(inputs[0]!.formats).toEqual({ 'nginx-error': 1 });
    expect([inputs[0]!.unusable, inputs[0]!.used]).toEqual([0, 1]);
  });
});

describe('real-audit51: with the client\'s log, each failed POST names what nginx said of it', () => {
  // run -> [id, method, status the app saw, what nginx's error log said, what that means]
  const cases: [string, number, string, number | null, RegExp | null, RegExp | null][] = [
    ['ts1-down', 0, 'initialize', 502, /connect\(\) failed \(111: Connection refused\) while connecting to upstream/, /never reached that upstream/],
    ['py-down', 1, 'initialize', 502, /connect\(\) failed \(111: Connection refused\)/, /never reached that upstream/],
    ['ts1-timeout-json', 2, 'tools/call', 504, /upstream timed out \(110: Connection timed out\) while reading response header from upstream/, /answered the client itself \(504\)/],
    ['ts1-timeout-sse', 2, 'tools/call', 200, /upstream timed out \(110: Connection timed out\) while reading upstream/, /nginx cut the stream/],
    ['ts1-killed-sse', 2, 'tools/call', 200, /upstream prematurely closed connection while reading upstream/, /server process died or closed it\): nginx cut the stream/],
    ['ts1-limits', 2, 'tools/call', 413, /client intended to send too large body: 4095 bytes/, /the MCP server never saw it/],
    ['ts1-limits', 6, 'tools/call', 503, /limiting requests, excess: [\d.]+ by zone "mcp"/, /limit_req refused the request/],
    // the app was interrupted (Ctrl-C) while its call waited for a JSON answer: nginx logged 499, nothing at level error
    ['ts1-ctrlc-499', 2, 'tools/call', null, null, null],
  ];
  for (const [name, id, method, status, said, meaning] of cases) {
    it(`${name}: ${method} id ${id} (${status ?? 'no status'})`, async () => {
      const truth = posts(name).find((p) => p.id === id && p.method === method);
      // (the interrupted app wrote no truth line for the call it was in: its runs.log says when it was stopped)
      if (status === null) expect([truth, readFileSync(`${DIR}${name}/runs.log`, 'utf8')]).toEqual([undefined, expect.stringMatching(/client interrupted \(SIGINT\)/)]);
      else expect(truth?.status).toBe(status);
      for (const access of ['timed.log', 'access.log']) {
        const { rows, notes } = await run([clientLog(name), `${name}/${access}`, `${name}/error.log`]);
        const row = rows.find((r) => r.id === id && r.method === method)!;
        if (status === null) expect(why(row)).toMatch(/nginx's access log has this POST with 499, its own code for a client that closed the connection/);
        else if (status >= 400) expect(why(row)).toContain(`nginx's access log has this POST answered with HTTP ${status}`);
        else expect(why(row)).not.toMatch(/nginx's access log/); // a 200 whose stream nginx cut: the access line is a 2xx
        if (said) expect(why(row)).toMatch(said);
        if (meaning) expect(why(row)).toMatch(meaning);
        // 413 and limit_req's 503: no upstream was tried, which the appended $upstream_addr says
        if (access === 'timed.log' && (status === 413 || status === 503)) expect(why(row)).toMatch(/no upstream was tried, nginx answered it itself/);
        // what explained an attempt is not counted again as the gateway's own account
        expect(notes.join(' ')).not.toMatch(new RegExp(`${name}/${access}: nginx's access log has 1 POST it answered with an error \\(HTTP ${status}`));
      }
    });
  }

  it('ts1-timeout-json-kv: nginx\'s blog\'s upstream_time format (rt= uct= uht= urt=) is read too: the 504 takes its line and its reason', async () => {
    const { rows, inputs } = await run(['ts1-timeout-json-kv/client.ndjson', 'ts1-timeout-json-kv/kv.log', 'ts1-timeout-json-kv/error.log']);
    expect([inputs[1]!.formats, inputs[1]!.unusable]).toEqual([{ 'nginx-combined': 1 }, 0]);
    const slow = rows.find((r) => r.tool === 'slow')!;
    expect([slow.status, slow.outcome]).toEqual([504, 'HTTP_ERROR']);
    expect(why(slow)).toMatch(/nginx's access log has this POST answered with HTTP 504; nginx's error log \[error\] \*\d+: upstream timed out \(110: Connection timed out\) while reading response header from upstream/);
  });
});

describe('real-audit51: near misses: calls that went well take nothing from nginx\'s logs', () => {
  // (ts1-giveup-499: the SDK's own timeout gave up on an SSE call whose head was out: nginx logged 200 with 0 bytes, no 499)
  for (const name of ['ts1-healthy-sse', 'py-healthy-pysrv', 'ts1-nextup-json', 'ts1-giveup-499']) {
    it(`${name}: no attempt's why names nginx`, async () => {
      const { rows } = await run([clientLog(name), `${name}/timed.log`, `${name}/error.log`]);
      expect(rows.length).toBeGreaterThan(2);
      for (const r of rows) expect(why(r)).not.toMatch(/nginx's (access|error) log/);
    });
  }

  it('ts1-nextup-json: the three POSTs nginx re-sent to its next upstream are counted, never given to one of their second\'s 2xx calls', async () => {
    // (nginx's JSON log names them: initialize, and the second and fourth echo; whole seconds could not tell them apart)
    const resent = lines<{ request_body: string; upstream_status: string }>('ts1-nextup-json/access.json').filter((l) => l.upstream_status === '502, 200' && l.request_body !== '');
    expect(resent.map((l) => (JSON.parse(l.request_body) as { id: number }).id)).toEqual([0, 2, 4]);
    const { notes } = await run([clientLog('ts1-nextup-json'), 'ts1-nextup-json/timed.log', 'ts1-nextup-json/error.log']);
    const all = notes.join('\n');
    expect(all).toMatch(/timed\.log: nginx's access log has 3 POSTs it sent to more than one upstream \(proxy_next_upstream\) and then answered \(HTTP 200 x3;/);
    expect(all).toMatch(/error\.log: nginx's error log has 3 lines about POSTs \(connect\(\) failed \(111: Connection refused\) while connecting to upstream x3;/);
  });

  it('ts1-killed-sse: the 502 of a notification (no attempt) is counted, not given to the cut tools/call', async () => {
    const { rows, notes } = await run([clientLog('ts1-killed-sse'), 'ts1-killed-sse/timed.log', 'ts1-killed-sse/error.log']);
    const prog = rows.find((r) => r.tool === 'prog')!;
    expect(why(prog)).not.toMatch(/HTTP 502/);
    expect(notes.join('\n')).toMatch(/timed\.log: nginx's access log has 1 POST it answered with an error \(HTTP 502 x1;/);
  });
});

describe('real-audit51: alone, nginx\'s logs are a gateway\'s account, with no made-up calls', () => {
  it('ts1-limits: the 413 and the 503 by status, their reasons by nginx\'s words; no attempts', async () => {
    const { rows, notes } = await run(['ts1-limits/timed.log', 'ts1-limits/error.log']);
    expect(rows).toEqual([]);
    const all = notes.join('\n');
    expect(all).toMatch(/timed\.log: nginx's access log has 2 POSTs it answered with an error \((HTTP 413 x1, HTTP 503 x1|HTTP 503 x1, HTTP 413 x1);/);
    expect(all).toMatch(/error\.log: nginx's error log has 2 lines about POSTs \((client intended to send too large body x1, limiting requests x1|limiting requests x1, client intended to send too large body x1);/);
  });

  it('ts1-ctrlc-499: the 499 is said to be the client\'s leaving', async () => {
    const { rows, notes } = await run(['ts1-ctrlc-499/access.log']);
    expect(rows).toEqual([]);
    expect(notes.join('\n')).toMatch(/HTTP 499 x1; 499 is nginx's code for a client that closed the connection first/);
  });
});
