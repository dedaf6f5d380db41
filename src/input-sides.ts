// Which side a plain input (no --client or --server) is read as: the other side next to inputs of one side (given, or stated by their records), or the side its file name says.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { InputSpec, ResolvedSpec } from './ingest.js';

type Side = 'client' | 'server';

const SIDE_WORDS: Record<string, Side> = { client: 'client', clients: 'client', server: 'server', servers: 'server' };

/**
 * The side a log's name says, as a word of it: `client.ndjson`, `mcp-server.log`, `serverLog.jsonl`, `client/app.log`
 * (the folder's name when the file's says none). None when it says both, or neither (`observer.log` has no word
 * `server`), and never for standard input.
 */
export function sideInName(path: string): Side | undefined {
  if (path === '-') return undefined;
  const said = (name: string): Side | 'both' | undefined => {
    let side: Side | undefined;
    // Words: runs of letters, split where a lower-case letter meets an upper-case one (camelCase).
    for (const word of name.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/)) {
      const s = SIDE_WORDS[word.toLowerCase()];
      if (s === undefined) continue;
      if (side !== undefined && side !== s) return 'both';
      side = s;
    }
    return side;
  };
  const own = said(basename(path));
  if (own === 'both') return undefined;
  if (own !== undefined) return own;
  const folder = said(basename(dirname(path)));
  return folder === 'both' ? undefined : folder;
}

/**
 * The side each plain input's records that state none take (`assumed`; records that state a side keep theirs):
 * - next to inputs given with one side only, the other side (a plain HAR next to --server is the client's view);
 * - of two plain inputs and no other, the side each one's name says, when one says client and the other server
 *   (`client.ndjson` and `server.ndjson` are the two views of the same calls, to be joined, not counted twice);
 *   `assumedBy` is then `name`. Not among more files: a folder of scenarios' logs (`client-timeout.har`,
 *   `baseline.server.ndjson`, ...) names scenarios with the same words.
 * - else, of plain inputs whose first records state a side beside others whose records state none, the other side
 *   for those (see bySidesStated).
 * Otherwise (alone, among other plain inputs, or next to both sides) nothing: its calls are analyzed apart.
 */
export function assumeSides(inputs: InputSpec[], stated: (path: string) => Stated = statedSide): ResolvedSpec[] {
  const client = inputs.some((i) => i.side === 'client');
  const server = inputs.some((i) => i.side === 'server');
  if (client !== server) {
    const assumed = client ? 'server' : 'client';
    return inputs.map((i) => (i.side === undefined ? { ...i, assumed } : i));
  }
  if (client) return inputs;
  if (inputs.length === 2) {
    const [a, b] = inputs.map((i) => sideInName(i.path));
    if (a !== undefined && b !== undefined && a !== b) return [{ ...inputs[0]!, assumed: a, assumedBy: 'name' }, { ...inputs[1]!, assumed: b, assumedBy: 'name' }];
  }
  return bySidesStated(inputs, stated);
}

/**
 * What a file's first records say of its side: `client` or `server` when every canonical record among its first lines
 * states that side (recordingFetch's, recordingHandler's), `none` when they are records that state no side (the
 * recording proxy's canonical records without `--side`, HAR entries), `unknown` otherwise (other formats, whose side
 * the reader may know; standard input, which is not read ahead; a file that cannot be read here).
 */
export type Stated = 'client' | 'server' | 'none' | 'unknown';

/** First bytes of a file looked at for its side, and lines of them. */
const PEEK_BYTES = 64 << 10;
const PEEK_LINES = 16;

/**
 * Plain inputs next to inputs whose records state one side only (and none given): the other side, as for inputs given
 * with one side (a recording proxy's capture beside `recordingFetch`'s log is the server's view of those calls).
 * Only when every input's first records were read and say so: any other input leaves every side as it was.
 */
function bySidesStated(inputs: InputSpec[], stated: (path: string) => Stated): ResolvedSpec[] {
  if (inputs.length < 2) return inputs;
  const said = inputs.map((i) => stated(i.path));
  if (said.includes('unknown')) return inputs;
  const sides = new Set(said.filter((s) => s !== 'none'));
  if (sides.size !== 1 || !said.includes('none')) return inputs;
  const assumed = sides.has('client') ? 'server' : 'client';
  return inputs.map((i, k) => (said[k] === 'none' ? { ...i, assumed, assumedBy: 'records' as const } : i));
}

/** The side a file's first records state (see Stated); a gzip file's too. */
export function statedSide(path: string): Stated {
  if (path === '-') return 'unknown';
  let head: Buffer;
  /** Whether the bytes read are the whole file (then its last line is whole too, with or without its newline). */
  let whole = false;
  try {
    const fd = openSync(path, 'r');
    try {
      if (!fstatSync(fd).isFile()) return 'unknown';
      head = Buffer.alloc(PEEK_BYTES);
      head = head.subarray(0, readSync(fd, head, 0, PEEK_BYTES, 0));
      whole = head.length < PEEK_BYTES;
    } finally {
      closeSync(fd);
    }
    if (head[0] === 0x1f && head[1] === 0x8b) {
      whole = false;
      const zlib = process.getBuiltinModule('node:zlib');
      head = zlib.gunzipSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    }
  } catch {
    return 'unknown';
  }
  let side: Stated | undefined;
  let lines = 0;
  let start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  if (HAR_START.test(head.toString('utf8', start, start + 256))) return 'none';
  while (lines < PEEK_LINES) {
    let nl = head.indexOf(10, start);
    if (nl === -1) {
      if (!whole || start >= head.length) break; // (a line cut by the end of the bytes read is not judged)
      nl = head.length;
    }
    const text = head.toString('utf8', start, nl).trim();
    start = nl + 1;
    if (text === '') continue;
    lines++;
    const one = lineSide(text);
    if (one === 'unknown' || (side !== undefined && one !== side)) return 'unknown';
    side = one;
  }
  return side ?? 'unknown';
}

/** The side one line states: a canonical record's `side` (or none), a HAR entry's none; anything else unknown. */
function lineSide(text: string): Stated {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return 'unknown';
  }
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return 'unknown';
  const r = rec as Record<string, unknown>;
  if (r.v === 1 && typeof r.kind === 'string') return r.side === 'client' || r.side === 'server' ? r.side : r.side === undefined ? 'none' : 'unknown';
  if (typeof r.startedDateTime === 'string' && typeof r.request === 'object' && typeof r.response === 'object') return 'none';
  return 'unknown';
}

/** A whole HAR document (DevTools', mitmproxy's), by its start: `{"log": {`, pretty-printed or not. */
const HAR_START = /^\s*\{\s*"log"\s*:\s*\{/;
