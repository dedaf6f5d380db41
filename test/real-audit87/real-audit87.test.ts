// The eighty-seventh audit: the human reports (terminal at 80 and 160 columns, Markdown, sessions, timeline) read as an on-call engineer reads them, held to what the apps and servers of the recordings saw (test/fixtures/real-audit87/*/observed.json, test/fixtures/real/, the samples).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOTH, ROOT, SAMPLES, cli } from '../cli/helpers.js';

const FIX = `${ROOT}test/fixtures/`;
const A87 = `${FIX}real-audit87/`;
const SAMPLE_ARGS = [...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`];

interface Observed { label?: string; ok?: unknown; error?: { name: string; message: string; code?: number | string; status?: number }; serverRan?: string[]; hop?: { request: string; action: string }[] }
interface JsonAttempt { session: string | null; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; serverOutcome?: string; call?: string; attempt?: number; notSeenByServer?: boolean; findings: { code: string; message: string }[]; retryOrigin?: { origin: string; how: string }; sse?: { end?: string } }

const observed = (scenario: string) => JSON.parse(readFileSync(`${A87}${scenario}/observed.json`, 'utf8')) as Observed[];
const step = (o: Observed[], label: string) => o.find((s) => s.label === label)!;
/** The incident's client view: the app's own recordingFetch log, or `mcp-triage record --side client` in front of the hop. */
const VIEWS = { recordingFetch: 'client.ndjson', 'mcp-triage record': 'proxy.ndjson' } as const;
const args = (scenario: string, view: string) => ['--client', `${A87}${scenario}/${view}`, '--server', `${A87}${scenario}/server.ndjson`];

/** A terminal table's rows as cells joined over their lines (`│ a │ b │` lines between rules). */
function rows(table: string): string[][] {
  const out: string[][] = [];
  let block: string[][] = [];
  for (const l of table.split('\n')) {
    if (l.startsWith('│')) block.push(l.slice(1, -1).split('│').map((c) => c.trim()));
    else if (block.length) {
      out.push(block[0]!.map((_, c) => block.map((b) => b[c] ?? '').filter(Boolean).join(' ')));
      block = [];
    }
  }
  return out;
}
const section = (out: string, title: string) => (title.startsWith('## ') ? out.split(`\n${title}`)[1]!.split('\n## ')[0]! : out.split(`\n${title}`)[1]!.split('\n\n')[0]!);
/** The delay the retry-chain table prints before attempt 2 of the call of this tool. */
const chainDelay = (text: string, tool: string) => new RegExp(`${tool}[^\\n]*?\\+([\\d.]+) ms →`).exec(text.replace(/\s*│\s*/g, ' ').replace(/`/g, ''))?.[1];

