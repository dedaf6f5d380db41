// Every example printed by --help (of the tool and of each command) runs as written from the project folder and exits 0 or 1.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
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
    expect(existsSync(`${BIN}`), 'dist/bin.cjs (run npx tsc -p . first)').toBe(true);
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

  it('record\'s example is one line, as the others are, and runs as written until it is stopped', { timeout: 30_000 }, async (ctx) => {
    const help = (await cli(['record', '--help'])).stdout;
    const examplesPart = help.slice(help.indexOf('\nExamples:\n'));
    const lines = [...examplesPart.matchAll(/^ {2}\$ (.+)$/gm)].map((m) => m[1]!);
    expect(lines).toEqual(['mcp-triage record --listen 127.0.0.1:8808 --target http://127.0.0.1:3000 --out mcp.ndjson']);
    // Every line of the section is an example or its explanation (yargs' own example layout wrapped the command in two).
    for (const line of examplesPart.split('\n').slice(2).filter(Boolean)) expect(line).toMatch(/^ {2}\$ mcp-triage |^ {6}\S/);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-record-example-'));
    try {
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'mcp-triage'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
      const child = spawn('bash', ['-c', lines[0]!], { cwd: dir, detached: true, env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` } });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const exited = new Promise<number | null>((r) => child.once('close', r));
      // Generous: the whole suite runs beside it on two cores, and bash, sh and Node must all start first.
      const deadline = Date.now() + 20_000;
      while (!/ -> http:\/\/127\.0\.0\.1:3000, appending to mcp\.ndjson/.test(stderr) && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      const code = await exited;
      if (/EADDRINUSE/.test(stderr)) ctx.skip(); // something else listens on 8808 here
      expect(stderr).toMatch(/^mcp-triage record: http:\/\/127\.0\.0\.1:8808 -> http:\/\/127\.0\.0\.1:3000, appending to mcp\.ndjson/);
      expect(code, stderr).toBe(0);
      expect(existsSync(join(dir, 'mcp.ndjson'))).toBe(true);
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
