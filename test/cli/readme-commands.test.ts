// The README's commands, as a first-time user copies them: what they name exists where they run (the eighty-third audit).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };

/** The lines of the README's shell blocks (```sh), with their line numbers, comments and blank lines left out. */
const shellLines = (): { n: number; line: string }[] => {
  const out: { n: number; line: string }[] = [];
  let inside = false;
  README.split('\n').forEach((line, i) => {
    if (/^```(sh|bash|shell)\s*$/.test(line)) inside = true;
    else if (line.startsWith('```')) inside = false;
    else if (inside && line.trim() && !line.trim().startsWith('#')) out.push({ n: i + 1, line });
  });
  return out;
};

describe("the README's commands", () => {
  it('install the library from the file npm pack writes: mcp-triage is not on the npm registry', () => {
    // `npm install mcp-triage` got a 404 from the registry (checked 2026-12-07); the tarball is what a clone gives.
    const installs = shellLines().filter(({ line }) => /^npm (install|i) /.test(line.trim()));
    expect(installs.length).toBeGreaterThan(0);
    for (const { line } of installs) expect(line).toContain(`${pkg.name}-${pkg.version}.tgz`);
    expect(README).not.toMatch(new RegExp(`npm install ${pkg.name}\\s*\\n`));
  });

  it('run the files of this repository through npx (a clone has no mcp-triage on its PATH)', () => {
    // A line that names a file of the clone (samples/, test/fixtures/) runs from the clone, where only
    // `npx mcp-triage` (or `node dist/bin.cjs`) finds the executable; a bare `mcp-triage` is "command not found".
    const bare = shellLines().filter(({ line }) => /^\s*mcp-triage\b/.test(line) && /\b(samples|test\/fixtures)\//.test(line));
    expect(bare).toEqual([]);
  });

  it('name dist/ files the build writes (after the executable became dist/bin.cjs)', () => {
    expect(Object.values(pkg.bin)).toEqual(['dist/bin.cjs']);
    // Every dist/ path in a command (a shell block or an inline `node ...`), where `npm run build` has just run.
    const commands = [...shellLines().map(({ line }) => line), ...[...README.matchAll(/`(node [^`]+)`/g)].map((m) => m[1]!)];
    const paths = new Set(commands.flatMap((c) => [...c.matchAll(/(?:^|[\s=/])(dist\/[\w./-]+\.c?js)\b/g)].map((m) => m[1]!)));
    expect(paths.size).toBeGreaterThan(0);
    for (const p of paths) expect(existsSync(join(ROOT, p)), p).toBe(true);
    // The one dist/bin.js the README names is an older checkout's, said so.
    for (const m of README.matchAll(/dist\/bin\.js\b/g)) expect(README.slice(m.index!, m.index! + 120)).toMatch(/before stop 54/);
  });

  it('start the proxy in a script by the executable itself, and say where node_modules/.bin/mcp-triage exists', () => {
    const i = README.indexOf('In a script, start the proxy with');
    expect(i).toBeGreaterThan(0);
    const para = README.slice(i, README.indexOf('\n\n', i)).replace(/\s+/g, ' ');
    expect(para).toContain('in a project that installed mcp-triage');
    expect(para).toContain('`node dist/bin.cjs record … &` in a clone of this repository');
    // A clone's npm ci does not link the package's own bin into its node_modules/.bin.
    expect(existsSync(join(ROOT, 'node_modules', '.bin', 'mcp-triage'))).toBe(false);
  });
});
