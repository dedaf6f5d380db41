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

describe('rotationSeries: files named by date', () => {
  const order = (paths: string[], sides: ('client' | 'server' | undefined)[] = []) => {
    const s = rotationSeries(paths.map((path, i) => ({ path, side: sides[i] })));
    const head = s.find((p) => p !== undefined);
    return head === undefined ? undefined : { by: head.by, files: head.series.map((i) => paths[i]) };
  };

  it("logrotate's dateext, Python's TimedRotatingFileHandler and a daily file pattern: oldest first by date, the current file last", () => {
    expect(order(['app.log', 'app.log-20261206', 'app.log-20261204.gz', 'app.log-20261205'])).toEqual({ by: 'date', files: ['app.log-20261204.gz', 'app.log-20261205', 'app.log-20261206', 'app.log'] });
    expect(order(['app.log-20261206-1796549662', 'app.log-20261206-1796549661', 'app.log'])?.files).toEqual(['app.log-20261206-1796549661', 'app.log-20261206-1796549662', 'app.log']);
    expect(order(['logs/app.log', 'logs/app.log.2026-12-06_09-34-13', 'logs/app.log.2026-12-06_09-34-12'])?.files).toEqual(['logs/app.log.2026-12-06_09-34-12', 'logs/app.log.2026-12-06_09-34-13', 'logs/app.log']);
    // logrotate's `extension .log`: the date before the extension.
    expect(order(['app.log', 'app-20261205.log', 'app-20261204.log.gz'])?.files).toEqual(['app-20261204.log.gz', 'app-20261205.log', 'app.log']);
    // A daily log (winston-daily-rotate-file) has no undated current file: its dated files alone are a series.
    expect(order(['application-2026-12-06.log', 'application-2026-12-05.log'])?.files).toEqual(['application-2026-12-05.log', 'application-2026-12-06.log']);
    // A side given to some pieces only (the shell's `--client app.log*`) takes the others'.
    expect(order(['app.log.2026-12-05', 'app.log.2026-12-06', 'app.log'], ['client', undefined, undefined])?.files).toHaveLength(3);
  });

  it('near misses: a date that is none, two logs of one day, two sides, numbers and dates mixed, one file alone', () => {
    expect(order(['app.log', 'app.log-20261306'])).toBeUndefined(); // month 13: a number, not a date
    expect(order(['client-2026-12-06.log', 'server-2026-12-06.log'])).toBeUndefined();
    expect(order(['app.log', 'app.log-20261205'], ['client', 'server'])).toBeUndefined();
    expect(order(['app.log', 'app.log.1', 'app.log-20261205'])).toBeUndefined();
    expect(order(['client-2026-10-17.ndjson.gz'])).toBeUndefined();
    expect(order(['a/app.log-20261205', 'b/app.log-20261206'])).toBeUndefined();
    // Numbered pieces still need their current file.
    expect(order(['app.log.2', 'app.log.1'])).toBeUndefined();
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
