// Healthy traffic under load (test/fixtures/real-healthy): real SDK 1.32.2 clients and servers, nothing injected, and
// what mcp-triage must not say of it. The recordings are committed; node test/real-healthy/record.mjs re-records them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { triageCli, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-healthy/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; session: string | null; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string;
  call: string; attempt: number; retryOrigin?: { origin: string; how: string }; findings: Finding[]; notSeenByServer?: boolean; cancelled?: boolean;
  ts: string; durationMs?: number; sources: { file: string; line: number }[]; sse?: { events: number; progress: number }; detail?: { why?: string };
}
interface SessionFinding { type: 'finding'; session: string | null; code: string; severity: string; message: string }
type Run = CliRun<Attempt, SessionFinding>;
interface Step { step: string; ok: boolean; got?: { content?: { text: string }[]; isError?: boolean }; error?: { message: string; code?: number } }
interface Observed { steps: Step[]; notes: Record<string, unknown>[] }

type View = 'both' | 'client' | 'server';
const file = (s: string, side: 'client' | 'server') => {
  const plain = `${DIR}${s}/${side}.ndjson`;
  return existsSync(plain) ? plain : `${plain}.gz`;
};
const readLog = (s: string, side: 'client' | 'server') => {
  const f = file(s, side);
  return (f.endsWith('.gz') ? gunzipSync(readFileSync(f)).toString('utf8') : readFileSync(f, 'utf8')).split('\n');
};
const cache = new Map<string, Run>();
function run(s: string, view: View = 'both'): Run {
  const key = `${s}|${view}`;
  let r = cache.get(key);
  if (!r) {
    const args = view === 'both' ? ['--client', file(s, 'client'), '--server', file(s, 'server')] : [`--${view}`, file(s, view)];
    r = triageCli<Attempt, SessionFinding>(args);
    cache.set(key, r);
  }
  return r;
}
const allFindings = (r: Run) => [...r.attempts.flatMap((a) => a.findings.map((f) => ({ ...f, on: `${a.method} ${a.tool ?? ''} id ${a.id}` }))), ...r.findings.map((f) => ({ ...f, on: 'session' }))];
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as Observed;
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));
const healthy = scenarios.filter((s) => s !== 'cancel-and-timeout');
const views: View[] = ['both', 'client', 'server'];
const textOf = (st: Step) => st.got?.content?.map((c) => c.text).join(' ') ?? '';

