// Two inputs that show the same requests (one log given twice, both forms of one capture) are said to overlap, once, with the count; a client and server pair, plain or sided, and a log split in two are not.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-overlap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const copy = join(dir, 'client-copy.ndjson');
copyFileSync(`${SAMPLES}client.ndjson`, copy);

async function notesOf(inputs: { path: string; side?: 'client' | 'server' }[]) {
  const diagnostics: string[] = [];
  const r = await analyze({ inputs, onDiagnostic: (l) => diagnostics.push(l) });
  return { notes: r.summary.notes, diagnostics, attempts: r.attempts.length };
}
const overlapNotes = (notes: string[]) => notes.filter((n) => n.includes(' show the same '));
const twinNotes = (notes: string[]) => notes.filter((n) => n.includes(' are two logs of the client\'s side of the same '));

describe('inputs that show the same requests', () => {
  it('one log given twice (plain): said once, with the count, instead of the advice to give them as client and server', async () => {
    const alone = await notesOf([{ path: `${SAMPLES}client.ndjson` }]);
    const r = await notesOf([{ path: `${SAMPLES}client.ndjson` }, { path: copy }]);
    expect(r.attempts).toBe(2 * alone.attempts);
    const said = overlapNotes(r.notes);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`client.ndjson and ${copy} show the same ${alone.attempts} requests`);
    expect(r.diagnostics.some((d) => d.includes(' show the same '))).toBe(true);
    expect(r.notes.some((n) => n.includes('without saying which side wrote them'))).toBe(false);
  });

  it('one log given twice as --client: two logs of one side, each request reported once (audit 93), and said', async () => {
    const alone = await notesOf([{ path: `${SAMPLES}client.ndjson` }]);
    const r = await notesOf([{ path: `${SAMPLES}client.ndjson`, side: 'client' }, { path: copy, side: 'client' }]);
    expect(r.attempts).toBe(alone.attempts);
    expect(twinNotes(r.notes)).toHaveLength(1);
    expect(twinNotes(r.notes)[0]).toContain(`same ${alone.attempts} requests`);
  });

  it("a client's log and the server's, sided, plain or sided by their names, do not overlap (the plain pair keeps its advice)", async () => {
    const sided = await notesOf([{ path: `${SAMPLES}client.ndjson`, side: 'client' }, { path: `${SAMPLES}server.ndjson`, side: 'server' }]);
    expect(overlapNotes(sided.notes)).toEqual([]);
    const byName = await notesOf([{ path: `${SAMPLES}client.ndjson` }, { path: `${SAMPLES}server.ndjson` }]);
    expect(overlapNotes(byName.notes)).toEqual([]);
    expect(byName.notes.some((n) => n.includes('as their names say'))).toBe(true);
    const server = join(dir, 'second.ndjson');
    copyFileSync(`${SAMPLES}server.ndjson`, server);
    const plain = await notesOf([{ path: copy }, { path: server }]);
    expect(overlapNotes(plain.notes)).toEqual([]);
    expect(plain.notes.some((n) => n.includes('without saying which side wrote them'))).toBe(true);
  });

  it('two plain captures of one run from different points (a recording proxy, a HAR), 3 of whose requests share their millisecond: no overlap', async () => {
    const app = new URL('../fixtures/real-audit16/app/', import.meta.url).pathname;
    const r = await notesOf([{ path: `${app}proxy.ndjson` }, { path: `${app}capture.har.ndjson` }]);
    expect(overlapNotes(r.notes)).toEqual([]);
    expect(r.notes.some((n) => n.includes('without saying which side wrote them'))).toBe(true);
  });

  it("a recorder's server-side capture given beside the server's own app log (no HTTP status in it): said, as its calls double", async () => {
    const run = new URL('../fixtures/real-audit17/s3-py-applog/', import.meta.url).pathname;
    const proxy = await notesOf([{ path: `${run}proxy.ndjson`, side: 'client' }]);
    const r = await notesOf([{ path: `${run}proxy.ndjson`, side: 'client' }, { path: `${run}server-app.log`, side: 'server' }]);
    expect(r.attempts).toBe(2 * proxy.attempts);
    expect(overlapNotes(r.notes)[0]).toMatch(/proxy\.ndjson and .*server-app\.log show the same \d+ requests?/);
  });

  it('a log split in two files (rotated) does not overlap', async () => {
    const lines = readFileSync(`${SAMPLES}client.ndjson`, 'utf8').split('\n').filter(Boolean);
    const half = Math.floor(lines.length / 2);
    writeFileSync(join(dir, 'part1.ndjson'), `${lines.slice(0, half).join('\n')}\n`);
    writeFileSync(join(dir, 'part2.ndjson'), `${lines.slice(half).join('\n')}\n`);
    const r = await notesOf([{ path: join(dir, 'part1.ndjson'), side: 'client' }, { path: join(dir, 'part2.ndjson'), side: 'client' }]);
    expect(overlapNotes(r.notes)).toEqual([]);
  });

  it('a request re-posted with the same id into another file, answered otherwise, is no copy', async () => {
    // The copy's first tools/call answered 503 instead: that one request no longer counts as shown twice.
    const lines = readFileSync(`${SAMPLES}client.ndjson`, 'utf8').split('\n').filter(Boolean);
    const alone = await notesOf([{ path: `${SAMPLES}client.ndjson` }]);
    const at = lines.findIndex((l) => l.includes('"tools/call"') && /"status":200/.test(l));
    expect(at).toBeGreaterThan(-1);
    lines[at] = lines[at]!.replace('"status":200', '"status":503');
    writeFileSync(join(dir, 'changed.ndjson'), `${lines.join('\n')}\n`);
    // (Given both with --client, the two logs' views of the other requests are one attempt each: audit 93.)
    const r = await notesOf([{ path: `${SAMPLES}client.ndjson`, side: 'client' }, { path: join(dir, 'changed.ndjson'), side: 'client' }]);
    expect(twinNotes(r.notes)[0]).toContain(`same ${alone.attempts - 1} requests`);
    expect(r.attempts).toBe(alone.attempts + 1);
    const plain = await notesOf([{ path: `${SAMPLES}client.ndjson` }, { path: join(dir, 'changed.ndjson') }]);
    expect(overlapNotes(plain.notes)[0]).toContain(`show the same ${alone.attempts - 1} requests`);
  });
});
