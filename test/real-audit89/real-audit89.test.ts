// Audit 89's real captures (test/fixtures/real-audit89): which side a plain input is when its records carry no `side`: an HTTP logger's lines with bodies, a log whose first lines give no record, two logs in one file, a HAR beside a server's console.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit89/`;
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
interface Observed { steps: { step: string; ok?: unknown; threw?: unknown }[]; serverRan: string[]; concatenated?: { clientLines: number; serverFrom: number } }
interface Attempt { method: string; tool: string | null; outcome: string; status: number | null; side?: string; serverOutcome?: string; call: string; attempt: number; sources: { file: string; line: number }[] }
interface Input { name: string; side?: string; sideAssumed?: boolean }

const observed = (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Observed;
/** What each tool step of the app got, as an outcome (every step of these recordings got a result). */
const stepOutcomes = (o: Observed) => o.steps.filter((s) => s.step !== 'connect').map((s) => ((s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));

async function run(args: string[]) {
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  const out = JSON.parse(r.stdout) as { attempts: Attempt[]; summary: { calls: number; notes: string[]; inputs: Input[] } };
  const calls = out.attempts.filter((a) => a.method === 'tools/call');
  return { ...out, calls, notes: out.summary.notes, inputs: out.summary.inputs, stderr: r.stderr };
}
/** What a report says of each attempt, sources aside (the same with the flags as plain). */
const shape = (a: Attempt[]) => a.map((x) => [x.method, x.tool, x.outcome, x.status, x.side ?? null, x.serverOutcome ?? null, x.call, x.attempt]);
const sides = (inputs: Input[]) => inputs.map((i) => [i.side ?? null, i.sideAssumed ?? false]);
const noteOf = (notes: string[], name: string, words: string) => notes.filter((n) => n.startsWith(`${name}:`) || n.startsWith(`${name} `)).filter((n) => n.includes(words));

const tmp = mkdtempSync(join(tmpdir(), 'audit89-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('real-audit89 http-loggers: an SDK 1.32.2 app\'s own fetch logger (full URLs) and an Express app\'s own request logger (paths), with bodies', () => {
  const o = observed('http-loggers');
  const fetchLog = f('http-loggers', 'app-fetch.log');
  const express = f('http-loggers', 'express-access.log');

  it('the Express log names request paths only: read as the server\'s view, the fetch log as the client\'s; every call joined and counted once, as with the flags', async () => {
    const plain = await run([fetchLog, express]);
    const flagged = await run(['--client', fetchLog, '--server', express]);
    expect(shape(plain.attempts)).toEqual(shape(flagged.attempts));
    expect(plain.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(plain.calls.every((a) => a.side === 'client' && a.serverOutcome === a.outcome)).toBe(true);
    expect(plain.calls).toHaveLength(o.serverRan.length);
    expect(sides(plain.inputs)).toEqual([['client', true], ['server', true]]);
    expect(noteOf(plain.notes, express, 'its HTTP log lines name the request\'s path only')).toHaveLength(1);
    expect(noteOf(plain.notes, fetchLog, 'read as the client\'s view, to be joined to theirs')).toHaveLength(1);
    expect(plain.notes.some((n) => n.includes('analyzed apart'))).toBe(false);
  });

  it('must not: the fetch log\'s full URLs say no side: beside a HAR (no side either) both stay plain', async () => {
    const r = await run([fetchLog, f('console-har', 'har-lines.ndjson')]);
    expect(sides(r.inputs)).toEqual([[null, false], [null, false]]);
    expect(r.notes.some((n) => n.includes('given without a side'))).toBe(false);
  });
});

describe('real-audit89 silent-head and banner: a log whose first lines give no record', () => {
  it('silent-head: the Python server\'s DEBUG log (no message lines at all) takes no part: the client\'s DEBUG log still sides the proxy\'s capture as the server\'s view, joined, as with the flags; the silent log is said to carry no traffic', async () => {
    const o = observed('silent-head');
    const [client, proxy, debug] = ['app-debug.log', 'proxy.ndjson', 'mcp-debug.log'].map((n) => f('silent-head', n));
    const plain = await run([client!, proxy!, debug!]);
    const flagged = await run(['--client', client!, '--server', proxy!, debug!]);
    expect(shape(plain.attempts)).toEqual(shape(flagged.attempts));
    expect(plain.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(plain.calls.every((a) => a.serverOutcome === a.outcome)).toBe(true);
    expect(sides(plain.inputs)).toEqual([[null, false], ['server', true], [null, false]]);
    expect(noteOf(plain.notes, debug!, 'no line of it carries MCP traffic')).toHaveLength(1);
    expect(plain.notes.some((n) => n.includes('counted a second time'))).toBe(false);
  });

  it('banner: the Python client app logs 19 lines of its own start-up before the SDK\'s first line: its side is read further on, and the proxy\'s capture is the server\'s view, joined', async () => {
    const o = observed('banner');
    const [app, proxy] = ['app.log', 'proxy.ndjson'].map((n) => f('banner', n));
    const plain = await run([app!, proxy!]);
    const flagged = await run(['--client', app!, '--server', proxy!]);
    expect(shape(plain.attempts)).toEqual(shape(flagged.attempts));
    expect(plain.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(plain.calls.every((a) => a.serverOutcome === a.outcome)).toBe(true);
  });

  it('a start-up section longer than the 64 KiB looked at: that log keeps no side and, where its records then state the side another input was read as, says so; where they state the other one, says it took no part', async () => {
    // (the banner app's log with its start-up lines repeated past 64 KiB)
    const lines = readFileSync(f('banner', 'app.log'), 'utf8').split('\n');
    const start = lines.findIndex((l) => l.includes('mcp.client') || l.includes(' - asyncio - '));
    const long = join(tmp, 'long-banner.log');
    writeFileSync(long, `${lines.slice(0, start).join('\n')}\n`.repeat(Math.ceil(70_000 / lines.slice(0, start).join('\n').length)) + lines.slice(start).join('\n'));
    const first = readFileSync(long, 'utf8').split('\n').findIndex((l) => l.includes('Sending client message')) + 1;
    // beside the uvicorn console (the server's side): the HAR is read as the client's view, and so is the long log's
    const a = await run([long, f('console-har', 'har-lines.ndjson'), f('console-har', 'uvicorn.log')]);
    expect(sides(a.inputs)).toEqual([[null, false], ['client', true], [null, false]]);
    const late = noteOf(a.notes, long, 'its first 64 KiB give no record');
    expect(late).toHaveLength(1);
    expect(late[0]).toContain(`from line ${first} on its records state the client's side`);
    // beside the client's DEBUG log: the proxy's capture is the server's view; the long log's client records are no conflict
    const b = await run([long, f('silent-head', 'app-debug.log'), f('silent-head', 'proxy.ndjson')]);
    expect(sides(b.inputs)).toEqual([[null, false], [null, false], ['server', true]]);
    expect(noteOf(b.notes, long, 'so it took no part in choosing the sides')).toHaveLength(1);
    expect(noteOf(b.notes, long, 'state the server\'s side')).toHaveLength(0);
  });
});

describe('real-audit89 concat: the client\'s DEBUG log and the server\'s recordingHandler log in one file, beside the proxy\'s capture', () => {
  const o = observed('concat');

  it('all.log\'s last lines state the server\'s side (audit 96): it is both sides\' log, so the proxy\'s capture takes no side (a third view), all.log\'s two views are joined, and no ID_REUSED', async () => {
    const r = await run([f('concat', 'all.log'), f('concat', 'proxy.ndjson')]);
    expect(sides(r.inputs)).toEqual([[null, false], [null, false]]);
    expect(r.notes.some((n) => n.includes('two logs in one file'))).toBe(false);
    expect(r.notes.some((n) => n.startsWith(`${f('concat', 'proxy.ndjson')} carries the same sessions as ${f('concat', 'all.log')}`))).toBe(true);
    const fromAll = r.calls.filter((a) => a.sources.every((s) => s.file === f('concat', 'all.log')));
    expect(fromAll.map((a) => a.outcome)).toEqual(stepOutcomes(o));
    expect(fromAll.every((a) => a.side === 'client' && a.serverOutcome === a.outcome)).toBe(true);
    expect(JSON.stringify(r.attempts)).not.toContain('ID_REUSED');
  });

  it('where the second log does not run to the end of the file (lines of no record after it), the first server record is said, with its line', async () => {
    const file = join(tmp, 'all-then-text.log');
    writeFileSync(file, `${readFileSync(f('concat', 'all.log'), 'utf8')}${'app shutting down: flushing queues\n'.repeat(16)}`);
    const r = await run([file, f('concat', 'proxy.ndjson')]);
    expect(sides(r.inputs)).toEqual([[null, false], ['server', true]]);
    const said = noteOf(r.notes, file, 'two logs in one file');
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`its first lines state the client's side`);
    expect(said[0]).toContain(`from line ${o.concatenated!.serverFrom} on its records state the server's side`);
    expect(said[0]).toContain(`${f('concat', 'proxy.ndjson')} read as the server's view`);
    expect(r.stderr).toContain(said[0]);
  });

  it('must not: a client\'s log alone (no server record further on) beside the proxy\'s capture says nothing of two logs', async () => {
    for (const d of ['silent-head', 'banner']) {
      const r = await run([f(d, d === 'banner' ? 'app.log' : 'app-debug.log'), f(d, 'proxy.ndjson')]);
      expect(r.notes.some((n) => n.includes('two logs in one file') || n.includes('give no record'))).toBe(false);
    }
  });
});

describe('real-audit89 console-har: an SDK v2 app\'s HAR lines beside the Python server\'s uvicorn console', () => {
  const o = observed('console-har');
  const har = f('console-har', 'har-lines.ndjson');
  const uvicorn = f('console-har', 'uvicorn.log');

  for (const [how, args, why] of [
    ['given plain', [har, uvicorn], 'its records state no side, the other logs\' records state one'],
    ['given plain next to --server', [har, '--server', uvicorn], 'given without a side next to server-side logs only'],
  ] as const) {
    it(`${how}: the HAR is the client's view, no note claims a join, and one says none happened (the console's lines hold no call)`, async () => {
      const r = await run([...args]);
      expect(r.calls.map((a) => a.outcome)).toEqual(stepOutcomes(o));
      expect(r.calls.every((a) => a.side === 'client' && a.serverOutcome === undefined)).toBe(true);
      expect(r.notes.some((n) => /read as the client's view, joined/.test(n))).toBe(false);
      const none = noteOf(r.notes, har, 'but no call of it joined a call of the other logs');
      expect(none).toHaveLength(1);
      expect(none[0]).toContain(`(${why})`);
      expect(none[0]).toContain('they hold no call to join it to');
    });
  }

  it('must not: beside logs that do hold calls (an Express log of another run), the note does not say they hold none', async () => {
    const r = await run([har, f('http-loggers', 'express-access.log')]);
    expect(sides(r.inputs)).toEqual([['client', true], ['server', true]]);
    const none = noteOf(r.notes, har, 'but no call of it joined a call of the other logs');
    expect(none).toHaveLength(1);
    expect(none[0]).toContain('they may not show the same traffic');
    expect(none[0]).not.toContain('they hold no call');
  });

  it('must not: where the calls joined (the HTTP loggers), no note says none did', async () => {
    const r = await run([f('http-loggers', 'app-fetch.log'), f('http-loggers', 'express-access.log')]);
    expect(r.notes.some((n) => n.includes('no call of'))).toBe(false);
  });
});
