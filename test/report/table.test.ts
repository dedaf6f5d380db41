// The table report under --max-rows: each table shows the first N rows in its own order and says exactly how many more there are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SAMPLES, cli } from '../cli/helpers.js';
import { displayWidth } from '../../src/report/grid.js';

interface Section {
  heading: string;
  rows: string[][];
}

/**
 * The table under the line that starts with `title`: its heading line and its data rows (no row when no table
 * follows). A row drawn on several lines (wrapped cells) is read back as one, its cells' lines joined; a line across the
 * table under a row (a column too narrow for its text, such as `why: ...`) becomes that row's last cell.
 */
function section(out: string, title: string): Section | undefined {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => l.startsWith(title));
  if (at === -1) return undefined;
  const blocks: string[][][] = [];
  let block: string[][] = [];
  let first = at + 1;
  while (first < at + 4 && lines[first] && !/^[┌│├└]/.test(lines[first]!)) first++; // a heading wrapped to the width
  for (let i = first; i < lines.length && /^[┌│├└]/.test(lines[i]!); i++) {
    if (lines[i]!.startsWith('│')) block.push(lines[i]!.slice(1, -1).split('│').map((c) => c.trim()));
    else if (block.length) [blocks[blocks.length], block] = [block, []];
  }
  const rows: string[][] = [];
  const [head, ...body] = blocks;
  for (const b of body) {
    const row = b[0]!.map((_, c) => joinLines(b.map((l) => l[c] ?? '')));
    if (row.length === 1 && head![0]!.length > 1) rows.at(-1)!.push(row[0]!.replace(/^[^:]+: /, ''));
    else rows.push(row);
  }
  return { heading: lines[at]!, rows };
}

/** A wrapped cell's lines as its text: rejoined at the space the wrap took, or directly after a character it broke after. */
const joinLines = (parts: string[]): string => parts.filter(Boolean).reduce((a, p) => (!a ? p : /[/_\-,;:]$/.test(a) ? a + p : `${a} ${p}`), '');

interface AttemptLine {
  type: 'attempt';
  id: number | string;
  ts?: string;
  outcome: string;
  call?: string;
  attempt?: number;
  continuation?: true;
  findings: { severity: string }[];
}

/** What the tables must count, worked out from the ndjson lines (every attempt and session finding). */
function truth(ndjson: string) {
  const lines = ndjson.trim().split('\n').map((l) => JSON.parse(l) as { type: string; severity?: string });
  const attempts = lines.filter((l): l is AttemptLine => l.type === 'attempt');
  const followUps = new Set(attempts.filter((a) => a.continuation).map((a) => `${a.call}#${a.attempt}`));
  const failed = attempts
    .map((a, i) => ({ a, i, t: a.ts ? Date.parse(a.ts) : Infinity }))
    .filter(({ a }) => !['SUCCESS', 'TOOL_SUCCESS', 'TASK_CREATED'].includes(a.outcome) && !(a.outcome === 'INPUT_REQUIRED' && a.findings.length === 0 && followUps.has(`${a.call}#${(a.attempt ?? 1) + 1}`)))
    .sort((x, y) => x.t - y.t || x.i - y.i)
    .map(({ a }) => a);
  const severities = [...attempts.flatMap((a) => a.findings.map((f) => f.severity)), ...lines.filter((l) => l.type === 'finding').map((l) => l.severity!)];
  const calls = new Map<string, { first: AttemptLine; n: number; i: number }>();
  attempts.forEach((a, i) => {
    if (a.call === undefined) return;
    const c = calls.get(a.call);
    if (c) c.n++;
    else calls.set(a.call, { first: a, n: 1, i });
  });
  const chains = [...calls.entries()]
    .filter(([, c]) => c.n > 1)
    .sort(([, x], [, y]) => Date.parse(x.first.ts!) - Date.parse(y.first.ts!) || x.i - y.i)
    .map(([call]) => call);
  const count = (s: string) => severities.filter((x) => x === s).length;
  return { failed, chains, errors: count('error'), warnings: count('warning'), infos: count('info'), findings: severities.length };
}

