// Real Claude Code 2.1.197 MCP logs (test/fixtures/real-claude-code), alone and with the wire of the same run, and what mcp-triage says of them.
// The recordings are committed; re-recording needs the npm package (see record.mjs): npm test never runs Claude Code.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, triageCli } from '../helpers/triage-cli.js';
import { toolCalls as calls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-claude-code/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt {
  type: 'attempt'; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; call: string; attempt: number;
  claim?: { outcome?: string; errorCode?: number | null; message?: string; retryOrigin?: string; only?: true; source: { file: string; line: number } };
  retryOrigin?: { origin: string; how: string }; findings: Finding[]; durationMs?: number; detail?: { why?: string; errorCode?: number; errorMessage?: string };
}
interface Summary { claims: { total: number; matched: number; alone: number; unmatched: unknown[] }; lines: { read: number; used: number; skipped: number; unusable: number }; diagnostics: { total: number; byCode: Record<string, number> } }
interface Run { attempts: Attempt[]; summary: Summary; code: number | null }

/** The report of `mcp-triage --format ndjson FILES`, once per set of files. */
const runs = new Map<string, Run>();
function triage(files: string[]): Run {
  let run = runs.get(files.join('\0'));
  if (!run) {
    const r = triageCli<Attempt>(files);
    run = { attempts: r.attempts, summary: r.summary as unknown as Summary, code: r.code };
    runs.set(files.join('\0'), run);
  }
  return run;
}
const logs = (s: string) => readdirSync(DIR + s).filter((f) => f.startsWith('mcp-logs-')).map((f) => DIR + s + '/' + f);
const alone = (s: string) => triage(logs(s));
const joined = (s: string) => triage([`${DIR}${s}/wire.ndjson`, ...logs(s)]);
const outcomes = (r: Run) => calls(r).map((a) => `${a.tool} ${a.outcome}`);
const codes = (r: Run) => r.attempts.flatMap((a) => a.findings.map((f) => f.code));
const observed = (s: string) => JSON.parse(readFileSync(`${DIR}${s}/observed.json`, 'utf8')) as { claudeCode: string; toolResults: { isError: boolean; text: string }[] };
const scenarios = readdirSync(DIR).filter((s) => existsSync(`${DIR}${s}/observed.json`));

describe('every Claude Code recording', () => {
  it('has the recorded scenarios, all from Claude Code 2.1.197', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(13);
    for (const s of scenarios) expect(observed(s).claudeCode, s).toBe('2.1.197');
  });

  it.each(scenarios)('%s: every line is read as claude-code, and each that tells no call is counted as skipped, with no diagnostic', (s) => {
    const r = alone(s);
    expect(r.code).toBe(0);
    const lines = logs(s).reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').filter(Boolean).length, 0);
    expect(r.summary.lines.read).toBe(lines);
    expect(r.summary.lines.used + r.summary.lines.skipped).toBe(lines);
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.summary.diagnostics.byCode).toEqual({});
    // one call per "completed" / "failed" line, none invented
    const told = logs(s).reduce((n, f) => n + (readFileSync(f, 'utf8').match(/"debug":"Tool '[^']+' (completed successfully|failed after)/g) ?? []).length, 0);
    expect(calls(r)).toHaveLength(told);
    expect(r.summary.claims).toMatchObject({ total: told, matched: 0, alone: told });
  });

  it.each(scenarios.filter((s) => existsSync(`${DIR}${s}/wire.ndjson`)))('%s: with the wire, each claim of the HTTP server joins a call on the wire and adds none', (s) => {
    const wire = triage([`${DIR}${s}/wire.ndjson`]);
    const both = joined(s);
    const stdio = logs(s).filter((f) => f.endsWith('mcp-logs-local.jsonl')).flatMap((f) => calls(triage([f])));
    const unreached = calls(both).filter((a) => a.claim?.only && !a.claim.source.file.endsWith('mcp-logs-local.jsonl'));
    expect(calls(both).length).toBe(calls(wire).length + stdio.length + unreached.length);
    expect(codes(both)).not.toContain('OUTCOME_MISMATCH');
  });
});

describe('Claude Code\'s log alone: one outcome per tool call, as far as the log tells it', () => {
  it('success: TOOL_SUCCESS over HTTP and stdio, with the duration Claude Code measured', () => {
    const r = alone('success');
    expect(outcomes(r).sort()).toEqual(['lookup_order TOOL_SUCCESS', 'lookup_order TOOL_SUCCESS']);
    for (const a of calls(r)) expect(a.durationMs).toBeGreaterThan(0);
    expect(outcomes(alone('tool-error')).join()).not.toMatch(/SUCCESS/);
  });

  it('tool-error: an isError result (and a tool that threw, which the SDK turns into isError) is TOOL_ERROR, with its text', () => {
    const r = alone('tool-error');
    expect(outcomes(r).sort()).toEqual(['crash TOOL_ERROR', 'validate_quantity TOOL_ERROR', 'validate_quantity TOOL_ERROR']);
    expect(calls(r).map((a) => a.detail?.why)).toContain('claude-code logged: quantity must be positive, got -3');
    expect(observed('tool-error').toolResults.every((t) => t.isError)).toBe(true);
    expect(outcomes(alone('success')).join()).not.toMatch(/TOOL_ERROR/);
  });

  it('jsonrpc-error: the server\'s -32602 is JSONRPC_ERROR with its code, not TOOL_ERROR', () => {
    const r = alone('jsonrpc-error');
    expect(outcomes(r)).toEqual(['strict_lookup JSONRPC_ERROR', 'strict_lookup TOOL_SUCCESS']);
    expect(calls(r)[0]!.detail?.errorCode).toBe(-32602);
    expect(outcomes(alone('tool-error')).join()).not.toMatch(/JSONRPC_ERROR/);
  });

  it('timeout, stdio-crash: what Claude Code gave up on is UNANSWERED, its words as the why (the layer is not in the log)', () => {
    const t = calls(alone('timeout'));
    expect(t.map((a) => a.outcome)).toEqual(['UNANSWERED']);
    expect(t[0]!.detail?.why).toMatch(/timed out after 3s/);
    const c = calls(alone('stdio-crash'));
    expect(c.map((a) => `${a.tool} ${a.outcome}`)).toEqual(['exit_now UNANSWERED', 'lookup_order TOOL_SUCCESS']);
    expect(c[0]!.detail).toMatchObject({ errorCode: -32000 });
    expect(c[0]!.detail?.why).toMatch(/raised inside the client SDK/);
    expect(outcomes(alone('jsonrpc-error')).join()).not.toMatch(/UNANSWERED/);
  });

  it('server-down: "Unable to connect" is NO_RESPONSE; http-503 / http-500: "Error POSTing to endpoint" is HTTP_ERROR (the status is not logged)', () => {
    expect(outcomes(alone('server-down'))).toEqual(['lookup_order NO_RESPONSE']);
    for (const s of ['http-503', 'http-500']) {
      const r = alone(s);
      expect(outcomes(r)).toEqual(['lookup_order HTTP_ERROR']);
      expect(calls(r)[0]!.status).toBeNull();
    }
    expect(outcomes(alone('http-503')).join()).not.toMatch(/NO_RESPONSE/);
    expect(outcomes(alone('server-down')).join()).not.toMatch(/HTTP_ERROR/);
  });

  it('server-down-at-start: the connection failure is no tool call (the tool was never offered to the model)', () => {
    const r = alone('server-down-at-start');
    expect(calls(r)).toEqual([]);
    expect(observed('server-down-at-start').toolResults).toEqual([]);
  });

  it('session-expired: the call the lost session failed (a 404: Claude Code says so before the -32000) and its re-run are one call of two attempts, the retry Claude Code\'s own', () => {
    const r = alone('session-expired');
    const c = calls(r);
    expect(c.map((a) => `${a.outcome} ${a.status} ${a.call}#${a.attempt}`)).toEqual([`HTTP_ERROR 404 ${c[0]!.call}#1`, `TOOL_SUCCESS null ${c[0]!.call}#2`]);
    expect(c[0]!.detail).toMatchObject({ errorCode: -32000 });
    expect(c[1]!.retryOrigin).toEqual({ origin: 'app', how: 'claimed by the client log' });
    // a re-run in a new session after 404 is no unsafe retry, nor one that should have waited
    expect(codes(r)).toEqual([]);
    expect(calls(alone('stdio-crash')).every((a) => a.attempt === 1)).toBe(true);
    expect(outcomes(alone('stdio-crash')).join()).not.toMatch(/HTTP_ERROR/);
  });

  it('still-running: a call past 30 s is one TOOL_SUCCESS of about 31 s ("still running" lines add nothing)', () => {
    const c = calls(alone('still-running'));
    expect(c.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    expect(c[0]!.durationMs).toBeGreaterThan(30_000);
  });
});

describe('Claude Code\'s log with the wire of the same run: "Claude Code says X; the wire shows Y"', () => {
  it('tool-error, jsonrpc-error, http-503: the claims join the wire\'s attempts and agree with them', () => {
    for (const [s, want] of [['tool-error', 'TOOL_ERROR'], ['jsonrpc-error', 'JSONRPC_ERROR'], ['http-503', 'HTTP_ERROR']] as const) {
      const r = joined(s);
      const a = calls(r).find((x) => x.outcome === want && !x.claim?.source.file.endsWith('mcp-logs-local.jsonl'))!;
      expect(a, s).toBeDefined();
      expect(a.claim).toMatchObject({ outcome: want });
      expect(a.claim!.only).toBeUndefined();
      expect(typeof a.id).toBe('number'); // the wire's JSON-RPC id
    }
    expect(calls(joined('http-503')).find((a) => a.outcome === 'HTTP_ERROR')!.status).toBe(503);
  });

  it('session-expired: Claude Code claims -32000 for the POST the wire shows answered 404 (LOCAL_ERROR), and its re-run is its own retry', () => {
    const r = joined('session-expired');
    const c = calls(r);
    expect(c.map((a) => `${a.outcome} ${a.status}`)).toEqual(['HTTP_ERROR 404', 'TOOL_SUCCESS 200']);
    expect(c[0]!.findings.map((f) => f.code)).toContain('LOCAL_ERROR');
    expect(c[1]!.retryOrigin?.origin).toBe('app');
    expect(codes(joined('jsonrpc-error'))).not.toContain('LOCAL_ERROR');
  });

  it('timeout: the wire shows the cancelled stream; Claude Code\'s claim states no outcome, so there is nothing to contradict', () => {
    const c = calls(joined('timeout'));
    expect(c.map((a) => a.outcome)).toEqual(['STREAM_INCOMPLETE']);
    expect(c[0]!.findings.map((f) => f.code)).toContain('CANCELLED');
    expect(c[0]!.claim).toBeDefined();
    expect(c[0]!.claim!.outcome).toBeUndefined();
    // what Claude Code said of it stays in the report: the claim's message, the claimed column, the timeline's notes
    expect(c[0]!.claim!.message).toBe('MCP server "web" tool "slow_report" timed out after 3s');
    const files = [`${DIR}timeout/wire.ndjson`, ...logs('timeout')];
    for (const args of [files, ['--format', 'markdown', ...files], ['timeline', '1d9e', ...files], ['timeline', '1d9e', '--format', 'markdown', ...files]]) {
      // Wide enough that the terminal tables do not wrap the quoted words onto two lines.
      const p = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, COLUMNS: '1000' } });
      expect(p.stdout, args.join(' ')).toContain('timed out after 3s');
    }
  });

  it('server-down: the call never reached the wire, so Claude Code\'s claim is the only view of it', () => {
    const r = joined('server-down');
    expect(calls(r).map((a) => `${a.outcome} ${a.claim?.only ?? false}`)).toEqual(['NO_RESPONSE true']);
    expect(r.summary.claims).toMatchObject({ matched: 0, alone: 1 });
    expect(joined('http-503').summary.claims.alone).toBe(0);
  });

  it('a claim the wire contradicts is OUTCOME_MISMATCH (the real runs above never raise it): a log line edited to say success for the isError call', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-mismatch-'));
    const real = readFileSync(`${DIR}tool-error/mcp-logs-web.jsonl`, 'utf8').split('\n').filter(Boolean);
    const edited = real.filter((l) => !l.startsWith('{"error"')).map((l) => l.replace(/Tool 'validate_quantity' failed after 0s: [^"]*/, "Tool 'validate_quantity' completed successfully in 9ms"));
    writeFileSync(join(dir, 'mcp-logs-web.jsonl'), edited.join('\n') + '\n');
    const r = triage([`${DIR}tool-error/wire.ndjson`, join(dir, 'mcp-logs-web.jsonl')]);
    const a = calls(r).find((x) => x.tool === 'validate_quantity')!;
    expect(a.outcome).toBe('TOOL_ERROR');
    expect(a.findings.map((f) => f.code)).toContain('OUTCOME_MISMATCH');
    expect(codes(joined('tool-error'))).not.toContain('OUTCOME_MISMATCH');
  });
});

describe('Claude Code\'s debug file (--debug-file): the same account, every server in one file', () => {
  const debug = `${DIR}debug-file/claude-debug.txt`;
  const told = (r: Run) => calls(r).map((a) => `${a.tool} ${a.outcome} ${a.status} #${a.attempt}`).sort();

  it('gives the outcomes the mcp-logs JSONL files of the same run give, and accounts for every line', () => {
    const r = triage([debug]);
    expect(told(r)).toEqual(told(alone('debug-file')));
    expect(told(r)).toEqual(['lookup_order HTTP_ERROR 404 #1', 'lookup_order TOOL_SUCCESS null #1', 'lookup_order TOOL_SUCCESS null #1', 'lookup_order TOOL_SUCCESS null #2', 'strict_lookup JSONRPC_ERROR null #1', 'validate_quantity TOOL_ERROR null #1']);
    const lines = readFileSync(debug, 'utf8').split('\n').filter(Boolean).length;
    expect(r.summary.lines.read).toBe(lines);
    expect(r.summary.lines).toMatchObject({ used: 6, skipped: lines - 6, unusable: 0 });
  });

  it('with the wire: the HTTP server\'s claims join its calls; the stdio server\'s lookup_order, a tool of the same name, does not', () => {
    const r = triage([`${DIR}debug-file/wire.ndjson`, debug]);
    expect(r.summary.claims).toMatchObject({ total: 6, matched: 5, alone: 1 });
    const alone1 = calls(r).find((a) => a.claim?.only)!;
    expect(alone1.claim!.source.line).toBe(readFileSync(debug, 'utf8').split('\n').findIndex((l) => l.includes('MCP server "local": Tool \'lookup_order\' completed')) + 1);
    expect(codes(r)).not.toContain('OUTCOME_MISMATCH');
    expect(calls(r).filter((a) => a.status === 404).flatMap((a) => a.findings.map((f) => f.code))).toEqual(['LOCAL_ERROR']);
  });
});

describe('http-401: a 401 with a Bearer challenge on the tools/call POST', () => {
  it('alone: Claude Code tries OAuth against the server and fails the call with that text: UNANSWERED, its words as the why', () => {
    const c = calls(alone('http-401'));
    expect(c.map((a) => a.outcome)).toEqual(['UNANSWERED']);
    expect(c[0]!.detail?.why).toMatch(/HTTP 400: Invalid OAuth error response/);
  });

  it('with the wire: the 401 is there (HTTP_ERROR), and the claim, stating no outcome, does not contradict it', () => {
    const c = calls(joined('http-401'));
    expect(c.map((a) => `${a.outcome} ${a.status}`)).toEqual(['HTTP_ERROR 401']);
    expect(c[0]!.claim).toBeDefined();
    expect(c[0]!.claim!.outcome).toBeUndefined();
    expect(c[0]!.findings.map((f) => f.code)).not.toContain('OUTCOME_MISMATCH');
  });
});
