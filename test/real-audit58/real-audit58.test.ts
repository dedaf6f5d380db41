// The MCP test kitchen's own server records (test/fixtures/real-audit58): its request log (RequestLoggingMiddleware, .NET's
// JSON console lines; the Development text lines) and its observations (the list API's page, the SSE stream, rows),
// written by test/real-audit58/kitchen-logs.mjs as the kitchen writes them while real SDK clients called it. Each is the
// server's account of one POST, joined to the client's attempt of it (observed.json's observationIds is the truth of
// which request each observation was). node test/real-audit58/record.mjs re-records them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { triageCli, type CliRun, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit58/', import.meta.url));
type Attempt = ReportAttempt & { detail?: { why?: string }; sources: { file: string; line: number }[] };
type Run = CliRun<Attempt, ReportFinding>;
interface Observed { observationIds: { requestId: string; jsonrpcId: string | number | null; method: string }[] }

const CASES = ['ts-baseline', 'ts-status-sequence', 'v2-status-sequence', 'v2-jsonrpc', 'py-tool-error', 'v2-elicitation', 'v2-compat', 'ts-rate-limit', 'ts-status-429', 'v2-timeout', 'ts-timeout'];
const OBSERVATIONS = ['observations-page.json', 'observations-stream.txt', 'observations.ndjson'];
const clientOf = (c: string) => `${DIR}${c}/${c.startsWith('py-') ? 'client-timed.log' : 'client.ndjson'}`;
const cache = new Map<string, Run>();
function run(c: string, ...files: string[]): Run {
  const key = `${c}|${files.join('|')}`;
  let r = cache.get(key);
  if (!r) {
    r = triageCli<Attempt, ReportFinding>([clientOf(c), ...files.map((f) => `${DIR}${c}/${f}`)]);
    cache.set(key, r);
  }
  return r;
}
const why = (a: Attempt) => a.detail?.why ?? '';
const notes = (r: Run) => (r.summary.notes as string[] | undefined) ?? [];
const observedIds = (c: string) => (JSON.parse(readFileSync(`${DIR}${c}/observed.json`, 'utf8')) as Observed).observationIds;

describe("the kitchen's observations: each joined to the client's attempt it was (by method, tool, status and time)", () => {
  it.each(CASES.flatMap((c) => OBSERVATIONS.map((o) => [c, o] as const)))('%s with %s: every attempt that reached the observations has its own, the one the truth names', (c, o) => {
    const r = run(c, o);
    const truth = new Map(observedIds(c).map((t) => [t.requestId, t]));
    expect(r.attempts.length).toBeGreaterThan(0);
    for (const a of r.attempts) {
      const m = /the kitchen's observation (\S+) has this POST \(([^ ,)]+)/.exec(why(a));
      // the rate limiter's 429s come before the observation middleware: none, and none made up
      if (c === 'ts-rate-limit' && a.status === 429) {
        expect(m).toBeNull();
        continue;
      }
      expect(m, `${a.method} ${a.id}: ${why(a)}`).not.toBeNull();
      const t = truth.get(m![1]!);
      expect(t, m![1]).toBeDefined();
      expect([t!.jsonrpcId, t!.method]).toEqual([a.id, a.method]);
      expect(a.sources.some((s) => s.file.endsWith(o))).toBe(true);
    }
    // the notifications' observations (202) are no attempts: counted in the note, never dropped
    expect(notes(r).some((n) => n.includes("the MCP test kitchen's observations, the server's own account of"))).toBe(true);
  });
});

