// `npm run bench`: generates the benchmark logs if missing, times the bare parse baseline against the full analysis, holds the analysis to the generator's truth, and writes bench/RESULTS.md.
//
// Usage: node bench/run.mjs [--quick] [--runs N] [--no-write] [--render]   (env MCP_TRIAGE_BIN: the CLI to time, default dist/bin.cjs)
//   --quick     the 100 MB pairs and the huge-lines pair only (about two minutes)
//   --runs N    runs per measurement (default: 3 on 100 MB, 1 on 1 GB); the median is reported
//   --no-write  print the table but leave bench/RESULTS.md alone
//   --render    measure nothing: re-render the last run (bench/data/results.json) into the table and RESULTS.md
// Needs dist/ (run `npm ci` or `npx tsc -p .` first); builds nothing itself. Not part of `npm test`.
import { spawn, execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILES, GENERATOR_VERSION, generateAll, generateHugeLines } from './generate.mjs';
import { checkTruth, withinBroken } from './check-truth.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The CLI under test; MCP_TRIAGE_BIN points the bench at another build (e.g. an older checkout's dist/bin.cjs). */
const BIN = process.env.MCP_TRIAGE_BIN ? resolve(process.env.MCP_TRIAGE_BIN) : join(ROOT, 'dist', 'bin.cjs');
const DATA = join(ROOT, 'bench', 'data');
const PARSE_LOOPS = join(ROOT, 'bench', 'parse-loops.mjs');
const MAXRSS_HOOK = join(ROOT, 'bench', 'maxrss.mjs');
const RESULTS = join(ROOT, 'bench', 'RESULTS.md');
const HISTORY_MARKER = '<!-- history: everything below this line is kept by bench/run.mjs -->';
const SEED = 1;
const GNU_TIME = '/usr/bin/time';
const HAS_GNU_TIME = existsSync(GNU_TIME);

const TARGETS = { ratio: 0.7, stretchRatio: 1.3, rssMB: 200, rssGrowth: 1.2, startup: 2 };
/** Runs of each start-up figure (the median is reported). */
const STARTUP_RUNS = 15;

function parseArgs(argv) {
  const opts = { quick: false, runs: null, write: true, render: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--runs') {
      opts.runs = Number(argv[++i]);
      if (!Number.isInteger(opts.runs) || opts.runs < 1) fail(`--runs needs a positive integer, got ${argv[i]}`);
    } else if (a === '--no-write') opts.write = false;
    else if (a === '--render') opts.render = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node bench/run.mjs [--quick] [--runs N] [--no-write]');
      process.exit(0);
    } else fail(`unknown argument ${a}`);
  }
  return opts;
}

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

