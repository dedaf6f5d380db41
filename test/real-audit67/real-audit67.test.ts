// Retries after a client's own timeout (test/fixtures/real-audit67, recorded by test/real-audit67/record.mjs with the SDK 1.32.2, v2 and Python 2.3.0 clients against an SDK 1.32.2 server): which attempts mcp-triage links into one call, in every log alone and the pairs, against who made each call as observed.json says (the app's first call, its catch calling again, a person's new run).
// Fix: a call whose stream ended without its answer is waited for until the client's timeout, so its retry window runs
// from the client's notifications/cancelled, or, with none in the log, from the TypeScript SDK's default 60 s after the
// request for a client known to run on it. AUDIT67_BIN runs another build (the base's, to see the fix's tests fail).
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
const HERE = `${DIR}real-audit67/`;
const bin = process.env.AUDIT67_BIN ?? BIN;
interface Call { run: number; step: number | 'connect'; tool?: string; args?: Record<string, unknown>; by?: 'app' | 'app-retry'; ok: boolean; error?: string; code?: number | string | null; started?: string; ms?: number }
interface Observed { client: string; runs: { run: number; exit: number | string; steps: { timeout?: number }[] }[]; calls: Call[]; server: Record<string, unknown>[] }
type Attempt = ReportAttempt & { retryOrigin?: { origin: string; how: string }; detail?: { why?: string }; session: string | null };
interface Run { attempts: Attempt[]; findings: ReportFinding[] }

const SCENARIOS = readFileSync(fileURLToPath(new URL('record.mjs', import.meta.url)), 'utf8').match(/^ {2}'([a-z0-9-]+)': \{/gm)!.map((l) => l.trim().split("'")[1]!);
const observed = (c: string) => JSON.parse(readFileSync(`${HERE}${c}/observed.json`, 'utf8')) as Observed;
const has = (c: string, f: string) => existsSync(`${HERE}${c}/${f}`);
const cache = new Map<string, Run>();
function analyze(args: string[]): Run {
  const key = args.join(' ');
  let r = cache.get(key);
  if (!r) {
    const p = spawnSync(process.execPath, [bin, '--format', 'ndjson', ...args], { encoding: 'utf8', timeout: 60_000 });
    const lines = p.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string } & Record<string, unknown>);
    r = { attempts: lines.filter((l) => l.type === 'attempt') as unknown as Attempt[], findings: lines.filter((l) => l.type === 'finding') as unknown as ReportFinding[] };
    cache.set(key, r);
  }
  return r;
}
/** Every log of a scenario alone, and each client-side log with the server's. */
function views(c: string): [string, string[]][] {
  const p = (f: string) => `${HERE}${c}/${f}`;
  const clients = ['client.ndjson', 'proxy.ndjson', 'client-debug.log'].filter((f) => has(c, f));
  return [
    ...clients.map((f): [string, string[]] => [f, ['--client', p(f)]]),
    ['server.ndjson', ['--server', p('server.ndjson')]],
    ...clients.map((f): [string, string[]] => [`${f}+server`, ['--client', p(f), '--server', p('server.ndjson')]]),
  ];
}
const toolCalls = (r: Run) => r.attempts.filter((a) => a.method === 'tools/call').sort((x, y) => (x.ts ?? '').localeCompare(y.ts ?? ''));
const allCodes = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => f.code);
const same = (a: Call, b: Call) => a.tool === b.tool && JSON.stringify(a.args) === JSON.stringify(b.args);

/**
 * The truth: which observed call each tool call repeats (its index), or -1. The app's catch calling again repeats the
 * call before it; a person's new run of a one-shot command repeats the last call of the run before it, when that one
 * failed and this is the same call; every other call is the app's own new call.
 */
