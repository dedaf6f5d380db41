// The sixty-first audit (test/fixtures/real-audit61, test/real-audit61/record.mjs): the MCP test kitchen's own records as
// the server's proof, beside real clients (SDK 1.32.2, v2 2.4.0, Python 2.3.0 through `mcp-triage record`): an injected
// -32603 or status the observation shows the scenario layer sent (no UNSAFE_RETRY: no tool ran), the kitchen's clock
// read seconds off the client's (put on the client's, said), a POST a hop answered that the request log never saw (not
// seen by the server), and ASP.NET Core's own "Request finished" lines read as the server's account of each POST.
// AUDIT61_BIN runs another build (the base's, to see each test fail before its fix).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kitchenAnsweredBeforeTool } from '../../src/formats/kitchen.js';
import { BIN } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit61/', import.meta.url));
const bin = process.env.AUDIT61_BIN ?? BIN;
interface Finding { code: string; severity: string; message: string }
interface Attempt { id: unknown; method: string; status: number | null; outcome: string; attempt?: number; notSeenByServer?: true; findings: Finding[]; detail?: { why?: string }; sources: { file: string; line: number }[] }
interface Run { attempts: Attempt[]; notes: string[]; stderr: string }

const cache = new Map<string, Run>();
function run(...args: string[]): Run {
  const key = args.join('|');
  let r = cache.get(key);
  if (!r) {
    const p = spawnSync(process.execPath, [bin, '--format', 'ndjson', ...args.map((a) => (a.startsWith('-') || a.startsWith('/') || /^\d+$/.test(a) ? a : `${DIR}${a}`))], { encoding: 'utf8', timeout: 30_000 });
    const lines = p.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const summary = lines.find((l) => l.type === 'summary') as { notes?: string[] } | undefined;
    if (!summary) throw new Error(`no summary: ${p.stderr.slice(0, 400)}`);
    r = { attempts: lines.filter((l) => l.type === 'attempt') as unknown as Attempt[], notes: summary.notes ?? [], stderr: p.stderr };
    cache.set(key, r);
  }
  return r;
}
const calls = (r: Run) => r.attempts.filter((a) => a.method === 'tools/call');
const codes = (a: Attempt) => a.findings.map((f) => f.code);
const why = (a: Attempt) => a.detail?.why ?? '';
const kitchen = (c: string) => [`${c}/kitchen-console.json.log`, `${c}/observations-page.json`];

