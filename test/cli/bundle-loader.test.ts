// The executable's bundle and its code cache: the cache of the build is used, and a cache that is damaged, stale or missing (or no bundle at all) changes nothing but speed.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from './helpers.js';

const ARGS = ['--format', 'ndjson', '--client', join(ROOT, 'samples/client.ndjson'), '--server', join(ROOT, 'samples/server.ndjson'), join(ROOT, 'samples/capture.har.ndjson')];
let tmp: string;
let expected: string;

/** A copy of the built package (dist/, its dependencies linked), to damage without touching the build. */
function copyOfDist(name: string): string {
  const pkg = join(tmp, name);
  mkdirSync(pkg);
  execFileSync('cp', ['-a', join(ROOT, 'dist'), join(pkg, 'dist')]); // -a: the same modification times, to the nanosecond
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ type: 'module' }));
  return pkg;
}

/** How many of the bundle's modules took their code from the cache in a run of the CLI's entry. */
function acceptedIn(pkg: string): number {
  const script = `import { BundleLoader, bundleDir } from ${JSON.stringify(join(pkg, 'dist/bundle-loader.cjs'))};
const l = new BundleLoader(bundleDir()); l.load('cli.cjs'); process.stdout.write(String(l.accepted));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return Number(r.stdout);
}

function run(pkg: string) {
  return spawnSync(process.execPath, [join(pkg, 'dist/bin.cjs'), ...ARGS], { encoding: 'utf8', timeout: 30_000 });
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'mcp-triage-bundle-'));
  const r = spawnSync(process.execPath, [BIN, ...ARGS], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  expected = r.stdout;
  expect(expected.split('\n').length).toBeGreaterThan(10);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the code cache', () => {
  it('is written by the build and taken by V8 on this Node', () => {
    expect(acceptedIn(ROOT)).toBeGreaterThan(0);
  });

  it('is read with bundle files in ASCII only (V8 then keeps their source in one byte a character, half the memory to read)', () => {
    const dir = join(ROOT, 'dist/bundle');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cjs'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => !isAscii(readFileSync(join(dir, f))))).toEqual([]);
  });

  it('a damaged cache is ignored (V8 would crash on it): same report, exit 0', () => {
    const pkg = copyOfDist('damaged');
    const file = join(pkg, 'dist/bundle/code-cache.bin');
    const bytes = readFileSync(file);
    for (let i = 8192; i < bytes.length; i += 997) bytes[i]! ^= 0x5a;
    writeFileSync(file, bytes);
    expect(acceptedIn(pkg)).toBe(0);
    const r = run(pkg);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected);
  });

  it('a cache cut short or not a cache at all is ignored', () => {
    const pkg = copyOfDist('short');
    const file = join(pkg, 'dist/bundle/code-cache.bin');
    writeFileSync(file, readFileSync(file).subarray(0, 100_000));
    expect(run(pkg).stdout).toBe(expected);
    writeFileSync(file, 'not a cache');
    expect(acceptedIn(pkg)).toBe(0);
    expect(run(pkg).stdout).toBe(expected);
  });

  it('a cache older than the bundle file it was made from is not used for it', () => {
    const pkg = copyOfDist('stale');
    expect(acceptedIn(pkg)).toBeGreaterThan(1);
    const cli = join(pkg, 'dist/bundle/cli.cjs');
    utimesSync(cli, new Date(), new Date(Date.now() + 5000)); // rebuilt since the cache was written
    const withStaleEntry = acceptedIn(pkg);
    expect(withStaleEntry).toBeLessThan(acceptedIn(ROOT));
    expect(run(pkg).stdout).toBe(expected);
  });

  it('the build step that writes it never fails the build: when it cannot write, it says so, leaves no cache, and exits 0', () => {
    const pkg = copyOfDist('unwritable');
    rmSync(join(pkg, 'dist/bundle/code-cache.bin'));
    mkdirSync(join(pkg, 'dist/bundle/code-cache.bin.tmp')); // where it writes before renaming: a folder, so the write fails
    const b = spawnSync(process.execPath, [join(pkg, 'dist/build-code-cache.js')], { encoding: 'utf8' });
    expect(b.status).toBe(0);
    expect(b.stderr).toMatch(/^build-code-cache: no code cache made \(EISDIR.*\); the executable compiles its code as it loads\n$/);
    expect(acceptedIn(pkg)).toBe(0);
    expect(run(pkg).stdout).toBe(expected);
  });

  it('without a cache the bundle runs as well; without a bundle the ES modules do', () => {
    const pkg = copyOfDist('none');
    rmSync(join(pkg, 'dist/bundle/code-cache.bin'));
    expect(run(pkg).stdout).toBe(expected);
    rmSync(join(pkg, 'dist/bundle'), { recursive: true });
    const r = run(pkg);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(expected);
  });
});
