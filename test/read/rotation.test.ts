// Rotated pieces of one log (src/read/rotation.ts): which inputs are one log's files, and the overlap at a seam read once.
import { describe, expect, it } from 'vitest';
import type { Line } from '../../src/read/lines.js';
import { rotationSeries, Seam } from '../../src/read/rotation.js';

async function* source(texts: string[]): AsyncGenerator<Line[]> {
  yield texts.map((text, i) => ({ lineNo: i + 1, text }));
}
async function read(seam: Seam, name: string, texts: string[]): Promise<{ skipped: string[]; overlap?: number }> {
  const out: { skipped: string[]; overlap?: number } = { skipped: [] };
  for await (const batch of seam.lines(name, source(texts), (n) => (out.overlap = n))) for (const l of batch) if ('text' in l && l.skipped) out.skipped.push(l.text);
  return out;
}

describe('rotationSeries', () => {
  it('the current file and its numbered files, of one side, oldest first; other names and sides apart', () => {
    const s = rotationSeries([{ path: 'logs/app.log' }, { path: 'logs/app.log.2.gz' }, { path: 'logs/app.log.1' }, { path: 'other.log' }]);
    expect(s[1]).toMatchObject({ last: false, head: 1, series: [1, 2, 0] });
    expect(s[2]).toMatchObject({ after: 1, last: false });
    expect(s[0]).toMatchObject({ after: 2, last: true });
    expect(s[3]).toBeUndefined();
    // No current file, or another side: no series.
    expect(rotationSeries([{ path: 'app.log.2' }, { path: 'app.log.1' }])).toEqual([undefined, undefined]);
    expect(rotationSeries([{ path: 'app.log', side: 'client' }, { path: 'app.log.1', side: 'server' }])).toEqual([undefined, undefined]);
    expect(rotationSeries([{ path: 'a/app.log' }, { path: 'b/app.log.1' }])).toEqual([undefined, undefined]);
  });
});

describe('Seam', () => {
  it("the next piece's first lines that repeat the end of the piece before, to its last line, are skipped", async () => {
    const seam = new Seam();
    await read(seam, 'a.1', ['1', '2', '3', '4']);
    expect(await read(seam, 'a', ['3', '4', '5'])).toEqual({ skipped: ['3', '4'], overlap: 2 });
  });

  it('near miss: lines that repeat the piece before but not up to its end (a line that comes again later) are read', async () => {
    const seam = new Seam();
    await read(seam, 'a.1', ['x', 'y', 'z', 'w']);
    expect(await read(seam, 'a', ['x', 'y', 'q'])).toEqual({ skipped: [] });
    const other = new Seam();
    await read(other, 'b.1', ['x', 'y']);
    expect(await read(other, 'b', ['x'])).toEqual({ skipped: [] });
  });
});