describe("an injected -32603 or status the kitchen's observation shows its scenario layer sent: no tool ran, the retry is safe", () => {
  it.each([
    ['ts-32603', [`ts-32603/client.ndjson`, ...kitchen('ts-32603')]],
    ['v2-32603', [`v2-32603/client.ndjson`, ...kitchen('v2-32603')]],
    ['py-32603 (its proxy file)', ['--client', `py-32603/proxy.ndjson`, ...kitchen('py-32603')]],
    // (the README's form for the Python client: its DEBUG log and the proxy's file together; fixed in stop 47)
    ['py-32603 (its DEBUG log and the proxy file)', ['--client', `py-32603/client.log`, `py-32603/proxy.ndjson`, ...kitchen('py-32603')]],
    ['ts-status-500', [`ts-status-500/client.ndjson`, ...kitchen('ts-status-500')]],
  ])('%s: the failed attempt says so, and the re-call has no UNSAFE_RETRY', (_, args) => {
    const r = run(...args);
    const [failed, retry] = [calls(r).find((a) => a.outcome === 'JSONRPC_ERROR' || a.outcome === 'HTTP_ERROR')!, calls(r).find((a) => a.attempt === 2)!];
    expect(why(failed)).toMatch(/its scenario errors\.(jsonrpc_error|http_status_sequence) answers .* in its wire layer, before the MCP SDK sees the request.*: no tool ran for it/);
    expect(retry).toBeDefined();
    expect(codes(retry)).not.toContain('UNSAFE_RETRY');
  });

  it('the Python DEBUG log with the proxy file: each attempt takes the kitchen\'s lines the proxy file alone gives it (the log\'s view, with no status and its own clock, used to take its neighbours\')', () => {
    const lines = (r: Run) => r.attempts.map((a) => `${String(a.id)} ${a.sources.filter((s) => /kitchen-console|observations-page/.test(s.file)).map((s) => `${s.file.split('/').pop()}:${s.line}`).join(',')}`);
    const alone = run('--client', 'py-32603/proxy.ndjson', ...kitchen('py-32603'));
    const both = run('--client', 'py-32603/client.log', 'py-32603/proxy.ndjson', ...kitchen('py-32603'));
    expect(lines(both)).toEqual(lines(alone));
    expect(lines(both).every((l) => l.includes('kitchen-console.json.log:'))).toBe(true);
    // Near miss: the DEBUG log without the proxy file takes the lines by its own view, as before.
    const logOnly = run('--client', 'py-32603/client.log', ...kitchen('py-32603'));
    expect(lines(logOnly).slice(0, 4)).toEqual(lines(alone).slice(0, 4));
  });

  it('the Python DEBUG log alone with the kitchen\'s records: its JSON answer, unlike the SSE ones (the injector\'s), takes the observation that names errors.jsonrpc_error: no tool ran, the re-call has no UNSAFE_RETRY', () => {
    const r = run('--client', 'py-32603/client.log', ...kitchen('py-32603'));
    const tc = calls(r);
    const retry = tc.find((a) => a.attempt === 2)!;
    const failed = tc.find((a) => a.attempt === 1 && (a as { call?: string }).call === (retry as { call?: string }).call)!;
    expect(failed.outcome).toBe('UNANSWERED');
    expect(why(failed)).toMatch(/its scenario errors\.jsonrpc_error answers a tools\/call with a JSON-RPC error in its wire layer, before the MCP SDK sees the request.*: no tool ran for it$/);
    expect(codes(retry)).not.toContain('UNSAFE_RETRY');
    // Near miss: the calls answered on SSE streams (results) under the same scenario take their observations and prove nothing.
    for (const a of tc.filter((x) => x !== failed && x.attempt === 1)) {
      expect(a.sources.some((s) => s.file.endsWith('observations-page.json'))).toBe(true);
      expect(why(a)).not.toMatch(/no tool ran/);
    }
  });

  it('near miss: the request log alone (no observation names the scenario) proves nothing: UNSAFE_RETRY stays', () => {
    for (const c of ['ts-32603', 'ts-status-500']) {
      const retry = calls(run(`${c}/client.ndjson`, `${c}/kitchen-console.json.log`)).find((a) => a.attempt === 2)!;
      expect(codes(retry)).toContain('UNSAFE_RETRY');
    }
    // ASP.NET Core's hosting lines say the status, not which layer sent it
    const retry = calls(run('ts-hosting-status-500/client.ndjson', 'ts-hosting-status-500/aspnet-console.json.log')).find((a) => a.attempt === 2)!;
    expect(codes(retry)).toContain('UNSAFE_RETRY');
  });

  it('near miss: other scenarios, and a success under errors.jsonrpc_error, prove no such thing', () => {
    expect(kitchenAnsweredBeforeTool('errors.tool_error', 'tools/call', 200, 200, true)).toBeUndefined();
    expect(kitchenAnsweredBeforeTool('baseline', 'tools/call', 500, 500, false)).toBeUndefined();
    expect(kitchenAnsweredBeforeTool('errors.jsonrpc_error', 'tools/call', 200, 200, false)).toBeUndefined();
    expect(kitchenAnsweredBeforeTool('errors.http_status_sequence', 'tools/call', 200, 200, false)).toBeUndefined();
    expect(kitchenAnsweredBeforeTool('errors.jsonrpc_error', 'tools/call', 200, 200, true)).toMatch(/no tool ran/);
  });
});

describe("the kitchen's clock seconds off the client's: put on the client's from when its POSTs started, and said", () => {
  const truthIds = (c: string) => (JSON.parse(readFileSync(`${DIR}${c}/observed.json`, 'utf8')) as { observationIds: { requestId: string; jsonrpcId: unknown }[] }).observationIds;
  it.each([['ts-32603-clock-ahead', 'ahead of', 4.2], ['v2-clock-behind', 'behind', 3.5]] as const)('%s: every attempt takes the observation of its own request, and the offset is said', (c, dir, s) => {
    const r = run(`${c}/client.ndjson`, ...kitchen(c));
    const ids = new Map(truthIds(c).map((t) => [t.requestId, t.jsonrpcId]));
    let joined = 0;
    for (const a of r.attempts) {
      const m = /the kitchen's observation (\S+) has this POST/.exec(why(a));
      expect(m, `attempt ${String(a.id)}`).not.toBeNull();
      expect(ids.get(m![1]!)).toEqual(a.id);
      joined++;
    }
    expect(joined).toBe(r.attempts.length);
    expect(r.notes.some((n) => n.includes(`the MCP test kitchen's clock reads ${s.toFixed(1)} s ${dir} the client's`))).toBe(true);
    expect(r.stderr).toContain("the MCP test kitchen's clock reads");
  });

  it('ts-32603-clock-ahead: the shifted records still prove the injected -32603 (no UNSAFE_RETRY)', () => {
    const retry = calls(run('ts-32603-clock-ahead/client.ndjson', ...kitchen('ts-32603-clock-ahead'))).find((a) => a.attempt === 2)!;
    expect(codes(retry)).not.toContain('UNSAFE_RETRY');
  });

  it('near miss: --skew shorter than the offset searches no further, and clocks that agree are not moved', () => {
    const r = run('--skew', '2', 'v2-clock-behind/client.ndjson', ...kitchen('v2-clock-behind'));
    expect(r.notes.some((n) => n.includes('clock reads'))).toBe(false);
    expect(r.attempts.some((a) => why(a).includes("the kitchen's observation"))).toBe(false);
    expect(run('ts-32603/client.ndjson', ...kitchen('ts-32603')).notes.some((n) => n.includes('clock reads'))).toBe(false);
  });
});

