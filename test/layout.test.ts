// The README's Layout section names every source file, each source file opens with a comment saying what it owns, and every link within the README leads to one of its headings.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const files = sources(join(ROOT, 'src')).map((f) => relative(ROOT, f)).sort();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const layout = readme.slice(readme.indexOf('\n## Layout\n'), readme.indexOf('\n`npm run build`', readme.indexOf('\n## Layout\n')));

describe('the source layout', () => {
  it('finds the Layout section and the sources', () => {
    expect(layout.length).toBeGreaterThan(1000);
    expect(files.length).toBeGreaterThan(50);
  });

  it('names every source file in the README Layout section', () => {
    const unnamed = files.filter((f) => !new RegExp(`(^|[\\s,(/])${f.split('/').pop()!.replace(/[.]/g, '\\.')}([\\s,);]|$)`, 'm').test(layout));
    expect(unnamed).toEqual([]);
  });

  it('opens every source file with a one-line comment on what it owns', () => {
    const bare = files.filter((f) => !/^(#!.*\n)?\/\/ \S/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(bare).toEqual([]);
  });
});

describe('the README links', () => {
  it('lead to headings that exist (GitHub anchors)', () => {
    const slug = (h: string) => h.replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const anchors = new Set<string>();
    const seen = new Map<string, number>();
    let code = false;
    for (const line of readme.split('\n')) {
      if (line.startsWith('```')) code = !code;
      const m = code ? null : /^#{1,6} (.*)$/.exec(line);
      if (!m) continue;
      const base = slug(m[1]!);
      const n = seen.get(base);
      seen.set(base, n === undefined ? 0 : n + 1);
      anchors.add(n === undefined ? base : `${base}-${n + 1}`);
    }
    const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(50);
    expect(links.filter((l) => !anchors.has(l))).toEqual([]);
  });
});
