// The stdout writer: backpressure waits resolve, and waiting many times leaves no listeners behind on the stream.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { OutputWriter } from '../../src/output.js';

/** A pipe that takes 16 KiB at a time and drains on the next tick, like stdout into a slow reader. */
function slowPipe(): Writable & { received: number } {
  const w = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, cb) {
      w.received += chunk.length;
      setImmediate(cb);
    },
  }) as Writable & { received: number };
  w.received = 0;
  return w;
}

describe('OutputWriter', () => {
  it('waits for drain many times without piling up listeners, and delivers every byte', async () => {
    const pipe = slowPipe();
    const baseline = { drain: pipe.listenerCount('drain'), error: pipe.listenerCount('error'), close: pipe.listenerCount('close') };
    const out = new OutputWriter(pipe);
    const line = `${'x'.repeat(1023)}\n`;
    let waits = 0;
    for (let i = 0; i < 4000; i++) {
      out.write(line);
      const wait = out.drained();
      if (wait) {
        waits++;
        await wait;
      }
    }
    await out.close();
    expect(waits).toBeGreaterThan(20); // the pipe really pushed back
    expect(pipe.received).toBe(4000 * 1024);
    // The writer keeps its own error listener; none of the per-wait listeners remain.
    expect(pipe.listenerCount('drain')).toBe(baseline.drain);
    expect(pipe.listenerCount('close')).toBe(baseline.close);
    expect(pipe.listenerCount('error')).toBe(baseline.error + 1);
  });
});