describe('a POST a hop answered, which the request log covering its time never saw: not seen by the server', () => {
  it.each([
    ['ts-hop-502', 'kitchen-console.json.log'],
    ['v2-hosting-hop-502', 'aspnet-console.json.log'],
    ['v2-hosting-hop-502', 'aspnet-console.txt'],
  ])('%s (%s): the 502 is not seen, and the re-call after it is safe', (c, log) => {
    const r = run(`${c}/client.ndjson`, `${c}/${log}`);
    const refused = calls(r).find((a) => a.status === 502)!;
    expect(refused.notSeenByServer).toBe(true);
    expect(why(refused)).toMatch(/has no line of it: the (kitchen|server) never saw it, so its HTTP 502 came from something between them/);
    expect(calls(r).filter((a) => a.notSeenByServer)).toHaveLength(1);
    expect(codes(calls(r).find((a) => a.attempt === 2)!)).not.toContain('UNSAFE_RETRY');
  });

  it('near miss: a request log that starts after the POST, or ends before it, says nothing of it', () => {
    const lines = readFileSync(`${DIR}ts-hop-502/kitchen-console.json.log`, 'utf8').split('\n').filter(Boolean);
    const tmp = mkdtempSync(join(tmpdir(), 'audit61-'));
    const at = (l: string) => Date.parse((JSON.parse(l) as { Timestamp: string }).Timestamp);
    const start = Date.parse((readFileSync(`${DIR}ts-hop-502/client.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; status?: number; ts: string }).find((r) => r.kind === 'response' && r.status === 502))!.ts);
    writeFileSync(join(tmp, 'after.log'), `${lines.filter((l) => at(l) > start).join('\n')}\n`);
    writeFileSync(join(tmp, 'before.log'), `${lines.filter((l) => at(l) < start).join('\n')}\n`);
    for (const f of ['after.log', 'before.log']) {
      const r = run(`ts-hop-502/client.ndjson`, join(tmp, f));
      expect(calls(r).find((a) => a.status === 502)!.notSeenByServer).toBeUndefined();
    }
    // a POST the kitchen saw (its 500, its 503s) is never "not seen"
    expect(run('ts-status-500/client.ndjson', 'ts-status-500/kitchen-console.json.log').attempts.some((a) => a.notSeenByServer)).toBe(false);
  });
});

describe("ASP.NET Core's own \"Request finished\" lines: the server's account of each POST", () => {
  it.each(['aspnet-console.json.log', 'aspnet-console.txt'])('%s: each attempt takes the line of its status, the 500 named the server\'s own', (f) => {
    const r = run('ts-hosting-status-500/client.ndjson', `ts-hosting-status-500/${f}`);
    for (const a of r.attempts) expect(why(a)).toMatch(new RegExp(`ASP\\.NET Core's hosting log has this POST /mcp answered ${a.status} \\(`));
    expect(why(r.attempts.find((a) => a.status === 500)!)).toMatch(/answered 500 \(no body type\) in [\d.]+ ms: the server answered it itself, no hop did/);
    expect(r.notes.some((n) => n.startsWith(`ts-hosting-status-500/${f}: ASP.NET Core's hosting log, the server's own account of 6 POSTs`) || n.includes(`${f}: ASP.NET Core's hosting log, the server's own account of 6 POSTs`))).toBe(true);
  });

  it('beside the kitchen\'s request log and observations: one line of each joined to each attempt', () => {
    const r = run('ts-hosting-status-500/client.ndjson', 'ts-hosting-status-500/aspnet-console.json.log', ...kitchen('ts-hosting-status-500'));
    for (const a of r.attempts) {
      const files = a.sources.map((s) => s.file.split('/').pop());
      expect(files).toEqual(expect.arrayContaining(['aspnet-console.json.log', 'kitchen-console.json.log', 'observations-page.json']));
    }
  });
});
