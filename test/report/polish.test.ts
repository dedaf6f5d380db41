// The report polish of the 30th audit: counts in the singular or plural (no "(s)"), no parenthesis inside another in finding messages, a whole HAR counted in entries, refused notifications in the Mermaid diagrams, the findings table at 120 columns, and the sessions view's names under a filter.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, BOTH, ROOT, SAMPLES } from '../cli/helpers.js';
import { ok, post, toolText } from '../helpers/analyze.js';
import { sequenceDiagram } from '../../src/report/markdown.js';

const ALL = [...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`];
const FIX = `${ROOT}test/fixtures/`;
const env = (columns = '1000') => ({ env: { COLUMNS: columns } });

/** A "(s)" plural (`1 event(s)`), not the scheme pattern `http(s)`. */
const sPlural = (text: string) => /\w\(s\)/.exec(text.replace(/https?\(s\)/g, ''))?.[0];

/** A parenthesis inside another, outside quoted log text ("stream reset by proxy (idle timeout)") and a call's `()`. */
function nested(message: string): boolean {
  let depth = 0;
  for (const ch of message.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\w\(\)/g, '')) {
    if (ch === '(' && ++depth > 1) return true;
    if (ch === ')') depth = Math.max(0, depth - 1);
  }
  return false;
}

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mcpt-polish-')), name);
  writeFileSync(file, text);
  return file;
}

/** The finding messages of a run, attempt-level and session-level. */
async function messages(args: string[]): Promise<{ code: string; message: string }[]> {
  const r = await cli(['-f', 'ndjson', ...args]);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; code: string; message: string; findings?: { code: string; message: string }[] })
    .flatMap((o) => (o.type === 'finding' ? [o] : o.type === 'attempt' ? o.findings ?? [] : []));
}

describe('counts say 1 attempt, 2 attempts: no "(s)"', () => {
  it('plural()', async () => {
    const { plural } = await import('../../src/report/text.js');
    expect([plural(1, 'attempt'), plural(0, 'attempt'), plural(2, 'retry', 'retries'), plural(1, 'retry', 'retries')]).toEqual(['1 attempt', '0 attempts', '2 retries', '1 retry']);
  });

  it('the samples in every report and view, table and Markdown (before: "42 attempt(s) in 30 call(s)", "1 SSE event(s)", "6 session(s)")', async () => {
    for (const args of [ALL, ['-f', 'markdown', ...ALL], ['sessions', ...ALL], ['sessions', '-f', 'markdown', ...ALL], ['timeline', 'a3f1', ...ALL], ['timeline', 'a3f1', '-f', 'markdown', ...ALL]]) {
      const r = await cli(args, env());
      expect(r.code, args.join(' ')).toBe(0);
      expect(sPlural(r.stdout), args.slice(0, 3).join(' ')).toBeUndefined();
    }
    expect((await cli(ALL, env())).stdout).toMatch(/^mcp-triage \S+: 42 attempts in 30 calls, 9 retries;/);
  });

  it('one of each is singular: 1 attempt in 1 call, 1 input, 1 session, 1 unusable line of 2', async () => {
    const file = tempFile('one.ndjson', `${JSON.stringify(post({ id: 1, status: 200, session: 's1', body: ok(1, toolText('done')) }))}\nnot json\n`);
    expect((await cli([file], env())).stdout).toMatch(/: 1 attempt in 1 call, 0 retries;/);
    const md = await cli(['-f', 'markdown', file]);
    expect(md.stdout).toContain('from 1 input.');
    expect(md.stderr).toContain('mcp-triage: 1 unusable line of 2; see the summary for where');
    expect((await cli(['sessions', file], env())).stdout).toMatch(/: 1 session, 1 attempt\n/);
  });

  it('the notes: a refused version probe (test/fixtures/real-agents/oa-baseline: before "1 server/discover probe(s) were refused ... their clients")', async () => {
    const r = await cli(['-f', 'ndjson', `${FIX}real-agents/oa-baseline/client.ndjson`, `${FIX}real-agents/oa-baseline/server.ndjson`]);
    const notes = (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { notes: string[] }).notes;
    expect(notes.some((n) => n.startsWith('1 server/discover probe was refused by a server older than 2026-07-28 and its client fell back'))).toBe(true);
    expect(notes.map(sPlural).filter(Boolean)).toEqual([]);
  });
});

describe('finding messages put no parenthesis inside another', () => {
  it('NO_FINAL_RESULT gives the why after its verdict (before: "... for it (the stream was aborted ... (its end says ...) ...): 200 is not success")', async () => {
    const found = (await messages(ALL)).filter((f) => f.code === 'NO_FINAL_RESULT');
    expect(found.length).toBeGreaterThan(0);
    expect(found.find((f) => f.message.startsWith('tools/call export_report id 6:'))!.message)
      .toMatch(/^tools\/call export_report id 6: HTTP 200 text\/event-stream but no JSON-RPC response for it, so 200 is not success: the stream was aborted 15\.00 s after sending it, before any response came \(its end says "stream reset by proxy \(idle timeout\)", not a close by the client\), and the client sent notifications\/cancelled only 45\.00 s later; 1 SSE event came before that$/);
    for (const f of found) expect(nested(f.message), f.message).toBe(false);
  });

  it('a cut JSON body and a fault with parentheses of its own (real-chaos-py/json-seed-16, real-audit59/ts-status-500; before: "(body is not JSON (Unterminated ...))", "(fetch failed: other side closed (UND_ERR_SOCKET))")', async () => {
    const dir = `${FIX}real-chaos-py/json-seed-16/`;
    const cut = await messages([`${dir}client.ndjson.gz`, `${dir}server.ndjson.gz`]);
    expect(cut.some((f) => f.code === 'NO_FINAL_RESULT' && f.message.includes('what did was cut: body is not JSON (Unterminated string'))).toBe(true);
    // (A fault whose own words hold a parenthesis: the bare 500's "(no body, no Content-Type)", after the finding's own
    // "(HTTP_ERROR, HTTP 500)". real-audit20's logs of two runs given together once gave a CALL_NEVER_SENT quoting
    // "(UND_ERR_SOCKET)"; that finding came from mixing the runs, and each run alone has none.)
    const s500 = `${FIX}real-audit59/ts-status-500/`;
    const fault = await messages(['--client', `${s500}client.ndjson`, '--server', `${s500}server.ndjson`]);
    const never = fault.filter((f) => f.code === 'CALL_NEVER_SENT');
    expect(never.length).toBeGreaterThan(0);
    expect(never[0]!.message).toMatch(/\(HTTP_ERROR, HTTP 500\) and no tools\/call was sent afterwards: a fault meant for tools\/call may have hit an earlier request; HTTP 500 Internal Server Error: a bare status line \(no body, no Content-Type\): /);
    const a20 = await messages(readdirSync(`${FIX}real-audit20`).filter((f) => f.endsWith('.gz')).map((f) => `${FIX}real-audit20/${f}`));
    for (const f of [...cut, ...fault, ...a20, ...(await messages(ALL))]) expect(nested(f.message), f.message).toBe(false);
    // (real-audit20's logs hold thousands of calls: seconds of analysis on a busy machine.)
  }, 60_000);
});

describe('a whole HAR is counted in entries, not lines', () => {
  const har = `${FIX}real-har/baseline.har`;

  it('the Inputs tables name the unit (before: "lines 10" for a HAR file of 1438 lines)', async () => {
    const alone = await cli([har], env());
    expect(alone.stdout).toContain('Inputs (entries = used + blank + skipped + unusable; entries: of a whole HAR; skipped: well-formed, no MCP traffic)');
    expect(alone.stdout).toMatch(/│ input +│ side │ format +│ entries │ used │/);
    const both = await cli([har, `${FIX}real-har/baseline.server.ndjson`], env());
    expect(both.stdout).toMatch(/│ lines \/ entries │/);
    // (the HAR's entries state no side, the server log's records state the server's: the HAR is read as the client's view)
    expect(both.stdout).toMatch(/baseline\.har +│ client \(assumed\) +│ har \(whole HAR\) +│ 10 entries +│ 8 +│/);
    expect(both.stdout).toMatch(/baseline\.server\.ndjson +│ \S+ +│ \S+ +│ \d+ lines +│/);
    expect((await cli([har], env('80'))).stdout).toContain('10 entries: 8 used,');
    const md = (await cli(['-f', 'markdown', har, `${FIX}real-har/baseline.server.ndjson`])).stdout;
    expect(md).toContain('lines / entries = used + blank + skipped + unusable; entries: of a whole HAR;');
    expect(md).toMatch(/\| \S*test\/fixtures\/real-har\/baseline\.har \| client \(assumed\) \| har \| 10 entries \| 8 \|/);
  });

  it('stderr says unusable HAR entries, and the JSON keeps its fields (inputs[].lines counts the entries, mode "har")', async () => {
    const file = tempFile('broken.har', JSON.stringify({ log: { version: '1.2', creator: { name: 'test' }, entries: [42, 'x'] } }, null, 2));
    const r = await cli(['-f', 'json', file]);
    expect(r.stderr).toContain('mcp-triage: 2 unusable HAR entries of 2; see the summary for where');
    const input = (JSON.parse(r.stdout) as { summary: { inputs: { mode: string; lines: number; unusable: number }[]; lines: { read: number } } }).summary;
    expect(input.inputs[0]).toMatchObject({ mode: 'har', lines: 2, unusable: 2 });
    expect(input.lines.read).toBe(2);
  });
});

describe('the Mermaid sequence diagrams draw the notifications the server refused', () => {
  it('the samples: the probe session c4d5 shows its notifications/initialized and the 503 (before: its initialize alone)', async () => {
    const md = (await cli(['-f', 'markdown', ...ALL])).stdout;
    const diagram = md.split('### Session c4d5e6f7-0819-4a2b-9c3d-4e5f60718293')[1]!.split('```')[1]!;
    expect(diagram).toContain('  C->>S: POST initialize id 0\n  S-->>C: HTTP 200 SUCCESS\n  C->>S: POST notifications/initialized\n  S-->>C: HTTP 503 refused\n');
    const timeline = (await cli(['timeline', 'c4d5', '-f', 'markdown', ...ALL])).stdout;
    expect(timeline).toContain('  C->>S: POST notifications/initialized\n  S-->>C: HTTP 503 refused\n');
  });

  it('in time order among the attempts, escaped as the attempts are', () => {
    const row = (ts: string, id: number) => ({ method: 'tools/call', tool: 'search', id, ts, status: 200, outcome: 'TOOL_SUCCESS' }) as never;
    const text = sequenceDiagram([row('2026-10-17T09:00:00.000Z', 1), row('2026-10-17T09:00:02.000Z', 2)], [
      { what: 'notifications/x;%%{init: {"theme":"dark"}}%%', status: 405, ts: Date.parse('2026-10-17T09:00:01.000Z') },
      { what: 'notifications/untimed', status: 400 },
    ]);
    const lines = text.split('\n');
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    expect(at('id 1')).toBeLessThan(at('HTTP 405 refused'));
    expect(at('HTTP 405 refused')).toBeLessThan(at('id 2'));
    expect(at('notifications/untimed')).toBeGreaterThan(at('id 2'));
    const hostile = lines[at('notifications/x')]!;
    expect(hostile.startsWith('  C->>S: POST notifications/x')).toBe(true);
    expect(hostile.slice('  C->>S:'.length)).not.toMatch(/[;%{}":]/);
  });
});

