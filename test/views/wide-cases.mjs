// The wide-output cases of the views (test/fixtures/views-wide/cases.json): expanding their arguments, and writing their expected output with a given build.
// Run: node test/views/wide-cases.mjs BIN   (BIN: the dist/bin.cjs of the build whose output is the expectation; run from the project folder).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIR = join(ROOT, 'test/fixtures/views-wide');
export const CASES = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')).cases;

const entries = (dir) => readdirSync(join(ROOT, dir)).sort().map((f) => `${dir}/${f}`);
const isDir = (p) => statSync(join(ROOT, p)).isDirectory();

/** A case's arguments, `dir/*.ext` and `dir/*\/*.ext` expanded to the files they name (relative to the project folder, sorted). */
export function expand(args) {
  return args.flatMap((a) => {
    const m = /^(.*?)\/(\*\/)?\*([^/*]*)$/.exec(a);
    if (!m) return [a];
    const dirs = m[2] ? entries(m[1]).filter(isDir) : [m[1]];
    return dirs.flatMap(entries).filter((f) => !isDir(f) && f.endsWith(m[3]));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bin = process.argv[2];
  if (!bin) throw new Error('usage: node test/views/wide-cases.mjs BIN');
  for (const c of CASES) {
    const out = execFileSync(process.execPath, [bin, ...expand(c.args)], { cwd: ROOT, env: { PATH: process.env.PATH, COLUMNS: '1000' }, stdio: ['ignore', 'pipe', 'ignore'], encoding: 'utf8', maxBuffer: 1 << 28 });
    writeFileSync(join(DIR, `${c.name}.txt`), out);
  }
  console.log(`${CASES.length} cases written to ${DIR}`);
}