describe.each(['v1', 'v2'])('real-audit87 %s: one incident with everything at once (SDK client, fault hop, SDK 1.32.2 server)', (scenario) => {
  const o = observed(scenario);

  it('recorded what the scenario says: a hop 503 then a retry that worked, a cut stream of a non-idempotent tool retried, a tool error, a 404 after a restart then a new session', () => {
    expect(step(o, 'lookup_order A-1 #1').error?.message).toMatch(/upstream unavailable/);
    expect(step(o, 'lookup_order A-1 #2').ok).toEqual({ isError: false, text: 'order A-1: shipped' });
    expect(step(o, 'send_invoice A-1 #1').error?.message).toMatch(/timed out/i);
    expect(step(o, 'crash').ok).toEqual({ isError: true, text: 'database connection refused' });
    expect(step(o, 'lookup_order A-2 #1').error?.message).toMatch(/Session not found/);
    expect(step(o, 'lookup_order A-2 #2').ok).toEqual({ isError: false, text: 'order A-2: shipped' });
    // The invoice went out twice: the server ran the tool for the cut attempt too.
    expect(o.find((s) => s.serverRan)!.serverRan!.filter((r) => r === 'send_invoice A-1')).toHaveLength(2);
  });

  describe.each(Object.entries(VIEWS))('the client view by %s', (_, view) => {
    it('the analysis agrees with the truth: each attempt\'s outcome, where it failed, and the findings a postmortem needs', async () => {
      const r = await cli([...args(scenario, view), '--format', 'json']);
      const attempts = (JSON.parse(r.stdout) as { attempts: JsonAttempt[] }).attempts.filter((a) => a.method === 'tools/call');
      const of = (tool: string) => attempts.filter((a) => a.tool === tool);
      expect(of('lookup_order').map((a) => [a.outcome, a.status])).toEqual([['HTTP_ERROR', 503], ['TOOL_SUCCESS', 200], ['HTTP_ERROR', 404], ['TOOL_SUCCESS', 200]]);
      expect(of('lookup_order')[0]!.notSeenByServer).toBe(true);
      expect(of('send_invoice').map((a) => [a.outcome, a.serverOutcome])).toEqual([['STREAM_INCOMPLETE', 'TOOL_SUCCESS'], ['TOOL_SUCCESS', 'TOOL_SUCCESS']]);
      expect(of('crash').map((a) => a.outcome)).toEqual(['TOOL_ERROR']);
      const codes = new Set(attempts.flatMap((a) => a.findings.map((f) => f.code)));
      for (const c of ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE', 'CANCELLED', 'UNSAFE_RETRY']) expect(codes).toContain(c);
      // Who retried: the app's note is in its recordingFetch log only; the proxy's view cannot tell, and says so.
      expect(of('send_invoice')[1]!.retryOrigin?.origin).toBe(view === 'client.ndjson' ? 'app' : 'unknown');
      if (view === 'proxy.ndjson') expect(codes).toContain('RETRY_ORIGIN_AMBIGUOUS');
    });

    it('the retry chain\'s delay of the cut call runs from when the app gave up (its timeout\'s cancellation), as RETRY_POLICY says it; the app slept 200 ms', async () => {
      const withPolicy = [...args(scenario, view), '--min-retry-delay', '1000'];
      for (const format of ['table', 'markdown']) {
        const out = (await cli([...withPolicy, '--format', format], { env: { COLUMNS: '1000' } })).stdout;
        const policy = /send\\?_invoice: retry 1 came ([\d.]+) ms after the failure/.exec(out.replace(/\s*│\s*/g, ' '))?.[1];
        expect(policy, format).toBeDefined();
        const delay = chainDelay(section(out, format === 'table' ? 'Calls with more than one attempt' : '## Calls with more than one attempt'), 'send\\\\?_invoice');
        expect(Number(delay), `${format}: chain +${delay} ms, RETRY_POLICY ${policy} ms`).toBe(Number(policy));
        expect(Number(delay)).toBeGreaterThanOrEqual(150);
        expect(Number(delay)).toBeLessThan(600);
        // Near miss: the 503's retry, with no cancellation, keeps its delay from the 503's end, as RETRY_POLICY's.
        const lookupPolicy = /lookup\\?_order: retry 1 came ([\d.]+) ms after the failure/.exec(out.replace(/\s*│\s*/g, ' '))?.[1];
        const lookup = chainDelay(section(out, format === 'table' ? 'Calls with more than one attempt' : '## Calls with more than one attempt'), 'lookup\\\\?_order');
        expect(Number(lookup)).toBe(Number(lookupPolicy));
      }
    });
  });

  it('the findings table names the session and call#attempt of each finding under its code, as the attempts table names them', async () => {
    const json = JSON.parse((await cli([...args(scenario, 'client.ndjson'), '--format', 'json'])).stdout) as { attempts: JsonAttempt[] };
    const out = (await cli(args(scenario, 'client.ndjson'), { env: { COLUMNS: '160' } })).stdout;
    const found = rows(section(out, 'Findings\n')).slice(1);
    for (const a of json.attempts) {
      for (const f of a.findings) {
        const row = found.find((r) => r[1]!.startsWith(`${f.code} `) && r[1]!.endsWith(` ${a.call}#${a.attempt}`));
        expect(row, `${f.code} ${a.call}#${a.attempt}`).toBeDefined();
        expect(row![1]).toContain(a.session!.slice(0, 11));
      }
    }
    // A session finding names its session and no call.
    const expired = found.find((r) => r[1]!.startsWith('SESSION_EXPIRED '))!;
    expect(expired[1]).toMatch(/^SESSION_EXPIRED [0-9a-f]{8}-[0-9a-f]{2}…$/);
    // Markdown: a call column beside the session, in the findings and the attempts tables (the retry chains name calls so).
    const md = (await cli([...args(scenario, 'client.ndjson'), '--format', 'markdown'])).stdout.split('\n');
    for (const a of json.attempts) {
      for (const f of a.findings) expect(md.some((l) => l.startsWith(`| ${f.severity === 'error' ? 'error' : 'warning'} | \`${f.code}\` | ${a.session} | ${a.call}#${a.attempt} |`)), `${f.code} ${a.call}#${a.attempt}`).toBe(true);
      if (!['SUCCESS', 'TOOL_SUCCESS'].includes(a.outcome)) expect(md.some((l) => l.includes(`| ${a.session} | ${String(a.id)} | ${a.call}#${a.attempt} | `))).toBe(true);
    }
    expect(md.some((l) => /^\| warning \| `SESSION_EXPIRED` \| [0-9a-f-]{36} \|  \| /.test(l))).toBe(true);
  });

  it('timeline: the retry in the new session does not say "stream cut" (the app got its result; the log only lacks the stream\'s end); the legend names only the marks its rows use', async () => {
    const sessions = JSON.parse((await cli(['sessions', ...args(scenario, 'client.ndjson'), '--format', 'json'])).stdout) as { sessions: { session: string }[] };
    expect(sessions.sessions).toHaveLength(2);
    const second = sessions.sessions[1]!.session;
    const json = JSON.parse((await cli(['timeline', second, ...args(scenario, 'client.ndjson'), '--format', 'json'])).stdout) as { attempts: JsonAttempt[] };
    const retry = json.attempts.find((a) => a.tool === 'lookup_order')!;
    expect(retry.outcome).toBe('TOOL_SUCCESS');
    for (const columns of ['1000', '160', '80']) {
      const out = (await cli(['timeline', second, ...args(scenario, 'client.ndjson')], { env: { COLUMNS: columns } })).stdout;
      expect(out).not.toContain('stream cut');
      if (retry.sse?.end === 'cut' && columns === '1000') expect(out).toContain('its end not in the log');
      expect(out).not.toContain('(no side)');
      expect(out).not.toContain('"not seen by server"');
    }
    // Near miss: the first session, whose 503 the server never saw, keeps that mark's legend.
    const first = (await cli(['timeline', sessions.sessions[0]!.session, ...args(scenario, 'client.ndjson')], { env: { COLUMNS: '160' } })).stdout;
    expect(first).toContain('not seen by server │');
    expect(first).toContain('"not seen by server": both sides were logged');
  });

  it('timeline: a call that moved to a new session is told from both sessions (the attempt before it, the retry after it); a retry in the same session is not', async () => {
    const sessions = JSON.parse((await cli(['sessions', ...args(scenario, 'client.ndjson'), '--format', 'json'])).stdout) as { sessions: { session: string }[] };
    const [first, second] = sessions.sessions.map((s) => s.session);
    const all = (await cli(['timeline', first!, ...args(scenario, 'client.ndjson'), '--format', 'json'])).stdout;
    const attempts = (JSON.parse(all) as { attempts: JsonAttempt[] }).attempts;
    // The truth: the app's lookup A-2 got the restart's 404, the app connected again and its attempt 2 went well.
    const labels = o.map((x) => x.label);
    expect(labels.indexOf('lookup_order A-2 #1')).toBeLessThan(labels.indexOf('connect again'));
    expect(labels.indexOf('connect again')).toBeLessThan(labels.indexOf('lookup_order A-2 #2'));
    expect(step(o, 'lookup_order A-2 #1').error?.message).toContain('Session not found');
    const before = attempts.find((a) => a.tool === 'lookup_order' && a.status === 404)!;
    const after = (JSON.parse((await cli(['timeline', second!, ...args(scenario, 'client.ndjson'), '--format', 'json'])).stdout) as { attempts: JsonAttempt[] }).attempts.find((a) => a.tool === 'lookup_order')!;
    expect(after.call).toBe(before.call);
    const one = (text: string) => text.replace(/\s*│\s*/g, ' ').replace(/\s+/g, ' ');
    const newer = one((await cli(['timeline', second!, ...args(scenario, 'client.ndjson')], { env: { COLUMNS: '1000' } })).stdout);
    expect(newer).toContain(`${before.call}#${before.attempt}, the attempt before it, was in session ${first}`);
    const older = one((await cli(['timeline', first!, ...args(scenario, 'client.ndjson')], { env: { COLUMNS: '1000' } })).stdout);
    expect(older).toContain(`retried as ${after.call}#${after.attempt} in session ${second}`);
    const md = (await cli(['timeline', second!, ...args(scenario, 'client.ndjson'), '--format', 'markdown'])).stdout;
    expect(md).toContain(`the attempt before it, was in session ${first}`);
    // Near miss: the hop's 503 retried in the same session names no other session.
    const sameSession = attempts.filter((a) => a.call !== before.call && (a.attempt ?? 1) > 1).map((a) => `${a.call}#${a.attempt}`);
    expect(sameSession.length).toBeGreaterThan(0);
    expect(older.match(/the attempt before it, was in session/g) ?? []).toHaveLength(0);
    expect(older.match(/retried as /g) ?? []).toHaveLength(1);
  });

  it('who retried is said once: the note, not "the application ... (note)" after "noted by the application"', async () => {
    const out = (await cli(args(scenario, 'client.ndjson'), { env: { COLUMNS: '1000' } })).stdout;
    expect(out).toContain('app: noted by the application on the request, which named both requests call "invoice-A-1", this one attempt 2');
    expect(out).not.toContain('(note)');
  });
});

describe('the sessions view keeps a server\'s name/version whole', () => {
  const f = `${FIX}real/http-503-app-retry`;
  it('triage-fixture-server/1.0.0 (27 characters), at 160 and at 80 columns', async () => {
    for (const columns of ['160', '80']) {
      const out = (await cli(['sessions', '--client', `${f}.client.ndjson`, '--server', `${f}.server.ndjson`], { env: { COLUMNS: columns } })).stdout;
      expect(out, columns).not.toContain('1…');
      // Each cell's lines joined (a name wraps after its `-` and `/`).
      const cells = rows(out.split('\n\n')[1]!).flat().map((c) => c.replace(/([-/]) /g, '$1'));
      expect(cells.join(' '), columns).toContain('triage-fixture-server/1.0.0');
      for (const l of out.split('\n')) expect([...l].length).toBeLessThanOrEqual(Number(columns));
    }
  });

  it('near miss: a name past 40 characters is still cut (a hostile initialize cannot widen the table without end)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a87-'));
    const long = 'x'.repeat(70);
    for (const side of ['client', 'server']) writeFileSync(join(dir, `${side}.ndjson`), readFileSync(`${f}.${side}.ndjson`, 'utf8').replaceAll('triage-fixture-server', long));
    const out = (await cli(['sessions', '--client', join(dir, 'client.ndjson'), '--server', join(dir, 'server.ndjson')], { env: { COLUMNS: '160' } })).stdout;
    expect(out).toContain('…');
    expect(out).not.toContain('x'.repeat(41));
  });
});

