// The published package: `npm pack` holds only bin, dist (.js, the executable's .cjs bundle and .d.ts), README, LICENSE and package.json; installed offline it runs.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NdjsonLineSchema } from '../src/report/schema.js';

const ROOT = new URL('../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string>; types: string; main: string; exports: Record<string, { types: string; import: string } | string> };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let dir: string;
let tarball: string;
let files: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-triage-pack-'));
  // --ignore-scripts: pack the dist/ that `npm test` has just built, without building it again.
  const out = execFileSync(npm, ['pack', '--pack-destination', dir, '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, info!.filename);
  files = info!.files.map((f) => f.path);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm pack', () => {
  it('holds package.json, README.md, LICENSE and compiled dist/ only', () => {
    const stray = files.filter((f) => !['package.json', 'README.md', 'LICENSE'].includes(f) && !/^dist\/.+\.(js|d\.ts)$/.test(f) && !/^dist\/(bundle\/.+|bin|bundle-loader)\.cjs$/.test(f));
    expect(stray).toEqual([]);
    for (const f of ['package.json', 'README.md', 'LICENSE']) expect(files).toContain(f);
    expect(files.some((f) => /^(src|test|samples|bench)\//.test(f))).toBe(false);
  });

  it('holds what package.json points at: the bin, main, types and every export', () => {
    const targets = [...Object.values(pkg.bin), pkg.main, pkg.types, ...Object.entries(pkg.exports).filter(([k]) => k !== './package.json').flatMap(([, v]) => (typeof v === 'string' ? [v] : [v.types, v.import]))];
    for (const t of targets) expect(files, t).toContain(t.replace(/^\.\//, ''));
    expect(readFileSync(join(ROOT, pkg.bin['mcp-triage']!), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    // Every compiled module comes with its declarations; the executable's bundle (dist/bundle/, CommonJS) is imported
    // by nothing else. Its code cache is not packed: it holds only where it was built (src/bundle-loader.cts).
    for (const js of files.filter((f) => f.endsWith('.js'))) expect(files, js).toContain(js.replace(/\.js$/, '.d.ts'));
    expect(files).toContain('dist/bundle/cli.cjs');
    expect(files.filter((f) => f.startsWith('dist/bundle/chunks/')).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('dist/bundle/') && !f.endsWith('.cjs'))).toEqual([]);
  });
});

describe('the packed tarball installed offline into an empty folder', () => {
  let app: string;
  beforeAll(() => {
    app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    // The consumer's lockfile names the tarball and this project's own locked runtime dependencies, so `npm ci` needs
    // only the package tarballs that the project's `npm ci` put in the npm cache: no network, and no registry
    // metadata (an `npm install` of the tarball would need the registry's package documents to resolve versions).
    const spec = `file:../${tarball.split('/').pop()}`;
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
    const packages: Record<string, unknown> = {
      '': { name: 'triage-consumer', dependencies: { [pkg.name]: spec } },
      [`node_modules/${pkg.name}`]: { version: pkg.version, resolved: spec, dependencies: (pkg as { dependencies?: Record<string, string> }).dependencies, bin: pkg.bin },
    };
    for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev && !entry.devOptional) packages[path] = entry;
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'triage-consumer', private: true, type: 'module', dependencies: { [pkg.name]: spec } }));
    writeFileSync(join(app, 'package-lock.json'), JSON.stringify({ name: 'triage-consumer', lockfileVersion: 3, requires: true, packages }));
    execFileSync(npm, ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  }, 90_000);

  it('has a working mcp-triage --version', () => {
    const bin = join(app, 'node_modules', '.bin', 'mcp-triage');
    expect(existsSync(bin)).toBe(true);
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('runs an analysis of the samples', () => {
    const bin = join(app, 'node_modules', '.bin', 'mcp-triage');
    const r = spawnSync(bin, ['--client', join(ROOT, 'samples/client.ndjson'), '--server', join(ROOT, 'samples/server.ndjson'), '--format', 'ndjson'], { encoding: 'utf8', cwd: app });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => NdjsonLineSchema.parse(JSON.parse(l)));
    expect(lines.at(-1)!.type).toBe('summary');
    expect(lines.filter((l) => l.type === 'attempt').length).toBeGreaterThan(5);
  });

  it('is importable as a library, with types a TypeScript consumer compiles against', () => {
    const script = `import { analyze, VERSION } from 'mcp-triage';
import { Readable } from 'node:stream';
const line = JSON.stringify({ v: 1, kind: 'exchange', method: 'POST', url: 'http://127.0.0.1/mcp', ts: '2026-10-17T10:00:00.000Z', side: 'client', session: 's1', send: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: {} } }, status: 503, responseHeaders: {}, recvText: '' });
const { attempts, summary } = await analyze({ stdin: Readable.from([line + '\\n']) });
console.log(JSON.stringify({ version: VERSION, outcome: attempts[0].outcome, total: summary.attempts }));
`;
    writeFileSync(join(app, 'use.mjs'), script);
    const r = spawnSync(process.execPath, ['use.mjs'], { cwd: app, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ version: pkg.version, outcome: 'HTTP_ERROR', total: 1 });

    // A Node.js consumer has @types/node (the stream types in the API come from it); the rest must come from the package.
    writeFileSync(join(app, 'use.ts'), `import { analyze, type AttemptRow, type Summary, type Outcome } from 'mcp-triage';
export async function failures(path: string): Promise<{ rows: AttemptRow[]; summary: Summary }> {
  const { attempts, summary } = await analyze({ inputs: [{ path, side: 'client' }], filter: { outcome: 'HTTP_ERROR' } });
  const outcome: Outcome = attempts[0]!.outcome;
  return { rows: attempts.filter((a) => a.outcome === outcome), summary };
}
`);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true, skipLibCheck: false, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['use.ts'] }));
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const t = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
    expect(t.stdout + t.stderr).toBe('');
    expect(t.status).toBe(0);
  }, 60_000);

  it('has capture types a strict consumer compiles against without skipLibCheck, and no published type needs yargs', () => {
    // dist/capture/record-command.d.ts imported yargs' types (a devDependency here): TS7016 in such a consumer.
    writeFileSync(join(app, 'use-capture.ts'), `import { recordingFetch, recordingHandler, startRecordingProxy, runRecord, type RecordArgs, type RecordingProxy } from 'mcp-triage/capture';
export const f: typeof fetch = recordingFetch({ out: 'client.ndjson' });
export const h = recordingHandler((_req, res) => res.end(), { out: 'server.ndjson' });
export async function proxy(args: RecordArgs): Promise<[RecordingProxy, number]> {
  return [await startRecordingProxy({ listen: 0, target: args.target, out: args.out }), await runRecord(args, { stderr: process.stderr, stopped: Promise.resolve() })];
}
`);
    writeFileSync(join(app, 'tsconfig.capture.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, skipLibCheck: false, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] }, files: ['use-capture.ts'] }));
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const t = spawnSync(tsc, ['-p', 'tsconfig.capture.json'], { cwd: app, encoding: 'utf8' });
    expect(t.stdout + t.stderr).toBe('');
    expect(t.status).toBe(0);

    // Every .d.ts reachable from the package's exports, followed through its relative imports: none names yargs.
    const installed = join(app, 'node_modules', pkg.name);
    const seen = new Set<string>();
    const todo = Object.values(pkg.exports).flatMap((v) => (typeof v === 'string' ? [] : [join(installed, v.types)]));
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/(?:from|import\()\s*['"]yargs(?:\/[^'"]*)?['"]/);
      for (const m of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g)) todo.push(join(file, '..', `${m[1]}.d.ts`));
    }
    expect(seen.has(join(installed, 'dist', 'capture', 'record-command.d.ts'))).toBe(true);
  }, 60_000);
});
