// Which side a plain input (no --client or --server) is read as: the other side next to inputs of one side (given, or stated by their records), or the side its file name says.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Readable } from 'node:stream';
import { Diagnostics } from './diagnostics.js';
import { ingest, newAccount, type InputSpec, type ResolvedSpec } from './ingest.js';

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
 * - of two plain inputs and no other (or beside them only hop logs: nginx's, HAProxy's, Caddy's access lines, which are
 *   no view of either side), the side each one's name says, when one says client and the other server
 *   (`client.ndjson` and `server.ndjson` are the two views of the same calls, to be joined, not counted twice);
 *   `assumedBy` is then `name`. Not among more views: a folder of scenarios' logs (`client-timeout.har`,
 *   `baseline.server.ndjson`, ...) names scenarios with the same words.
 * - else, of plain inputs whose first records state a side beside others whose records state none, the other side
 *   for those (see bySidesStated).
 * Otherwise (alone, among other plain inputs, or next to both sides) nothing: its calls are analyzed apart.
 * `stated` is what each input's first records state (statedSides; unknown for all when not given).
 */
export function assumeSides(inputs: InputSpec[], stated: (path: string) => Stated = () => 'unknown'): ResolvedSpec[] {
  const client = inputs.some((i) => i.side === 'client');
  const server = inputs.some((i) => i.side === 'server');
  if (client !== server) {
    const assumed = client ? 'server' : 'client';
    return inputs.map((i) => (i.side === undefined ? { ...i, assumed } : i));
  }
  if (client) return inputs;
  const views = inputs.length === 2 ? inputs : inputs.length > 2 ? inputs.filter((i) => stated(i.path) !== 'gateway') : [];
  if (views.length === 2) {
    const [a, b] = views.map((i) => sideInName(i.path));
    if (a !== undefined && b !== undefined && a !== b) return inputs.map((i) => (i === views[0] ? { ...i, assumed: a, assumedBy: 'name' as const } : i === views[1] ? { ...i, assumed: b, assumedBy: 'name' as const } : i));
  }
  return bySidesStated(inputs, stated);
}

/** What each plain input's first records state, when the rules above may need it (two inputs or more, none given a side). */
export async function statedSides(inputs: InputSpec[]): Promise<(path: string) => Stated> {
  if (inputs.length < 2 || inputs.some((i) => i.side !== undefined)) return () => 'unknown';
  const said = new Map<string, Stated>();
  for (const i of inputs) if (!said.has(i.path)) said.set(i.path, await statedSide(i.path));
  return (path) => said.get(path) ?? 'unknown';
}

/**
 * What a file's first records say of its side, as the readers of its format give them (see peekedSide): `client` or
 * `server` when every record of its first lines states that side (recordingFetch's, recordingHandler's; a Python SDK
 * DEBUG log's, a client app's debug log, a server's console), `gateway` when they are a hop's own log, `none` when they
 * are records that state no side from a capture of the wire (the recording proxy's canonical records without `--side`,
 * HAR entries), `unknown` otherwise (a format whose reader cannot tell whose log it is; standard input, which is not
 * read ahead; a file that cannot be read here).
 */
export type Stated = 'client' | 'server' | 'gateway' | 'none' | 'unknown';

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
  // (a hop's own log is neither side's view: it neither tells nor takes a side)
  const sides = new Set(said.filter((s) => s !== 'none' && s !== 'gateway'));
  if (sides.size !== 1 || !said.includes('none')) return inputs;
  const assumed = sides.has('client') ? 'server' : 'client';
  return inputs.map((i, k) => (said[k] === 'none' ? { ...i, assumed, assumedBy: 'records' as const } : i));
}

/** The side a file's first records state (see Stated); a gzip file's too. */
export async function statedSide(path: string): Promise<Stated> {
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
  let lines = 0;
  let start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  if (HAR_START.test(head.toString('utf8', start, start + 256))) return 'none';
  let end = start;
  while (lines < PEEK_LINES) {
    let nl = head.indexOf(10, end);
    if (nl === -1) {
      if (!whole || end >= head.length) break; // (a line cut by the end of the bytes read is not judged)
      nl = head.length;
    }
    if (head.toString('utf8', end, nl).trim() !== '') lines++;
    end = nl + 1;
  }
  if (lines === 0) return 'unknown';
  const bytes = head.subarray(start, Math.min(end, head.length));
  return recordsSide(bytes.toString('utf8')) ?? peekedSide(bytes);
}

/**
 * The side canonical records or HAR entries state, read as such (every line one of them, all stating the same side or
 * none): a recorder's log is told without its format's reader. Undefined for any other line: the readers are asked.
 */
function recordsSide(text: string): Stated | undefined {
  let side: Stated | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const one = lineSide(line.trim());
    if (one === undefined) return undefined;
    if (side !== undefined && one !== side) return 'unknown';
    side = one;
  }
  return side;
}

/** The side one line states: a canonical record's `side` (or none), a HAR entry's none; anything else undefined. */
function lineSide(text: string): Stated | undefined {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return undefined;
  const r = rec as Record<string, unknown>;
  if (r.v === 1 && typeof r.kind === 'string') return r.side === 'client' || r.side === 'server' || r.side === 'gateway' ? r.side : r.side === undefined ? 'none' : 'unknown';
  if (typeof r.startedDateTime === 'string' && typeof r.request === 'object' && typeof r.response === 'object') return 'none';
  return undefined;
}

/**
 * Which side these first lines of a log state, read by the readers a run reads the whole log with (every format, its
 * envelopes, a Python DEBUG log's lines, a server's console): the side of every record they give, when all agree;
 * `gateway` for a hop's own log (nginx, HAProxy, Caddy, Kong...: not a view of either side); `none` when the records state
 * no side and are a capture of the wire (canonical records without `side`, HAR entries); `unknown` for anything else (a
 * line no reader knows, records without a side from a format that cannot tell whose they are: an application's
 * messages, a bare JSON-RPC log, a sniffer's; lines that give no record).
 */
async function peekedSide(bytes: Buffer): Promise<Stated> {
  const account = newAccount({ path: '-' }, '<peek>');
  const sides = new Set<string>();
  try {
    const opts = { maxLineBytes: PEEK_BYTES + 1, stdin: Readable.from([bytes]), diagnostics: new Diagnostics(), strict: true, inputOrder: 'oldest-first' as const };
    for await (const batch of ingest({ path: '-' }, opts, account)) for (const { rec } of batch) sides.add(rec.side ?? 'none');
  } catch {
    return 'unknown'; // (strict: a line no reader knows stops the peek)
  }
  if (account.unusable > 0 || account.brokenAt !== undefined || sides.size !== 1) return 'unknown';
  const [side] = sides;
  if (side === 'client' || side === 'server' || side === 'gateway') return side;
  return Object.keys(account.formats).every((f) => WIRE_CAPTURES.has(f)) ? 'none' : 'unknown';
}

/** Formats whose records without a side are a capture of the wire between the two sides (a recording proxy's, a HAR). */
const WIRE_CAPTURES = new Set(['canonical', 'har']);

/** A whole HAR document (DevTools', mitmproxy's), by its start: `{"log": {`, pretty-printed or not. */
const HAR_START = /^\s*\{\s*"log"\s*:\s*\{/;
