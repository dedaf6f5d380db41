// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): top functions by self and inclusive time, time per file, and per project file with its library calls.
//
// Usage: node bench/profile-summary.mjs FILE.cpuprofile [--top N]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const topAt = args.indexOf('--top');
const top = topAt === -1 ? 25 : Number(args[topAt + 1]);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs FILE.cpuprofile [--top N]\n');
  process.exit(2);
}

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const shortUrl = (url) => {
  if (!url) return '';
  const m = /\/(dist|src|bench|node_modules)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url.replace(/^file:\/\//, '');
};
const keyOf = (n) => {
  const f = n.callFrame;
  const name = f.functionName || '(anonymous)';
  return f.url ? `${name} ${shortUrl(f.url)}:${f.lineNumber + 1}` : name;
};

/** The project's own code: dist/ (or src/ when run from sources). */
const isProject = (url) => /\/(dist|src)\//.test(url ?? '');
const charged = new Map();
const self = new Map();
const inclusive = new Map();
const perFile = new Map();
let total = 0;
const samples = profile.samples ?? [];
const deltas = profile.timeDeltas ?? [];
for (let i = 0; i < samples.length; i++) {
  const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000; // ms spent in this sample (the delta to the next one)
  const node = byId.get(samples[i]);
  if (!node) continue;
  total += dt;
  const k = keyOf(node);
  self.set(k, (self.get(k) ?? 0) + dt);
  const fileKey = shortUrl(node.callFrame.url) || node.callFrame.functionName || '(native)';
  perFile.set(fileKey, (perFile.get(fileKey) ?? 0) + dt);
  // Charge library, builtin and GC time to the nearest project function up the stack (GC stays GC).
  let owner = node.callFrame.functionName === '(garbage collector)' ? '(garbage collector)' : undefined;
  for (let id = node.id; owner === undefined && id !== undefined; id = parent.get(id)) {
    const n = byId.get(id);
    if (isProject(n.callFrame.url)) owner = shortUrl(n.callFrame.url);
  }
  owner ??= '(outside project code: startup, module loading, stream internals)';
  charged.set(owner, (charged.get(owner) ?? 0) + dt);
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const key = keyOf(byId.get(id));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
  }
}

const show = (title, map, n) => {
  console.log(`\n${title}`);
  const rows = [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  for (const [k, ms] of rows) console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
};

console.log(`${file}: ${(total / 1000).toFixed(2)} s sampled`);
show(`top ${top} by self time`, self, top);
show(`top ${top} by inclusive time`, inclusive, top);
show('self time by file', perFile, 15);
show('time by project file, with the libraries and builtins it called (JSON.parse, zod, crypto...)', charged, 25);
