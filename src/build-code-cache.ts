// The last step of `npm run build`: runs the bundled CLI on samples/ in this process, as a user's first commands would, and saves the compiled code as dist/bundle/code-cache.bin.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { BundleLoader, bundleDir, CODE_CACHE_FILE } from './bundle-loader.cjs';
import type { main as Main } from './cli.js';

const dir = bundleDir();
if (!dir) {
  process.stderr.write('build-code-cache: no dist/bundle/cli.cjs (run the whole `npm run build`)\n');
  process.exit(1);
}
// The cache only saves time: if making it fails, the build goes on without one (the bundle compiles as it loads).
try {
  const loader = new BundleLoader(dir);
  const main = loader.load('cli.cjs').main as typeof Main;

  // The runs compile what an analysis of small logs needs: the reader, the join, and both everyday reports (the
  // terminal tables a person reads, the NDJSON a script reads). Code that only large, damaged or rare inputs reach is
  // compiled when used, as before; caching it would make every start deserialize it. The HAR sample is left out for
  // that reason: its reader made the cache 2% larger and a tiny run of canonical logs 2 to 4 ms slower.
  const samples = join(import.meta.dirname, '..', 'samples');
  const inputs = ['--client', join(samples, 'client.ndjson'), '--server', join(samples, 'server.ndjson')];
  const discard = () => new Writable({ write: (_chunk, _enc, done) => done() });
  if (inputs.every((f) => f.startsWith('--') || existsSync(f))) {
    for (const format of ['table', 'ndjson']) {
      await main([...inputs, '--format', format], { stdin: Readable.from([]), stdout: discard(), stderr: discard(), env: {} });
    }
  }
  const { modules, bytes } = loader.saveCache();
  process.stderr.write(`build-code-cache: ${modules} modules, ${(bytes / 1024).toFixed(0)} KiB in dist/bundle/${CODE_CACHE_FILE}\n`);
} catch (err) {
  rmSync(join(dir, CODE_CACHE_FILE), { force: true });
  process.stderr.write(`build-code-cache: no code cache made (${err instanceof Error ? err.message : String(err)}); the executable compiles its code as it loads\n`);
}