describe('--max-rows on a generated incident (the benchmark generator, 3 MB)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-maxrows-'));
  let inputs: string[] = [];
  beforeAll(() => {
    execFileSync(process.execPath, [`${ROOT}bench/generate.mjs`, '--size', '3mb', '--out', dir, '--formats', 'canonical']);
    inputs = ['--client', join(dir, 'client.ndjson'), '--server', join(dir, 'server.ndjson'), '-q'];
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows the first N attempts that did not succeed in time order, the errors before any warning, the first N retry chains, with exact counts of the rest', async () => {
    const n = 20;
    const t = truth((await cli([...inputs, '--format', 'ndjson'])).stdout);
    // The incident has more of each than fit, and more errors than fit: the case that hid errors behind warnings.
    expect(t.failed.length).toBeGreaterThan(n);
    expect(t.errors).toBeGreaterThan(n);
    expect(t.warnings).toBeGreaterThan(0);
    expect(t.chains.length).toBeGreaterThan(n);
    const r = await cli([...inputs, '--max-rows', String(n)]);
    expect(r.code).toBe(0);

    const failed = section(r.stdout, 'Attempts that did not succeed')!;
    expect(failed.heading).toBe(`Attempts that did not succeed (first ${n} of ${t.failed.length} in time order; ${t.failed.length - n} more not shown, see --format ndjson)`);
    expect(failed.rows.map((row) => [row[0], row[2]])).toEqual(t.failed.slice(0, n).map((a) => [a.ts!.slice(11, 23), JSON.stringify(a.id)]));

    const findings = section(r.stdout, 'Findings')!;
    const hidden = [`${t.errors - n} error${t.errors - n === 1 ? '' : 's'}`, t.warnings ? `${t.warnings} warning${t.warnings === 1 ? '' : 's'}` : '', t.infos ? `${t.infos} info` : ''].filter(Boolean).join(', ');
    expect(findings.heading).toBe(`Findings (first ${n} of ${t.findings}, errors first; ${t.findings - n} more not shown: ${hidden})`);
    expect(findings.rows.map((row) => row[0])).toEqual(Array(n).fill('error'));

    const chains = section(r.stdout, 'Calls with more than one attempt')!;
    expect(chains.heading).toBe(`Calls with more than one attempt (first ${n} of ${t.chains.length} in time order; ${t.chains.length - n} more not shown)`);
    expect(chains.rows.map((row) => row[0])).toEqual(t.chains.slice(0, n));
  });

  it('with room for everything, no table says "more", and every row is there', async () => {
    const t = truth((await cli([...inputs, '--format', 'ndjson'])).stdout);
    const r = await cli([...inputs, '--max-rows', '100000']);
    expect(r.stdout).not.toMatch(/more not shown/);
    expect(section(r.stdout, 'Attempts that did not succeed')!.rows).toHaveLength(t.failed.length);
    expect(section(r.stdout, 'Findings')!.rows).toHaveLength(t.findings);
    expect(section(r.stdout, 'Calls with more than one attempt')!.rows.map((row) => row[0])).toEqual(t.chains);
  });
});

