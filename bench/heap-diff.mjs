// Compares two V8 heap snapshots: which kinds of objects (constructor name, or string/array/closure) grew in count and bytes between them.
//
// Take the snapshots from a running analysis, e.g. early and late on the 1 GB pair:
//   node --heapsnapshot-signal=SIGUSR2 dist/bin.cjs --format ndjson --client ... --server ... > /dev/null &
//   kill -USR2 <pid>   (twice, some minutes apart; each writes Heap.*.heapsnapshot in the working directory)
// Usage: node bench/heap-diff.mjs EARLY.heapsnapshot LATE.heapsnapshot [--top N]
import { readFileSync } from 'node:fs';

function tally(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const meta = snap.snapshot.meta;
  const fields = meta.node_fields;
  const types = meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const nodes = snap.nodes;
  const byKind = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    total += size;
    // Objects by constructor name; strings, arrays, code and the rest by their type.
    const kind = type === 'object' || type === 'closure' ? `${type} ${snap.strings[nodes[i + nameAt]]}` : `(${type})`;
    const t = byKind.get(kind) ?? { count: 0, bytes: 0 };
    t.count++;
    t.bytes += size;
    byKind.set(kind, t);
  }
  return { byKind, total };
}

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const topAt = args.indexOf('--top');
const top = topAt === -1 ? 25 : Number(args[topAt + 1]);
if (files.length !== 2) {
  process.stderr.write('usage: node bench/heap-diff.mjs EARLY.heapsnapshot LATE.heapsnapshot [--top N]\n');
  process.exit(2);
}
const [a, b] = files.map(tally);
console.log(`heap (self sizes): ${(a.total / 1e6).toFixed(1)} MB -> ${(b.total / 1e6).toFixed(1)} MB`);
const rows = [];
for (const [kind, tb] of b.byKind) {
  const ta = a.byKind.get(kind) ?? { count: 0, bytes: 0 };
  rows.push({ kind, dCount: tb.count - ta.count, dBytes: tb.bytes - ta.bytes, count: tb.count, bytes: tb.bytes });
}
rows.sort((x, y) => y.dBytes - x.dBytes);
console.log(`\ngrowth, largest first (top ${top})`);
console.log(`${'delta MB'.padStart(9)} ${'delta count'.padStart(12)} ${'now MB'.padStart(8)} ${'now count'.padStart(10)}  kind`);
for (const r of rows.slice(0, top)) {
  console.log(`${(r.dBytes / 1e6).toFixed(2).padStart(9)} ${String(r.dCount).padStart(12)} ${(r.bytes / 1e6).toFixed(2).padStart(8)} ${String(r.count).padStart(10)}  ${r.kind}`);
}

rows.sort((x, y) => y.bytes - x.bytes);
console.log(`\nlargest in the second snapshot (top ${top})`);
for (const r of rows.slice(0, top)) {
  console.log(`${(r.bytes / 1e6).toFixed(2).padStart(9)} MB ${String(r.count).padStart(10)}  ${r.kind}`);
}
