// The command line as a ripgrep or jq user meets it (audit 40): a full disk, values a shell hands over empty, missing arguments, colour and width from the environment.
import { spawnSync } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, SAMPLES, cli } from './helpers.js';

const CLIENT = `${SAMPLES}client.ndjson`;
const SERVER = `${SAMPLES}server.ndjson`;
const BOTH = ['--client', CLIENT, '--server', SERVER];

/** The executable with its stdout on a file descriptor of our choosing (/dev/full: every write fails with ENOSPC). */
function runTo(path: string, argv: string[]): { code: number | null; stderr: string } {
  const fd = openSync(path, 'w');
  try {
    const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

describe('stdout that cannot be written (> /dev/full)', () => {
  // Every write failed with ENOSPC, and the run still ended 0 with nothing said: a report lost without a word.
  const commands: string[][] = [
    BOTH,
    [...BOTH, '--format', 'json'],
    [...BOTH, '--format', 'ndjson'],
    [...BOTH, '--format', 'markdown'],
    ['sessions', ...BOTH],
    ['timeline', 'a3f1', ...BOTH, '--format', 'json'],
    ['schema'],
    ['formats'],
    ['explain', 'HTTP_ERROR'],
    ['--help'],
    ['--version'],
  ];
  it.runIf(existsSync('/dev/full')).each(commands.map((c) => [c.join(' ').replaceAll(SAMPLES, 'samples/'), c]))('mcp-triage %s > /dev/full: exit 2, said on stderr', (_name, argv) => {
    const r = runTo('/dev/full', argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-triage: cannot write the output: no space left on device \(ENOSPC\)$/m);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('a writable file still gets the whole report, exit 0', () => {
    const r = runTo('/dev/null', [...BOTH, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
