// Preloaded with `node --import ./bench/memtrace.mjs` to see whether memory follows log size: samples heap and RSS every 500 ms into $BENCH_MEMTRACE_FILE.
import { appendFileSync, writeFileSync } from 'node:fs';

const target = process.env.BENCH_MEMTRACE_FILE;
if (target) {
  const started = performance.now();
  writeFileSync(target, 'seconds rssMB heapUsedMB heapTotalMB externalMB arrayBuffersMB\n');
  const sample = () => {
    const m = process.memoryUsage();
    const mb = (n) => (n / 1e6).toFixed(1);
    appendFileSync(target, `${((performance.now() - started) / 1000).toFixed(1)} ${mb(m.rss)} ${mb(m.heapUsed)} ${mb(m.heapTotal)} ${mb(m.external)} ${mb(m.arrayBuffers)}\n`);
  };
  setInterval(sample, 500).unref();
  process.on('exit', sample);
}
