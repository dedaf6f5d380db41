#!/usr/bin/env node
// The executable: hands the arguments and the process's streams to main() and sets the exit code; Ctrl-C and closed pipes end it quietly.
import { BundleLoader, bundleDir } from './bundle-loader.cjs';

// Ctrl-C: stop at once, no stack trace; erase a progress line left on the terminal. 130 = 128 + SIGINT.
process.on('SIGINT', () => {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  process.exit(130);
});
// The reader of the report went away (`mcp-triage ... | head -1`): nothing more to say, and that is not an error.
// Any other write error (`> /dev/full`: ENOSPC, EIO, EFBIG) lost part of the output: said, and exit 2, as rg and jq do.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') process.exit(0);
  process.stderr.write(`${writeErrorLine(e)}\n`);
  process.exit(2);
});
// Diagnostics that cannot be written are dropped rather than turned into a crash.
process.stderr.on('error', () => undefined);

/** `mcp-triage: cannot write the output: no space left on device (ENOSPC)`, from Node's `ENOSPC: no space left on device, write`. */
function writeErrorLine(e: NodeJS.ErrnoException): string {
  const what = /^[A-Z]+: (.+?)(?:, \w+)?$/.exec(e.message)?.[1] ?? e.message;
  return `mcp-triage: cannot write the output: ${what}${e.code ? ` (${e.code})` : ''}`;
}

// Memory: the live state is small (open calls only) but the allocation rate is high, and V8 would let the heap grow
// to several times the live size between full collections. Growing it by 40% at most keeps the peak RSS near the
// live size for a few percent more CPU (bench/RESULTS.md). It is set only for large (or piped) inputs, because loading node:v8
// costs 5 ms of start-up; a --heap-growing-percent given to Node wins.
// The young generation: V8 doubles the new space on each busy scavenge up to 32 MB, which on these inputs holds 25 to
// 40 MB more RSS than 8 MB for a few percent of CPU at most (bench/RESULTS.md). Its maximum can only be set when Node
// starts (--max-semi-space-size), so its growth is stopped instead once it reaches NEW_SPACE_CAP (V8 reads the growth
// factor each time it grows the space). A semi-space size given to Node wins.
const NEW_SPACE_CAP = 8 * 1024 * 1024;
const tuneHeap = (): void => {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  const v8 = process.getBuiltinModule('node:v8');
  if (!given.includes('heap-growing-percent')) v8.setFlagsFromString('--heap-growing-percent=40');
  if (given.includes('semi-space')) return;
  const capped = (): boolean => {
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (space === undefined || space.space_size < NEW_SPACE_CAP) return false;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    return true;
  };
  if (capped()) return;
  const watch = setInterval(() => {
    if (capped()) clearInterval(watch);
  }, 10);
  watch.unref();
};

// The handlers above are in place before the CLI and its dependencies load (a Ctrl-C during start-up exits 130 too).
// The build bundles the CLI into dist/bundle/ and caches its compiled code (src/bundle-loader.cts); without a bundle
// (a plain `tsc`), the ES modules are loaded as they are. This file and the loader are CommonJS: an ES module entry
// sets up Node's ES module loader first, about 10 ms of a tiny run's start (README, Performance).
type Main = typeof import('./cli.js', { with: { 'resolution-mode': 'import' } }).main;
const loadMain = (): Main | Promise<Main> => {
  const dir = bundleDir();
  if (!dir) return import('./cli.js').then((m) => m.main);
  return new BundleLoader(dir).load('cli.cjs').main as Main;
};
// A run whose promise never settles (a stream that neither ends nor errors) would let Node exit 0 with no report and
// no word: said as an internal error instead, with exit 2. (beforeExit: the event loop ran dry; not on process.exit.)
let settled = false;
process.once('beforeExit', () => {
  if (settled) return;
  process.stderr.write('mcp-triage: internal error: the run stopped before its report was complete (an input that never ended?)\n');
  process.exitCode = 2;
});
// A bundle that fails to load is an internal error too, said the same way.
Promise.resolve()
  .then(loadMain)
  .then((main) => main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, largeInput: tuneHeap, importYargs: () => import('yargs') }))
  .then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (err: unknown) => {
      settled = true;
      const e = err as NodeJS.ErrnoException;
      if (e?.code === 'EPIPE') return; // the report's reader is gone: exit 0
      process.stderr.write(`mcp-triage: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      if (process.env.MCP_TRIAGE_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
      process.exitCode = 2;
    },
  );
