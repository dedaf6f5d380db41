// Which side a plain input (no --client or --server) is read as: the other side next to inputs of one side (given, or stated by their records), the side its file name says, or the server's for an HTTP logger's lines of request paths.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Readable } from 'node:stream';
import { Diagnostics } from './diagnostics.js';
import { ingest, newAccount, type InputSpec, type ResolvedSpec } from './ingest.js';
import { dotted } from './formats/http-line.js';
import { isObj } from './formats/values.js';
import type { ExchangeRecord } from './schema/record.js';

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
 *   for those; and an HTTP logger's log by its URLs: request paths the server's, full URLs the client's, where
 *   something beside it can be joined to it, else no side (see bySidesStated).
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
 * `server` when every record of its first lines (or, when they give none, of its first 64 KiB) states that side
 * (recordingFetch's, recordingHandler's; a Python SDK DEBUG log's, a client app's debug log, a server's console),
 * `gateway` when they are a hop's own log, `none` when they are records that state no side from a capture of the wire
 * (the recording proxy's canonical records without `--side`, HAR entries), `unknown` otherwise (a format whose reader
 * cannot tell whose log it is; standard input, which is not read ahead; a file that cannot be read here). `silent` when
 * its first 64 KiB give no record at all (a long banner, start-up lines, a server's DEBUG lines of no message; an empty
 * file): it tells nothing, and keeps no other input from a side. An HTTP logger's lines (`http-line`) state no side,
 * but say whose they are by their URLs: a request path only (`/mcp`, the request target as a server receives it: an
 * Express, pino-http, express-winston or Fastify logger's `req.url`, ECS's `url.path`) is `server-by-path`; full URLs
 * (a client's fetch wrapper's; a Fetch-API server may log them too) are `full-urls`: the client's view beside logs of
 * the server's side only, no side beside logs of the client's (see bySidesStated); full URLs whose every line also
 * names what only the receiver of the request knows (see heardLine: the caller's address, a proxy's X-Forwarded-For
 * among the headers received; a Fetch-API server's logger, Hono's `c.req.url`, a Next.js route handler's
 * `request.url`) are `server-by-caller`, read as `server-by-path` is. A file's last 16 lines are looked at too where
 * its first state a side (or give no record): `both` when they state the other side (two logs in one file, `cat
 * client.log server.log`: it is no log of one side only, and makes no other input that side's other view), their side
 * when the first give no record (a long start-up section).
 */
export type Stated = 'client' | 'server' | 'gateway' | 'none' | 'unknown' | 'silent' | 'server-by-path' | 'server-by-caller' | 'full-urls' | 'both';

/** First bytes of a file looked at for its side, and lines of them. */
const PEEK_BYTES = 64 << 10;
const PEEK_LINES = 16;

/**
 * Plain inputs next to inputs whose records state one side only (and none given): the other side, as for inputs given
 * with one side (a recording proxy's capture beside `recordingFetch`'s log is the server's view of those calls). An HTTP
 * logger's log is read by its URLs, and only as a view that something beside it can be joined to (two logs of one side
 * of the same calls are not two views to join: each call would be taken as sent twice):
 * - request paths only (`server-by-path`), or full URLs with the caller's address (`server-by-caller`): the server's
 *   view, itself and for the rule; but beside logs whose records state the server's side, with no view of the client's
 *   nor a capture of the wire to join it to, no side (`undecided: 'paths'` or `'caller'`: a second log of the server's
 *   side, such as Express's logger beside recordingHandler's);
 * - full URLs (`full-urls`): the client's view beside logs of the server's side only; beside logs of the client's side
 *   only, no side (`undecided: 'urls'`: as likely the client's own fetch logger, a second log of the client's side, as
 *   a Fetch-API server's).
 * Only when every input's first records were read and say so: any other input leaves every side as it was, but for an
 * input whose first 64 KiB give no record at all (`silent`: a long start-up banner, a server's DEBUG lines of no
 * message), which takes no part: it keeps no side, and the others are sided without it.
 */
function bySidesStated(inputs: InputSpec[], stated: (path: string) => Stated): ResolvedSpec[] {
  if (inputs.length < 2) return inputs;
  const said = inputs.map((i) => stated(i.path));
  if (said.includes('unknown')) return inputs;
  // (a hop's own log is neither side's view: it neither tells nor takes a side; nor does a silent one)
  const sides = new Set(said.flatMap((s) => (s === 'server-by-path' || s === 'server-by-caller' ? ['server'] : s === 'both' ? ['client', 'server'] : [s])).filter((s) => s === 'client' || s === 'server'));
  const one = sides.size === 1 ? (sides.has('client') ? 'client' : 'server') : undefined;
  const assumed = one !== undefined && said.includes('none') ? (one === 'client' ? 'server' : 'client') : undefined;
  const urls = one === 'server' ? 'client' : one === 'client' ? 'undecided' : undefined;
  const paths = said.includes('server') && !said.some((s) => s === 'client' || s === 'none' || s === 'full-urls') ? 'undecided' : 'server';
  if (assumed === undefined && !said.includes('server-by-path') && !said.includes('server-by-caller') && (urls === undefined || !said.includes('full-urls'))) return inputs;
  return inputs.map((i, k) => {
    if (said[k] === 'server-by-path') return paths === 'server' ? { ...i, assumed: 'server' as const, assumedBy: 'path' as const } : { ...i, undecided: 'paths' as const };
    if (said[k] === 'server-by-caller') return paths === 'server' ? { ...i, assumed: 'server' as const, assumedBy: 'caller' as const } : { ...i, undecided: 'caller' as const };
    if (said[k] === 'full-urls') return urls === 'client' ? { ...i, assumed: 'client' as const, assumedBy: 'records' as const } : urls === 'undecided' ? { ...i, undecided: 'urls' as const } : i;
    return said[k] === 'none' && assumed !== undefined ? { ...i, assumed, assumedBy: 'records' as const } : i;
  });
}

/** The side a file's first records state (see Stated); a gzip file's too. */
export async function statedSide(path: string): Promise<Stated> {
  if (path === '-') return 'unknown';
  let head: Buffer;
  /** The file's last bytes, when it is longer than the first bytes read (not for a gzip file). */
  let tail: Buffer | undefined;
  /** Whether the bytes read are the whole file (then its last line is whole too, with or without its newline). */
  let whole = false;
  try {
    const fd = openSync(path, 'r');
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return 'unknown';
      head = Buffer.alloc(PEEK_BYTES);
      head = head.subarray(0, readSync(fd, head, 0, PEEK_BYTES, 0));
      whole = head.length < PEEK_BYTES;
      if (stat.size > PEEK_BYTES && !(head[0] === 0x1f && head[1] === 0x8b)) {
        tail = Buffer.alloc(PEEK_BYTES);
        tail = tail.subarray(0, readSync(fd, tail, 0, PEEK_BYTES, stat.size - PEEK_BYTES));
      }
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
  const first = await firstLinesSide(head, whole);
  if (first !== 'client' && first !== 'server' && first !== 'silent') return first;
  // Its last lines too (two logs in one file, `cat client.log server.log`: the second one runs to the end of the file).
  const from = tail ?? (whole ? head : undefined);
  const last = from === undefined ? undefined : await lastLinesSide(from, tail === undefined);
  if (last !== 'client' && last !== 'server') return first;
  if (first === 'silent') return last;
  return last === first ? first : 'both';
}

/** The side the first lines of these bytes state (or, when they give no record, the rest of them: see statedSide). */
async function firstLinesSide(head: Buffer, whole: boolean): Promise<Stated> {
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
  if (lines === 0) return whole ? 'silent' : 'unknown'; // (one line longer than the bytes read: not judged)
  const bytes = head.subarray(start, Math.min(end, head.length));
  const said = recordsSide(bytes.toString('utf8')) ?? (await peekedSide(bytes));
  // No record in the first lines (a start-up section, a banner): the rest of the bytes read, to their last whole line.
  const rest = whole ? head.length : head.lastIndexOf(10) + 1;
  if (said !== 'silent' || rest <= end) return said;
  const more = head.subarray(start, rest);
  return recordsSide(more.toString('utf8')) ?? peekedSide(more);
}

/**
 * The side the last lines of a file state (its last PEEK_LINES lines of text; `bytes` its last bytes, or the whole file
 * when `fromStart`): a file whose last lines state the other side from its first holds two logs (see Stated's `both`).
 */
async function lastLinesSide(bytes: Buffer, fromStart: boolean): Promise<Stated> {
  // (bytes that do not start the file start within a line: from the next one)
  const start = fromStart ? (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0) : bytes.indexOf(10) + 1;
  if (start <= 0 && !fromStart) return 'unknown';
  let end = bytes.length;
  while (end > start && (bytes[end - 1] === 10 || bytes[end - 1] === 13 || bytes[end - 1] === 32)) end--;
  let lines = 0;
  let at = end;
  while (at > start && lines < PEEK_LINES) {
    const nl = bytes.lastIndexOf(10, at - 1);
    const from = nl < start ? start : nl + 1;
    if (bytes.toString('utf8', from, at).trim() !== '') lines++;
    at = nl < start ? start : nl;
  }
  if (lines === 0) return 'silent';
  const last = bytes.subarray(at, end);
  return recordsSide(last.toString('utf8')) ?? peekedSide(last);
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
 * messages, a bare JSON-RPC log, a sniffer's); `silent` for lines that give no record at all; an HTTP logger's lines as
 * Stated says.
 */
async function peekedSide(bytes: Buffer): Promise<Stated> {
  const account = newAccount({ path: '-' }, '<peek>');
  const sides = new Set<string>();
  /** An HTTP logger's exchanges without a side: how many name a request path only, how many a full URL, and how many of those the caller's address. */
  let paths = 0;
  let urls = 0;
  let heard = 0;
  let lines: string[] | undefined;
  try {
    // (not strict: a line no reader knows, such as a banner's, is counted and the peek goes on to the lines after it)
    const opts = { maxLineBytes: PEEK_BYTES + 1, stdin: Readable.from([bytes]), diagnostics: new Diagnostics(), strict: false, inputOrder: 'oldest-first' as const };
    for await (const batch of ingest({ path: '-' }, opts, account)) {
      for (const { rec, src } of batch) {
        sides.add(rec.side ?? 'none');
        if (rec.kind !== 'exchange' || rec.side !== undefined || typeof rec.url !== 'string') continue;
        if (rec.url.startsWith('/')) paths++;
        else if (/^https?:\/\//i.test(rec.url)) {
          urls++;
          lines ??= bytes.toString('utf8').split('\n');
          if (heardLine(rec, lines[src.line - 1])) heard++;
        }
      }
    }
  } catch {
    return 'unknown';
  }
  if (sides.size === 0 && account.brokenAt === undefined) return 'silent';
  if (account.unusable > 0 || account.brokenAt !== undefined || sides.size !== 1) return 'unknown';
  const [side] = sides;
  if (side === 'client' || side === 'server' || side === 'gateway') return side;
  const formats = Object.keys(account.formats);
  if (formats.length === 1 && formats[0] === 'http-line') return paths > 0 && urls === 0 ? 'server-by-path' : urls > 0 && paths === 0 ? (heard === urls ? 'server-by-caller' : heard === 0 ? 'full-urls' : 'unknown') : 'unknown';
  return formats.every((f) => WIRE_CAPTURES.has(f)) ? 'none' : 'unknown';
}

/** Formats whose records without a side are a capture of the wire between the two sides (a recording proxy's, a HAR). */
const WIRE_CAPTURES = new Set(['canonical', 'har']);

/** A whole HAR document (DevTools', mitmproxy's), by its start: `{"log": {`, pretty-printed or not. */
const HAR_START = /^\s*\{\s*"log"\s*:\s*\{/;

/** Headers a proxy adds to the request it passes on: among a log's request headers, the headers as the server received them. */
const HOP_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded'];
/** Where HTTP loggers put the address of the caller (the request's peer): flat names, ECS's and OpenTelemetry's, pino-http's `req`. */
const CALLER_FIELDS = ['ip', 'clientIp', 'client_ip', 'remoteAddress', 'remoteAddr', 'remote_addr', 'remoteIp', 'remote_ip', 'client.ip', 'client.address', 'source.ip', 'source.address', 'http.client_ip', 'req.remoteAddress'];
/** An IPv4 or IPv6 address (`::ffff:127.0.0.1` too), with a port or not. */
const ADDRESS = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-f]*:[0-9a-f:.]*\]?)(?::\d{1,5})?$/i;

/**
 * Whether an HTTP logger's line says it was written by the request's receiver: it names the caller's address (a
 * client's fetch wrapper has no such thing to log: its `fetch` never says which address it came from), or its request
 * headers hold a header a proxy in between added (X-Forwarded-For...), which the client never sends. A `Host` header is
 * no such sign: a Python client's httpx hooks log the Host header httpx sends (test/fixtures/real-audit96/py-httpx-hooks).
 */
function heardLine(rec: ExchangeRecord, text: string | undefined): boolean {
  const headers = rec.requestHeaders;
  if (headers !== undefined && HOP_HEADERS.some((h) => typeof headers[h] === 'string' && headers[h] !== '')) return true;
  if (text === undefined) return false;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObj(v)) return false;
  return CALLER_FIELDS.some((f) => {
    const x = dotted(v, f);
    return typeof x === 'string' && ADDRESS.test(x.trim());
  });
}
