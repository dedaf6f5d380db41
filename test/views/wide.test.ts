// The sessions and timeline views wide enough for every column (COLUMNS=1000): byte for byte what the build before the narrow layouts printed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/helpers.js';
import { CASES, DIR, ROOT, expand } from './wide-cases.mjs'; // plain JS, also run by hand to write the expectations

interface Case { name: string; args: string[] }

describe('at COLUMNS=1000 the views print what they printed before the narrow layouts', () => {
  // The inputs are named relative to the project folder, as when the expectations were written: a session-less
  // input's label carries its name, shortened to the width of a session id.
  it('runs from the project folder', () => {
    expect(join(process.cwd(), '/')).toBe(ROOT);
  });

  it.each((CASES as Case[]).map((c) => [c.name, c] as const))('%s', async (name, c) => {
    const r = await cli(expand(c.args) as string[], { env: { COLUMNS: '1000' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(DIR as string, `${name}.txt`), 'utf8'));
  });
});