describe("the kitchen's request log: the server's status and time taken, named in each attempt's why", () => {
  it.each(CASES)('%s: every attempt takes one line of the JSON console log, of its status', (c) => {
    const r = run(c, 'kitchen-console.json.log');
    for (const a of r.attempts) {
      const m = /the kitchen's request log has this POST \/mcp answered (\d{3}) in \d+ ms/.exec(why(a));
      expect(m, `${a.method} ${a.id}`).not.toBeNull();
      if (a.status !== null) expect(Number(m![1])).toBe(a.status);
    }
  });
  it('an injected 503 (errors.http_status_sequence) is the server\'s own answer, seen by its observation too', () => {
    const r = run('ts-status-sequence', 'kitchen-console.json.log', 'observations-page.json');
    const failed = r.attempts.filter((a) => a.outcome === 'HTTP_ERROR');
    expect(failed.map((a) => `${a.method} ${a.status}`)).toEqual(['tools/call 503']);
    expect(why(failed[0]!)).toMatch(/answered 503 in \d+ ms: the MCP server answered it itself, no hop did/);
    expect(why(failed[0]!)).toMatch(/observation \S+ has this POST \(tools\/call run_configured_test_scenario, phase tool_execution, scenario errors\.http_status_sequence\) answered 503/);
    // the v2 client's probe, refused the same way
    const v2 = run('v2-status-sequence', 'kitchen-console.json.log', 'observations-stream.txt').attempts.filter((a) => a.outcome === 'HTTP_ERROR');
    expect(v2.map((a) => `${a.method} ${a.status}`)).toEqual(['server/discover 503']);
    expect(why(v2[0]!)).toMatch(/the MCP server answered it itself/);
  });
  it('the rate limiter\'s 429s have no observation (they come before it): said so; an injected 429 has one (near miss)', () => {
    const limited = run('ts-rate-limit', 'kitchen-console.json.log', 'observations-page.json').attempts.filter((a) => a.status === 429);
    expect(limited.length).toBe(4);
    for (const a of limited) {
      expect(why(a)).toMatch(/the observations given have none of it: the rate limiter refused it before the observations, the scenario layer and any tool/);
      expect(why(a)).not.toMatch(/kitchen's observation/);
    }
    const injected = run('ts-status-429', 'kitchen-console.json.log', 'observations-page.json').attempts.filter((a) => a.status === 429);
    expect(injected.length).toBe(1);
    expect(why(injected[0]!)).toMatch(/kitchen's observation \S+ has this POST \(tools\/call run_configured_test_scenario, phase tool_execution, scenario errors\.http_status_sequence\) answered 429/);
    expect(why(injected[0]!)).not.toMatch(/observations given have none of it/);
  });
  it('a call the client gave up on before any head: the server\'s lines of it say it saw the request aborted, its 200 sent to no one', () => {
    const r = run('v2-timeout', 'kitchen-console.json.log', 'observations.ndjson');
    const gone = r.attempts.filter((a) => a.outcome === 'NO_RESPONSE');
    expect(gone.map((a) => `${a.method} ${a.status}`)).toEqual(['tools/call null']);
    expect(why(gone[0]!)).toMatch(/request log has this POST \/mcp answered 200 in \d+ ms \(no response head reached the client, which had gone: the server's 200 went to no one\)/);
    expect(why(gone[0]!)).toMatch(/observation \S+ has this POST \(tools\/call run_configured_test_scenario, phase tool_execution, scenario baseline\) answered 200 in \d+ ms; the request was aborted before the server was done \(wasCancelled\)/);
  });
  it('the PAT check\'s 401s: the request log has them; the empty observations page adds nothing', () => {
    const r = run('ts-pat-401', 'kitchen-console.json.log', 'observations-page.json');
    expect(r.attempts.map((a) => `${a.method} ${a.status} ${a.outcome}`)).toEqual(Array(3).fill('initialize 401 HTTP_ERROR'));
    for (const a of r.attempts) expect(why(a)).toMatch(/answered 401 in \d+ ms: the MCP server answered it itself, no hop did \(its PAT check/);
  });
  it('a 200 holds what the client saw: a JSON-RPC error, a tool error, input_required stay the client\'s outcomes', () => {
    expect(run('v2-jsonrpc', 'kitchen-console.json.log', 'observations.ndjson').attempts.filter((a) => a.method === 'tools/call').map((a) => a.outcome)).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS']);
    expect(run('py-tool-error', 'kitchen-console.json.log', 'observations.ndjson').attempts.filter((a) => a.method === 'tools/call').map((a) => a.outcome)).toEqual(['TOOL_ERROR', 'TOOL_SUCCESS']);
    expect(run('v2-elicitation', 'kitchen-console.json.log', 'observations.ndjson').attempts.filter((a) => a.method === 'tools/call').map((a) => a.outcome)).toEqual(['INPUT_REQUIRED', 'TOOL_SUCCESS', 'INPUT_REQUIRED', 'TOOL_ERROR']);
  });
});

describe('the observations page as a judge may save it', () => {
  it('pretty-printed (`jq .` of the list API\'s page, newest first) or as an array of rows: the same joins as the page on one line', () => {
    const page = JSON.parse(readFileSync(`${DIR}v2-elicitation/observations-page.json`, 'utf8')) as { items: unknown[] };
    const dir = mkdtempSync(join(tmpdir(), 'audit58-'));
    writeFileSync(join(dir, 'pretty.json'), `${JSON.stringify(page, null, 2)}\n`);
    writeFileSync(join(dir, 'items.json'), `${JSON.stringify(page.items, null, 2)}\n`);
    const one = run('v2-elicitation', 'observations-page.json').attempts.map(why);
    for (const f of ['pretty.json', 'items.json']) {
      const r = triageCli<Attempt, ReportFinding>([clientOf('v2-elicitation'), join(dir, f)]);
      expect(r.attempts.map(why), f).toEqual(one);
      expect(r.unusable).toBe(0);
    }
  });
});

describe('what the kitchen\'s records cannot join, and what they do not take', () => {
  it('the Development text lines ("HH:mm:ss ", no date) are counted, not joined (near miss)', () => {
    const r = run('ts-status-sequence', 'kitchen-console.txt');
    for (const a of r.attempts) expect(why(a)).not.toMatch(/kitchen's request log/);
    expect(notes(r).some((n) => /4 lines have no date \(Development's "HH:mm:ss " time\): counted, not joined/.test(n))).toBe(true);
    // ASP.NET's own hosting lines and the lifetime lines are skipped, not unusable
    expect(r.unusable).toBe(0);
  });
  it('the Python client\'s DEBUG log as logging.basicConfig writes it has no time: nothing is joined (near miss)', () => {
    const r = triageCli<Attempt, ReportFinding>([`${DIR}py-tool-error/client.log`, `${DIR}py-tool-error/observations.ndjson`]);
    expect(r.attempts.length).toBeGreaterThan(0);
    for (const a of r.attempts) expect(why(a)).not.toMatch(/kitchen's observation/);
  });
  it('alone, the kitchen\'s records make no attempts: a note counts them', () => {
    const r = triageCli<Attempt, ReportFinding>([`${DIR}ts-status-sequence/kitchen-console.json.log`, `${DIR}ts-status-sequence/observations-stream.txt`]);
    expect(r.attempts).toEqual([]);
    expect(notes(r).join('\n')).toMatch(/request log, the server's own account of 4 POSTs \/mcp .*; 0 joined .*HTTP 503 x1/);
  });
  it('a .NET JSON line of another category with the same words is not the kitchen\'s request log (near miss)', () => {
    const line = JSON.stringify({ Timestamp: '2026-12-06T12:00:00.0000000+00:00', EventId: 0, LogLevel: 'Error', Category: 'Contoso.Web.AccessLog', Message: 'HTTP POST /mcp responded 503 in 2ms', State: { Message: 'HTTP POST /mcp responded 503 in 2ms' } });
    const file = join(mkdtempSync(join(tmpdir(), 'audit58-')), 'other.log');
    writeFileSync(file, `${line}\n`);
    const r = triageCli<Attempt, ReportFinding>([file]);
    expect((r.summary.inputs as { formats: Record<string, number> }[])[0]!.formats).not.toHaveProperty('kitchen-log');
    expect(notes(r).join('\n')).not.toMatch(/kitchen/);
  });
});