describe('the findings table at 120 columns', () => {
  it('long evidence paths give way before a code breaks (test/fixtures/real-agents/oa-close-during-call: before `NO_` over `FINAL_` over `RESULT` beside 57 columns of folders)', async () => {
    const dir = `${FIX}real-agents/oa-close-during-call/`;
    const out = (await cli([`${dir}client.ndjson`, `${dir}server.ndjson`], env('120'))).stdout;
    const findings = out.split('\nFindings\n')[1]!.split('\n\n')[0]!;
    expect(findings).toMatch(/│ error +│ NO_FINAL_RESULT │ /);
    const [, , code, message, evidence] = findings.split('\n')[1]!.split('│').map((c) => c.length - 2);
    expect(code).toBe('NO_FINAL_RESULT'.length);
    expect(message).toBeGreaterThanOrEqual(40);
    expect(evidence).toBeGreaterThanOrEqual('…client.ndjson:16'.length);
    expect(findings).toContain('client.ndjson:16 │');
    for (const l of findings.split('\n')) expect([...l].length).toBeLessThanOrEqual(120);
  });

  it('files of one name in two folders keep the folders that tell them apart', async () => {
    const a = `${FIX}real-agents/oa-close-during-call/client.ndjson`;
    const b = `${FIX}real-agents/lc-tool-timeout/client.ndjson`;
    const out = (await cli([a, b], env('100'))).stdout;
    const findings = out.split('\nFindings\n')[1]!.split('\n\n')[0]!;
    expect(findings).toMatch(/oa-close-during-call\/client\.ndjson:\d+ │/);
    expect(findings).toMatch(/lc-tool-timeout\/client\.ndjson:\d+ +│/);
  });
});

