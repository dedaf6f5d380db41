// Loads the executable's bundled CommonJS modules (dist/bundle/) through V8's code cache, so a run does not compile the CLI again; the cache is written by `npm run build`.
//
// Node 20 keeps no compiled code between runs for ES modules, and compiling the CLI's code on every start was a
// fifth of a tiny analysis's time. A `vm.Script` takes the bytecode V8 produced in an earlier run (`cachedData`) and
// checks it against its own version and flags; the bundle files' size and modification time, kept with each entry,
// guard against a cache of an older build (V8 checks the source's length only). A cache that does not fit is
// ignored: the code is compiled as it would have been without one.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import vm from 'node:vm';
import { crc32 } from 'node:zlib';

/** The cache file's name, in the bundle's folder. */
export const CODE_CACHE_FILE = 'code-cache.bin';

interface Loaded {
  module: { exports: Record<string, unknown> };
  script: vm.Script;
  stamp: string;
}

interface CacheEntry {
  stamp: string;
  offset: number;
  length: number;
}

/** What a module of the bundle sees as `require`: its siblings through this loader, anything else through Node. */
type ModuleFunction = (exports: unknown, require: (id: string) => unknown, module: unknown, filename: string, dirname: string) => void;

const stampOf = (file: string): string => {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
};

export class BundleLoader {
  private readonly modules = new Map<string, Loaded>();
  private readonly cache = new Map<string, CacheEntry>();
  private cacheData: Buffer | undefined;
  private readonly nodeRequire: NodeJS.Require;
  /** How many modules took their code from the cache (for the build's report and the tests). */
  accepted = 0;

  constructor(private readonly dir: string) {
    this.nodeRequire = createRequire(join(dir, 'cli.cjs'));
    this.readCache();
  }

  /** Loads a module of the bundle (a path relative to its folder) and returns its exports. */
  load(rel: string): Record<string, unknown> {
    const file = join(this.dir, rel);
    const known = this.modules.get(file);
    if (known) return known.module.exports;
    const source = readFileSync(file, 'utf8');
    const stamp = stampOf(file);
    const entry = this.cache.get(relative(this.dir, file));
    const cachedData = entry && entry.stamp === stamp && this.cacheData ? this.cacheData.subarray(entry.offset, entry.offset + entry.length) : undefined;
    // The wrapper stays on the first line, as Node's own, so line numbers in stack traces are the file's.
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
      filename: file,
      cachedData,
      // import() of an ES module dependency (yargs) goes through Node's own loader, resolved from this file.
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData && !script.cachedDataRejected) this.accepted++;
    const module = { exports: {} as Record<string, unknown> };
    this.modules.set(file, { module, script, stamp });
    const here = dirname(file);
    const require = (id: string): unknown => (id.startsWith('./') || id.startsWith('../') ? this.load(relative(this.dir, join(here, id))) : this.nodeRequire(id));
    (script.runInThisContext() as ModuleFunction)(module.exports, require, module, file, here);
    return module.exports;
  }

  /** Writes the code of every module loaded so far, with the functions compiled while running, as the cache. */
  saveCache(): { modules: number; bytes: number } {
    const entries: Record<string, CacheEntry> = {};
    const blobs: Buffer[] = [];
    let offset = 0;
    for (const [file, { script, stamp }] of this.modules) {
      const data = script.createCachedData();
      entries[relative(this.dir, file).split(sep).join('/')] = { stamp, offset, length: data.length };
      blobs.push(data);
      offset += data.length;
    }
    const data = Buffer.concat(blobs);
    let head = JSON.stringify({ node: process.version, checksum: checksum(data), entries });
    // Padded so that each module's data starts on an 8-byte boundary (V8's cache lengths are multiples of 8): V8
    // copies cached data that is not aligned to a pointer before reading it.
    head += ' '.repeat((8 - ((4 + Buffer.byteLength(head)) % 8)) % 8);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(Buffer.byteLength(head));
    const target = join(this.dir, CODE_CACHE_FILE);
    writeFileSync(`${target}.tmp`, Buffer.concat([size, Buffer.from(head), data]));
    renameSync(`${target}.tmp`, target);
    return { modules: this.modules.size, bytes: 4 + Buffer.byteLength(head) + data.length };
  }

  private readCache(): void {
    let buf: Buffer;
    try {
      buf = readFileSync(join(this.dir, CODE_CACHE_FILE));
    } catch {
      return; // no cache (a build without one, or a package installed without running the build): compile
    }
    try {
      const length = buf.readUInt32LE(0);
      const head = JSON.parse(buf.toString('utf8', 4, 4 + length)) as { node: string; checksum: number; entries: Record<string, CacheEntry> };
      if (head.node !== process.version) return;
      const data = buf.subarray(4 + length);
      // V8 does not check the bytes of a code cache in release builds: a damaged one would crash the process.
      if (checksum(data) !== head.checksum) return;
      this.cacheData = data;
      for (const [rel, entry] of Object.entries(head.entries)) {
        if (entry.offset + entry.length <= this.cacheData.length) this.cache.set(rel.split('/').join(sep), entry);
      }
    } catch {
      this.cache.clear(); // a damaged cache is no cache
    }
  }
}

/** CRC-32 of the cache (1.4 ms for 900 KB; node:zlib loads in 1 ms once the standard streams have loaded Node's
 * streams). The FNV-1a loop in JavaScript it replaced took 5.5 ms: it ran in V8's interpreter, at start-up. */
function checksum(data: Buffer): number {
  return crc32(data);
}

/** The bundle's folder next to this module (dist/bundle/), if the build made one. */
export function bundleDir(): string | undefined {
  const dir = join(__dirname, 'bundle');
  try {
    statSync(join(dir, 'cli.cjs'));
    return dir;
  } catch {
    return undefined;
  }
}
