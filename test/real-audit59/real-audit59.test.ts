// The fifty-ninth audit (test/fixtures/real-audit59): a judge's small applications (SDK 1.32.2, v2 2.4.0, Python 2.3.0)
// against the MCP test kitchen's six scenarios, emulated by test/real-audit56/kitchen.mjs, each run captured as the
// README tells (recordingFetch or the Python SDK's DEBUG log, and `mcp-triage record`), held to what the application
// saw and what the kitchen did (observed.json). Two fixes: an HTTP error that came as a bare status line (no body, no
// Content-Type) says so and, with the server's log holding it too, that the server's side sent it; a Python DEBUG log
// whose app reconnected after a refused initialize is not "client transports open at once" (which split every
// reconnect into a scope of its own and raised CALL_NEVER_SENT for each, though the app went on to call its tools).
// node test/real-audit59/record.mjs re-records them.
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { BIN, triageCli, type CliRun, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit59/', import.meta.url));
const A56 = fileURLToPath(new URL('../fixtures/real-audit56/', import.meta.url));
const A16 = fileURLToPath(new URL('../fixtures/real-audit16/', import.meta.url));
const BARE = /^HTTP \d{3}[^:]*: a bare status line \(no body, no Content-Type\): not an answer of the MCP handler/;
const SERVER_TOO = "the server's log has it too: sent on the server's side, not by a hop between";

type Attempt = ReportAttempt & { detail?: { why?: string; errorCode?: number } };
type Run = CliRun<Attempt, ReportFinding>;
interface Step { step: string; ok?: boolean; isError?: boolean; action?: string; gaveUp?: boolean; policy?: string; error?: { code?: number | string; name?: string; message?: string } }
interface Event { wire?: string; method?: string | null; toolsCall?: number; tool?: string; invocation?: number; phase?: string; outcome?: string }
interface Observed { client: 'ts1' | 'v2' | 'py'; scenario: string; params: { code?: number }; steps: Step[]; kitchen: Event[] }

const CASES = readdirSync(DIR).sort();
const observed = (c: string) => JSON.parse(readFileSync(`${DIR}${c}/observed.json`, 'utf8')) as Observed;
const clientLog = (c: string) => `${DIR}${c}/${c.startsWith('py-') ? 'client.log' : 'client.ndjson'}`;
type View = 'both' | 'client' | 'proxy';
const cache = new Map<string, Run>();
function run(c: string, view: View): Run {
  const key = `${c}|${view}`;
  let r = cache.get(key);
  if (!r) {
    const args = { both: ['--client', clientLog(c), '--server', `${DIR}${c}/server.ndjson`], client: ['--client', clientLog(c)], proxy: [`${DIR}${c}/proxy.ndjson`] }[view];
    r = triageCli<Attempt, ReportFinding>(args);
    cache.set(key, r);
  }
  return r;
}
const VIEWS: View[] = ['both', 'client', 'proxy'];
const allFindings = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)];
const codes = (r: Run) => allFindings(r).map((f) => f.code);
/** The kitchen's injected statuses, in order, as "method status". */
const injected = (o: Observed) => o.kitchen.filter((e) => e.wire?.startsWith('status ')).map((e) => `${e.method} ${e.wire!.slice(7)}`);
const httpErrors = (r: Run) => r.attempts.filter((a) => a.outcome === 'HTTP_ERROR').map((a) => `${a.method} ${a.status}`);
const markdown = (args: string[]) => spawnSync(process.execPath, [BIN, '--format', 'markdown', ...args], { encoding: 'utf8', timeout: 30_000 }).stdout;