describe('the terminal findings table keeps codes whole', () => {
  const f = `${FIX}real/session-id-adopted-from-error`;
  it('at 80 columns SESSION_ID_CHANGED is on one line (it broke after SESSION_ID_), and each evidence line keeps its file name and line', async () => {
    const out = (await cli(['--client', `${f}.client.ndjson`, '--server', `${f}.server.ndjson`], { env: { COLUMNS: '80' } })).stdout;
    const findings = section(out, 'Findings\n');
    for (const code of ['SESSION_ID_CHANGED', 'RETRY_POLICY', 'SESSION_EXPIRED']) expect(findings).toMatch(new RegExp(`│ ${code} +│`));
    expect(findings).toMatch(/…[\w-]*error\.client\.ndjson:9 │/);
    for (const l of out.split('\n')) expect([...l].length).toBeLessThanOrEqual(80);
  });

  it('near miss: at 60 columns too; at 40 (the narrowest honoured), where it cannot, the code breaks after its `_` only', async () => {
    const sixty = (await cli(['--client', `${f}.client.ndjson`, '--server', `${f}.server.ndjson`], { env: { COLUMNS: '60' } })).stdout;
    expect(section(sixty, 'Findings\n')).toMatch(/│ SESSION_ID_CHANGED +│/);
    const forty = section((await cli(['--client', `${f}.client.ndjson`, '--server', `${f}.server.ndjson`], { env: { COLUMNS: '40' } })).stdout, 'Findings\n');
    expect(forty).toMatch(/│ SESSION_ +│[^\n]*\n│ +│ ID_ +│[^\n]*\n│ +│ CHANGED +│/);
  });
});