const log = (message) => process.stderr.write(`${message}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mb = (bytes) => bytes / 1e6;
const fmt = (x, digits = 1) => (x === undefined || x === null || Number.isNaN(x) ? 'n/a' : x.toFixed(digits));

/**
 * Run `node ...args` once with stdout to a file (default /dev/null); wall time measured here, peak RSS from
 * GNU time's %M or, without it, from the child's own process.resourceUsage().maxRSS via bench/maxrss.mjs.
 */
function measure(args, { stdoutPath = '/dev/null' } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-triage-bench-'));
  const rssFile = join(scratch, 'maxrss');
  let cmd, cmdArgs;
  const env = { ...process.env };
  if (HAS_GNU_TIME) {
    cmd = GNU_TIME;
    cmdArgs = ['-f', '%M %U %S', '-o', rssFile, process.execPath, ...args];
  } else {
    cmd = process.execPath;
    cmdArgs = ['--import', MAXRSS_HOOK, ...args];
    env.BENCH_MAXRSS_FILE = rssFile;
  }
  const out = openSync(stdoutPath, 'w');
  return new Promise((resolveRun) => {
    const started = performance.now();
    const child = spawn(cmd, cmdArgs, { cwd: ROOT, env, stdio: ['ignore', out, 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child.on('close', (code, signal) => {
      const ms = performance.now() - started;
      closeSync(out);
      let rssKiB = null;
      let cpuMs = null;
      try {
        // GNU time may put a "Command exited with non-zero status" line first; the figures are on the last line.
        const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
        const [rss, user, sys] = lines[lines.length - 1].trim().split(/\s+/).map(Number);
        rssKiB = rss;
        if (user !== undefined && sys !== undefined) cpuMs = (user + sys) * 1000;
      } catch {
        // no figure (the child was killed before exit)
      }
      rmSync(scratch, { recursive: true, force: true });
      resolveRun({ ms, cpuMs, rssMB: rssKiB === null ? null : (rssKiB * 1024) / 1e6, code: code ?? signal, stderr });
    });
  });
}

/** Make sure bench/data/<name> holds the files of this generator version; generate them otherwise. */
async function ensureData(name, size, formats) {
  const dir = join(DATA, name);
  const manifestPath = join(dir, 'manifest.json');
  const wanted = [...formats.flatMap((f) => Object.values(FILES[f])), 'truth.ndjson'];
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const current = manifest.generator === GENERATOR_VERSION && manifest.seed === SEED && manifest.size === size;
    if (current && wanted.every((f) => existsSync(join(dir, f)))) return { dir, manifest, generated: false };
  }
  log(`generating ${relative(ROOT, dir)} (${size}, ${formats.join(' + ')}) ...`);
  const manifest = await generateAll({ size, out: dir, seed: SEED, formats: formats.join(',') });
  log(`  done in ${manifest.seconds} s: ${manifest.exchanges} exchanges over ${manifest.spanHours.toFixed(1)} h of traffic`);
  return { dir, manifest, generated: true };
}

/** Make sure bench/data/huge holds the huge-lines pair (eight 12 MB results among small calls); generate it otherwise. */
function ensureHugeLines() {
  const dir = join(DATA, 'huge');
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest.generator === GENERATOR_VERSION && Object.values(FILES.canonical).every((f) => existsSync(join(dir, f)))) return { dir, manifest };
  }
  log(`generating ${relative(ROOT, dir)} (huge lines) ...`);
  const started = performance.now();
  const manifest = { generator: GENERATOR_VERSION, size: 'huge', ...generateHugeLines({ outDir: dir }) };
  manifest.seconds = Math.round((performance.now() - started) / 100) / 10;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, manifest };
}

/** Median wall time and peak RSS of `runs` runs; any failed run is reported. */
async function series(label, args, runs) {
  return (await interleaved([[label, args]], runs))[0];
}

/**
 * Runs several commands in turn, one run of each per round, so that a change in the machine's load during the series
 * falls on all of them alike and their ratios hold (start-up: Node's own start against the analysis of a tiny pair).
 */
async function interleaved(specs, runs) {
  const results = specs.map(() => []);
  const failed = specs.map(() => null);
  for (let i = 0; i < runs; i++) {
    for (const [k, [label, args]] of specs.entries()) {
      if (failed[k]) continue;
      const r = await measure(args);
      if (r.code !== 0 && r.code !== 1) {
        log(`  ${label}: FAILED (exit ${r.code})\n${r.stderr.trim().split('\n').slice(-8).map((l) => `    ${l}`).join('\n')}`);
        failed[k] = { label, failed: `exit ${r.code}`, stderr: r.stderr };
        continue;
      }
      results[k].push(r);
    }
  }
  return specs.map(([label], k) => {
    if (failed[k]) return failed[k];
    const rs = results[k];
    const ms = median(rs.map((r) => r.ms));
    const cpuMs = rs.every((r) => r.cpuMs !== null) ? median(rs.map((r) => r.cpuMs)) : null;
    const rssMB = Math.max(...rs.map((r) => r.rssMB ?? 0));
    return { label, ms, cpuMs, rssMB, runs, exitCode: rs[0].code };
  });
}

/**
 * Reads the files once, untimed, so that the first timed run does not pay for the disk alone: a 1 GB pair measured
 * once gave the baseline 52 s of wall time for 7 s of CPU, its files evicted from the page cache by other work.
 */
async function warm(files) {
  for (const f of files) for await (const chunk of createReadStream(f, { highWaterMark: 1 << 20 })) void chunk;
}

const analysisArgs = (client, server) => [BIN, '--format', 'ndjson', '--client', client, '--server', server];

/** One untimed run with stdout kept, to check the analysis really produced attempts (a fast no-op is no result). */
async function verify(client, server) {
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-triage-verify-'));
  const outPath = join(scratch, 'out.ndjson');
  const r = await measure(analysisArgs(client, server), { stdoutPath: outPath });
  const counts = { attempt: 0, finding: 0, summary: 0, other: 0 };
  let summary = null;
  try {
    for (const line of readFileSync(outPath, 'utf8').split('\n')) {
      if (line === '') continue;
      let value;
      try {
        value = JSON.parse(line);
      } catch {
        counts.other++;
        continue;
      }
      if (value.type in counts) counts[value.type]++;
      else counts.other++;
      if (value.type === 'summary') summary = value;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { code: r.code, stderr: r.stderr, counts, summary };
}

/**
 * One untimed run whose NDJSON report goes straight into bench/check-truth.mjs: is every tools/call attempt of the
 * generated traffic classified and linked as the generator made it? (Fast and wrong would be no result either.)
 */
async function accuracy(client, server, truthPath, identity, broken) {
  const child = spawn(process.execPath, analysisArgs(client, server), { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((done) => child.on('close', (code) => done(code)));
  const r = await checkTruth(truthPath, child.stdout, { identity });
  const code = await exited;
  const { mismatches, ...counts } = r;
  const examples = Object.fromEntries(Object.entries(mismatches).map(([k, list]) => [k, { count: list.length, first: list.slice(0, 3) }]));
  return { ...counts, code, broken, identity, within: withinBroken(r, broken), examples };
}

function machine() {
  let nproc = String(availableParallelism());
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    // nproc missing: availableParallelism() stands in
  }
  return {
    nproc,
    cpu: cpus()[0]?.model ?? 'unknown',
    memGB: (totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: `${platform()} ${release()}`,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.render) {
    // Re-render the last run's figures (bench/data/results.json) without measuring again.
    const result = JSON.parse(readFileSync(join(DATA, 'results.json'), 'utf8'));
    result.splitBytes ??= result.data['100mb'].files[FILES.canonical.client].bytes + result.data['100mb'].files[FILES.canonical.server].bytes;
    process.stdout.write(`${renderTerminal(result)}\n`);
    if (opts.write) writeResults(result);
    return;
  }
  if (!existsSync(BIN)) fail(`${relative(ROOT, BIN)} is missing: build first (\`npm ci\` runs the build; or \`npx tsc -p .\`)`);
  const benchStarted = performance.now();
  const loadBefore = loadavg()[0];
  const sizes = opts.quick ? [['100mb', '100mb']] : [['100mb', '100mb'], ['1gb', '1gb']];
  const rows = [];
  const data = {};
  for (const [name, size] of sizes) data[name] = await ensureData(name, size, ['canonical', 'har']);
  const tiny = await ensureData('tiny', '30kb', ['canonical']);
  data.huge = ensureHugeLines();

  // Start-up: Node itself, then the analysis of a tiny pair, as NDJSON and as the terminal report a person reads.
  log('measuring start-up ...');
  const tinyFiles = [join(tiny.dir, FILES.canonical.client), join(tiny.dir, FILES.canonical.server)];
  const [nodeStart, tinyRun, tinyTableRun] = await interleaved([
    ['node -e 0', ['-e', '0']],
    ['tiny pair', analysisArgs(...tinyFiles)],
    ['tiny pair, terminal report', [BIN, '--client', tinyFiles[0], '--server', tinyFiles[1]]],
  ], STARTUP_RUNS);

  // Check once that the analysis does produce attempts on the 100 MB pair.
  const d100 = data['100mb'];
  log('checking the analysis output on the 100 MB canonical pair ...');
  const check = await verify(join(d100.dir, FILES.canonical.client), join(d100.dir, FILES.canonical.server));
  if (check.code !== 0 && check.code !== 1) log(`  the analysis exited with ${check.code}:\n${check.stderr.trim().split('\n').slice(-8).join('\n')}`);
  else log(`  ${check.counts.attempt} attempt lines, ${check.counts.finding} finding lines, ${check.counts.summary} summary line(s)`);

  // The pairs, then the huge-lines pair (canonical only): a line of 12 MB must cost what 12 MB of small lines cost.
  for (const name of [...sizes.map(([n]) => n), 'huge']) {
    const { dir, manifest } = data[name];
    const runs = opts.runs ?? (name === '1gb' ? 1 : 3);
    for (const format of name === 'huge' ? ['canonical'] : ['canonical', 'har']) {
      const client = join(dir, FILES[format].client);
      const server = join(dir, FILES[format].server);
      const bytes = manifest.files[FILES[format].client].bytes + manifest.files[FILES[format].server].bytes;
      const label = name === 'huge' ? 'huge-lines pair' : `${name} ${format} pair`;
      log(`measuring ${label} (${fmt(mb(bytes), 0)} MB, ${runs} run${runs > 1 ? 's' : ''}) ...`);
      await warm([client, server]);
      const baseline = await series('baseline', [PARSE_LOOPS, 'plain', client, server], runs);
      const bodies = await series('baseline + bodies', [PARSE_LOOPS, 'bodies', client, server], runs);
      const reader = await series('input side only', [PARSE_LOOPS, 'reader', client, server], runs);
      const full = await series('full analysis', analysisArgs(client, server), runs);
      rows.push({ size: name, format, bytes, baseline, bodies, reader, full });
      const ratio = full.failed || baseline.failed ? null : baseline.ms / full.ms;
      const cpuRatio = full.cpuMs && baseline.cpuMs ? baseline.cpuMs / full.cpuMs : null;
      log(`  baseline ${fmt(mb(bytes) / (baseline.ms / 1000))} MB/s, full ${full.failed ? 'FAILED' : `${fmt(mb(bytes) / (full.ms / 1000))} MB/s`}, ratio ${fmt(ratio, 2)} (CPU time ratio ${fmt(cpuRatio, 2)}), peak RSS ${fmt(full.rssMB, 0)} MB`);
    }
  }

  // Accuracy: every pair's report held to what the generator made (one untimed run each).
  const accuracyRows = [];
  for (const [name] of sizes) {
    const { dir, manifest } = data[name];
    for (const format of ['canonical', 'har']) {
      const broken = manifest.files[FILES[format].client].broken + manifest.files[FILES[format].server].broken;
      log(`checking the ${name} ${format} pair's report against the generator's truth ...`);
      const a = await accuracy(join(dir, FILES[format].client), join(dir, FILES[format].server), join(dir, 'truth.ndjson'), format === 'har' ? 'user-agent' : 'client', broken);
      accuracyRows.push({ size: name, format, ...a });
      log(`  ${a.wrongAttempts} of ${a.attempts} attempts and ${a.wrongCalls} of ${a.calls} calls disagree (${broken} broken lines)${a.within ? '' : ': MORE THAN THE BROKEN LINES EXPLAIN'}`);
    }
  }

  // The ndjson package against the plain splitter, on the 100 MB canonical pair.
  log('comparing line splitters on the 100 MB canonical pair ...');
  const splitFiles = [join(d100.dir, FILES.canonical.client), join(d100.dir, FILES.canonical.server)];
  const splitBytes = d100.manifest.files[FILES.canonical.client].bytes + d100.manifest.files[FILES.canonical.server].bytes;
  const splitters = [];
  for (const mode of ['plain', 'ndjson', 'split2-lines']) {
    const s = await series(mode, [PARSE_LOOPS, mode, ...splitFiles], opts.runs ?? 3);
    splitters.push({ mode, ...s, mbps: s.failed ? null : mb(splitBytes) / (s.ms / 1000) });
  }

  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    gnuTime: HAS_GNU_TIME,
    totalSeconds: (performance.now() - benchStarted) / 1000,
    load: { before: loadBefore, after: loadavg()[0] },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.manifest])),
    nodeStart,
    tinyRun,
    tinyTableRun,
    check,
    accuracy: accuracyRows,
    rows,
    splitters,
    splitBytes,
    quick: opts.quick,
  };
  process.stdout.write(`${renderTerminal(result)}\n`);
  writeFileSync(join(DATA, 'results.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (opts.write) writeResults(result);
  log(`bench took ${fmt(result.totalSeconds, 0)} s`);
}

/** Write bench/RESULTS.md: the figures, then the hand-kept history below the marker, unchanged. */
function writeResults(result) {
  {
    let history = `${HISTORY_MARKER}\n\n## What each step bought\n\n(Fill in by hand after each optimisation: the change, the commit, the figures before and after.)\n`;
    if (existsSync(RESULTS)) {
      const old = readFileSync(RESULTS, 'utf8');
      const at = old.indexOf(HISTORY_MARKER);
      if (at !== -1) history = old.slice(at);
    }
    writeFileSync(RESULTS, `${renderMarkdown(result)}\n${history}`);
    log(`wrote ${relative(ROOT, RESULTS)}`);
  }
}

/** The splitter with the least CPU time (wall time when CPU time is unknown): CPU time resists other load better. */
function fastestSplitter(result) {
  const cost = (s) => s.cpuMs ?? s.ms;
  return [...result.splitters].filter((s) => !s.failed).sort((a, b) => cost(a) - cost(b))[0];
}

/**
 * Other work competed for the cores: the load average was above half the core count when the bench started. The
 * load at the end is not a sign of it: the bench's own runs (an analysis and its garbage-collector threads) keep both
 * cores busy, so it reads near the core count even on an idle machine.
 */
const busy = (result) => result.load.before > Number(result.machine.nproc) / 2;

/** Target checks: each {name, value, met} with met null when not measured. */
function targets(result) {
  const row = (size, format) => result.rows.find((r) => r.size === size && r.format === format);
  const ratioOf = (r) => (r && !r.full.failed && !r.baseline.failed ? r.baseline.ms / r.full.ms : null);
  const big = row('1gb', 'canonical');
  const small = row('100mb', 'canonical');
  const bigRatio = ratioOf(big);
  const bigCpuRatio = big && big.full.cpuMs && big.baseline.cpuMs ? big.baseline.cpuMs / big.full.cpuMs : null;
  // A baseline that took much longer than its CPU time waited on the disk, and a ratio to its wall time says nothing of
  // the analysis: the throughput targets are then not judged.
  const ioBound = Boolean(big && big.baseline.cpuMs && big.baseline.ms > 1.5 * big.baseline.cpuMs);
  const ratioText = bigRatio === null ? 'not measured' : `${fmt(bigRatio, 2)}x (CPU time: ${fmt(bigCpuRatio, 2)}x${ioBound ? '; not judged: the baseline waited on the disk' : ''})`;
  const throughput = (target) => (bigRatio === null || ioBound ? null : bigRatio >= target);
  const bigRss = big && !big.full.failed ? big.full.rssMB : null;
  const smallRss = small && !small.full.failed ? small.full.rssMB : null;
  // Judged on the slower of the two outputs (results from before the terminal report was timed have only NDJSON).
  const slowest = [result.tinyRun, result.tinyTableRun].filter(Boolean).reduce((a, b) => (b.failed || (!a.failed && b.ms > a.ms) ? b : a));
  const startupRatio = slowest.failed ? null : slowest.ms / result.nodeStart.ms;
  const startupCpu = !slowest.failed && slowest.cpuMs && result.nodeStart.cpuMs ? slowest.cpuMs / result.nodeStart.cpuMs : null;
  const judge = (value, ok) => (value === null ? null : ok(value));
  return [
    { name: `full analysis >= ${TARGETS.ratio}x the bare baseline (1 GB canonical pair)`, value: ratioText, met: throughput(TARGETS.ratio) },
    { name: `peak RSS <= ${TARGETS.rssMB} MB (1 GB canonical pair)`, value: bigRss === null ? 'not measured' : `${fmt(bigRss, 0)} MB`, met: judge(bigRss, (v) => v <= TARGETS.rssMB) },
    { name: `peak RSS on 1 GB <= ${TARGETS.rssGrowth}x the 100 MB pair's`, value: bigRss === null || smallRss === null ? 'not measured' : `${fmt(bigRss / smallRss, 2)}x`, met: bigRss === null || smallRss === null ? null : bigRss / smallRss <= TARGETS.rssGrowth },
    { name: `tiny pair analysed in <= ${TARGETS.startup}x Node's own start`, value: startupRatio === null ? 'failed' : `${fmt(startupRatio, 2)}x (${fmt(slowest.ms, 0)} ms vs ${fmt(result.nodeStart.ms, 0)} ms, the slower of NDJSON and the terminal report; CPU time: ${fmt(startupCpu, 2)}x)`, met: judge(startupRatio, (v) => v <= TARGETS.startup) },
    { name: `stretch: >= ${TARGETS.stretchRatio}x the single-thread baseline (both cores)`, value: ratioText, met: throughput(TARGETS.stretchRatio) },
  ];
}

const SIZE_LABELS = { '100mb': '100 MB', '1gb': '1 GB', huge: 'huge lines (eight 12 MB results),' };

function figureRows(result) {
  const out = [];
  for (const r of result.rows) {
    const runs = [['baseline: split + JSON.parse', r.baseline], ['baseline + the bodies inside records parsed', r.bodies], ['input side only (no join)', r.reader], ['full analysis, --format ndjson', r.full]];
    for (const [what, s] of runs.filter(([, s]) => s !== undefined)) {
      const ratio = s !== r.baseline && !s.failed && !r.baseline.failed ? r.baseline.ms / s.ms : s === r.baseline ? 1 : null;
      const cpuRatio = s !== r.baseline && !s.failed && !r.baseline.failed && s.cpuMs && r.baseline.cpuMs ? r.baseline.cpuMs / s.cpuMs : s === r.baseline ? 1 : null;
      out.push([
        `${SIZE_LABELS[r.size] ?? r.size} ${r.format === 'har' ? 'HAR lines' : 'canonical'} (${fmt(mb(r.bytes), 0)} MB)`,
        what,
        s.failed ? `FAILED (${s.failed})` : `${fmt(s.ms / 1000, 2)} s`,
        s.failed ? 'n/a' : fmt(mb(r.bytes) / (s.ms / 1000)),
        ratio === null ? 'n/a' : `${fmt(ratio, 2)}x`,
        s.failed || !s.cpuMs ? 'n/a' : `${fmt(s.cpuMs / 1000, 2)} s`,
        cpuRatio === null ? 'n/a' : `${fmt(cpuRatio, 2)}x`,
        s.failed ? 'n/a' : fmt(s.rssMB, 0),
        String(s.runs ?? ''),
      ]);
    }
  }
  return out;
}

const FIGURE_HEAD = ['input (pair size)', 'run', 'wall (median)', 'MB/s', 'vs baseline', 'CPU (user+sys)', 'vs baseline (CPU)', 'peak RSS (MB)', 'runs'];

/** A tiny-pair timing for the report ("not measured" for results written before it was taken). */
function tinyText(run, cpu = false) {
  if (!run) return 'not measured';
  if (run.failed) return 'FAILED';
  return cpu ? `${fmt(run.ms, 0)} ms wall, ${fmt(run.cpuMs, 0)} ms CPU` : `${fmt(run.ms, 0)} ms`;
}

function renderTerminal(result) {
  const rows = [FIGURE_HEAD, ...figureRows(result)];
  const widths = FIGURE_HEAD.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  const parts = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), ''];
  parts.push(`node start ${fmt(result.nodeStart.ms, 0)} ms; tiny pair analysed in ${tinyText(result.tinyRun)} (NDJSON), ${tinyText(result.tinyTableRun)} (terminal report)`);
  const fastest = fastestSplitter(result);
  parts.push(`line splitters (100 MB canonical pair, MB per CPU second): ${result.splitters.map((s) => `${s.mode} ${fmt(s.cpuMs ? mb(result.splitBytes) / (s.cpuMs / 1000) : null)}`).join(', ')}; fastest: ${fastest?.mode ?? 'n/a'}`);
  for (const a of result.accuracy ?? []) parts.push(`accuracy, ${a.size} ${a.format} pair: ${accuracyText(a)}`);
  parts.push('');
  for (const t of targets(result)) parts.push(`${t.met === null ? '[ ? ]' : t.met ? '[met]' : '[NOT]'} ${t.name}: ${t.value}`);
  if (busy(result)) parts.push(`\nwarning: load average ${fmt(result.load.before, 2)} / ${fmt(result.load.after, 2)} on ${result.machine.nproc} cores: other work competed; trust the CPU columns more than wall times`);
  return parts.join('\n');
}

