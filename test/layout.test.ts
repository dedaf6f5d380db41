// The README's Layout section names every source file, each source file opens with a comment saying what it owns, and every link within the README and the fixtures' chapter (test/fixtures/README.md) leads to a heading, and every table in them opens with its header row.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.c?ts$/.test(e.name) ? [join(dir, e.name)] : []));
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

/** GitHub's anchors for a Markdown file's headings (code blocks skipped, repeated headings numbered). */
function anchorsOf(text: string): Set<string> {
  const slug = (h: string) => h.replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let code = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) code = !code;
    const m = code ? null : /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base);
    seen.set(base, n === undefined ? 0 : n + 1);
    anchors.add(n === undefined ? base : `${base}-${n + 1}`);
  }
  return anchors;
}

describe('the README links', () => {
  // The fixtures' own chapter lives beside them; each file links into the other.
  const docs: Record<string, string> = { 'README.md': readme, 'test/fixtures/README.md': readFileSync(join(ROOT, 'test/fixtures/README.md'), 'utf8') };
  const anchors = Object.fromEntries(Object.entries(docs).map(([f, text]) => [f, anchorsOf(text)]));
  const target = (from: string, file: string) => (file === '' ? from : relative(ROOT, join(ROOT, from, '..', file)));

  it.each(Object.keys(docs))('in %s lead to headings that exist (GitHub anchors)', (from) => {
    const links = [...docs[from]!.matchAll(/\]\(([^)#\s]*)#([^)]+)\)/g)].map((m) => ({ file: target(from, m[1]!), anchor: m[2]! }));
    expect(links.length).toBeGreaterThan(20);
    expect(links.filter((l) => !anchors[l.file]?.has(l.anchor)).map((l) => `${l.file}#${l.anchor}`)).toEqual([]);
  });

  it('open the README with a list of contents that names every chapter (## heading) in order', () => {
    const block = /<!-- contents: made from the headings -->\n([\s\S]*?)<!-- \/contents -->/.exec(readme)?.[1] ?? '';
    const listed = [...block.matchAll(/^- \[.*\]\(#([^)]+)\)$/gm)].map((m) => m[1]!);
    const slug = (h: string) => h.replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const chapters = [...readme.replace(/```[\s\S]*?```/g, '').matchAll(/^## (.*)$/gm)].map((m) => slug(m[1]!)).filter((a) => a !== 'contents');
    expect(listed).toEqual(chapters);
  });

  it('keep the list of fixture sets in the README, each set described in the fixtures\' chapter', () => {
    const intoFixtures = [...readme.matchAll(/\]\(test\/fixtures\/README\.md#([^)]+)\)/g)];
    expect(intoFixtures.length).toBeGreaterThan(40);
  });
});

/** Table rows (lines that start with "|", outside code blocks) that follow prose instead of a header and its delimiter row. */
function headlessRows(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  let code = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) code = !code;
    if (code || !line.startsWith('|') || lines[i - 1]?.startsWith('|')) continue;
    // A table starts here: GitHub renders it only when the next line is the delimiter row (| --- | --- |).
    if (!/^\|(\s*:?-+:?\s*\|)+\s*$/.test(lines[i + 1] ?? '')) out.push(`${i + 1}: ${line.slice(0, 60)}`);
  }
  return out;
}

describe('the README tables', () => {
  // A paragraph written into a table (or after it, with more rows below) leaves those rows without a header:
  // GitHub then prints them as text with pipes. The README's Input options and sessions columns were so.
  it.each(['README.md', 'test/fixtures/README.md'])('in %s each open with a header and a delimiter row', (file) => {
    expect(headlessRows(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('finds a headless table when there is one', () => {
    expect(headlessRows('| a | b |\n| --- | --- |\n| 1 | 2 |\n\ntext\n| 3 | 4 |\n')).toEqual(['6: | 3 | 4 |']);
  });
});