function repeats(o: Observed): number[] {
  const calls = o.calls.filter((x) => x.step !== 'connect');
  return calls.map((x, i) => {
    if (x.by === 'app-retry') return i - 1;
    const prev = calls[i - 1];
    if (prev && x.run > prev.run && !prev.ok && same(x, prev) && calls.filter((y) => y.run === x.run)[0] === x) return i - 1;
    return -1;
  });
}
/** The expected call groups as "call#attempt" labels of the observed calls, numbered from 1 in order. */
function expectedShape(o: Observed): string[] {
  const rep = repeats(o);
  const group: number[] = [];
  const attempt: number[] = [];
  let n = 0;
  rep.forEach((r, i) => {
    group[i] = r >= 0 ? group[r]! : ++n;
    attempt[i] = r >= 0 ? attempt[r]! + 1 : 1;
  });
  return group.map((g, i) => `${g}#${attempt[i]}`);
}
/** The same shape of what mcp-triage said: its calls renumbered in order of first appearance. */
function shapeOf(r: Run): string[] {
  const ids = new Map<string, number>();
  return toolCalls(r).map((a) => {
    if (!ids.has(a.call!)) ids.set(a.call!, ids.size + 1);
    return `${ids.get(a.call!)}#${a.attempt}`;
  });
}

describe('real-audit67: what each SDK did on its timeout (observed.json)', () => {
  it('v1 and v2 wait out their timeout on a stream that ended without the answer (3 s, and the 60 s default); the Python SDK rejects at once (-32000 "SSE stream ended without a response")', () => {
    for (const c of ['v1-cut-retry', 'v2-cut-retry', 'v1-cut-default', 'v2-cut-default', 'v1-cut-rerun-cli']) {
      const first = observed(c).calls.find((x) => x.step === 0)!;
      const timeout = observed(c).runs[0]!.steps[0]!.timeout ?? 60_000;
      expect(first.ok, c).toBe(false);
      expect(first.ms!, c).toBeGreaterThanOrEqual(timeout);
      expect(first.ms!, c).toBeLessThan(timeout + 1000);
      expect(String(first.code), c).toMatch(/^(-32001|REQUEST_TIMEOUT)$/);
    }
    const py = observed('py-cut-retry').calls.find((x) => x.step === 0)!;
    expect([py.ok, py.code, py.ms! < 1000]).toEqual([false, -32000, true]);
    expect(py.error).toMatch(/SSE stream ended without a response/);
  });

  it('on a silent stream each SDK times out and sends notifications/cancelled: the server aborted the tool body; a command that exits at once in its catch gets it sent by its fetch but never to the wire', () => {
    for (const c of ['v1-hang-retry', 'v2-hang-retry', 'py-hang-retry', 'v1-hang-default']) {
      expect(observed(c).server.some((s) => s.tool === 'hang' && s.phase === 'throw' && s.aborted === true), c).toBe(true);
      for (const [v, args] of views(c).filter(([n]) => !n.includes('+'))) expect(allCodes(analyze(args)), `${c} ${v}`).toContain('CANCELLED');
    }
    // process.exit(1) in the catch: the client's own log has the cancellation, the proxy's and the server's none
    for (const c of ['v1-cut-rerun-exit', 'v1-hang-rerun-exit']) {
      expect(observed(c).runs.map((r) => r.exit), c).toEqual([1, 0]);
      expect(allCodes(analyze(['--client', `${HERE}${c}/client.ndjson`])), c).toContain('CANCELLED');
      for (const f of ['proxy.ndjson', 'server.ndjson']) expect(allCodes(analyze([f === 'server.ndjson' ? '--server' : '--client', `${HERE}${c}/${f}`])), `${c} ${f}`).not.toContain('CANCELLED');
    }
  });
});