function accuracyText(a) {
  return `${a.wrongAttempts} of ${a.attempts} tools/call attempts and ${a.wrongCalls} of ${a.calls} calls disagree with the generator, ${a.broken} broken lines ${a.within ? 'explain them' : '**do not explain them**'}`;
}

function accuracyRowsOf(result) {
  return (result.accuracy ?? []).map((a) => [
    `${SIZE_LABELS[a.size] ?? a.size} ${a.format}`,
    String(a.attempts),
    `${a.wrongAttempts} (${fmt((100 * a.wrongAttempts) / a.attempts, 2)}%)`,
    `${a.wrongCalls} of ${a.calls}`,
    String(a.alikeCalls),
    String(a.broken),
    a.within ? 'yes' : '**no**',
  ]);
}

function renderMarkdown(result) {
  const m = result.machine;
  const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const dataRows = Object.entries(result.data).map(([name, man]) => {
    const files = Object.entries(man.files).map(([f, s]) => `${f} ${fmt(mb(s.bytes), 1)} MB / ${s.lines} lines / ${s.broken} broken`).join('<br>');
    return [name, String(man.exchanges), `${fmt(man.spanHours, 1)} h`, files, `${man.seconds} s`];
  });
  const fastest = fastestSplitter(result);
  const checkText = result.check.code === 0 || result.check.code === 1
    ? `${result.check.counts.attempt} attempt lines, ${result.check.counts.finding} finding lines, ${result.check.counts.summary} summary line (exit ${result.check.code})`
    : `the analysis failed (exit ${result.check.code})`;
  return [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\`${result.quick ? ' (`--quick`: 100 MB pairs only)' : ''} on ${result.date}.`,
    '',
    `Machine: ${m.nproc} cores (nproc), ${m.cpu}, ${m.memGB} GiB RAM, ${m.os}, Node ${m.node}. Peak RSS and CPU time from ${result.gnuTime ? '`/usr/bin/time` (%M, %U + %S)' : "the child's `process.resourceUsage()`"}. MB = 10^6 bytes. The whole bench took ${fmt(result.totalSeconds, 0)} s.`,
    '',
    `Load average (1 min): ${fmt(result.load.before, 2)} before, ${fmt(result.load.after, 2)} after (mostly the bench's own runs).${busy(result) ? ' **The machine was busy with other work during this run: wall times and wall ratios are unreliable; the CPU-time columns are the steadier guide.**' : ''}`,
    '',
    '## Targets (issue 5)',
    '',
    table(['target', 'measured', 'met'], targets(result).map((t) => [t.name, t.value, t.met === null ? 'not judged' : t.met ? 'yes' : '**no**'])),
    '',
    '## Figures',
    '',
    'Baseline: one Node process reads the two files one after the other, splits lines with `Buffer.indexOf`, `JSON.parse`s each line and does nothing else (`bench/parse-loops.mjs plain`). Baseline + bodies: the same loop, plus one `JSON.parse` of each JSON-RPC message a record carries as text (the `data:` lines of SSE bodies, bodies kept as text), which any reader that judges these logs must parse as well (`bench/parse-loops.mjs bodies`). Input side only: mcp-triage\'s own reader (read, split, `JSON.parse`, format detection, adapters, timestamps) with nothing after it (`bench/parse-loops.mjs reader`), the ceiling for the full analysis on one thread. Full analysis: `node dist/bin.cjs --format ndjson --client <client> --server <server> > /dev/null`. Wall time includes process start. "vs baseline" is throughput relative to the baseline on the same files (higher is better).',
    '',
    table(FIGURE_HEAD, figureRows(result)),
    '',
    `Start-up (median of ${result.nodeStart.runs ?? 10} runs each, the three taken in turn): \`node -e 0\` ${fmt(result.nodeStart.ms, 0)} ms wall, ${fmt(result.nodeStart.cpuMs, 0)} ms CPU; analysis of the tiny pair ${tinyText(result.tinyRun, true)} with \`--format ndjson\`, ${tinyText(result.tinyTableRun, true)} with the terminal report (the default).`,
    '',
    `Output check on the 100 MB canonical pair: ${checkText}.`,
    '',
    ...(result.accuracy?.length ? [
      '## Accuracy against the generator\'s truth',
      '',
      'The generator writes `truth.ndjson`: every tools/call attempt it made, with its session and id, the outcome the client\'s view and the server\'s view must have, the logical call it belongs to and its attempt number. One untimed run of the full analysis per pair is held to it (`bench/check-truth.mjs`). An attempt disagrees when its report row is missing, its outcome in either view or its attempt number differs, it lacks a `SIDE_DIVERGENCE` where the views differ or a `NO_FINAL_RESULT` on a cut stream (or has one elsewhere), or only one view was read; a call, when its attempts are split over report calls or joined with another call. Calls joined with another one of the same sender, tool and arguments are counted apart ("alike"): nothing in the input tells those from a call and its retry. The client is told by the canonical log\'s `client` field, in a HAR by its User-Agent only. Each broken line (planted by the generator) can spoil its own attempt and the link of the next.',
      '',
      table(['input', 'attempts made', 'attempts that disagree', 'calls linked otherwise', 'alike calls joined', 'broken lines', 'explained by the broken lines'], accuracyRowsOf(result)),
      '',
    ] : []),
    '## Line splitters (100 MB canonical pair, JSON.parse on every line)',
    '',
    table(['splitter', 'wall (median)', 'MB/s', 'CPU (user+sys)', 'MB per CPU second', 'line numbers'], result.splitters.map((s) => [
      s.mode === 'plain' ? 'plain `Buffer.indexOf` splitter' : s.mode === 'ndjson' ? '`ndjson.parse({strict:false})`' : '`split2` + line-counting mapper',
      s.failed ? 'FAILED' : `${fmt(s.ms / 1000, 2)} s`,
      fmt(s.mbps),
      s.cpuMs ? `${fmt(s.cpuMs / 1000, 2)} s` : 'n/a',
      s.cpuMs ? fmt(mb(result.splitBytes) / (s.cpuMs / 1000)) : 'n/a',
      s.mode === 'ndjson' ? 'no (bad lines dropped silently)' : 'yes',
    ])),
    '',
    `Fastest (least CPU time): ${fastest ? `\`${fastest.mode}\`` : 'n/a'}.`,
    '',
    '## Data',
    '',
    `Generated by \`bench/generate.mjs\` (generator v${GENERATOR_VERSION}, seed ${SEED}) into \`bench/data/\` (git-ignored).`,
    '',
    table(['set', 'exchanges', 'traffic span', 'files', 'generated in'], dataRows),
    '',
  ].join('\n');
}

await main();
