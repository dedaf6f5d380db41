// Container and system log wrappers around each line (Docker json-file, CRI, compose, journald JSON, syslog and journalctl text): the line the program wrote, its time, split lines joined again.
import type { Line, TextLine } from './lines.js';

/** The wrappers, as the report's notes name them. */
export type WrapperKind = 'docker-json' | 'cri' | 'docker-logs' | 'kubectl-prefix' | 'compose' | 'journald-json' | 'syslog';

/** One physical line read out of its wrapper. */
interface Piece {
  /** Whose chunks join: a stream (stdout, stderr), a journal stream, a compose service. */
  key: string;
  text: string;
  /** The wrapper's time of the line (ISO 8601, or epoch digits), when it gives one. */
  ts?: string | number;
  /** The runtime split the program's line here: the next piece of the same key continues it. */
  partial?: true;
  /** The text is not in the export (why). */
  missing?: string;
  /** The program among several in one input (a compose service, a kubectl pod's container): its lines are read apart. */
  stream?: string;
  invalidUtf8?: true;
}

/** A line no wrapper's reader takes (read as it is), or one that holds no line of the program (a journal marker). */
type Parsed = Piece | 'marker' | undefined;

const DOCKER_HEAD = '{"log":';

/** Docker's json-file driver: `{"log":"<text>\n","stream":"stdout","time":"<RFC 3339 nano>"}`; a chunk without its `\n` is partial (lines over 16 KiB). */
function dockerJson(text: string): Parsed {
  if (!text.startsWith(DOCKER_HEAD)) return undefined;
  const v = parseObject(text);
  // Only Docker's own keys: a shipper's record with a `log` field (Fluentd's, Fluent Bit's, with their metadata) keeps
  // no split piece without its newline, and is read as a log-platform envelope.
  if (!v || typeof v.log !== 'string' || typeof v.time !== 'string') return undefined;
  for (const k in v) if (k !== 'log' && k !== 'stream' && k !== 'time' && k !== 'attrs') return undefined;
  const whole = v.log.endsWith('\n');
  const piece: Piece = { key: typeof v.stream === 'string' ? v.stream : '', text: whole ? v.log.slice(0, -1) : v.log, ts: v.time };
  if (!whole) piece.partial = true;
  return piece;
}

/** The CRI log format (containerd, CRI-O: the files kubelet keeps under /var/log/pods): `<RFC 3339 nano> <stream> <P|F>[:tags] <text>`. */
const CRI_LINE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) (stdout|stderr) ([PF])(?::\S*)?(?: (.*))?$/s;

function cri(text: string): Parsed {
  const c0 = text.charCodeAt(0);
  if (c0 < 48 || c0 > 57) return undefined;
  const m = CRI_LINE.exec(text);
  if (!m) return undefined;
  const piece: Piece = { key: m[2]!, text: m[4] ?? '', ts: m[1]! };
  if (m[3] === 'P') piece.partial = true;
  return piece;
}

/**
 * A whole CRI line's text and time, for a line a log shipper sent on as it read it (Loki's `line` without promtail's
 * cri stage); undefined for another line, and for a partial piece, which one envelope cannot join.
 */
export function criLineText(text: string): { text: string; ts: string } | undefined {
  const p = cri(text);
  return typeof p === 'object' && !p.partial ? { text: p.text, ts: p.ts as string } : undefined;
}

/** journalctl -o json (and -o json-seq, whose records open with RS): an entry with its MESSAGE and __REALTIME_TIMESTAMP (microseconds). */
function journaldJson(text: string): Parsed {
  const body = text.charCodeAt(0) === 0x1e ? text.slice(1) : text;
  if (body.charCodeAt(0) !== 0x7b || !body.includes('"__REALTIME_TIMESTAMP"')) return undefined;
  const v = parseObject(body);
  if (!v || !('MESSAGE' in v)) return undefined;
  // A journal stream (systemd's stdout to the journal), or Docker's journald driver's container and priority (stdout 6, stderr 3).
  const key = String(v._STREAM_ID ?? (v.CONTAINER_ID_FULL !== undefined ? `${String(v.CONTAINER_ID_FULL)}/${String(v.PRIORITY)}` : (v._PID ?? '')));
  const piece: Piece = { key, text: '' };
  if (typeof v.__REALTIME_TIMESTAMP === 'string' && /^\d{1,17}$/.test(v.__REALTIME_TIMESTAMP)) piece.ts = v.__REALTIME_TIMESTAMP;
  // A line longer than journald's LineMax (48 KiB by default) is stored as several entries, each but the last so marked.
  // Docker's journald log driver marks its 16 KiB pieces CONTAINER_PARTIAL_MESSAGE=true, all but the last.
  if (v._LINE_BREAK === 'line-max' || v.CONTAINER_PARTIAL_MESSAGE === 'true') piece.partial = true;
  const m = v.MESSAGE;
  if (typeof m === 'string') piece.text = m;
  else if (Array.isArray(m) && m.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    // journald keeps a message with control characters or bytes that are no UTF-8 as bytes: JSON writes them as numbers.
    const bytes = Buffer.from(m as number[]);
    piece.text = bytes.toString('utf8');
    if (!Buffer.from(piece.text, 'utf8').equals(bytes)) piece.invalidUtf8 = true;
  } else if (m === null) {
    piece.missing = 'journalctl wrote this entry\'s MESSAGE as null: it left out a field over 4,096 bytes, as -o json does without --all (export again with journalctl -o json --all)';
  } else piece.missing = `the journal entry's MESSAGE is JSON ${Array.isArray(m) ? 'array' : typeof m}, neither text nor bytes`;
  return piece;
}

