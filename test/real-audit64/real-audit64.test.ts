// The MCP Inspector 2.12.0's CLI as the client (test/fixtures/real-audit64, recorded by test/real-audit64/record.mjs against
// real SDK 1.32.2 and v2 2.4.0 servers and server-everything): what mcp-triage says of each invocation, in the HAR lines,
// the record proxy's and the server's log and the pair, against what the Inspector printed and its exit code
// (observed.json). Fixes: a one-shot CLI's like call of the same run is no retry (--load), a new run's is a person's or a
// script's (not the SDK's; SESSION_EXPIRED says the CLI did not re-initialize); a HAR-lines log of the legacy HTTP+SSE
// transport, whose GET is written after the POSTs, reads its responses as that transport's, not as a resumption.
// AUDIT64_BIN runs another build (the base's, to see the fixes' tests fail).
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
const HERE = `${DIR}real-audit64/`;
const bin = process.env.AUDIT64_BIN ?? BIN;
interface InspectorRun { argv: string[]; exit: number | null; stdout: string; stderr: string; ms: number }
interface Observed { server: unknown; runs: InspectorRun[]; ran: string[]; requestTimeoutMs?: number }
type Attempt = ReportAttempt & { retryOrigin?: { origin: string; how: string }; detail?: { why?: string; errorCode?: number }; resumed?: boolean; session: string | null };
interface Run { attempts: Attempt[]; findings: ReportFinding[] }

const observed = (c: string) => JSON.parse(readFileSync(`${HERE}${c}/observed.json`, 'utf8')) as Observed;
/** A log of the case, gzipped or not (the recorder gzips those over 100 kB). */
const file = (c: string, n: string) => (existsSync(`${HERE}${c}/${n}.ndjson`) ? `${HERE}${c}/${n}.ndjson` : `${HERE}${c}/${n}.ndjson.gz`);
type View = 'har' | 'proxy' | 'server' | 'pair';
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
const run = (c: string, view: View): Run =>
  analyze(view === 'pair' ? ['--client', file(c, 'har'), '--server', file(c, 'server')] : view === 'server' ? ['--server', file(c, 'server')] : ['--client', file(c, view)]);
/** The views a case has: the server's log and the pair only where the server was an SDK server of ours. */
const views = (c: string): View[] => (existsSync(file(c, 'server')) ? ['har', 'proxy', 'server', 'pair'] : ['har', 'proxy']);
const allFindings = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)];
const codes = (r: Run) => allFindings(r).map((f) => f.code);

