// Tests for the stderr progress line: throttling, figures, ETA, clearing, and silence when disabled.
import { describe, expect, it } from 'vitest';
import {
  createProgress,
  formatBytes,
  formatDuration,
  progressText,
  shouldShowProgress,
  PROGRESS_MIN_BYTES,
  type ProgressStream,
} from '../src/progress.js';

/** A stderr stand-in that records every write, and a clock the test moves by hand. */
function fakes(columns?: number) {
  const writes: string[] = [];
  const stream: ProgressStream = { write: (text: string) => writes.push(text), columns };
  let t = 1000;
  const clock = { now: () => t, advance: (ms: number) => (t += ms) };
  return { writes, stream, clock };
}

const MB = 1e6;

describe('createProgress', () => {
  it('writes nothing at all when disabled', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ totalBytes: 500 * MB, stream, enabled: false, now: clock.now });
    for (let i = 1; i <= 20; i++) {
      clock.advance(1000);
      p.update(i * 10 * MB);
    }
    p.clear();
    p.done();
    expect(writes).toEqual([]);
  });

  it('stays silent during the start delay, so quick runs never flash a line', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ totalBytes: 100 * MB, stream, enabled: true, now: clock.now });
    clock.advance(300);
    p.update(90 * MB);
    clock.advance(100);
    p.done();
    expect(writes).toEqual([]);
  });

  it('shows bytes of total, percent, MB/s and ETA on one carriage-return line', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ totalBytes: 1080 * MB, stream, enabled: true, now: clock.now });
    clock.advance(2000); // 2 s in, 100 MB read: 50 MB/s, 980 MB left: ETA 19.6 s -> 0:20
    p.update(100 * MB);
    expect(writes).toEqual(['\rmcp-triage: 100.0 MB of 1.08 GB (9%)  50.0 MB/s  ETA 0:20\x1b[K']);
  });

  it('redraws at most every 200 ms however often update is called', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ totalBytes: 1000 * MB, stream, enabled: true, now: clock.now });
    clock.advance(600);
    let bytes = 0;
    // 3 s of updates every 10 ms: 300 calls, at most 3000 / 200 + 1 = 16 redraws
    for (let i = 0; i < 300; i++) {
      clock.advance(10);
      bytes += MB / 10;
      p.update(bytes);
    }
    expect(writes.length).toBeGreaterThanOrEqual(14);
    expect(writes.length).toBeLessThanOrEqual(16);
    for (const w of writes) expect(w.startsWith('\r')).toBe(true);
    expect(writes.some((w) => w.includes('\n'))).toBe(false);
  });

  it('erases the line at done and ignores updates after it', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ totalBytes: 200 * MB, stream, enabled: true, now: clock.now });
    clock.advance(1000);
    p.update(80 * MB);
    p.done();
    clock.advance(1000);
    p.update(150 * MB);
    p.done();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toBe('\r\x1b[K');
  });

  it('done writes nothing when no line was ever drawn', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ stream, enabled: true, now: clock.now });
    p.done();
    expect(writes).toEqual([]);
  });

  it('clear erases the line for other stderr text and a later update draws it again', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ totalBytes: 200 * MB, stream, enabled: true, now: clock.now });
    clock.advance(1000);
    p.update(10 * MB);
    p.clear();
    p.clear(); // nothing on screen any more: no second erase
    clock.advance(250);
    p.update(20 * MB);
    expect(writes.map((w) => (w === '\r\x1b[K' ? 'erase' : 'draw'))).toEqual(['draw', 'erase', 'draw']);
  });

  it('without a total shows bytes read and speed but no percent or ETA', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ stream, enabled: true, now: clock.now });
    clock.advance(4000);
    p.update(300 * MB);
    expect(writes[0]).toBe('\rmcp-triage: 300.0 MB read  75.0 MB/s\x1b[K');
  });

  it('cuts the line to the terminal width so the redraw stays on one row', () => {
    const { writes, stream, clock } = fakes(30);
    const p = createProgress({ totalBytes: 1080 * MB, stream, enabled: true, now: clock.now });
    clock.advance(1000);
    p.update(10 * MB);
    const text = writes[0]!.replace('\r', '').replace('\x1b[K', '');
    expect(text).toHaveLength(29);
    expect(text.startsWith('mcp-triage: 10.0 MB of 1.08 G')).toBe(true);
  });
});

describe('progressText', () => {
  it('caps at 100% and ETA 0:00 when more bytes than the total were counted', () => {
    expect(progressText('x', 120 * MB, 1000, 100 * MB)).toBe('x 100.0 MB of 100.0 MB (100%)  120.0 MB/s  ETA 0:00');
  });

  it('shows an unknown ETA before any byte was read', () => {
    expect(progressText('x', 0, 1000, 100 * MB)).toBe('x 0 KB of 100.0 MB (0%)  0.0 MB/s  ETA --:--');
  });

  it('shows hours for long reads', () => {
    // 1 MB/s with 3.7 GB left: 3700 s
    expect(progressText('x', 10 * MB, 10_000, 3710 * MB)).toContain('ETA 1:01:40');
  });
});

describe('formatting helpers', () => {
  it('formats byte counts in decimal units', () => {
    expect(formatBytes(512_000)).toBe('512 KB');
    expect(formatBytes(64 * MB)).toBe('64.0 MB');
    expect(formatBytes(1_080_000_000)).toBe('1.08 GB');
  });

  it('formats durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(7)).toBe('0:07');
    expect(formatDuration(754)).toBe('12:34');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(-3)).toBe('0:00');
  });
});

describe('shouldShowProgress', () => {
  it('is on only for a terminal, without --quiet, for large or unknown-size input', () => {
    expect(shouldShowProgress({ stderrIsTTY: true, quiet: false, totalBytes: 1e9 })).toBe(true);
    expect(shouldShowProgress({ stderrIsTTY: true, quiet: false })).toBe(true);
    expect(shouldShowProgress({ stderrIsTTY: true, quiet: false, totalBytes: PROGRESS_MIN_BYTES })).toBe(false);
    expect(shouldShowProgress({ stderrIsTTY: false, quiet: false, totalBytes: 1e9 })).toBe(false);
    expect(shouldShowProgress({ stderrIsTTY: true, quiet: true, totalBytes: 1e9 })).toBe(false);
  });
});

describe('update with a total', () => {
  it('takes the total from update when it was not known at creation (runAnalysis onProgress signature)', () => {
    const { writes, stream, clock } = fakes();
    const p = createProgress({ stream, enabled: true, now: clock.now });
    const onProgress = (bytesRead: number, totalBytes: number | undefined) => p.update(bytesRead, totalBytes);
    clock.advance(1000);
    onProgress(50 * MB, 200 * MB);
    expect(writes[0]).toBe('\rmcp-triage: 50.0 MB of 200.0 MB (25%)  50.0 MB/s  ETA 0:03\x1b[K');
  });
});
