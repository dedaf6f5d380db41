// Audit 37's real run (test/fixtures/real-audit37/long-errors): a row's "… [N more characters]" counts what the log holds beyond the cell, not beyond the report's own 4,096-character cut.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/helpers.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit37/long-errors/', import.meta.url));
const INPUTS = ['--client', `${DIR}client.ndjson`, '--server', `${DIR}server.ndjson`];
const observed = JSON.parse(readFileSync(`${DIR}observed.json`, 'utf8')) as { import_csv: { textLength: number }; read: { code: number; messageLength: number } };
/** The lengths of the two texts as the caller got them: the tool's error text, and the JSON-RPC error's message without the SDK's "MCP error -32603: " prefix. */
const TOOL_TEXT = observed.import_csv.textLength;
const READ_MESSAGE = observed.read.messageLength - `MCP error ${observed.read.code}: `.length;

/** Every "[N more characters]" a report says, in order (Markdown escapes the brackets). */
const more = (text: string) => [...text.matchAll(/\\?\[(\d+) more characters\\?\]/g)].map((m) => Number(m[1]));
/** N is what a cell of about 2,000 characters leaves out of a text of `whole` characters (its why may add a short prefix such as the error code). */
const leavesOut = (n: number, whole: number) => n > whole - 2100 && n <= whole - 1900;

describe('a text longer than the report keeps (real-audit37/long-errors)', () => {
  it('is the whole text the caller got, well over 4,096 characters', () => {
    expect(TOOL_TEXT).toBeGreaterThan(10_000);
    expect(READ_MESSAGE).toBeGreaterThan(10_000);
  });

  it('the ndjson row cuts at 4,096 and counts the rest', async () => {
    const run = await cli([...INPUTS, '--format', 'ndjson']);
    const rows = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; method?: string; detail?: { errorMessage?: string } });
    const tool = rows.find((r) => r.method === 'tools/call')!.detail!.errorMessage!;
    const read = rows.find((r) => r.method === 'resources/read')!.detail!.errorMessage!;
    expect(more(tool)).toEqual([TOOL_TEXT - 4096]);
    expect(more(read)).toEqual([READ_MESSAGE - 4096]);
  });

  it.each([
    ['the table', [] as string[]],
    ['the Markdown report', ['--format', 'markdown']],
  ])('%s says how much of the whole text its cell leaves out', async (_name, args) => {
    const run = await cli([...INPUTS, ...args], { env: { COLUMNS: '100000' } });
    expect(run.code).toBe(0);
    const counts = more(run.stdout);
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts.filter((n) => leavesOut(n, TOOL_TEXT)).length).toBeGreaterThanOrEqual(1);
    expect(counts.filter((n) => leavesOut(n, READ_MESSAGE)).length).toBeGreaterThanOrEqual(1);
    expect(counts.filter((n) => !leavesOut(n, TOOL_TEXT) && !leavesOut(n, READ_MESSAGE))).toEqual([]);
  });

  it('so does the timeline', async () => {
    // A stateless server: the traffic is grouped by the client key its recordingFetch wrote.
    const run = await cli(['timeline', 'audit37-client@1.0.0', ...INPUTS], { env: { COLUMNS: '100000' } });
    expect(run.code).toBe(0);
    const counts = more(run.stdout);
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts.filter((n) => !leavesOut(n, TOOL_TEXT) && !leavesOut(n, READ_MESSAGE))).toEqual([]);
  });
});
