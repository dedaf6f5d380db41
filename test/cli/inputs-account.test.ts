// The input account on real logs: lines without MCP traffic are skipped (not problems, not fatal with --strict).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { NdjsonSummarySchema } from '../../src/report/schema.js';
import { ROOT, SAMPLES, cli } from './helpers.js';

const CLAUDE = join(ROOT, 'test/fixtures/real-claude-code/timeout/mcp-logs-web.jsonl');
const HAR = join(SAMPLES, 'formats/capture.har');

/** The summary of a --format json run. */
const summaryOf = (stdout: string) => (JSON.parse(stdout) as { summary: Record<string, unknown> }).summary as {
  lines: { read: number; used: number; blank: number; skipped: number; unusable: number };
  inputs: { name: string; side?: string; sideAssumed?: boolean; lines: number; used: number; blank: number; skipped: number; unusable: number; reasons: Record<string, number>; accounted: boolean }[];
  diagnostics: { total: number; byCode: Record<string, number> };
  notes: string[];
  attempts: number;
};

describe('lines without MCP traffic are skipped, not problems', () => {
  it("Claude Code's log: its connection and stderr lines are skipped, nothing on stderr, no input problem", async () => {
    const r = await cli([CLAUDE, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const s = summaryOf(r.stdout);
    expect(s.lines).toEqual({ read: 28, used: 1, blank: 0, skipped: 27, unusable: 0 });
    expect(s.inputs[0]!.reasons).toEqual({});
    expect(s.inputs[0]!.accounted).toBe(true);
    expect(s.diagnostics.total).toBe(0);
  });

  it('the table counts them in their own column and prints no "Input problems" line', async () => {
    const r = await cli([CLAUDE]);
    expect(r.stdout).toContain('Inputs (lines = used + blank + skipped + unusable');
    expect(r.stdout).not.toContain('Input problems');
    expect(r.stdout).not.toContain('no-mcp-traffic');
  });

  it('a HAR: the favicon entry is skipped, not reported', async () => {
    const r = await cli([HAR, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const s = summaryOf(r.stdout);
    expect(s.inputs[0]).toMatchObject({ lines: 6, used: 5, skipped: 1, unusable: 0, accounted: true });
  });

  it('--strict does not stop at a skipped line: a normal Claude Code log and the sample HAR finish with exit 0', async () => {
    for (const input of [CLAUDE, HAR]) {
      const r = await cli([input, '--strict', '--format', 'ndjson']);
      expect(r.code, input).toBe(0);
      expect(r.stderr, input).toBe('');
      expect(NdjsonSummarySchema.parse(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).lines).toMatchObject({ unusable: 0 });
    }
  });

  it('a broken line is still a problem, and still fatal with --strict', async () => {
    const lines = ['{"resourceSpans":[]}', '{not json'];
    const r = await cli(['-', '--format', 'json'], { stdin: lines });
    expect(summaryOf(r.stdout).lines).toEqual({ read: 2, used: 0, blank: 0, skipped: 1, unusable: 1 });
    expect(r.stderr).toContain('<stdin>:2: invalid JSON');
    const strict = await cli(['-', '--strict'], { stdin: lines });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('<stdin>:2: invalid JSON');
  });

  it('an OTLP span without MCP attributes is skipped; an input with nothing but skipped lines is said once on stderr', async () => {
    const span = { name: 'GET /', traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000100000000', attributes: [{ key: 'http.method', value: { stringValue: 'GET' } }] };
    const line = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
    const r = await cli(['-', '--strict', '--format', 'json'], { stdin: [line, line] });
    expect(r.code).toBe(0);
    const s = summaryOf(r.stdout);
    expect(s.lines).toMatchObject({ read: 2, skipped: 2, unusable: 0 });
    expect(r.stderr).toBe('mcp-triage: <stdin>: no line of it carries MCP traffic (2 skipped): nothing in it was analyzed\n');
    expect(s.notes).toContain('<stdin>: no line of it carries MCP traffic (2 skipped): nothing in it was analyzed');
  });

  it('an API page whose records carry no MCP traffic counts as one skipped line', async () => {
    const page = JSON.stringify({ data: [{ attributes: { attributes: { debug: 'Successfully connected', timestamp: '2026-01-01T00:00:00Z', sessionId: 's', cwd: '/' } } }] });
    const r = await cli(['-', '--strict', '--format', 'json'], { stdin: [page] });
    expect(r.code).toBe(0);
    expect(summaryOf(r.stdout).lines).toMatchObject({ read: 1, used: 0, skipped: 1, unusable: 0 });
  });

  it('`mcp-triage formats` says what skipped means', async () => {
    const r = await cli(['formats']);
    expect(r.stdout).toContain('lines = used + blank + skipped + unusable');
    expect(r.stdout).toMatch(/skipped {3}well-formed in its format but no MCP traffic/);
  });
});
