// The executable as a process: a closed pipe (`| head -1`) exits 0 quietly, Ctrl-C ends at once without a stack trace, no progress off a terminal.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BIN, BOTH, ROOT, cli, exchange, spawnCli } from './helpers.js';
import { inputSize } from '../../src/cli.js';

let dir: string;
let big: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-triage-process-'));
  big = join(dir, 'big.ndjson');
  // 1500 calls in 40 sessions: several hundred KB of ndjson output, far more than a pipe buffer.
  const start = Date.parse('2026-10-17T10:00:00Z');
  const lines: string[] = [];
  for (let i = 0; i < 1500; i++) lines.push(exchange({ ts: new Date(start + i * 250).toISOString(), session: `sess-${i % 40}`, id: i, tool: i % 7 ? 'search' : 'refund', status: i % 11 ? 200 : 503, side: 'client', args: { n: i } }));
  writeFileSync(big, `${lines.join('\n')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a closed pipe', () => {
  for (const format of ['ndjson', 'table', 'markdown', 'json']) {
    it(`mcp-triage --format ${format} | head -1 exits 0 with nothing on stderr`, () => {
      const r = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" "${big}" --format ${format} | head -1; echo "status=\${PIPESTATUS[0]}" >&2`], { encoding: 'utf8', timeout: 30_000 });
      expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
      expect(r.stderr).toBe('status=0\n');
    });
  }

  it('the reader closing its end mid-stream (a spawned process) ends it with 0', async () => {
    const child = spawn(process.execPath, [BIN, big, '--format', 'ndjson'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString())));
    expect(first.startsWith('{"type":"attempt"')).toBe(true);
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

describe('Ctrl-C', () => {
  it('ends a run reading a slow stdin at once, exit 130, no stack trace', async () => {
    const child = spawn(process.execPath, [BIN, '-', '--format', 'ndjson'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // A line it cannot use: its diagnostic on stderr shows the analysis is reading; stdin stays open, so it waits for more.
    const reading = new Promise<void>((resolve) => child.stderr.once('data', () => resolve()));
    child.stdin.write('{"neither":"a record"}\n');
    child.stdin.write(`${exchange({ ts: '2026-10-17T10:00:00.000Z', session: 's1', id: 1, side: 'client' })}\n`);
    await reading;
    await new Promise((r) => setTimeout(r, 200));
    expect(child.exitCode).toBe(null);
    const sent = Date.now();
    child.kill('SIGINT');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    expect(Date.now() - sent).toBeLessThan(2000);
    expect(signal).toBe(null);
    expect(code).toBe(130);
    expect(stderr).toMatch(/^mcp-triage: <stdin>:1: /);
    expect(stderr).not.toMatch(/Error|\n\s+at /);
    child.stdin.destroy();
  });
});

describe('progress', () => {
  it('never prints when stderr is not a terminal, even on a slow stdin', async () => {
    const child = spawn(process.execPath, [BIN, '-', '--format', 'ndjson'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.resume();
    for (let i = 0; i < 8; i++) {
      child.stdin.write(`${exchange({ ts: new Date(Date.parse('2026-10-17T10:00:00Z') + i * 1000).toISOString(), session: 's1', id: i, side: 'client' })}\n`);
      await new Promise((r) => setTimeout(r, 150));
    }
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('on a terminal, shows a progress line for a slow stdin of unknown size; --quiet turns it off', async () => {
    const slow = (n: number) => Readable.from((async function* () {
      for (let i = 0; i < n; i++) {
        yield Buffer.from(`${exchange({ ts: new Date(Date.parse('2026-10-17T10:00:00Z') + i * 1000).toISOString(), session: 's1', id: i, side: 'client' })}\n`);
        await new Promise((r) => setTimeout(r, 40));
      }
    })());
    const shown = await cli(['-', '--format', 'ndjson'], { stdin: slow(40), stderrTTY: true });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toMatch(/\rmcp-triage: \d+ KB read/);
    const quiet = await cli(['-', '--format', 'ndjson', '--quiet'], { stdin: slow(40), stderrTTY: true });
    expect(quiet.stderr).toBe('');
  }, 20_000);

  it('gets the total size of the inputs when it is known: the sum of the files, unknown with stdin', async () => {
    const a = join(ROOT, 'samples', 'client.ndjson');
    const b = join(ROOT, 'samples', 'server.ndjson');
    expect(await inputSize([{ path: a }, { path: b, side: 'server' }])).toBe(statSync(a).size + statSync(b).size);
    expect(await inputSize([{ path: a }, { path: '-' }])).toBeUndefined();
    expect(await inputSize([{ path: join(dir, 'nope.ndjson') }])).toEqual({ error: expect.stringMatching(/no such file/) });
    expect(await inputSize([{ path: dir }])).toEqual({ error: expect.stringMatching(/is a directory/) });
  });

  it('a small known input shows no progress even on a terminal', async () => {
    const r = await cli([...BOTH, '--format', 'ndjson'], { stderrTTY: true });
    expect(r.stderr).toBe('');
  });
});

describe('spawned end to end', () => {
  it('stdout holds the report, stderr the diagnostics, separately', async () => {
    const r = await spawnCli(['-', '--format', 'ndjson'], { stdin: `${exchange({ ts: '2026-10-17T10:00:00.000Z', session: 's1', id: 1, side: 'client' })}\nnot json at all\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^mcp-triage: <stdin>:2: /m);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['attempt', 'summary']);
  });
});

describe('start-up', () => {
  /** The files a run of the executable loads: ES modules seen by a module-loading hook, and the files read
   * synchronously (the bundle's CommonJS modules, which src/bundle-loader.cts reads, and Node's own `require`). */
  function loadedModules(args: string[]): string[] {
    writeFileSync(join(dir, 'hooks.mjs'), 'export async function load(url, context, next) { if (url.startsWith("file:")) process._rawDebug("loaded " + url); return next(url, context); }\n');
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${join(dir, 'hooks.mjs')}`)});\n`);
    writeFileSync(join(dir, 'reads.cjs'), 'const fs = require("node:fs"); const read = fs.readFileSync; fs.readFileSync = function (p, ...rest) { if (typeof p === "string" && /\\.(c?js|mjs)$/.test(p)) process._rawDebug("loaded file://" + p); return read.call(this, p, ...rest); };\n');
    const r = spawnSync(process.execPath, ['--require', join(dir, 'reads.cjs'), '--import', join(dir, 'register.mjs'), BIN, ...args], { encoding: 'utf8', timeout: 30_000, cwd: ROOT });
    expect(r.status).toBe(0);
    return r.stderr.split('\n').filter((l) => l.startsWith('loaded ')).map((l) => l.slice(7));
  }
  // `npm run build` bundles the CLI into dist/bundle/ (cli.cjs and chunks/); a plain `tsc` leaves the modules as they are.
  const CLI = /\/dist\/(bundle\/cli\.cjs|cli\.js)$/;
  const GRID = /\/dist\/(bundle\/chunks\/grid\.cjs|report\/grid\.js)$/;
  const heavy = (mods: string[]) => mods.filter((m) => /node_modules\/(yargs|zod|@streamparser)\//.test(m)).map((m) => m.replace(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*/, '$1'));

  it('a plain analysis of well-formed logs loads neither yargs, zod, the HAR parser nor the table renderer', () => {
    const mods = loadedModules(['--format', 'ndjson', '--client', 'test/fixtures/real/baseline.client.ndjson', '--server', 'test/fixtures/real/baseline.server.ndjson']);
    expect(mods.some((m) => CLI.test(m))).toBe(true);
    expect([...new Set(heavy(mods))]).toEqual([]);
    expect(mods.some((m) => GRID.test(m))).toBe(false);
  });

  it('the terminal report draws its tables without a dependency', () => {
    const mods = loadedModules(['test/fixtures/real/baseline.client.ndjson']);
    expect(mods.some((m) => GRID.test(m))).toBe(true);
    expect(mods.filter((m) => m.includes('/node_modules/'))).toEqual([]);
  });

  it('loads each of them when it is needed: help, an invalid record, a HAR document', () => {
    expect(heavy(loadedModules(['--help']))).toContain('yargs');
    expect(heavy(loadedModules(['--format', 'ndjson', big]))).not.toContain('zod');
    writeFileSync(join(dir, 'invalid.ndjson'), '{"v":1,"kind":"exchange","method":5,"status":"200"}\n');
    expect(heavy(loadedModules(['--format', 'ndjson', join(dir, 'invalid.ndjson')]))).toContain('zod'); // for a precise message
    writeFileSync(join(dir, 'doc.har'), JSON.stringify({ log: { version: '1.2', entries: [] } }));
    expect(heavy(loadedModules(['--format', 'ndjson', join(dir, 'doc.har')]))).toContain('@streamparser/json');
  });
});