describe('healthy traffic under load: every recording', () => {
  it('has the scenarios the README lists', () => {
    expect(scenarios).toEqual(expect.arrayContaining(['many-clients-stateful', 'many-clients-stateful-json', 'many-clients-stateless', 'many-clients-stateless-json', 'many-processes', 'one-session-burst', 'long-session', 'close-reconnect', 'cancel-and-timeout', 'py-many-clients-stateful', 'py-many-clients-stateless-json', 'v2-many-clients', 'py-clients']));
  });

  it.each(scenarios)('%s: read whole, in each view, analyzed without error', (s) => {
    for (const view of views) {
      const r = run(s, view);
      expect(r.code, view).toBe(0);
      expect(r.unusable, view).toBe(0);
      expect(calls(r).length, view).toBeGreaterThan(0);
    }
  });

  it.each(healthy)('%s: no warning or error finding, in either view or both joined', (s) => {
    for (const view of views) {
      const bad = allFindings(run(s, view)).filter((f) => f.severity !== 'info');
      expect(bad.map((f) => `[${view}] ${f.code} (${f.on}): ${f.message}`)).toEqual([]);
    }
  });

  it.each(healthy)('%s: every call a call of its own (no retries invented), the two views agree, every attempt seen by the server', (s) => {
    for (const view of views) {
      const r = run(s, view);
      expect(r.summary.retries, view).toBe(0);
      expect(r.attempts.every((a) => a.attempt === 1), view).toBe(true);
      expect(new Set(r.attempts.map((a) => a.call)).size, view).toBe(r.attempts.length);
    }
    const both = run(s);
    for (const a of both.attempts) {
      expect(a.notSeenByServer, `${a.method} id ${a.id}`).toBeUndefined();
      expect(a.serverOutcome, `${a.method} id ${a.id}`).toBe(a.outcome);
    }
    // the join paired each client request with the server's record of that same request (the same arguments), even
    // where four clients sent the same id at once and the server's log has no connection key (stateless)
    const lines = { client: readLog(s, 'client'), server: readLog(s, 'server') };
    for (const a of calls(both)) {
      const args = (side: 'client' | 'server') => a.sources.filter((x) => x.file.includes(`/${side}.ndjson`)).map((x) => JSON.parse(lines[side][x.line - 1]!) as { kind: string; send?: { params?: { arguments?: unknown } } }).find((x) => x.kind === 'request')?.send?.params?.arguments;
      expect(args('client'), `${a.tool} id ${a.id}`).toBeDefined();
      expect(args('server'), `${a.tool} id ${a.id}`).toEqual(args('client'));
    }
    // each view alone finds as many attempts, with the same outcomes
    const outcomes = (r: Run) => r.attempts.map((a) => `${a.method} ${a.outcome}`).sort();
    expect(outcomes(run(s, 'client'))).toEqual(outcomes(both));
    expect(outcomes(run(s, 'server'))).toEqual(outcomes(both));
  });

  it.each(healthy.filter((s) => s !== 'many-processes' && s !== 'py-clients'))('%s: each tools/call has the outcome its caller got', (s) => {
    const got = observed(s).steps.filter((st) => !/^(tools\/list|ping|resources\/read|prompts\/get|completion\/complete|terminateSession|close)\b/.test(st.step));
    const want = got.map((st) => (st.ok ? (st.got?.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS') : 'failed')).sort();
    expect(calls(run(s)).map((a) => a.outcome).sort()).toEqual(want);
  });
});

describe('several clients on one server, each numbering its ids from 0', () => {
  it('four sessions send id 1 at once with different arguments and all get "ok": identical results, and no ORPHAN_RESPONSE (no crossed answer)', () => {
    for (const s of ['many-clients-stateful', 'many-clients-stateful-json', 'py-many-clients-stateful']) {
      const r = run(s);
      const ones = calls(r).filter((a) => a.id === 1);
      expect(ones).toHaveLength(4);
      expect(new Set(ones.map((a) => a.session)).size).toBe(4);
      expect(new Set(ones.map((a) => a.tool))).toEqual(new Set(['update_setting']));
      // they overlapped in time and ended within a few tens of ms of each other
      const start = ones.map((a) => Date.parse(a.ts));
      const end = ones.map((a) => Date.parse(a.ts) + (a.durationMs ?? 0));
      expect(Math.max(...start)).toBeLessThan(Math.min(...end));
      expect(Math.max(...end) - Math.min(...end)).toBeLessThan(250);
      // what each caller got: the same "ok"
      const got = observed(s).steps.filter((st) => / update_setting theme=/.test(st.step)).map(textOf);
      expect(got).toEqual(['ok', 'ok', 'ok', 'ok']);
      expect(ones.flatMap((a) => a.findings)).toEqual([]);
    }
  });

  it('two tools that both answer "ok", interleaved in four sessions, and empty results ({"content":[]}), are successes with nothing said', () => {
    const r = run('many-clients-stateful');
    const byId = (id: number) => calls(r).filter((a) => a.id === id);
    expect(byId(2).map((a) => a.tool)).toEqual(['clear_cache', 'clear_cache', 'clear_cache', 'clear_cache']);
    expect(observed('many-clients-stateful').steps.filter((st) => / clear_cache agent-/.test(st.step)).map((st) => st.got?.content)).toEqual([[], [], [], []]);
    expect(new Set([...byId(4), ...byId(5)].map((a) => a.tool))).toEqual(new Set(['record_event', 'update_setting']));
    expect(calls(r).every((a) => a.outcome === 'TOOL_SUCCESS')).toBe(true);
  });

  it('the same request from four sessions at once (lookup_order 1001, id 3) is four calls, not retries', () => {
    for (const s of ['many-clients-stateful', 'many-clients-stateless', 'py-many-clients-stateful']) {
      const same = calls(run(s)).filter((a) => a.id === 3);
      expect(same.map((a) => a.tool)).toEqual(['lookup_order', 'lookup_order', 'lookup_order', 'lookup_order']);
      expect(new Set(same.map((a) => a.call)).size).toBe(4);
    }
  });

  it('stateless (no session id; SSE and JSON answers; the v2 SDK on 2026-07-28): one scope per client connection, ids reused across clients raise nothing', () => {
    for (const s of ['many-clients-stateless', 'many-clients-stateless-json', 'py-many-clients-stateless-json', 'v2-many-clients']) {
      const r = run(s);
      expect(r.attempts.every((a) => a.session === null)).toBe(true);
      expect(calls(r).filter((a) => a.id === 1)).toHaveLength(4);
    }
  });

  it('five client processes of one app (the same client name, "worker"), 12 calls at once each, the same lookup in all: 60 calls, no retries', () => {
    const r = run('many-processes');
    expect(calls(r)).toHaveLength(60);
    expect(new Set(calls(r).map((a) => a.session)).size).toBe(5);
    expect(r.summary.retries).toBe(0);
    const got = observed('many-processes').notes.flatMap((n) => n.results as string[]);
    expect(got).toHaveLength(60);
    expect(got.filter((g) => g.startsWith('error'))).toEqual([]);
  });

  it('four Python SDK clients at once (the client\'s view a recording proxy): 92 calls, all "ok" or empty but the lookups, as each caller got them, nothing said', () => {
    const r = run('py-clients');
    const got = (observed('py-clients').notes[0]!.pythonClients as { tool: string; got?: { isError: boolean; content: (string | null)[] }; error?: string }[]);
    expect(got).toHaveLength(92);
    expect(got.filter((g) => g.error !== undefined || g.got!.isError)).toEqual([]);
    expect(new Set(got.filter((g) => g.tool !== 'lookup_order').map((g) => JSON.stringify(g.got!.content)))).toEqual(new Set(['["ok"]', '[]']));
    expect(calls(r)).toHaveLength(92);
    expect(calls(r).every((a) => a.outcome === 'TOOL_SUCCESS')).toBe(true);
    // the Python client numbers from 1 (initialize): id 2 is update_setting in every session, each with its own value, all "ok"
    expect(calls(r).filter((a) => a.id === 2).map((a) => a.tool)).toEqual(['update_setting', 'update_setting', 'update_setting', 'update_setting']);
    expect(new Set(calls(r).filter((a) => a.id === 2).map((a) => a.session)).size).toBe(4);
  });
});

describe('one session, many calls', () => {
  it('40 calls at once on one session: progress counted for the calls that asked, structuredContent matching the outputSchema, identical results not retries', () => {
    const r = run('one-session-burst');
    expect(calls(r)).toHaveLength(40);
    expect(calls(r).every((a) => a.outcome === 'TOOL_SUCCESS')).toBe(true);
    const slow = calls(r).filter((a) => a.tool === 'slow_report');
    expect(slow).toHaveLength(8);
    expect(slow.map((a) => a.sse?.progress)).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
    expect(observed('one-session-burst').notes).toContainEqual({ progressSeen: 24 });
    expect(calls(r).filter((a) => a.tool === 'check_stock')).toHaveLength(8);
  });

  it('a long session: hundreds of calls, list_changed, ping, resources/read, prompts/get, completion/complete, all successes', () => {
    const r = run('long-session');
    expect(calls(r).length).toBeGreaterThanOrEqual(240);
    const methods = new Set(r.attempts.map((a) => a.method));
    for (const m of ['ping', 'resources/read', 'prompts/get', 'completion/complete', 'tools/list']) expect(methods).toContain(m);
    expect(r.attempts.every((a) => a.outcome === 'SUCCESS' || a.outcome === 'TOOL_SUCCESS')).toBe(true);
    expect(observed('long-session').notes).toContainEqual({ listChanged: 1 });
  });
});

describe('clean close, reconnect, and a tool error', () => {
  it('DELETE accepted, a new Client goes on; isError results are TOOL_ERROR, and nothing more is said', () => {
    const r = run('close-reconnect');
    expect(calls(r).map((a) => `${a.tool} ${a.outcome}`)).toEqual([
      'update_setting TOOL_SUCCESS', 'validate_quantity TOOL_ERROR', 'validate_quantity TOOL_ERROR', 'validate_quantity TOOL_SUCCESS', 'update_setting TOOL_SUCCESS',
    ]);
    expect(new Set(calls(r).map((a) => a.session)).size).toBe(2);
    // the same failing call repeated in the new session is a call of its own: a tool error is no failure to retry
    expect(r.summary.retries).toBe(0);
    expect(allFindings(r)).toEqual([]);
  });
});

describe('client decisions: a cancellation and a timeout', () => {
  it('each is CANCELLED with the client\'s own reason, as a client decision; the repeated call says the client had cancelled the first', () => {
    for (const view of views) {
      const r = run('cancel-and-timeout', view);
      const slow = calls(r).filter((a) => a.tool === 'slow_report');
      expect(slow.map((a) => a.outcome)).toEqual(['STREAM_INCOMPLETE', 'STREAM_INCOMPLETE', 'TOOL_SUCCESS']);
      expect(slow[0]!.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.1\d s after sending it/);
      const f = allFindings(r);
      expect(f.map((x) => `${x.severity} ${x.code}`)).toEqual(['warning CANCELLED', 'warning CANCELLED', 'warning RETRY_ORIGIN_AMBIGUOUS']);
      expect(f[0]!.message).toMatch(/after 0\.1\d s, with the reason "user pressed stop" \(the caller's decision, not an answer from the server\)$/);
      expect(f[1]!.message).toMatch(/after 0\.2\d s, with the reason "McpError: MCP error -32001: Request timed out" \(its own timeout, not an answer from the server\)$/);
      // the user ran the same call again after stopping it: linked as its second POST, and says why the first ended
      expect(f[2]!.message).toMatch(/POST 2 of the call after STREAM_INCOMPLETE, which the client had cancelled itself; origin unknown/);
    }
  });

  it('what the caller got: its own abort reason and the SDK\'s local -32001', () => {
    const steps = observed('cancel-and-timeout').steps;
    expect(steps.find((st) => st.step.startsWith('slow_report 5x100, aborted'))!.error).toMatchObject({ code: -32001, message: 'MCP error -32001: user pressed stop' });
    expect(steps.find((st) => st.step.startsWith('slow_report 5x100 again'))!.error).toMatchObject({ code: -32001, message: 'MCP error -32001: Request timed out' });
  });
});

describe('a call that runs for minutes while the logs go on', () => {
  it('a tool that works 90 s without a word, while another client calls every 2 s, succeeded: in every view, no diagnostic', () => {
    const caller = observed('slow-tool-busy-server').steps.find((st) => st.step.startsWith('slow_report'))!;
    expect(caller.ok).toBe(true);
    expect(textOf(caller)).toBe('report ready after 1 steps');
    for (const view of views) {
      const r = run('slow-tool-busy-server', view);
      const slow = calls(r).filter((a) => a.tool === 'slow_report');
      expect(slow.map((a) => a.outcome), view).toEqual(['TOOL_SUCCESS']);
      expect(slow[0]!.durationMs).toBeGreaterThanOrEqual(90_000);
      // the other client kept time moving past --window (60 s) while the slow call was silent
      const during = calls(r).filter((a) => a.tool === 'lookup_order' && Date.parse(a.ts) > Date.parse(slow[0]!.ts) + 61_000);
      expect(during.length).toBeGreaterThan(10);
      expect((r.summary as { diagnostics: { total: number } }).diagnostics.total).toBe(0); // no late record left unread
    }
  });
});