describe('the kitchen\'s errors.http_status_sequence: every injected status is an HTTP_ERROR of the request it hit, in every view', () => {
  const STATUS = CASES.filter((c) => observed(c).scenario === 'errors.http_status_sequence');
  it.each(STATUS)('%s', (c) => {
    const o = observed(c);
    for (const view of VIEWS) {
      const r = run(c, view);
      expect(r.unusable, view).toBe(0);
      expect(httpErrors(r), view).toEqual(injected(o));
      // the app's tries are linked: its connects (when one failed) one call of initialize (or server/discover), each
      // call's tries one call of tools/call, attempts 1..n in order
      const connects = o.steps.filter((s) => /^connect \d/.test(s.step)).length;
      const first = r.attempts.filter((a) => a.method === 'initialize' || a.method === 'server/discover');
      if (o.steps.some((s) => /^connect \d/.test(s.step) && s.ok === false)) expect(first.filter((a) => a.call === first[0]!.call).map((a) => a.attempt), view).toEqual(Array.from({ length: connects }, (_, i) => i + 1));
      const tries = new Map<string, number>();
      for (const s of o.steps) if (s.step.startsWith('call ')) tries.set(s.step.split(' ')[1]!, (tries.get(s.step.split(' ')[1]!) ?? 0) + 1);
      const chains = new Map<string, number[]>();
      for (const a of r.attempts.filter((x) => x.method === 'tools/call')) chains.set(a.call, [...(chains.get(a.call) ?? []), a.attempt]);
      expect([...chains.values()], view).toEqual([...tries.values()].map((n) => Array.from({ length: n }, (_, i) => i + 1)));
    }
  });

  it('an injected status is a bare status line (no body, no Content-Type): the why says so in the TypeScript client\'s and the proxy\'s views', () => {
    for (const c of STATUS.filter((x) => !x.startsWith('py-'))) {
      for (const view of VIEWS) {
        const bad = run(c, view).attempts.filter((a) => a.outcome === 'HTTP_ERROR');
        expect(bad.length, `${c} ${view}`).toBeGreaterThan(0);
        for (const a of bad) expect(a.detail?.why, `${c} ${view}`).toMatch(BARE);
      }
    }
    // (the proxy's record of the Python app's traffic too; its DEBUG log has no headers: its why is httpx's line's)
    for (const c of STATUS.filter((x) => x.startsWith('py-'))) for (const a of run(c, 'proxy').attempts.filter((x) => x.outcome === 'HTTP_ERROR')) expect(a.detail?.why, c).toMatch(BARE);
  });

  it('with the server\'s log beside the client\'s, the report says the server\'s side sent it (its log has it): no hop between', () => {
    for (const c of STATUS.filter((x) => !x.startsWith('py-'))) {
      const md = markdown(['--client', clientLog(c), '--server', `${DIR}${c}/server.ndjson`]);
      expect(md.split(SERVER_TOO).length - 1, c).toBe(injected(observed(c)).length);
      // Near miss: the client's log alone cannot say whose side sent it
      expect(markdown(['--client', clientLog(c)]), c).not.toContain(SERVER_TOO);
    }
  });

  it('near misses: an HTTP error with a JSON-RPC body keeps its own why; a bare 401 the server\'s log never saw is not said to be the server\'s', () => {
    // the kitchen's 400 ParseError for a body over 64 KiB (fifty-sixth audit)
    const big = triageCli<Attempt, ReportFinding>(['--client', `${A56}ts-body-too-large/client.ndjson`, '--server', `${A56}ts-body-too-large/server.ndjson`]);
    const e400 = big.attempts.find((a) => a.status === 400)!;
    expect(e400.detail?.why ?? '').not.toMatch(BARE);
    expect(e400.detail?.errorCode).toBe(-32700);
    // the PAT check's bare 401, before the observations: the server's log is empty, so not the server's side
    const md = markdown(['--client', `${A56}ts-auth-missing/client.ndjson`, '--server', `${A56}ts-auth-missing/server.ndjson`]);
    expect(md).not.toContain(SERVER_TOO);
    const auth = triageCli<Attempt, ReportFinding>(['--client', `${A56}ts-auth-missing/client.ndjson`]);
    for (const a of auth.attempts.filter((x) => x.status === 401)) expect(a.detail?.why).toMatch(BARE);
  });
});