describe('rows without a session id name the key the sessions view and timeline know them by', () => {
  it('terminal: the HAR\'s rows say input#1 and the probe\'s probe@1.0.0, and timeline takes that key', async () => {
    const out = (await cli(SAMPLE_ARGS, { env: { COLUMNS: '160' } })).stdout;
    const failed = rows(section(out, 'Attempts that did not succeed\n')).slice(1);
    const sessions = failed.map((r) => r[1]);
    expect(sessions).not.toContain('-');
    expect(new Set(sessions)).toEqual(new Set(['a3f1c2d4-5b…', 'probe@1.0.0', 'input#1', 'input#2']));
    for (const key of ['probe@1.0.0', 'input#1', 'input#2']) {
      const t = await cli(['timeline', key, ...SAMPLE_ARGS, '--format', 'json']);
      expect(t.code, t.stderr).toBe(0);
    }
  });

  it('Markdown: as the sessions view and the diagram headings name them, with the file of an input key', async () => {
    const md = (await cli([...SAMPLE_ARGS, '--format', 'markdown'])).stdout;
    const failed = md.split('## Attempts that did not succeed')[1]!.split('\n## ')[0]!;
    expect(failed).toContain('| 2026-10-17T09:20:40.000Z | input#1 (no session id; ');
    expect(failed).toContain('capture.har.ndjson) | 3 |');
    expect(failed).toContain('| probe@1.0.0 (no session id) | 0 | c17#1 | initialize |');
    expect(md).toContain('### Session input#1 (no session id; ');
    // Near miss: a row with a session id keeps the whole id.
    expect(failed).toContain('| a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601 | 3 |');
  });
});

