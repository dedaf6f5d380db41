// Test helper: a scratch folder for one test file, and the built executable run in it as a user would (no colour, 160 columns), with the checks the hostile-input tests share.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'dist/bin.cjs');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Scratch {
  /** The folder (made before the file's tests, removed after them). */
  readonly dir: string;
  /** `mcp-triage ARGS` in the folder; env adds to (or overrides) NO_COLOR=1 and COLUMNS=160. */
  cli(args: string[], env?: Record<string, string>): Run;
  /** Writes a file into the folder; returns its name, as the CLI is given it. */
  write(name: string, data: string | Buffer): string;
}

/** A scratch folder for the calling test file (its hooks registered here); builds dist/ first if it is missing. */
export function scratchCli(prefix: string): Scratch {
  let dir = '';
  beforeAll(() => {
    if (!existsSync(BIN)) spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), prefix));
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    cli(args, env = {}) {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1', COLUMNS: '160', ...env }, encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 30 });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    write(name, data) {
      writeFileSync(join(dir, name), data);
      return name;
    },
  };
}

/** The JSON report's summary: what the hostile-input tests count. */
export interface Summary {
  attempts: number;
  lines: { read: number; used: number; blank: number; skipped: number; unusable: number };
  diagnostics: { total: number; byCode: Record<string, number>; first: { file: string; line?: number; code: string; message: string }[] };
}
export const summaryOf = (r: Run): Summary => (JSON.parse(r.stdout) as { summary: Summary }).summary;

/** No crash on stderr: no internal error, no JavaScript error name, no stack frame. */
export function expectNoCrash(r: Run): void {
  expect(r.stderr).not.toMatch(/internal error|RangeError|TypeError|Maximum call stack|^\s+at .+:\d+:\d+\)?$/m);
}