/**
 * A syslog line as journalctl prints it (`-o short`, `short-precise`, `short-iso`, `short-iso-precise`, `short-unix`)
 * and as rsyslog writes /var/log/syslog (RFC 3339 or the old `Dec  6 02:12:20`): `<time> <host> <ident>[<pid>]: <text>`.
 */
const SYSLOG_LINE = /^(?:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2}))|([A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}(?:\.\d+)?)|(\d{9,11}\.\d{1,9})) ([A-Za-z0-9][\w.-]*) ([\w.@/-]+)(?:\[(\d+)\])?: ?(.*)$/s;
/** journalctl's own lines between entries: `-- Boot <id> --`, `-- No entries --`, `-- Logs begin at ... --`. */
const JOURNAL_MARKER = /^-- .* --$/;

function syslog(text: string): Parsed {
  if (JOURNAL_MARKER.test(text)) return 'marker';
  const m = SYSLOG_LINE.exec(text);
  if (!m) return undefined;
  const piece: Piece = { key: `${m[5]}[${m[6] ?? ''}]`, text: m[7]! };
  // The short formats without a year give no time a record can take: the records' own times are used.
  if (m[1] !== undefined) piece.ts = m[1];
  else if (m[3] !== undefined) piece.ts = Number(m[3]) * 1000;
  return piece;
}

