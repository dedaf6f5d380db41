// Preloaded with `node --import ./bench/alloc-profile.mjs` to see which functions allocate most, the objects that minor and major collections freed included: writes a table to $BENCH_ALLOC_FILE at exit.
//
//   BENCH_ALLOC_FILE=/tmp/alloc.txt node --import ./bench/alloc-profile.mjs dist/bin.cjs --format ndjson \
//     --client bench/data/100mb/client.ndjson --server bench/data/100mb/server.ndjson > /dev/null
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_ALLOC_FILE;
const top = Number(process.env.BENCH_ALLOC_TOP ?? 40);
if (target) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.enable');
  // One sample per 16 KiB allocated on average; without the two flags only what is still alive at the end is counted.
  session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  process.on('exit', () => {
    // The inspector answers synchronously inside 'exit' when the session is in the same thread.
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (err) return writeFileSync(target, `stopSampling failed: ${err.message}\n`);
      const bytes = new Map();
      // A builtin (Map, set, join...) is named with the project function that called it.
      const walk = (node, caller) => {
        const f = node.callFrame;
        const where = f.url ? `${f.url.replace(/^.*\/(dist|src|bench|node_modules)\//, '$1/')}:${f.lineNumber + 1}` : '';
        const name = `${f.functionName || '(anonymous)'} ${where}`.trim();
        const key = f.url || !caller ? name : `${name} <- ${caller}`;
        bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
        for (const child of node.children) walk(child, f.url ? name : caller);
      };
      walk(result.profile.head, '');
      let total = 0;
      for (const b of bytes.values()) total += b;
      const rows = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top);
      const mb = (n) => (n / 1e6).toFixed(1).padStart(8);
      writeFileSync(target, [`allocated in all: ${mb(total).trim()} MB (sampled)`, ...rows.map(([k, b]) => `${mb(b)} MB ${((100 * b) / total).toFixed(1).padStart(5)}%  ${k}`)].join('\n') + '\n');
    });
  });
}