describe('evidence: the tables say how many lines they left out', () => {
  const a = args('v1', 'client.ndjson');
  it('terminal and Markdown end a finding\'s evidence with "+N more" where the JSON lists more lines than they show', async () => {
    const json = JSON.parse((await cli([...a, '--format', 'json'])).stdout) as { attempts: (JsonAttempt & { sources: unknown[] })[] };
    const unsafe = json.attempts.find((x) => x.findings.some((f) => f.code === 'UNSAFE_RETRY'))!;
    const out = (await cli(a, { env: { COLUMNS: '160' } })).stdout;
    const row = rows(section(out, 'Findings\n')).find((r) => r[1]!.startsWith('UNSAFE_RETRY '))!;
    expect(row[3]).toMatch(new RegExp(`\\+${unsafe.sources.length - 3} more$`));
    const md = (await cli([...a, '--format', 'markdown'])).stdout.split('\n').find((l) => l.includes('`UNSAFE_RETRY`'))!;
    expect(md).toMatch(new RegExp(`, \\+${unsafe.sources.length - 4} more \\|$`));
  });

  it('near miss: a finding whose lines all fit says nothing more (SESSION_EXPIRED: two lines)', async () => {
    const out = (await cli(a, { env: { COLUMNS: '160' } })).stdout;
    const row = rows(section(out, 'Findings\n')).find((r) => r[1]!.startsWith('SESSION_EXPIRED '))!;
    expect(row[3]).not.toContain('more');
    expect(row[3]!.split(' ')).toHaveLength(2);
  });
});

describe('the Mermaid diagrams say what the log shows, not more', () => {
  it('no "0 progress" under every exchange, and a stream whose end the log lacks is not drawn as cut', async () => {
    const sessions = JSON.parse((await cli(['sessions', ...args('v1', 'client.ndjson'), '--format', 'json'])).stdout) as { sessions: { session: string }[] };
    const md = (await cli(['timeline', sessions.sessions[1]!.session, ...args('v1', 'client.ndjson'), '--format', 'markdown'])).stdout;
    const diagram = md.split('```mermaid')[1]!.split('```')[0]!;
    expect(diagram).not.toContain('0 progress');
    expect(diagram).not.toMatch(/, cut\b/);
    expect(diagram).toContain('Note over S: SSE 1 event, its end not in the log');
    // Near miss: a complete stream's note keeps its count and nothing else.
    expect(diagram).toContain('Note over S: SSE 1 event\n');
    // The samples' progress is still drawn.
    expect((await cli([...SAMPLE_ARGS, '--format', 'markdown'])).stdout).toMatch(/Note over S: SSE \d+ events?, [1-9]\d* progress/);
  });
});

