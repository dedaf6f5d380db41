// Every example printed by --help (of the tool and of each command) runs as written from the project folder and exits 0 or 1.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, cli } from './helpers.js';

const COMMANDS = [[], ['sessions'], ['timeline'], ['explain'], ['formats'], ['schema']];

async function examples(): Promise<string[]> {
  const found: string[] = [];
  for (const command of COMMANDS) {
    const help = (await cli([...command, '--help'])).stdout;
    const lines = [...help.matchAll(/^ {2}\$ (.+)$/gm)].map((m) => m[1]!);
    expect(lines.length, `examples in mcp-triage ${command.join(' ')} --help`).toBeGreaterThan(0);
    found.push(...lines);
  }
  return found;
}

describe('--help examples', () => {
  it('each one runs as written against samples/ and exits 0 or 1', { timeout: 120_000 }, async () => {
    expect(existsSync(`${BIN}`), 'dist/bin.js (run npx tsc -p . first)').toBe(true);
    const list = await examples();
    expect(list.length).toBeGreaterThanOrEqual(12);
    // A scratch folder that looks like the project folder: samples/ and an `mcp-triage` on the PATH.
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-examples-'));
    try {
      symlinkSync(join(ROOT, 'samples'), join(dir, 'samples'));
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'mcp-triage'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
      for (const example of list) {
        const r = spawnSync('bash', ['-o', 'pipefail', '-c', example], {
          cwd: dir, encoding: 'utf8', timeout: 30_000,
          env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}`, NO_COLOR: '1' },
        });
        expect(r.status, `${example}\n${r.stderr}`).not.toBeNull();
        expect([0, 1], `${example} exited ${r.status}\n${r.stderr}`).toContain(r.status);
        expect(r.stderr, example).not.toMatch(/internal error|\n\s+at /);
        // Each writes something: on stdout, or into the file it redirects to.
        const redirect = /> (\S+)$/.exec(example);
        if (redirect) expect(existsSync(join(dir, redirect[1]!)), example).toBe(true);
        else expect(r.stdout.length, example).toBeGreaterThan(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the examples name only sample files that exist', async () => {
    for (const example of await examples()) {
      for (const m of example.matchAll(/samples\/[\w.-]+/g)) expect(existsSync(join(ROOT, m[0])), `${m[0]} in: ${example}`).toBe(true);
    }
  });
});