describe('real-audit67: every tool call in every view, linked as the apps and persons made them', () => {
  // (A run the recorder had to kill returned no call to compare: py-hang-default, below.)
  const killed = (c: string) => observed(c).runs.some((r) => String(r.exit).startsWith('killed'));
  // (The Python server's scenario has no recordingHandler log: its own test, below.)
  const cases = SCENARIOS.filter((c) => !killed(c) && has(c, 'server.ndjson')).flatMap((c) => views(c).map(([v, args]) => [c, v, args] as const));
  it.each(cases)('%s %s: the outcome of each call, and which attempts form one call', (c, _v, args) => {
    const o = observed(c);
    const calls = o.calls.filter((x) => x.step !== 'connect');
    const r = analyze(args);
    const got = toolCalls(r);
    expect(got.map((a) => a.outcome)).toEqual(calls.map((x) => (x.ok ? 'TOOL_SUCCESS' : 'STREAM_INCOMPLETE')));
    expect(shapeOf(r)).toEqual(expectedShape(o));
    const rep = repeats(o);
    got.forEach((a, i) => {
      if (rep[i]! < 0) {
        expect(a.retryOrigin, `call ${i}`).toBeUndefined();
        return;
      }
      // no log says who sent it: the app's catch or a person's re-run, never the SDK
      expect(a.retryOrigin?.origin, `call ${i}`).toBe('unknown');
    });
  });

  it('no RETRY_* finding on a call that repeats nothing (the near misses: other arguments, a late re-call, a long call that worked, the same call 75 s after a success)', () => {
    for (const c of ['v1-cut-late', 'v1-slow-ok', 'v1-same-later']) {
      for (const [v, args] of views(c)) expect(allCodes(analyze(args)).filter((x) => x.startsWith('RETRY') || x === 'UNSAFE_RETRY'), `${c} ${v}`).toEqual([]);
    }
  });
});

describe('real-audit67: the Python app with no timeout of its own on a silent stream (py-hang-default, recorded after the audit)', () => {
  const c = 'py-hang-default';
  it('never gave up: after 420 s of silence (past its httpx client\'s 300 s read timeout) the app was still waiting, killed with no call returned and nothing re-sent', () => {
    const o = observed(c);
    expect(o.runs.map((r) => r.exit)).toEqual(['killed after 420 s']);
    expect(o.calls.filter((x) => x.step !== 'connect')).toEqual([]);
    expect(o.server.filter((s) => s.tool === 'hang' && s.phase === 'start')).toHaveLength(1);
  });

  it('every view shows the one call, no retry and no RETRY_* finding; the wire views say the client closed the stream after 419 s without a cancellation', () => {
    for (const [v, args] of views(c)) {
      const r = analyze(args);
      const got = toolCalls(r);
      expect(got.map((a) => a.attempt), v).toEqual([1]);
      expect(allCodes(r).filter((x) => x.startsWith('RETRY') || x === 'UNSAFE_RETRY' || x === 'CANCELLED'), v).toEqual([]);
      if (v.startsWith('client-debug.log')) expect(got[0]!.outcome, v).toBe('UNANSWERED'); // the client's log ends while it waits
      else {
        expect(got[0]!.outcome, v).toBe('STREAM_INCOMPLETE');
        expect(got[0]!.durationMs!, v).toBeGreaterThan(419_000);
      }
      if (v.startsWith('proxy')) expect(got[0]!.detail?.why).toMatch(/^the client closed the stream 419\.\d\d s after sending it, before any response came, and sent no notifications\/cancelled/);
    }
  });
});