describe('--max-rows on the samples', () => {
  const client = [`${SAMPLES}client.ndjson`];

  it('2: every table holds two rows (the outcomes table too) and counts the rest exactly', async () => {
    const r = await cli([...client, '--max-rows', '2']);
    const outcomes = section(r.stdout, 'Outcomes by method and tool')!;
    expect(outcomes.heading).toBe('Outcomes by method and tool (first 2 of 7, most attempts first; 5 more not shown)');
    expect(outcomes.rows.map((row) => [row[0], row[1], row[2]])).toEqual([['tools/call', 'search_tickets', '8'], ['initialize', '', '5']]);
    const failed = section(r.stdout, 'Attempts that did not succeed')!;
    expect(failed.heading).toBe('Attempts that did not succeed (first 2 of 11 in time order; 9 more not shown, see --format ndjson)');
    expect(failed.rows.map((row) => row[2])).toEqual(['3', '5']);
    const findings = section(r.stdout, 'Findings')!;
    expect(findings.heading).toBe('Findings (first 2 of 16, errors first; 14 more not shown: 1 error, 13 warnings)');
    // The code cell's first word is the code; the session and call#attempt follow it in the cell.
    expect(findings.rows.map((row) => row[1]!.split(' ')[0])).toEqual(['NO_FINAL_RESULT', 'ID_REUSED']);
    const chains = section(r.stdout, 'Calls with more than one attempt')!;
    expect(chains.heading).toBe('Calls with more than one attempt (first 2 of 4 in time order; 2 more not shown)');
    expect(chains.rows.map((row) => row[0])).toEqual(['c4', 'c6']);
  });

  it('1 and 0: one row or none, and the right number of the rest', async () => {
    const one = await cli([...client, '--max-rows', '1']);
    expect(section(one.stdout, 'Attempts that did not succeed')!.heading).toMatch(/\(first 1 of 11 in time order; 10 more not shown/);
    const none = await cli([...client, '--max-rows', '0']);
    expect(section(none.stdout, 'Attempts that did not succeed')).toEqual({ heading: 'Attempts that did not succeed (11, not shown, see --format ndjson)', rows: [] });
    expect(section(none.stdout, 'Findings')!.heading).toBe('Findings (16, not shown: 3 errors, 13 warnings)');
    expect(section(none.stdout, 'Calls with more than one attempt')!.rows).toEqual([]);
    expect(section(none.stdout, 'Inputs')!.rows).toHaveLength(1);
  });
});

describe('when no attempt is left to list', () => {
  it('says the filters removed them (not that the input had none), and that the session findings follow when some pass', async () => {
    const expired = await cli(['--client', `${SAMPLES}client.ndjson`, '--server', `${SAMPLES}server.ndjson`, '--code', 'SESSION_EXPIRED']);
    expect(expired.stdout).toContain('No attempt matches the filters (--code SESSION_EXPIRED); the session findings that pass them are listed below.');
    expect(expired.stdout).not.toContain('No JSON-RPC requests');
    expect(section(expired.stdout, 'Findings')!.rows.map((r) => r[1])).toEqual(['SESSION_EXPIRED a3f1c2d4-5b…']);
    const md = await cli(['--client', `${SAMPLES}client.ndjson`, '--server', `${SAMPLES}server.ndjson`, '--code', 'SESSION_EXPIRED', '--format', 'markdown']);
    expect(md.stdout).toContain('No attempt matches the filters (`--code SESSION_EXPIRED`); the session findings that pass them are listed below.');
    const cancelled = await cli([`${SAMPLES}stdio.ndjson`, '--code', 'CANCELLED']);
    expect(cancelled.stdout).toContain('No attempt matches the filters (--code CANCELLED).');
    expect(cancelled.stdout).not.toContain('No JSON-RPC requests');
  });

  it('without filters, says the input had no JSON-RPC request', async () => {
    const notification = JSON.stringify({ ts: '2026-10-17T09:22:00.030Z', direction: 'c2s', message: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    for (const format of ['table', 'markdown']) {
      const r = await cli(['-', '--format', format, '-q'], { stdin: [notification] });
      expect(r.stdout, format).toContain('No JSON-RPC requests found in the input.');
      expect(r.stdout, format).not.toContain('No attempt matches');
    }
  });
});

describe('"not seen by the server"', () => {
  // Without client claims the table has no claimed column: the why is the ninth cell.
  it('leads the why cell, so a long error body cut to fit cannot hide it; only when both logs were given', async () => {
    const both = await cli(['--client', `${SAMPLES}client.ndjson`, '--server', `${SAMPLES}server.ndjson`]);
    const failed = section(both.stdout, 'Attempts that did not succeed')!;
    const gateway = failed.rows.find((r) => r[4] === 'tools/call create_ticket' && r[2] === '3')!;
    expect(gateway[5]).toBe('503');
    // the gateway's page is quoted by its text, not its tags
    expect(gateway[8]).toMatch(/^not seen by the server: the body says: 503 Service Unavaila/);
    // The probe's initialize got the gateway's 503 too; nothing else is marked.
    expect(failed.rows.filter((r) => r[8]!.includes('not seen by the server')).map((r) => [r[2], r[4], r[8]!.slice(0, 22)])).toEqual([['3', 'tools/call create_ticket', 'not seen by the server'], ['0', 'initialize', 'not seen by the server']]);
    const clientOnly = section((await cli([`${SAMPLES}client.ndjson`])).stdout, 'Attempts that did not succeed')!;
    expect(clientOnly.rows.find((r) => r[2] === '3')![8]).toMatch(/^the body says: /);
  });
});

describe('tables fit the terminal: long text wraps in its cell, paths keep their end', () => {
  const dir = `${ROOT}test/fixtures/real-audit5/session-header-stripped`;
  const pair = ['--client', `${dir}/client.ndjson`, '--server', `${dir}/server.ndjson`];
  const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
  const tableLines = (out: string, title: string) => {
    const lines = out.split('\n');
    const at = lines.findIndex((l) => l.startsWith(title));
    const end = lines.findIndex((l, i) => i > at && l.startsWith('└'));
    return lines.slice(at + 1, end + 1).map(visible);
  };

  it.each([
    ['a terminal of 80 columns', { stdoutTTY: true, env: { COLUMNS: '80' } }, 80],
    ['a terminal of 120 columns', { stdoutTTY: true }, 120],
    ['a pipe (160 columns)', {}, 160],
  ])('%s: the findings table fits, and its messages read to their end', async (_name, opts, width) => {
    const r = await cli(pair, opts);
    const findings = tableLines(r.stdout, 'Findings');
    for (const l of findings) expect([...l].length, l).toBeLessThanOrEqual(width);
    const rows = section(visible(r.stdout), 'Findings')!.rows;
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.join(' ')).toContain('the client did not have the session id the server asks for');
    for (const row of rows) expect(row.some((c) => /^(…|\/).*\/client\.ndjson:(4|11)$/.test(c)), row.join(' | ')).toBe(true); // evidence keeps its file:line
  });

  it('names two inputs of one name by their distinct ends, and gives every file:line whole when there is room', async () => {
    const r = await cli(pair, { env: { COLUMNS: '80' } });
    const inputs = section(r.stdout, 'Inputs')!.rows.map((row) => row[0]!);
    expect(new Set(inputs).size).toBe(2);
    expect(inputs[0]).toMatch(/\/client\.ndjson$/);
    const wide = await cli(pair, { env: { COLUMNS: '200' } });
    expect(section(wide.stdout, 'Findings')!.rows[0]).toContain(`${dir}/client.ndjson:4`);
  });
});

describe('every table of the report on `npm start`\'s inputs fits 80 and 60 columns, and loses nothing', () => {
  const START = ['--client', `${SAMPLES}client.ndjson`, '--server', `${SAMPLES}server.ndjson`, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`];
  const run = async (columns: number) => (await cli(START, { env: { COLUMNS: String(columns) } })).stdout;

  it.each([80, 60])('at %i columns no line is wider; narrow layouts stack time over session, id over call, outcome over layer', async (columns) => {
    const out = await run(columns);
    const over = out.split('\n').filter((l) => displayWidth(l) > columns);
    expect(over).toEqual([]);
    const failed = section(out, 'Attempts that did not succeed')!;
    const wide = section(await run(1000), 'Attempts that did not succeed')!;
    expect(failed.rows).toHaveLength(wide.rows.length);
    // Each row keeps its time and session, id and call, outcome and layer (whole, or broken after `_`), its claim and its why.
    const bare = (s: string) => s.replace(/\s+/g, '');
    wide.rows.forEach(([time, session, id, call, what, http, outcome, layer, claimed, why], i) => {
      const row = failed.rows[i]!;
      expect(row.slice(0, 5)).toEqual([`${time} ${session}`, `${id} ${call}`.trim(), row[2], http, row[4]]);
      expect(bare(row[2]!)).toBe(bare(what!));
      expect(row[4]!.replace(/_ /g, '_')).toBe(`${outcome} ${layer}`);
      expect(bare(row.slice(5).join(' ').replace(/(^| )why: /, ' '))).toBe(bare(`${claimed}${why}`)); // a claim and a why under the row: `claimed: …` then `why: …`
    });
    // The outcomes table: one line per outcome of the row instead of a column per outcome.
    const outcomes = section(out, 'Outcomes by method and tool')!;
    expect(outcomes.rows[0]!.slice(2)).toEqual(['8', '1 HTTP_ERROR 1 MALFORMED_JSON 1 INVALID_ENVELOPE 1 JSONRPC_ERROR 4 TOOL_SUCCESS']);
    // The inputs table: the counts in one cell, named.
    expect(bare(section(out, 'Inputs')!.rows.find((r) => r[0]!.endsWith('client.ndjson'))![3]!)).toBe(bare('47 lines: 47 used, 0 blank, 0 skipped, 0 unusable'));
    expect(out).toMatch(/^mcp-triage \S+: 42 attempts/);
  });

  it('wide enough, the tables keep their wide layout: a column per field and per outcome', async () => {
    const out = await run(1000);
    expect(out).toMatch(/│ time +│ session +│ id +│ call +│ method \/ tool +│ HTTP │ outcome +│ layer +│ claimed +│ why +│/);
    expect(out).toMatch(/│ method +│ tool +│ total │ NO_RESPONSE │ HTTP_ERROR │ MALFORMED_JSON │/);
    expect(out).toMatch(/│ input +│ side +│ format +│ lines │ used │ blank │ skipped │ unusable │ cannot show +│/);
  });
});