describe('real-audit87 py: the same incident with the Python SDK 2.3.0 client (its view by mcp-triage record --side client)', () => {
  const o = observed('py');
  const a = args('py', 'client.ndjson');
  it('recorded it: the Python client fails the cut stream at once (no timeout, no cancellation), the rest as the TypeScript clients', () => {
    expect(step(o, 'lookup_order A-1 #1').error).toBeDefined();
    expect(step(o, 'send_invoice A-1 #1').error?.message).toMatch(/SSE stream ended without a response/);
    expect(step(o, 'crash').ok).toEqual({ isError: true, text: 'database connection refused' });
    expect(step(o, 'lookup_order A-2 #1').error?.message).toMatch(/Session not found/);
    expect(step(o, 'lookup_order A-2 #2').ok).toEqual({ isError: false, text: 'order A-2: shipped' });
    expect(o.find((s) => s.serverRan)!.serverRan!.filter((r) => r === 'send_invoice A-1')).toHaveLength(2);
  });

  it('the reports agree with it: outcomes, no CANCELLED, who retried unknown (no note in a proxy\'s view), chain delays as RETRY_POLICY\'s', async () => {
    const json = JSON.parse((await cli([...a, '--format', 'json'])).stdout) as { attempts: JsonAttempt[] };
    const calls = json.attempts.filter((x) => x.method === 'tools/call');
    expect(calls.map((x) => [x.tool, x.outcome])).toEqual([
      ['lookup_order', 'HTTP_ERROR'], ['lookup_order', 'TOOL_SUCCESS'], ['send_invoice', 'STREAM_INCOMPLETE'], ['send_invoice', 'TOOL_SUCCESS'],
      ['crash', 'TOOL_ERROR'], ['lookup_order', 'HTTP_ERROR'], ['lookup_order', 'TOOL_SUCCESS'],
    ]);
    const codes = new Set(calls.flatMap((x) => x.findings.map((f) => f.code)));
    expect(codes).not.toContain('CANCELLED');
    for (const c of ['NO_FINAL_RESULT', 'SIDE_DIVERGENCE', 'UNSAFE_RETRY', 'RETRY_ORIGIN_AMBIGUOUS']) expect(codes).toContain(c);
    const out = (await cli([...a, '--min-retry-delay', '1000'], { env: { COLUMNS: '1000' } })).stdout;
    const policy = /send_invoice: retry 1 came ([\d.]+) ms after the failure/.exec(out)![1];
    expect(chainDelay(section(out, 'Calls with more than one attempt'), 'send_invoice')).toBe(policy);
  });
});

describe('a session finding on traffic without a session id names its key too', () => {
  const dir = `${FIX}real-audit12/mp-init-503/`;
  const files = ['capture.har.ndjson', 'client.ndjson', 'proxy.ndjson', 'server.ndjson'].map((f) => `${dir}${f}`);
  it('CALL_NEVER_SENT (mcporter\'s initialize refused with 503) names input#1, as its initialize row does, in the terminal and Markdown', async () => {
    const out = (await cli(files, { env: { COLUMNS: '160' } })).stdout;
    const attempt = rows(section(out, 'Attempts that did not succeed\n')).slice(1).find((r) => r.includes('initialize'))!;
    const finding = rows(section(out, 'Findings\n')).find((r) => r[1]!.startsWith('CALL_NEVER_SENT'))!;
    expect(finding[1]).toBe(`CALL_NEVER_SENT ${attempt[1]}`);
    expect(attempt[1]).toBe('input#1');
    const md = (await cli([...files, '--format', 'markdown'])).stdout.split('\n').find((l) => l.includes('`CALL_NEVER_SENT`'))!;
    expect(md).toContain(`| input#1 (no session id; ${dir}client.ndjson) |`);
  });
});
