// Choosing a session by what the tables print: a prefix, an id shortened with `…`, a label of traffic without ids; ambiguity and typos.
import { describe, expect, it } from 'vitest';
import { BOTH, SAMPLES, cli, exchange } from '../cli/helpers.js';
import { sessionDistance, sessionIsShortened, sessionPattern, sessionStartsWith } from '../../src/filter.js';
import { nearestFew } from '../../src/suggest.js';
import { scopeName } from '../../src/report/summary.js';

const START = [...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`];
const A3F1 = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601';
const sessionOf = (stdout: string) => (JSON.parse(stdout) as { session: string }).session;
const logOf = (ids: string[]) => ids.map((s, i) => exchange({ ts: `2026-10-17T10:00:${String(i).padStart(2, '0')}.000Z`, session: s, id: i + 1, side: 'client', status: 503 }));

describe('matching a shortened id', () => {
  it('a prefix with `…`: the visible parts in order, the first at the start; the end stays open as for a prefix', () => {
    expect(sessionStartsWith(A3F1, 'a3f1c2d4-5b…')).toBe(true);
    expect(sessionStartsWith(A3F1, 'a3f1…f601')).toBe(true);
    expect(sessionStartsWith(A3F1, '…e5f601')).toBe(true);
    expect(sessionStartsWith(A3F1, 'a3f1…8a91…f601')).toBe(true);
    expect(sessionStartsWith(A3F1, 'a3f1…f602')).toBe(false);
    expect(sessionStartsWith(A3F1, 'b3f1…f601')).toBe(false);
    expect(sessionStartsWith(A3F1, 'a3f1…a3f1')).toBe(false); // the parts do not overlap
    // Whole: the last part at the end.
    expect(sessionIsShortened(A3F1, 'a3f1…f601')).toBe(true);
    expect(sessionIsShortened(`${A3F1}-2`, 'a3f1…f601')).toBe(false);
    expect(sessionIsShortened(A3F1, 'a3f1')).toBe(false);
  });

  it('by the printed form of an id with control characters too', () => {
    const id = 'sess-\u001b[31mred\u001b[0m-1234567890';
    expect(sessionStartsWith(id, 'sess-red-12…')).toBe(true);
    expect(sessionIsShortened(id, 'sess-red…7890')).toBe(true);
  });

  it('the label a table prints for traffic without a session id names its key, whole or its first line', () => {
    const inputs = [{ name: 'samples/client.ndjson' }, { name: 'samples/capture.har.ndjson' }];
    expect(sessionPattern(scopeName(null, 'input#1', inputs))).toBe('input#1');
    expect(sessionPattern('input#1 (no session id; …/samples/capture.har.ndjson)')).toBe('input#1');
    expect(sessionPattern('input#1 (no session id;')).toBe('input#1');
    expect(sessionPattern(scopeName(null, 'probe@1.0.0', inputs))).toBe('probe@1.0.0');
    expect(sessionPattern(A3F1)).toBe(A3F1);
  });

  it('suggestions: the ids whose start (and end, for `…`) is a few edits away, nearest first; none for a word under 3 characters', () => {
    const ids = [A3F1, 'b7e2d9a0-1c3f-4e58-9b6d-0a1b2c3d4e5f', 'a3e2ffff'];
    expect(nearestFew('a3f2', ids, 3, sessionDistance)).toEqual([A3F1, 'a3e2ffff']);
    expect(nearestFew('A3F1C2D4', ids, 3, sessionDistance)).toEqual([A3F1]);
    expect(nearestFew('a3f1…f60l', ids, 3, sessionDistance)).toEqual([A3F1]);
    expect(nearestFew('zzzz', ids, 3, sessionDistance)).toEqual([]);
    expect(nearestFew('a3', ids, 3, sessionDistance)).toEqual([]);
  });
});

describe('mcp-triage timeline takes what the tables print', () => {
  it('an id the analysis shortened (its attempts and findings tables at 80 columns) selects that session', async () => {
    const report = await cli(START, { env: { COLUMNS: '80' } });
    const shortened = [...new Set(report.stdout.match(/[^\s│]+…/g))];
    // The attempts table's a3f1 and the sessions the findings table names under their codes (audit 87).
    expect(shortened).toEqual(['a3f1c2d4-5b…', 'b7e2d9a0-1c…', 'c4d5e6f7-08…', 'd5e6f708-19…']);
    for (const id of shortened) {
      const t = await cli(['timeline', id, ...START, '--format', 'json']);
      expect(t.code, t.stderr).toBe(0);
      expect(sessionOf(t.stdout).startsWith(id.slice(0, -1))).toBe(true);
    }
    const r = await cli(['timeline', shortened[0]!, ...START, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(sessionOf(r.stdout)).toBe(A3F1);
    // --session takes it as well.
    const filtered = await cli([...START, '--session', shortened[0]!, '--format', 'ndjson']);
    const sessions = new Set(filtered.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; session?: string }).filter((l) => l.type === 'attempt').map((l) => l.session));
    expect(sessions).toEqual(new Set([A3F1]));
  });

  it('the label of traffic without a session id, as the sessions table prints it at 1000 and at 60 columns', async () => {
    for (const columns of ['1000', '60']) {
      const table = await cli(['sessions', ...START], { env: { COLUMNS: columns } });
      const label = /(input#1 \(no session id;[^│]*?)\s*│/.exec(table.stdout)![1]!;
      const r = await cli(['timeline', label, ...START, '--format', 'json']);
      expect(r.code, `${label}: ${r.stderr}`).toBe(0);
      expect(sessionOf(r.stdout)).toBe('input#1');
    }
  });

  it('an id longer than a cell, shortened in its middle by the sessions table: whole it wins over a longer id of the same start', async () => {
    const long = `tenant-${'x'.repeat(90)}-end`;
    const ids = [long, `${long}-2`];
    const table = await cli(['sessions', '-'], { stdin: logOf(ids), env: { COLUMNS: '1000' } });
    const printed = [...new Set(table.stdout.match(/tenant-x+…[^\s│]*/g))];
    expect(printed.length).toBe(2);
    for (const [i, p] of printed.entries()) {
      const r = await cli(['timeline', p, '-', '--format', 'json'], { stdin: logOf(ids) });
      expect(r.code, `${p}: ${r.stderr}`).toBe(0);
      expect(sessionOf(r.stdout)).toBe(ids[i]);
    }
  });

  it('a shortened form that several ids share: exit 2, stdout empty, the candidates listed', async () => {
    const ids = ['sess-alpha-0001', 'sess-alpha-0002', 'sess-beta-0001'];
    // The analysis's table of attempts that did not succeed shortens each session id to 12 columns.
    const report = await cli(['-'], { stdin: logOf(ids), env: { COLUMNS: '1000' } });
    expect(report.stdout).toContain('│ sess-alpha-… ');
    const r = await cli(['timeline', 'sess-alpha-…', '-'], { stdin: logOf(ids) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^mcp-triage: "sess-alpha-…" matches 2 sessions: sess-alpha-0001, sess-alpha-0002; give more of the id\n/);
    // A visible part after the `…` tells them apart.
    const one = await cli(['timeline', 'sess-alpha…2', '-', '--format', 'json'], { stdin: logOf(ids) });
    expect(sessionOf(one.stdout)).toBe('sess-alpha-0002');
  });

  it('a mistyped id: exit 2 with the nearest ids as suggestions', async () => {
    const typo = await cli(['timeline', 'a3f2', ...BOTH]);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toMatch(new RegExp(`^mcp-triage: no session starts with "a3f2" \\(did you mean ${A3F1}\\?\\); sessions seen: `));
    const shortened = await cli(['timeline', 'a3f1c2d4-5c…', ...BOTH]);
    expect(shortened.code).toBe(2);
    expect(shortened.stderr).toMatch(new RegExp(`^mcp-triage: no session matches "a3f1c2d4-5c…" \\(did you mean ${A3F1}\\?\\)`));
    const unrelated = await cli(['timeline', 'zzzz', ...BOTH]);
    expect(unrelated.stderr).not.toMatch(/did you mean/);
  });
});