describe('fix: the retry window runs from when the client stopped waiting', () => {
  it('a person re-running a one-shot command after its 60 s timeout on a cut stream (62.6 s after the stream ended, 3 s after the cancellation): attempt 2, its how says the window ran from the client\'s notifications/cancelled', () => {
    for (const [v, args] of views('v1-cut-rerun-cli')) {
      const [first, second] = toolCalls(analyze(args));
      expect(second!.call, v).toBe(first!.call);
      expect(second!.attempt, v).toBe(2);
      expect(second!.retryOrigin?.how, v).toMatch(/; it came 62\.\d\d s after the earlier attempt's stream ended, 3\.0\d s after the client's notifications\/cancelled for it \((59|60)\.\d\d s after the request: the client waited for the answer until its own timeout\), so the retry window \(--retry-window\) runs from then$/);
    }
  });

  it('no notifications/cancelled on the wire (the command exited at once): the proxy\'s and the server\'s log count the window from the TypeScript SDK\'s default 60 s, by the request\'s User-Agent "node"', () => {
    for (const [v, args] of views('v1-cut-rerun-exit')) {
      const [first, second] = toolCalls(analyze(args));
      expect(`${second!.call === first!.call} ${second!.attempt}`, v).toBe('true 2');
      if (v === 'proxy.ndjson' || v === 'server.ndjson' || v === 'proxy.ndjson+server') {
        expect(second!.retryOrigin?.how, v).toMatch(/2\.7\d s after the TypeScript SDK's default 60 s request timeout ran out for it \(the request's User-Agent "node" is Node's fetch, as the SDK's; no notifications\/cancelled in the log\)/);
      }
    }
  });

  it('the MCP Inspector CLI\'s re-run 61 s after its cut call (real-audit64/v1-cut-rerun, the audit-64 gap): attempt 2 of the call, by a new run of the CLI, the window from its 60 s timeout', () => {
    for (const f of ['har.ndjson', 'proxy.ndjson', 'server.ndjson']) {
      const calls = toolCalls(analyze([f === 'server.ndjson' ? '--server' : '--client', `${DIR}real-audit64/v1-cut-rerun/${f}`]));
      expect(calls.map((a) => `${a.outcome} ${a.attempt}`), f).toEqual(['STREAM_INCOMPLETE 1', 'TOOL_SUCCESS 2']);
      expect(calls[1]!.retryOrigin?.how, f).toMatch(/^the MCP Inspector's CLI .* a person or a script ran the command again; nothing in the logs says which; it came 60\.9\d s after the earlier attempt's stream ended, 1\.0\d s after the TypeScript SDK's default 60 s request timeout ran out for it \(the MCP Inspector's CLI runs on it; no notifications\/cancelled in the log\)/);
    }
  });

  it('near misses: a re-call 66 s after the cancellation stays a call of its own; a re-call within the window of the stream\'s end keeps its how unchanged', () => {
    for (const [v, args] of views('v1-cut-late')) expect(shapeOf(analyze(args)), v).toEqual(['1#1', '2#1', '3#1']);
    for (const c of ['v1-cut-retry', 'v1-cut-default', 'v2-cut-default', 'py-cut-retry', 'v1-hang-default']) {
      for (const [v, args] of views(c)) {
        const retry = toolCalls(analyze(args))[1]!;
        expect(retry.attempt, `${c} ${v}`).toBe(2);
        expect(retry.retryOrigin?.how, `${c} ${v}`).toBe('a new request with the same tool and arguments; nothing in the logs says who sent it');
      }
    }
  });
});

describe('real-audit67: a re-run with another token after a 401', () => {
  it('the second run\'s initialize (a new process, another static Authorization, answered) is no SDK auth retry: origin unknown, a new session; its call is a call of its own', () => {
    for (const [v, args] of views('v1-401-rerun')) {
      const r = analyze(args);
      const init = r.attempts.filter((a) => a.method === 'initialize');
      if (v === 'server.ndjson') continue; // the 401 is answered before the server's transport: its log has the POST without a body
      expect(init.map((a) => `${a.status} ${a.attempt}`), v).toEqual(['401 1', '200 2']);
      expect(init[1]!.retryOrigin?.origin, v).toBe('unknown');
      expect(toolCalls(r).map((a) => `${a.outcome} ${a.attempt}`), v).toEqual(['TOOL_SUCCESS 1']);
    }
  });
});