const ALL = readFileSync(fileURLToPath(new URL('record.mjs', import.meta.url)), 'utf8').match(/^ {2}'([a-z0-9-]+)': \{/gm)!.map((l) => l.trim().split("'")[1]!);
const SHOWN = ['tools/call', 'resources/read', 'prompts/get'];
const methodOf = (r: InspectorRun) => r.argv[r.argv.indexOf('--method') + 1]!;
const errorOf = (r: InspectorRun) => (/\{"error":.*\}/.exec(r.stderr)?.[0] ? (JSON.parse(/\{"error":.*\}/.exec(r.stderr)![0]) as { error: { code: string; message: string; status?: number } }).error : undefined);

/**
 * What each invocation put on the wire, as its own output tells it: the outcome mcp-triage should give the request the
 * command was for (none when the CLI never sent it: a tool it did not find listed, a refused connect).
 */
function expected(o: Observed): string[] {
  return o.runs.flatMap((r) => {
    const m = methodOf(r);
    const e = errorOf(r);
    if (r.argv.includes('--load')) {
      const s = JSON.parse(r.stdout) as { ok: number; errors: number; errorMessages: { message: string }[] };
      // the load test's one error is the server's 503 (the recorder's fault), the rest tool results
      return Array.from({ length: s.ok + s.errors }, () => 'tools/call');
    }
    if (!SHOWN.includes(m)) return [];
    // never sent: a tool the CLI did not find listed, no authorization, a pinned version the server did not offer, or
    // nothing listening behind the proxy (its connect failed: the CLI says "unreachable" as for a dropped call)
    if (e?.code === 'tool_not_found' || e?.code === 'auth_required' || /^Version negotiation failed/.test(e?.message ?? '') || o.server === 'none') return [];
    if (r.exit === 0) return [`${m} ${m === 'tools/call' ? 'TOOL_SUCCESS' : 'SUCCESS'}`];
    if (e?.code === 'tool_is_error') return [`${m} TOOL_ERROR`];
    if (e?.status !== undefined) return [`${m} HTTP_ERROR ${e.status}`];
    if (e?.code === 'unreachable') return [`${m} NO_RESPONSE`];
    if (/Request timed out/.test(e?.message ?? '')) return [`${m} ${r.argv.includes('modern') ? 'NO_RESPONSE' : 'STREAM_INCOMPLETE'}`];
    if (/MCP error -32602|not found|Invalid arguments/.test(e?.message ?? '')) return [`${m} JSONRPC_ERROR`];
    return [`${m} ?`];
  });
}
const shape = (r: Run, load = false) =>
  r.attempts.filter((a) => SHOWN.includes(a.method)).sort((x, y) => (x.ts ?? '').localeCompare(y.ts ?? '')).map((a) => (load ? a.method : `${a.method} ${a.outcome}${a.outcome === 'HTTP_ERROR' ? ` ${a.status}` : ''}`));

describe('the MCP Inspector CLI: every invocation as it printed it, in every view', () => {
  it.each(ALL)('%s: the request each command was for has the outcome the Inspector printed, in order', (c) => {
    const o = observed(c);
    const want = expected(o);
    for (const v of views(c)) expect(shape(run(c, v), c === 'v1-load'), `${c} ${v}`).toEqual(want);
  });

  it('the exit codes the Inspector gave: 0 a result, 5 an isError or a tool it did not find listed, 1 an HTTP error, a JSON-RPC error or its 60 s timeout, 3 auth, 4 a lost connection', () => {
    const exits = (c: string) => observed(c).runs.map((r) => r.exit);
    expect(exits('v1-500-rerun')).toEqual([1, 0]);
    expect(exits('v1-404-session')).toEqual([1, 0]);
    expect(exits('v2-drop-rerun')).toEqual([4, 0]);
    expect(exits('v1-401')).toEqual([3, 3]);
    expect(exits('v1-timeout')).toEqual([0, 1]);
    expect(exits('v1-cut-rerun')).toEqual([1, 0]);
    // the config file's requestTimeout (1500 ms) is not applied by the CLI: the 3 s tool came back
    expect(observed('v1-timeout').requestTimeoutMs).toBe(1500);
    expect(observed('v1-timeout').runs[0]!.ms).toBeGreaterThan(3000);
  });

  it('the 60 s timeout: no notifications/cancelled (the CLI exits first); 2025-11-25 reads STREAM_INCOMPLETE with NO_FINAL_RESULT, 2026-07-28 the closed request as the cancellation', () => {
    for (const v of views('v1-timeout')) {
      const slow = run('v1-timeout', v).attempts.filter((a) => a.method === 'tools/call');
      expect(slow.map((a) => a.outcome), v).toEqual(['TOOL_SUCCESS', 'STREAM_INCOMPLETE']);
      expect(codes(run('v1-timeout', v)), v).toContain('NO_FINAL_RESULT');
    }
    expect(run('v1-timeout', 'proxy').attempts.find((a) => a.outcome === 'STREAM_INCOMPLETE')!.detail?.why).toMatch(/^the client closed the stream 60\.\d\d s after sending it, before any response came, and sent no notifications\/cancelled/);
    // fix: the client's view names the TypeScript SDK's default 60 s request timeout (near misses: a close after 0.30 s
    // or 0.12 s keeps its exact text, test/findings/closed-stream-2026.test.ts and test/join/resumption.test.ts)
    for (const v of ['har', 'proxy'] as const) {
      expect(run('v1-timeout', v).attempts.find((a) => a.outcome === 'STREAM_INCOMPLETE')!.detail?.why, v).toMatch(/and sent no notifications\/cancelled; 60 s is the TypeScript SDK's default request timeout: a client that keeps it gave up then, and one that exits on it \(the MCP Inspector's CLI\) is gone before its notifications\/cancelled goes out(;|$)/);
    }
    // The HAR holds the stream's body as text, with the server's three `: keepalive` comments (one each 15 s) in it: the
    // stream was held open, which is why no read timeout under 60 s passed; the proxy's record from before comments were
    // counted has none (their times unknown in the HAR, so no "last ... before it ended").
    expect(run('v1-timeout', 'har').attempts.find((a) => a.outcome === 'STREAM_INCOMPLETE')!.detail?.why).toMatch(/; 3 SSE comments \(keep-alives\) came on it: the stream was held open while no answer came \(the tool still ran, or hung\); a read timeout longer than their interval never fires on such a stream/);
    expect(run('v1-timeout', 'proxy').attempts.find((a) => a.outcome === 'STREAM_INCOMPLETE')!.detail?.why).not.toMatch(/SSE comment/);
    for (const v of views('v2-timeout-modern')) expect(codes(run('v2-timeout-modern', v)), v).toContain('CANCELLED');
  });

  it('--protocol-era: auto probes server/discover and falls back to initialize on an SDK 1.32.2 server; modern (pinned) stops at the refused probe; the v2 server answers both eras', () => {
    const probes = run('v1-modern-asked', 'proxy').attempts.filter((a) => a.method === 'server/discover');
    expect(probes.map((a) => `${a.status} ${a.outcome}`)).toEqual(['400 HTTP_ERROR', '400 HTTP_ERROR']);
    expect(probes[0]!.detail?.why).toMatch(/the client fell back to initialize/);
    expect(codes(run('v1-modern-asked', 'proxy'))).toContain('CALL_NEVER_SENT');
    expect(run('v2-modern', 'proxy').attempts.filter((a) => a.method === 'server/discover').map((a) => a.outcome)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
  });

  it('no UNSAFE_RETRY but the re-run of the cut call (its first run reached the unannotated tool; linked since the sixty-seventh audit), and no SESSION_EXPIRED that says the client retried, anywhere', () => {
    for (const c of ALL) {
      for (const v of views(c)) {
        expect(codes(run(c, v)).filter((x) => x === 'UNSAFE_RETRY'), `${c} ${v}`).toEqual(c === 'v1-cut-rerun' ? ['UNSAFE_RETRY'] : []);
        for (const f of allFindings(run(c, v)).filter((x) => x.code === 'SESSION_EXPIRED')) expect(f.message, `${c} ${v}`).not.toMatch(/re-initialized and retried/);
      }
    }
  });
});

describe('fix: the Inspector CLI re-sends nothing itself', () => {
  it('--load: twelve calls of one tool, four at once, one refused 503: twelve calls, none a retry of the 503 (the Inspector counted 11 ok, 1 error)', () => {
    const s = JSON.parse(observed('v1-load').runs[0]!.stdout) as { requests: number; ok: number; errors: number };
    expect([s.requests, s.ok, s.errors]).toEqual([12, 11, 1]);
    for (const v of views('v1-load')) {
      const calls = run('v1-load', v).attempts.filter((a) => a.method === 'tools/call');
      expect(calls.map((a) => a.outcome).sort(), v).toEqual([...Array(11).fill('TOOL_SUCCESS'), 'HTTP_ERROR'].sort());
      expect(new Set(calls.map((a) => a.call)).size, v).toBe(12);
      expect(calls.every((a) => a.attempt === 1), v).toBe(true);
      expect(codes(run('v1-load', v)).filter((f) => f.startsWith('RETRY')), v).toEqual([]);
    }
  });

  it('a person re-running the command after an HTTP error, a lost connection or a 404: one call, each later attempt of unknown origin whose how says a new run of the CLI sent it (a person or a script), not the SDK', () => {
    for (const [c, n] of [['v1-500-rerun', 2], ['v1-503-rerun', 3], ['v1-404-session', 2], ['v2-drop-rerun', 2]] as const) {
      for (const v of views(c)) {
        const calls = run(c, v).attempts.filter((a) => a.method === 'tools/call');
        expect(calls.map((a) => a.attempt), `${c} ${v}`).toEqual(Array.from({ length: n }, (_, i) => i + 1));
        expect(new Set(calls.map((a) => a.call)).size, `${c} ${v}`).toBe(1);
        for (const a of calls.slice(1)) {
          expect(a.retryOrigin?.origin, `${c} ${v}`).toBe('unknown');
          expect(a.retryOrigin?.how, `${c} ${v}`).toMatch(/^the MCP Inspector's CLI \("inspector-cli\/2\.12\.0"\) sent it again from a new run \(a new (session|initialize before it)\): it runs one command per process and re-sends nothing itself, so a person or a script ran the command again/);
        }
      }
    }
  });

  it('SESSION_EXPIRED after the 404: the CLI did not re-initialize; a new run of it began a new session and sent the call again', () => {
    for (const v of views('v1-404-session')) {
      const f = allFindings(run('v1-404-session', v)).filter((x) => x.code === 'SESSION_EXPIRED');
      expect(f.map((x) => x.message), v).toEqual([expect.stringMatching(/HTTP 404 to tools\/call echo id 3 that carried the session id; the client did not re-initialize: the MCP Inspector's CLI \("inspector-cli\/2\.12\.0"\) exits after such an error \(one command per process, no retry\); a new run of it began a new session and sent the call again/)]);
    }
  });

  it('near misses: a person running the CLI again after a success or an isError makes new calls; an SDK app that retried in its session, or re-initialized after a 404, keeps its reading; the re-run initialize after a 401 keeps the auth rule', () => {
    for (const v of views('v1-reruns-ok')) {
      const calls = run('v1-reruns-ok', v).attempts.filter((a) => a.method === 'tools/call');
      expect(calls.map((a) => `${a.outcome} ${a.attempt}`), v).toEqual(['TOOL_SUCCESS 1', 'TOOL_SUCCESS 1', 'TOOL_ERROR 1', 'TOOL_ERROR 1']);
    }
    const app = analyze(['--client', `${DIR}real-audit62/ts-close-tool/client.ndjson`]).attempts.filter((a) => a.method === 'tools/call');
    expect(app.map((a) => `${a.call}#${a.attempt}`)).toEqual([`${app[0]!.call}#1`, `${app[0]!.call}#2`]);
    expect(app[1]!.retryOrigin?.how).toMatch(/^a new request with the same tool and arguments/);
    const restart = analyze(['--client', `${DIR}real-audit7/sdk-session-expired-restart/client.ndjson`]).findings.filter((f) => f.code === 'SESSION_EXPIRED');
    expect(restart.map((f) => f.message)).toEqual([expect.stringMatching(/the client re-initialized and retried the call$/)]);
    const auth = run('v1-401', 'proxy').attempts.filter((a) => a.method === 'initialize');
    expect(auth.map((a) => a.retryOrigin?.how ?? '')).toEqual(['', expect.not.stringMatching(/Inspector/)]);
  });
});

describe('fix: the legacy HTTP+SSE transport in HAR lines (the GET written after the POSTs)', () => {
  it('--transport sse: each response came on the GET stream as that transport sends it: no resumption, no "standalone GET stream" why, in every view', () => {
    for (const v of views('v1-legacy-sse')) {
      const shown = run('v1-legacy-sse', v).attempts.filter((a) => a.method === 'tools/call' || a.method === 'tools/list');
      expect(shown.map((a) => `${a.status} ${a.outcome}`), v).toEqual(['202 SUCCESS', '202 SUCCESS', '202 TOOL_SUCCESS', '202 SUCCESS', '202 TOOL_ERROR']);
      for (const a of shown) {
        expect(a.resumed, v).toBeUndefined();
        expect(a.detail?.why ?? '', v).not.toMatch(/standalone GET stream/);
      }
    }
  });

  it('near miss: on Streamable HTTP a response moved to the standalone GET stream still says so', () => {
    const a = analyze(['--client', `${DIR}real-audit7/sdk-response-on-get-stream/client.ndjson`]).attempts.find((x) => x.tool === 'send_invoice')!;
    expect(a.detail?.why).toMatch(/^the response came on the session's standalone GET stream \(opened without Last-Event-ID, not a resumption\)/);
  });
});