describe('the Python app reconnecting after a refused initialize (its DEBUG log)', () => {
  const PY = ['py-status-503-503-200', 'py-status-500'];
  it.each(PY)('%s: one caller throughout, CALL_NEVER_SENT only when the app never got to call a tool, and no "transports open at once"', async (c) => {
    const o = observed(c);
    const connected = o.steps.some((s) => s.step.startsWith('connect') && s.ok === true);
    for (const view of ['both', 'client'] as const) {
      const r = run(c, view);
      expect(codes(r).filter((x) => x === 'CALL_NEVER_SENT'), view).toHaveLength(connected ? 0 : 1);
      const inits = r.attempts.filter((a) => a.method === 'initialize');
      expect(new Set(inits.map((a) => a.call)).size, view).toBe(1);
      expect(inits.map((a) => a.attempt), view).toEqual([1, 2, 3]);
    }
    const lib = await analyze({ inputs: [{ path: clientLog(c) }] });
    expect(lib.summary.inputs[0]!.cannotShow.filter((n) => n.includes('holds client transports open at once'))).toEqual([]);
  });

  it('near miss: two transports really open at once (the sixteenth audit\'s py-two-servers) are still read as interleaved', async () => {
    const r = await analyze({ inputs: [{ path: `${A16}py-two-servers/client.log` }] });
    expect(r.summary.inputs[0]!.cannotShow.some((n) => n.includes('holds client transports open at once'))).toBe(true);
  });
});

describe('what the judge\'s applications saw, in every view', () => {
  it('errors.jsonrpc_error: the configured code on the tools/call it hit; -32602 (not retried by the apps) no finding; -32603 retried, linked', () => {
    for (const c of CASES.filter((x) => observed(x).scenario === 'errors.jsonrpc_error')) {
      const o = observed(c);
      const hits = o.kitchen.filter((e) => e.wire === 'jsonrpc_error').length;
      // the Python DEBUG log leaves out answers sent as application/json (the kitchen's envelope is): not its own view
      for (const view of c.startsWith('py-') ? (['both', 'proxy'] as const) : VIEWS) {
        const r = run(c, view);
        const bad = r.attempts.filter((a) => a.outcome === 'JSONRPC_ERROR');
        expect(bad, `${c} ${view}`).toHaveLength(hits);
        for (const a of bad) {
          expect(a.detail?.errorCode, `${c} ${view}`).toBe(o.params.code);
          const next = r.attempts.find((b) => b.call === a.call && b.attempt === 2);
          expect(next !== undefined, `${c} ${view}`).toBe(o.params.code !== -32602);
        }
        if (o.params.code === -32602) expect(codes(r), `${c} ${view}`).toEqual([]);
      }
    }
  });

  it('errors.tool_error, elicitation.approval, compat.sdk_v2: each call\'s last attempt is what the app got (isError: TOOL_ERROR), no finding', () => {
    for (const c of CASES.filter((x) => ['errors.tool_error', 'elicitation.approval', 'compat.sdk_v2'].includes(observed(x).scenario))) {
      const o = observed(c);
      const want = o.steps.filter((s) => s.step.startsWith('call ')).map((s) => (s.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));
      // (the Python DEBUG log leaves out answers sent as application/json: the v2 server's on 2026-07-28)
      for (const view of c === 'py-elicitation-modern' ? (['both', 'proxy'] as const) : VIEWS) {
        const r = run(c, view);
        const last = new Map<string, Attempt>();
        for (const a of r.attempts) if (a.method === 'tools/call') last.set(a.call, a);
        expect([...last.values()].map((a) => a.outcome), `${c} ${view}`).toEqual(want);
        expect(codes(r), `${c} ${view}`).toEqual([]);
        // an MRTR round: the follow-up leg is its call's attempt 2, origin none (no retry)
        for (const a of r.attempts.filter((x) => x.attempt === 2)) expect(a.retryOrigin?.origin, `${c} ${view}`).toBe('none');
      }
    }
  });

  it('baseline slower than the app\'s timeout: the first try is cancelled by the client, the app\'s re-call linked to it', () => {
    for (const c of CASES.filter((x) => x.includes('baseline-delay'))) {
      for (const view of VIEWS) {
        const r = run(c, view);
        const tc = r.attempts.filter((a) => a.method === 'tools/call');
        expect(tc.map((a) => a.attempt), `${c} ${view}`).toEqual([1, 2]);
        expect(tc[1]!.call).toBe(tc[0]!.call);
        expect(tc[1]!.outcome).toBe('TOOL_SUCCESS');
        expect(codes(r), `${c} ${view}`).toContain('CANCELLED');
      }
    }
  });
});