describe('sessions under a filter that drops the initialize', () => {
  it('keep the server and client the initialize named (before: a blank server)', async () => {
    const r = await cli(['sessions', '-f', 'json', ...BOTH, '--tool', 'export_report']);
    const rows = (JSON.parse(r.stdout) as { sessions: { session: string; server?: string; client?: string; protocolVersion?: string; attempts: number }[] }).sessions;
    expect(rows).toEqual([expect.objectContaining({ session: 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601', server: 'tickets-mcp/3.1.0', client: 'acme-agent/2.4.1', protocolVersion: '2025-11-25', attempts: 2 })]);
    expect((await cli(['sessions', ...BOTH, '--tool', 'export_report'], env())).stdout).toContain('tickets-mcp/3.1.0');
    expect((await cli(['sessions', ...BOTH, '--since', '2026-10-17T09:13:00Z'], env())).stdout).toMatch(/a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601 │ acme-agent\/2\.4\.1 +│ tickets-mcp\/3\.1\.0 /);
  });

  it('the timeline header too', async () => {
    const r = await cli(['timeline', 'a3f1', ...BOTH, '--tool', 'export_report'], env());
    expect(r.stdout).toMatch(/client acme-agent\/2\.4\.1, server tickets-mcp\/3\.1\.0, protocol 2025-11-25; 2 attempts/);
  });
});