describe('fix: initialize re-sent after a 401 with other credentials and no OAuth request between them', () => {
  it('real-audit64/v1-401 (the Inspector CLI run again with a static Authorization header: refused again, no session): origin unknown, no longer "the SDK\'s auth retry", in every view', () => {
    for (const f of ['har.ndjson', 'proxy.ndjson', 'server.ndjson']) {
      const init = analyze([f === 'server.ndjson' ? '--server' : '--client', `${DIR}real-audit64/v1-401/${f}`]).attempts.filter((a) => a.method === 'initialize');
      expect(init.map((a) => `${a.status} ${a.attempt} ${a.retryOrigin?.origin ?? ''}`), f).toEqual(['401 1 ', '401 2 unknown']);
      expect(init[1]!.retryOrigin?.how, f).toMatch(/^initialize again with the same id 0 after HTTP 401, with other credentials or none logged, and no request for OAuth metadata/);
    }
  });

  it('near misses: the SDK\'s re-send after its OAuth metadata and token requests (real-audit2/oauth-401-after-token) and a mid-session re-send with a refreshed token (real-audit32/py-auth-401-refresh) keep "the SDK\'s auth retry"', () => {
    for (const f of ['client.ndjson', 'proxy.ndjson']) {
      const again = analyze(['--client', `${DIR}real-audit2/oauth-401-after-token/${f}`]).attempts.filter((a) => a.attempt === 2);
      expect(again.map((a) => `${a.method} ${a.retryOrigin?.origin} ${a.retryOrigin?.how}`), f).toEqual(["tools/call sdk same id re-posted after HTTP 401: the SDK's auth retry"]);
    }
    const py = analyze(['--client', `${DIR}real-audit32/py-auth-401-refresh/proxy.ndjson`]).attempts.filter((a) => a.attempt === 2);
    expect(py.map((a) => `${a.method} ${a.retryOrigin?.origin}`)).toEqual(['tools/list sdk', 'tools/call sdk']);
  });
});