/** `docker compose logs` (and `up`): `<service>-<n>  | <text>` (v1: `<service>_<n>`), colored on a terminal, with `--timestamps` a time after the bar. */
const COMPOSE_LINE = /^(?:\x1b\[[\d;]*m)*([A-Za-z0-9][\w.-]*[-_]\d+)\s*(?:\x1b\[[\d;]*m)*\s*\|(?:\x1b\[[\d;]*m)*(?: (.*))?$/s;
const COMPOSE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) /;

function compose(text: string): Parsed {
  const m = COMPOSE_LINE.exec(text);
  if (!m) return undefined;
  const rest = m[2] ?? '';
  const t = COMPOSE_TIME.exec(rest);
  return t ? { key: m[1]!, text: rest.slice(t[0].length), ts: t[1]!, stream: m[1]! } : { key: m[1]!, text: rest, stream: m[1]! };
}

/** docker compose's own lines between the services' (`Attaching to ...`, `server-1 exited with code 0`, `Gracefully stopping...`), colored or not. */
const COMPOSE_OWN = /^(?:\x1b\[[\d;]*m)*(?:Attaching to \S.*|[A-Za-z0-9][\w.-]* exited with code -?\d+|Gracefully stopping\.\.\..*|Aborting on container exit\.\.\.|(?:Creating|Starting|Stopping|Restarting|Recreating|Removing|Killing) [\w.-]+ *\.\.\. ?(?:done|error)?)(?:\x1b\[[\d;]*m)*\s*$/;

/** The first line of docker-compose 1.x's `logs` (and `up`): `Attaching to a53_server_1, a53_client_1`. */
const COMPOSE_ATTACHING = /^Attaching to [A-Za-z0-9][\w.-]*(?:, [A-Za-z0-9][\w.-]*)*$/;

function composeOrOwn(text: string): Parsed {
  return compose(text) ?? (COMPOSE_OWN.test(text) ? 'marker' : undefined);
}

/**
 * `docker logs --timestamps` (and `kubectl logs --timestamps`): `<RFC 3339 nano, UTC> <JSON>`. A line Docker had split
 * comes out whole, but with the time of each further piece written into it, every 16 KiB: taken out again. A text line
 * (a Python DEBUG log) tells the wrapper only by a stamp of seven to nine digits of fraction: Docker always writes nine,
 * the kubelet (`kubectl logs --timestamps`) trims the trailing zeros of its nanoseconds. An app's own stamp has three
 * or six (Claude Desktop's `mcp.log`), and `<time> <word> ...` with another time is as often `aws logs tail`'s
 * `<time> <stream> ...` (an offset, six digits), which the line reader takes. Once an input is known to be wrapped so,
 * every text line's first stamp is the wrapper's, however many zeros were trimmed (STAMPED_TEXT_WRAPPED).
 */
const STAMPED_LINE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z) (\{.*|\[\s*[{[\]].*)$/s;
const STAMPED_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7,9}Z) (.*)$/s;
const STAMPED_TEXT_WRAPPED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z) (.*)$/s;
const PIECE_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z /;
const DOCKER_PIECE = 16384;

function dockerLogs(text: string, textStamp = STAMPED_TEXT): Parsed {
  const c0 = text.charCodeAt(0);
  if (c0 < 48 || c0 > 57) return undefined;
  const m = STAMPED_LINE.exec(text) ?? textStamp.exec(text);
  if (!m) return undefined;
  let rest = m[2]!;
  if (rest.length > DOCKER_PIECE) rest = withoutPieceStamps(rest);
  return { key: '', text: rest, ts: m[1]! };
}

/** The text of a `docker logs -t` line without the times Docker wrote at each 16 KiB piece's start (counted in bytes). */
function withoutPieceStamps(text: string): string {
  const ascii = !/[^\x00-\x7f]/.test(text);
  const buf = ascii ? undefined : Buffer.from(text, 'utf8');
  const parts: string[] = [];
  let from = 0;
  const size = buf ? buf.length : text.length;
  for (let at = DOCKER_PIECE; at < size; ) {
    const head = buf ? buf.toString('latin1', at, at + 40) : text.slice(at, at + 40);
    const stamp = PIECE_STAMP.exec(head);
    if (!stamp) break;
    parts.push(buf ? buf.toString('utf8', from, at) : text.slice(from, at));
    from = at + stamp[0].length;
    at = from + DOCKER_PIECE;
  }
  if (parts.length === 0) return text;
  parts.push(buf ? buf.toString('utf8', from) : text.slice(from));
  return parts.join('');
}

/** A wrapper's time as epoch milliseconds, for telling the order of an input's first lines. */
function timeOf(ts: string | number | undefined): number | undefined {
  if (ts === undefined) return undefined;
  if (typeof ts === 'number') return ts;
  if (/^\d+$/.test(ts)) return Number(ts) / 1000; // journald's microseconds
  const ms = Date.parse(ts.replace(/(\.\d{3})\d+/, '$1').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? undefined : ms;
}

/** `kubectl logs --prefix` (of several pods or containers): `[pod/<pod>/<container>] <text>`, with `--timestamps` a time after it. */
const KUBECTL_LINE = /^\[(pod\/[^\s/\]]+\/[^\s\]]+)\](?: (.*))?$/s;

function kubectlPrefix(text: string): Parsed {
  if (text.charCodeAt(0) !== 0x5b) return undefined;
  const m = KUBECTL_LINE.exec(text);
  if (!m) return undefined;
  const rest = m[2] ?? '';
  const t = COMPOSE_TIME.exec(rest);
  return t ? { key: m[1]!, text: rest.slice(t[0].length), ts: t[1]!, stream: m[1]! } : { key: m[1]!, text: rest, stream: m[1]! };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Each wrapper as a report names it. */
const WRAPPER_NAMES: Record<WrapperKind, string> = {
  'docker-json': 'Docker json-file',
  cri: 'CRI log',
  'docker-logs': 'docker logs -t',
  'kubectl-prefix': 'kubectl logs --prefix',
  compose: 'docker compose logs',
  'journald-json': 'journalctl -o json',
  syslog: 'syslog lines',
};

/** The input's format cell: the wrapper its lines were read in, and the split lines joined. */
export function wrapperText(i: { wrapper?: WrapperKind | undefined; joined?: number | undefined }): string {
  if (!i.wrapper) return '';
  return ` in ${WRAPPER_NAMES[i.wrapper]}${i.joined ? ` (${i.joined} split ${i.joined === 1 ? 'piece' : 'pieces'} joined)` : ''}`;
}

/** In the order they are tried: the JSON wrappers by their marks, then the text prefixes. */
const READERS: Array<[WrapperKind, (text: string) => Parsed]> = [
  ['docker-json', dockerJson],
  ['journald-json', journaldJson],
  ['cri', cri],
  ['syslog', syslog],
  ['docker-logs', dockerLogs],
  ['kubectl-prefix', kubectlPrefix],
  ['compose', composeOrOwn],
];

/** Lines of the first read looked at to tell the wrapper. */
const PROBE_LINES = 8;
/** Partial lines kept open at once (one per stream in practice); past this the oldest is read as it is. */
const OPEN_KEYS = 1024;

/** What the unwrapping did to an input, for its notes. */
export interface WrapperStats {
  kind?: WrapperKind;
  /** Physical lines that were a partial chunk, joined into the line they continue. */
  joined: number;
  /** The syslog lines' times had no year (journalctl -o short): not used. */
  yearless: number;
  /** The programs whose lines one input holds (compose services, kubectl pods' containers), in the order first seen, at most MAX_STREAMS. */
  streams?: string[];
  /** Lines of programs past MAX_STREAMS: read together, as one more program's. */
  streamsOver?: number;
}

/** Programs read apart in one input (each keeps its own reading state); the lines of any further one are read together. */
export const MAX_STREAMS = 64;
/** The stream the lines of programs past MAX_STREAMS share. */
export const OVER_STREAMS = '(more)';

interface Open {
  lineNo: number;
  stream?: string;
  ts?: string | number;
  parts: string[];
  bytes: number;
  over: boolean;
  invalidUtf8?: true;
  missing?: string;
}

/**
 * The lines of an input with their wrapper taken off, when its first lines show one (most of the first read's first
 * eight lines are of that wrapper); else the lines as they are, untouched and at no cost. A line of the input that is not of
 * its wrapper is passed on as it is. The joined line of partial chunks keeps the first chunk's number and time.
 */
export async function* unwrapContainerLines(batches: AsyncIterable<Line[]>, opts: { maxLineBytes: number; stats: WrapperStats }): AsyncGenerator<Line[]> {
  let read: ((text: string) => Parsed) | undefined;
  let decided = false;
  let backward = false;
  const open = new Map<string, Open>();
  const stats = opts.stats;
  const streams = new Set<string>();
  /** A program's stream, or the shared one past MAX_STREAMS. */
  const streamOf = (name: string): string => {
    if (streams.has(name)) return name;
    if (streams.size < MAX_STREAMS) {
      streams.add(name);
      (stats.streams ??= []).push(name);
      return name;
    }
    stats.streamsOver = (stats.streamsOver ?? 0) + 1;
    return OVER_STREAMS;
  };

  const decide = (first: Line[]): void => {
    decided = true;
    const texts: string[] = [];
    for (const l of first) {
      if ('text' in l && l.text.trim() !== '') texts.push(l.text);
      if (texts.length === PROBE_LINES) break;
    }
    if (texts.length === 0) return;
    let best: [WrapperKind, (text: string) => Parsed] | undefined;
    let bestHits = 0;
    for (const reader of READERS) {
      let hits = 0;
      for (const t of texts) if (reader[1](t) !== undefined && (reader[0] !== 'compose' || compose(t) !== undefined)) hits++;
      if (hits > bestHits) [best, bestHits] = [reader, hits];
    }
    // A wrapper is taken when most lines look at are its own; compose's prefix needs two, as a text log's line may
    // once look like one.
    if (!best || bestHits * 2 < texts.length || (best[0] === 'compose' && bestHits < Math.min(2, texts.length))) return;
    stats.kind = best[0];
    read = best[0] === 'docker-logs' ? (t) => dockerLogs(t, STAMPED_TEXT_WRAPPED) : best[1];
    // An export written newest first (journalctl -r): a split line's last piece comes first, its first piece last.
    let back = 0;
    let forth = 0;
    let last: number | undefined;
    for (const t of texts) {
      const p = read(t);
      const ms = typeof p === 'object' ? timeOf(p.ts) : undefined;
      if (ms === undefined) continue;
      if (last !== undefined && ms < last) back++;
      if (last !== undefined && ms > last) forth++;
      last = ms;
    }
    backward = back > forth;
  };

  const finish = (o: Open, out: Line[], extra?: Partial<TextLine>): void => {
    if (o.over) return void out.push({ lineNo: o.lineNo, overLimit: true, bytes: o.bytes });
    let text = o.parts.join('');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    // A journal entry sent whole (sd_journal_send, Python's JournalHandler) may hold several lines, a traceback under
    // its log line: each is read as a line, as in a file, all with the entry's number.
    const texts = text.includes('\n') ? text.split(/\r?\n/) : [text];
    for (const t of texts) {
      const line: TextLine = { lineNo: o.lineNo, text: t, ...extra };
      if (o.stream !== undefined) line.stream = o.stream;
      if (o.ts !== undefined) line.wrapTs = o.ts;
      if (o.invalidUtf8) line.invalidUtf8 = true;
      if (o.missing !== undefined) line.unreadable = { code: 'not-exported', message: o.missing };
      out.push(line);
    }
  };

  /** Keeps at most OPEN_KEYS lines open: the oldest is read as it is. */
  const keep = (key: string, o: Open, out: Line[]): void => {
    if (open.size >= OPEN_KEYS) {
      const [oldKey, oldest] = open.entries().next().value as [string, Open];
      open.delete(oldKey);
      finish(oldest, out, backward ? undefined : { unterminated: true });
    }
    open.set(key, o);
  };

  /** Adds a piece's text to a line, at its end (or at its start, newest first), within --max-line-bytes. */
  const add = (o: Open, p: Piece, atStart: boolean): void => {
    if (p.invalidUtf8) o.invalidUtf8 = true;
    if (p.missing !== undefined) o.missing ??= p.missing;
    o.bytes += Buffer.byteLength(p.text);
    if (o.bytes > opts.maxLineBytes) {
      o.over = true;
      o.parts = [];
    } else if (!o.over) {
      if (atStart) o.parts.unshift(p.text);
      else o.parts.push(p.text);
    }
  };

  const unwrap = (line: Line, out: Line[]): void => {
    if (!read || !('text' in line) || line.text === '') return void out.push(line);
    const p = read(line.text);
    if (p === undefined) return void out.push(line);
    if (p === 'marker') return void out.push({ lineNo: line.lineNo, text: '', skipped: stats.kind === 'compose' ? 'a line docker compose writes about its containers' : 'a line journalctl writes between entries' });
    if (p.stream !== undefined) p.stream = streamOf(p.stream);
    if (p.ts === undefined && stats.kind === 'syslog') stats.yearless++;
    const fresh = (): Open => {
      const o: Open = { lineNo: line.lineNo, parts: [], bytes: 0, over: false };
      if (p.ts !== undefined) o.ts = p.ts;
      if (p.stream !== undefined) o.stream = p.stream;
      return o;
    };
    if (backward) {
      // Newest first: a whole piece ends a line, whose earlier pieces (marked partial) follow it. The line is held until
      // the next whole piece of its stream, or the end, says nothing more belongs to it.
      const tail = open.get(p.key);
      if (p.partial && tail) {
        stats.joined++;
        add(tail, p, true);
        tail.lineNo = line.lineNo;
        if (p.ts !== undefined) tail.ts = p.ts;
        return;
      }
      if (tail) {
        open.delete(p.key);
        finish(tail, out);
      }
      const o = fresh();
      add(o, p, false);
      return keep(p.key, o, out);
    }
    let o = open.get(p.key);
    if (o) stats.joined++;
    else o = fresh();
    add(o, p, false);
    if (!p.partial) {
      open.delete(p.key);
      return finish(o, out);
    }
    if (!open.has(p.key)) keep(p.key, o, out);
  };

  for await (const batch of batches) {
    if (decided && !read) {
      yield batch;
      continue;
    }
    if (!decided) {
      // docker-compose (v1) opens its `logs` output with "Attaching to <containers>", also with --no-log-prefix and
      // of one service: compose's own line, skipped, whatever the lines after it are.
      const at = batch.findIndex((l) => 'text' in l && l.text.trim() !== '');
      const first = batch[at];
      if (first && 'text' in first && COMPOSE_ATTACHING.test(first.text)) batch[at] = { lineNo: first.lineNo, text: '', skipped: 'a line docker compose writes about its containers' };
      // Decided on the first batch that holds a line (the first read, most often many lines): never held waiting for
      // more, so a slow pipe's first lines are read as they come.
      if (!batch.some((l) => 'text' in l && l.text.trim() !== '')) {
        yield batch;
        continue;
      }
      decide(batch);
      if (!read) {
        yield batch;
        continue;
      }
    }
    const out: Line[] = [];
    for (const line of batch) unwrap(line, out);
    if (out.length) yield out;
  }
  // Chunks whose line never ended (the log was cut in the middle of a long line): read as far as they go.
  const rest: Line[] = [];
  for (const o of open.values()) finish(o, rest, backward ? undefined : { unterminated: true });
  if (rest.length) yield rest;
}