describe("real-audit67: the server's SSE keep-alive comments on a silent stream (py-hang-read20, py-hang-read8, v1-hang-40s, recorded later)", () => {
  // The SDK 1.32.2 server writes `: keepalive` every 15 s on each open SSE stream; the recorders count them on the end record.
  const hang = (r: Run) => toolCalls(r)[0]!;
  const why = (c: string, v: string) => hang(analyze(views(c).find(([name]) => name === v)![1])).detail?.why ?? '';

  it('an httpx read timeout over the keep-alive interval never fired: the 20 s one held the silent stream until the app was killed, far past 20 s', () => {
    const o = observed('py-hang-read20') as Observed & { runs: { httpxReadS?: number }[] };
    expect(o.runs[0]!.exit).toBe('killed after 50 s');
    expect(o.calls.filter((x) => x.step !== 'connect')).toEqual([]);
    const read = o.runs[0]!.httpxReadS! * 1000;
    for (const v of ['proxy.ndjson', 'server.ndjson']) {
      const a = hang(analyze(views('py-hang-read20').find(([name]) => name === v)![1]));
      expect(a.outcome, v).toBe('STREAM_INCOMPLETE');
      expect(a.durationMs!, v).toBeGreaterThan(read);
      expect(a.attempt, v).toBe(1);
    }
    expect(why('py-hang-read20', 'proxy.ndjson')).toMatch(/; 2 SSE comments \(keep-alives\) came on it, the last \d+\.\d\d s before it ended: the stream was held open and the answer had not been sent by then \(the tool still ran, or hung\); a read timeout longer than their interval never fires on such a stream/);
    // The server's view: the comments went out; the silence after the last one is shorter than the gaps before it, so no
    // hop's idle timeout or client read timeout is offered as its cause, and no client read timeout is spoken of.
    const server = why('py-hang-read20', 'server.ndjson');
    expect(server).toMatch(/; 2 SSE comments \(keep-alives\) went out on it, the last \d+\.\d\d s before it ended: the stream was held open and the answer had not been sent by then/);
    expect(server).not.toMatch(/nothing had gone out|read timeout/);
    // Beside the client's record the client's view speaks.
    expect(hang(analyze(views('py-hang-read20').find(([name]) => name === 'proxy.ndjson+server')![1])).detail?.why).toMatch(/2 SSE comments \(keep-alives\) came on it/);
  });

  it('near miss: an 8 s read timeout fired before the first keep-alive; no comment is spoken of, and the silence since the head is', () => {
    const o = observed('py-hang-read8');
    expect(o.calls.filter((x) => x.step !== 'connect').map((x) => [x.by, x.ok, x.error ?? ''])).toEqual([['app', false, 'MCPError: SSE stream ended without a response'], ['app-retry', true, '']]);
    for (const [v, args] of views('py-hang-read8')) {
      const a = hang(analyze(args));
      expect(a.detail?.why ?? '', v).not.toMatch(/SSE comments? \((keep-alives|a keep-alive)\)/);
      expect(a.durationMs!, v).toBeLessThan(15_000);
    }
    expect(why('py-hang-read8', 'server.ndjson')).toMatch(/nothing had gone out on it for 8\.\d\d s \(since its head\)/);
  });

  it("the TypeScript client's own 40 s timeout: two keep-alives came before its cancellation, in its log and the server's", () => {
    for (const [v, phrase] of [['client.ndjson', 'came'], ['server.ndjson', 'went out']] as const) {
      const a = hang(analyze(views('v1-hang-40s').find(([name]) => name === v)![1]));
      expect(a.outcome, v).toBe('STREAM_INCOMPLETE');
      expect(a.detail?.why, v).toMatch(new RegExp(`^the client cancelled it \\(notifications/cancelled\\) 40\\.\\d\\d s after sending it, before any response came; 2 SSE comments \\(keep-alives\\) ${phrase} on it, the last (9|10)\\.\\d\\d s before it ended`));
    }
  });

  it('the recorders wrote the count and the last time on the end record of each stream that carried comments, and on no other', () => {
    for (const f of ['py-hang-read20/proxy.ndjson', 'py-hang-read20/server.ndjson', 'v1-hang-40s/client.ndjson', 'v1-hang-40s/server.ndjson', 'py-hang-read8/server.ndjson']) {
      const ends = readFileSync(`${HERE}${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.kind === 'end');
      const withComments = ends.filter((r) => r.comments !== undefined);
      for (const r of withComments) {
        expect(r.comments, f).toBeGreaterThan(0);
        expect(Date.parse(r.lastCommentTs as string), f).toBeLessThanOrEqual(Date.parse(r.ts as string));
        expect(r.durationMs as number, f).toBeGreaterThan(15_000);
      }
      // the short streams (initialize, notifications, the answered calls, the 8 s one) carried none
      expect(ends.filter((r) => (r.durationMs as number) < 15_000).every((r) => r.comments === undefined), f).toBe(true);
      if (!f.startsWith('py-hang-read8')) expect(withComments.length, f).toBeGreaterThan(0);
    }
  });

  it("near miss: the Python SDK's server pings (`: ping - <time>`) every 15 s too, counted on the end records, but it answered the cancelled call (-32800), so no keep-alive is named", () => {
    const c = 'v1-pyserver-hang-40s';
    expect(observed(c).server.map((x) => x.phase)).toEqual(['start', 'cancelled']);
    const p = (f: string) => `${HERE}${c}/${f}`;
    for (const f of ['client.ndjson', 'proxy.ndjson']) {
      const ends = readFileSync(p(f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.kind === 'end' && r.comments !== undefined);
      expect(ends.map((r) => r.comments), f).toEqual([2, 2]); // the POST's stream and the GET stream
    }
    for (const args of [['--client', p('client.ndjson')], ['--client', p('proxy.ndjson')], ['--client', p('client.ndjson'), '--server', p('proxy.ndjson')]]) {
      const r = analyze(args);
      const a = hang(r);
      expect([a.outcome, a.attempt], args.join(' ')).toEqual(['JSONRPC_ERROR', 1]);
      expect(allCodes(r), args.join(' ')).toContain('CANCELLED');
      expect(JSON.stringify(a), args.join(' ')).not.toMatch(/keep-alive/);
    }
  });
});
