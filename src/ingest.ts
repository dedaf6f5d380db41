// Reading one input into canonical records: format detection per line (or per file for whole HAR), with an exact line account.
import type { CanonicalRecord } from './schema/record.js';
import { heldLine, type AdapterContext, type InputFormat, type JsonFormat, type SourceLimits, type TextFormat } from './formats/adapter.js';
import { ALL_FORMATS, FALLBACK_FORMAT, TEXT_FORMATS, detectJsonFormat, formatByName } from './formats/index.js';
import { bodilessHttpPost, bodilessRecords, httpLineFormat } from './formats/http-line.js';
import { pythonRecordLine, pythonSdkLogFormat } from './formats/python-sdk-log.js';
import { inferredWriter } from './formats/jsonrpc.js';
import { harEntryFormat } from './formats/har-entry.js';
import { harProducerNotes } from './formats/har-producers.js';
import { noteMcpsnoopFrame } from './formats/mcpsnoop-export.js';
import type { HarDocumentInfo, HarDocumentItem } from './read/har-document.js';
import { parseTimestamp } from './formats/time.js';
import { nestedRecord, unwrapEnvelope, unwrapPath, withTime } from './formats/unwrap.js';
import { embeddedMessageLine, splitCloudWatchLine, splitCloudWatchText } from './formats/text-lines.js';
import { GzipError, openInput, UnreadEncodingError } from './read/open.js';
import type { Piece } from './read/rotation.js';
import { encodingName } from './read/utf16.js';
import { readLineBatches, isBlank, type Line } from './read/lines.js';
import { MAX_STREAMS, unwrapContainerLines, type WrapperKind, type WrapperStats } from './read/container-lines.js';
import type { BackwardSpool } from './read/backward-spool.js';
import { OrderProbe, type InputOrder } from './read/order-probe.js';
import { settleTies } from './read/ties.js';
import { looksLikeHarDocument, looksLikeJsonArrayDocument, mcpsnoopExportOf, pageKeyOf } from './read/har-head.js';
import { describeJsonError, Diagnostics } from './diagnostics.js';
import { NEEDS_SCHEMAS, loadSchemas, schemas } from './schema/lazy.js';
import type { Source, ViewSide } from './join/attempt.js';

export interface InputSpec {
  path: string;
  side?: 'client' | 'server' | undefined;
}

/**
 * An input as the run reads it: `assumed` is the side a plain input's records that state none take (input-sides.ts),
 * `assumedBy` `name` when its file name said it, `records` when it is the other side of inputs whose records state
 * one, `path` when it is an HTTP logger's log of request paths (a server's; else it is the other side of the inputs
 * given with one), `caller` when it is an HTTP logger's log of full URLs that names the caller's address (a server's).
 */
export interface ResolvedSpec extends InputSpec {
  assumed?: 'client' | 'server' | undefined;
  assumedBy?: 'name' | 'records' | 'path' | 'caller' | undefined;
  /** Why a plain HTTP logger's log was given no side where it could be either side's second log (input-sides.ts). */
  undecided?: 'urls' | 'paths' | 'caller' | undefined;
}

interface IngestOptions {
  inputFormat?: string | undefined;
  maxLineBytes: number;
  timezone?: string | undefined;
  unwrap?: string | undefined;
  stdin: NodeJS.ReadableStream;
  diagnostics: Diagnostics;
  /** Stop at the first unusable line (--strict). */
  strict: boolean;
  /** Line order: settled from the first lines' times ("auto", the default), or as given (--input-order). */
  inputOrder?: 'auto' | InputOrder | undefined;
  /** Called once per input with an assumed side, at its first record that states no side of its own. */
  onAssumedSide?: ((account: InputAccount, spec: ResolvedSpec) => void) | undefined;
  /** This input is a piece of a rotated log (read/rotation.ts): it goes on from the piece before it. */
  piece?: Piece | undefined;
  /** Called when a piece's first lines repeat the end of the piece before it: how many, and that piece's name. */
  onOverlap?: ((account: InputAccount, lines: number, of: string) => void) | undefined;
}

/** The account of one input, as the report shows it. */
export interface InputAccount {
  name: string;
  side?: 'client' | 'server' | undefined;
  /** The side was not given but assumed: a plain input next to inputs of the other side only (see ResolvedSpec). */
  sideAssumed?: boolean;
  gzip: boolean;
  /** "lines" for line-oriented inputs, "har" for a whole HAR document, "array" for a JSON array document (lines then count entries or items). */
  mode: 'lines' | 'har' | 'array';
  lines: number;
  blank: number;
  used: number;
  /** Well-formed lines of a known format that carry no MCP traffic (a page asset in a HAR, a connection line): counted, not problems. */
  skipped: number;
  unusable: number;
  records: number;
  reasons: Record<string, number>;
  formats: Record<string, number>;
  /** What the detected formats cannot show. */
  cannotShow: string[];
  /** Bytes read from the input as stored (compressed size for gzip), and its size on disk when known. */
  bytesRead: number;
  size?: number | undefined;
  /** Where reading stopped early (truncated gzip, cut HAR document), if it did. */
  brokenAt?: string;
  /** Timestamps went backwards beyond tolerance: calls are finalized at the end. */
  unordered?: boolean;
  /** The lines were written newest first and were read from the last one back. */
  newestFirst?: boolean;
  /** The container or system log the lines were read inside (Docker's json-file, CRI, journald...), taken off each line. */
  wrapper?: WrapperKind;
  /** Physical lines that were pieces of a line the wrapper had split, joined to the line they continue (not in `lines`). */
  joined?: number;
  limits: SourceLimits;
}

/**
 * Per input: the lines a gateway's log format read that told of nothing to join (2xx POSTs, GET streams, DELETEs), by
 * format, for the note of an input none of whose lines was used (kept beside the account: not in the output).
 */
export const gatewayQuiet = new WeakMap<InputAccount, Record<string, number>>();
/** The JSON formats that hold a line back for a later one (http-line's Fastify requests), asked at the end of every input. */
const HOLDING_JSON_FORMATS = ALL_FORMATS.filter((f) => f.kind === 'json' && f.endOfInput !== undefined);
/** Per input: the lines of an HTTP logger (pino-http, ECS, express-winston, Fastify) of a POST without its body, for the note of an input none of whose lines was used. */
export const bodilessPosts = new WeakMap<InputAccount, number>();
/** The formats that are a gateway's own log (not a server's account, as the MCP test kitchen's and .NET's lines are). */
const GATEWAY_LOGS = new Set(['haproxy-log', 'nginx-combined', 'nginx-error', 'apache-error', 'caddy', 'caddy-console']);

export interface RecordItem {
  rec: CanonicalRecord;
  ts: number | undefined;
  src: Source;
  http: boolean;
  weakId: boolean;
  /** The format rebuilds responses from metadata instead of keeping bodies (OTLP span attributes). */
  rebuilt: boolean;
  /** The format leaves some responses out (SourceLimits.answersUnlogged). */
  answersUnlogged?: true;
  /** The format's records sent their session id though no headers are kept (SourceLimits.sessionSent). */
  sessionSent?: true;
  /** A gateway's bodiless account of a request (SourceLimits.gatewayAccount): offered to an attempt, not a view. */
  gatewayAccount?: true;
  side: ViewSide | undefined;
  /** The line's text: an id beyond 2^53 (which JSON.parse rounds) is read exactly from it, when one occurs. */
  raw?: string;
  /** A text log's line (a Python DEBUG log's) the record was read at: to know the line again in a copy of the log. */
  lineText?: string;
}

/**
 * Thrown in --strict mode at the first unusable line: `where` is its location (`client.ndjson:2`), `reason` what is
 * wrong with it, and the message both, as the CLI prints them (`client.ndjson:2: line is not valid UTF-8`).
 */
export class StrictStop extends Error {
  override name = 'StrictStop';
  constructor(readonly where: string, readonly reason: string) {
    super(`${where}: ${reason}`);
  }
}

const MERGED_LIMITS = (): SourceLimits => ({ http: true, bodies: true, session: true, typedIds: true, notes: [] });

/** Open an input and yield its records in batches; the account is filled as it goes. */
export async function* ingest(spec: ResolvedSpec, opts: IngestOptions, account: InputAccount): AsyncGenerator<RecordItem[]> {
  let opened;
  try {
    opened = await openInput(spec.path, opts.stdin);
  } catch (err) {
    throw new InputError(`${spec.path}: ${describeOpenError(err)}`);
  }
  const name = opened.name;
  account.size = opened.size;
  const forced = opts.inputFormat !== undefined ? formatByName(opts.inputFormat) : undefined;
  const seenFormats = new Set<InputFormat>();
  const unusable = (line: number, code: string, message: string) => {
    account.unusable++;
    account.reasons[code] = (account.reasons[code] ?? 0) + 1;
    opts.diagnostics.add({ file: name, line, code, message });
    if (opts.strict) throw new StrictStop(`${name}:${line}`, message);
  };
  /**
   * A streamed document's items (a JSON array's, a page's, an mcpsnoop export's events) as lines of JSON text: where
   * it broke is said (json-broken); an item that is no object, or too deep to write again, is an unusable line.
   */
  async function* documentLines(items: AsyncIterable<HarDocumentItem>, noun: string, object: string, toValue: (v: Record<string, unknown>) => unknown): AsyncGenerator<Line[]> {
    for await (const item of items) {
      if ('error' in item) {
        account.brokenAt = `line ${item.line}`;
        opts.diagnostics.add({ file: name, line: item.line, code: 'json-broken', message: item.error });
        if (opts.strict) throw new StrictStop(`${name}:${item.line}`, item.error);
        continue;
      }
      if (typeof item.value !== 'object' || item.value === null || Array.isArray(item.value)) {
        account.lines++;
        unusable(item.line, 'not-an-object', `${noun} ${account.lines} is JSON ${Array.isArray(item.value) ? 'array' : item.value === null ? 'null' : typeof item.value}, not ${object}`);
        continue;
      }
      let text: string;
      try {
        text = JSON.stringify(toValue(item.value as Record<string, unknown>));
      } catch (err) {
        // JSON.stringify overflows the stack some thousands of levels deep, well before the parser gives up.
        if (!(err instanceof RangeError)) throw err;
        account.lines++;
        unusable(item.line, 'too-deep', `${noun} ${account.lines} is nested too deeply to read`);
        continue;
      }
      yield [{ lineNo: item.line, text }];
    }
  }
  const sideOverride = spec.side;
  // A plain input next to sided ones: its records that state no side take the assumed one (adapters are not told it).
  const assumed = spec.side === undefined ? spec.assumed : undefined;
  let assumedSaid = assumed === undefined;
  const sayAssumed = () => {
    assumedSaid = true;
    account.side = assumed;
    account.sideAssumed = true;
    opts.onAssumedSide?.(account, spec);
  };

  const toItems = (value: unknown, lineNo: number, out: RecordItem[], text: string | undefined): void => {
    let v = value;
    if (opts.unwrap !== undefined) {
      v = unwrapPath(v, opts.unwrap);
      if (v === undefined) return unusable(lineNo, 'unwrap-missing', `--unwrap ${opts.unwrap}: no such field on this line`);
    }
    for (let depth = 0; depth < 3; depth++) {
      if (typeof v === 'string') {
        // An envelope holding a text line (Loki `line`, Cloud Logging textPayload): parse it again.
        if (firstNonSpace(v) === '{') {
          try {
            v = JSON.parse(v);
            continue;
          } catch {
            return unusable(lineNo, 'invalid-json', 'the wrapped text is not JSON');
          }
        }
        // Read as the line it was, its indent kept (a .NET console message line is indented under its header) and
        // with the input's state (a Python log's traceback lines are its own, once its format is known).
        const inner = v.replace(/\s+$/, '');
        const tf = textFormatFor(inner, forced, adapterState);
        if (!tf) return unusable(lineNo, 'unknown-format', 'wrapped text line in no known format');
        return emit(tf, tf.textToRecords(inner, ctx(lineNo)), lineNo, out);
      }
      // A line holding an array of records of known formats (`jq -c '[...]'`, an API page without its envelope, a
      // JSON-RPC batch) is read as a page; any other array is one unusable line.
      if (Array.isArray(v) && v.length > 0 && v.every(isKnownRecord)) return pageItems(v, lineNo, out);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        return unusable(lineNo, 'not-an-object', `line is JSON ${Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v}, not an object record`);
      }
      const obj = v as Record<string, unknown>;
      const fmt = forced ?? detectJsonFormat(obj);
      if (fmt && fmt.kind === 'json') {
        const res = fmt.toRecords(obj, ctx(lineNo));
        // (an mcpsnoop capture's first requests, to tell its other renderings given beside it: formats/mcpsnoop-export.ts)
        if (fmt.name === 'mcpsnoop') noteMcpsnoopFrame(account, obj);
        // A line read and found to carry nothing (Fastify's "incoming request" of a log without the body): counted for the note.
        if (Array.isArray(res) && res.length === 0 && bodilessHttpPost(obj)) bodilessPosts.set(account, (bodilessPosts.get(account) ?? 0) + 1);
        return emit(fmt, res, lineNo, out, text);
      }
      if (forced) return unusable(lineNo, 'wrong-format', `not a ${forced.name} record`);
      const unwrapped = unwrapEnvelope(obj);
      if (unwrapped?.many) return pageItems(unwrapped.value as unknown[], lineNo, out, unwrapped.times);
      if (unwrapped) {
        v = unwrapped.value;
        continue;
      }
      // A record of a known format in an envelope no reader knows: read as `--unwrap <its path>` would (a bare
      // JSON-RPC message is not taken so: an application's log line holds those, read by app-log with its fields).
      const nested = nestedRecord(obj, isNestedRecord);
      if (nested) {
        note(`records read from the field "${nested.path}" of an envelope mcp-triage does not know, as --unwrap ${nested.path} reads them`);
        v = nested.value;
        continue;
      }
      // The Python SDK's own DEBUG lines, and httpx's, logged by a JSON formatter: read as the text log they would be.
      const pyLine = forced ? undefined : pythonRecordLine(obj, adapterState);
      if (pyLine !== undefined) return emit(pythonSdkLogFormat, pythonSdkLogFormat.textToRecords(pyLine, ctx(lineNo)), lineNo, out);
      if (bodilessHttpPost(obj)) {
        bodilessPosts.set(account, (bodilessPosts.get(account) ?? 0) + 1);
        // (its error status, with a time: the server's account of a POST, offered to the client's attempt of it, unless
        // the application-log reader reads the line itself: pino-http's 404 ending the one open request of its session
        // and process in a log of the app's own message lines, test/fixtures/real-audit19/s1-ts-http)
        const logged = bodilessRecords(obj, ctx(lineNo));
        if (logged.length > 0) {
          const own = FALLBACK_FORMAT.detect(obj) ? FALLBACK_FORMAT.toRecords(obj, ctx(lineNo)) : [];
          if (Array.isArray(own) ? own.length > 0 : own.error === NEEDS_SCHEMAS) return emit(FALLBACK_FORMAT, own, lineNo, out, text);
          return emit(httpLineFormat, logged, lineNo, out, text);
        }
      }
      if (FALLBACK_FORMAT.detect(obj)) return emit(FALLBACK_FORMAT, FALLBACK_FORMAT.toRecords(obj, ctx(lineNo)), lineNo, out, text);
      return unusable(lineNo, 'unknown-format', `record in no known format (keys: ${describeKeys(obj)})`);
    }
    return unusable(lineNo, 'unknown-format', 'record nested in too many envelopes');
  };

  /** An API page (Datadog data[], Elasticsearch hits.hits[]) holds many records on one line: the line counts once. */
  const pageItems = (items: unknown[], lineNo: number, out: RecordItem[], times?: unknown[]): void => {
    if (!schemas()) {
      needSchemas = true; // a page is read whole, once the schemas its records may need are loaded
      return;
    }
    const before = { used: account.used, unusable: account.unusable, skipped: account.skipped };
    const savedUnwrap = opts.unwrap;
    opts.unwrap = undefined;
    // Search pages list their hits newest first unless asked otherwise: a page whose times run back is read last hit
    // first. The hits' own envelope times tell it before they are read, so that a format that carries state from
    // line to line (a Python DEBUG log's) reads them in time order; without such times, the records' times tell it after.
    const envelopeProbe = new OrderProbe();
    items.forEach((item, i) => envelopeProbe.note(envelopeTime(times?.[i], item, opts.timezone)));
    const reversedFirst = envelopeProbe.verdict() === 'newest-first';
    const groups: RecordItem[][] = [];
    try {
      for (const item of reversedFirst ? [...items].reverse() : items) {
        const group: RecordItem[] = [];
        toItems(item, lineNo, group, undefined);
        if (group.length) groups.push(group);
      }
    } finally {
      opts.unwrap = savedUnwrap;
    }
    const probe = new OrderProbe();
    for (const g of groups) {
      const first = g.find((r) => r.ts !== undefined);
      probe.note(first?.ts, 0, first ? exchangeEnd(first) : undefined);
    }
    if (!reversedFirst && probe.verdict() === 'newest-first') groups.reverse();
    for (const g of groups) for (const r of g) out.push(r);
    // The line counts once: used when any record was, else unusable when any was, else skipped (an empty page too).
    const anyUsed = account.used > before.used;
    const anyUnusable = account.unusable > before.unusable;
    Object.assign(account, before);
    if (anyUsed) account.used++;
    else if (anyUnusable) account.unusable++;
    else account.skipped++;
  };

  let needSchemas = false;
  /** The wrapper's time of the line being read (container-lines.ts), for its records that have none. */
  let lineTime: string | number | undefined;
  /** The program the line being read came from, where the input holds several (container-lines.ts). */
  let lineStream: string | undefined;
  const wrapper: WrapperStats = { joined: 0, yearless: 0 };
  /** This input is `aws logs tail` output of a text log: each line's `<time> <stream>` prefix is taken off. */
  let cloudWatchText = false;
  /** The formats' reading state (a Python DEBUG log's session, its POST in flight): one per program whose lines the input holds (compose services: container-lines.ts), each read as its own log. */
  // A rotated log's pieces share it (the session a line named, the requests in flight), as one file.
  const baseState = opts.piece?.seam.state ?? new Map<string, unknown>();
  let adapterState = baseState;
  const streamStates = new Map<string, Map<string, unknown>>();
  const stateOf = (stream: string | undefined): Map<string, unknown> => {
    if (stream === undefined) return baseState;
    let st = streamStates.get(stream);
    if (!st) streamStates.set(stream, (st = new Map()));
    return st;
  };
  const clearStates = (): void => {
    baseState.clear();
    for (const st of streamStates.values()) st.clear();
  };
  const note = (text: string): void => {
    if (!account.limits.notes.includes(text)) account.limits.notes.push(text);
  };
  const diagnoseAt = (line: number) => (code: string, message: string): void => opts.diagnostics.add({ file: name, line, code, message });
  const ctx = (line: number): AdapterContext => ({ file: name, line, timezone: opts.timezone, state: adapterState, side: sideOverride, note, diagnose: diagnoseAt(line) });

  const emit = (fmt: InputFormat, res: ReturnType<JsonFormat['toRecords']>, lineNo: number, out: RecordItem[], text?: string): void => {
    if (!Array.isArray(res)) {
      // The adapter needs the zod schemas to say what is wrong: the line is read again once they are loaded.
      if (res.error === NEEDS_SCHEMAS) {
        needSchemas = true;
        return;
      }
      return unusable(lineNo, 'invalid-record', res.error);
    }
    if (res.length === 0) {
      // Well-formed, but no MCP traffic (a page asset, a connection or stderr line): counted as skipped, no diagnostic.
      account.skipped++;
      if (GATEWAY_LOGS.has(fmt.name)) {
        const quiet = gatewayQuiet.get(account) ?? {};
        quiet[fmt.name] = (quiet[fmt.name] ?? 0) + 1;
        gatewayQuiet.set(account, quiet);
      }
      return;
    }
    // A server HTTP logger's body-less POST line (bodilessRecords): still a line with no MCP traffic (skipped, as before),
    // its record only offered to the client's attempt of its status, as a gateway's line is.
    const loggerOnly = !fmt.limits.gatewayAccount && res.every((r) => (r as { gatewayAccount?: { log?: string } }).gatewayAccount?.log === 'http-logger');
    if (loggerOnly) account.skipped++;
    else {
      account.used++;
      account.formats[fmt.name] = (account.formats[fmt.name] ?? 0) + 1;
    }
    if (!loggerOnly && !seenFormats.has(fmt)) {
      seenFormats.add(fmt);
      mergeLimits(account.limits, fmt.limits);
    }
    const src: Source = { file: name, line: lineNo };
    const raw = text; // a reference to the line, not a copy; read only for an id that JSON.parse could not keep exact
    // A log given without a side whose writer a client-only or server-only method logged as sent or received showed
    // (a server's app log with tools/call received): that side's, for every record of it that states none.
    const writer = sideOverride === undefined ? inferredWriter(adapterState) : undefined;
    for (const rec of res) {
      if (!loggerOnly) account.records++;
      // (A record the Python SDK log held back to a later line: its own line is its source, and that line, counted as
      // skipped when it returned nothing, is one used.)
      const at = fmt === pythonSdkLogFormat ? heldLine.get(rec) : undefined;
      if (at !== undefined && at !== lineNo) {
        account.used++;
        account.skipped--;
        account.formats[fmt.name] = (account.formats[fmt.name] ?? 0) + 1;
      }
      if (writer !== undefined && (rec as { side?: unknown }).side === undefined) (rec as { side?: string }).side = writer;
      if (!assumedSaid && (rec as { side?: unknown }).side === undefined) sayAssumed();
      // An HTTP exchange record has an HTTP layer whatever the rest of its format shows (an Inspector history entry whose send failed).
      // A record with no time of its own inside a container or system log's line takes the line's (Docker's, journald's).
      if (lineTime !== undefined && (rec.ts === undefined || rec.ts === null)) rec.ts = lineTime;
      // One client program's lines among several in the input (a compose service): its records without a connection
      // of their own are that client's, as in a log of its own (two clients' sessionless initialize id 1 are two
      // requests). A server's records keep the input's scope: its requests come from any client; so does a record that
      // names its client (recordingFetch's `client`), which scopes it already.
      if (lineStream !== undefined && rec.side === 'client' && (rec as { conn?: unknown }).conn === undefined && (rec as { client?: unknown }).client === undefined) (rec as { conn?: string }).conn = lineStream;
      const ts = parseTimestamp(rec.ts, opts.timezone);
      // A time given that holds no date ("NaN", "2026-13-45T...", a negative epoch): the record is read untimed, and said.
      if (ts === undefined && rec.ts !== undefined && rec.ts !== null) opts.diagnostics.add({ file: name, line: lineNo, code: 'no-time', message: `timestamp ${JSON.stringify(typeof rec.ts === 'string' ? rec.ts.slice(0, 60) : rec.ts)} holds no date: the record is read without a time (it passes no --since or --until)` });
      const item: RecordItem = { rec, ts, src: at === undefined ? src : { file: name, line: at }, http: fmt.limits.http || rec.kind === 'exchange', weakId: !fmt.limits.typedIds, rebuilt: !fmt.limits.bodies, side: sideOverride ?? writer ?? assumed };
      if (fmt.limits.answersUnlogged) item.answersUnlogged = true;
      if (fmt.limits.sessionSent) item.sessionSent = true;
      if (fmt.limits.gatewayAccount || loggerOnly) item.gatewayAccount = true;
      if (raw !== undefined) item.raw = raw;
      out.push(item);
    }
  };

  /**
   * One line into records (pushed to out), with its account. False when the line's adapter needs the zod schemas,
   * which load on first need: nothing was pushed then, and the caller reads the line again with rereadLine().
   */
  const readLine = (line: Line, out: RecordItem[]): boolean => {
    account.lines++;
    return lineRecords(line, out);
  };
  const rereadLine = async (line: Line, out: RecordItem[]): Promise<void> => {
    needSchemas = false;
    await loadSchemas();
    lineRecords(line, out);
  };
  const lineRecords = (line: Line, out: RecordItem[]): boolean => {
    if ('overLimit' in line) {
      unusable(line.lineNo, 'line-too-long', `line of ${line.bytes} bytes is over the ${opts.maxLineBytes}-byte limit (--max-line-bytes); skipped`);
      return true;
    }
    if (line.skipped !== undefined) {
      account.skipped++;
      return true;
    }
    if (line.unreadable) {
      unusable(line.lineNo, line.unreadable.code, line.unreadable.message);
      return true;
    }
    const text = line.text;
    if (isBlank(text)) {
      account.blank++;
      return true;
    }
    lineTime = line.wrapTs;
    lineStream = line.stream;
    adapterState = stateOf(line.stream);
    if (line.invalidUtf8) {
      unusable(line.lineNo, 'invalid-utf8', 'line is not valid UTF-8');
      return true;
    }
    let value: unknown;
    const c = firstNonSpace(text);
    if (c !== '{' && c !== '[') {
      // Once a line was a text log's line inside `aws logs tail`'s prefix, the prefix is taken off every line that has it.
      const inner = cloudWatchText ? (splitCloudWatchText(text)?.text ?? text) : text;
      const tf = textFormatFor(inner, forced, adapterState);
      if (tf) return readText(tf, inner, line.lineNo, out);
      const split = splitCloudWatchLine(text);
      // `<time> --> {...}`, `<time> received {...}`: a direction, not a log stream's name; read as a text line with its message.
      const cw = split?.stream !== undefined && DIRECTION_TOKEN.test(split.stream) ? undefined : split;
      // `aws logs tail` of a text log (a Python logging line after `<time> <stream>`): the text read as a line of its own.
      const cwText = cw ? undefined : splitCloudWatchText(text);
      const tfIn = cwText ? textFormatFor(cwText.text, forced, adapterState) : undefined;
      if (tfIn) {
        cloudWatchText = true;
        return readText(tfIn, cwText!.text, line.lineNo, out);
      }
      // Last, a text line with a JSON-RPC message in it (an app's own `console.log('sent', JSON.stringify(m))`): read as
      // an application log record, its leading time and its text.
      const embedded = cw ? undefined : appLogLine(text);
      if (embedded) value = embedded;
      else if (!cw) {
        const nul = text.includes('\u0000');
        if (nul) unusable(line.lineNo, 'nul-bytes', 'line contains NUL bytes and is not JSON');
        else {
          // A bare JSON scalar ("text", 42, null, true) is JSON, but no record: say which type it is.
          const scalar = jsonScalarType(text);
          if (scalar !== undefined) unusable(line.lineNo, 'not-an-object', `line is JSON ${scalar}, not an object record`);
          else unusable(line.lineNo, 'invalid-json', 'line is not JSON and matches no text log format');
        }
        return true;
      }
      // `aws logs tail`: the JSON after `<time> <stream>` is detected like a whole line; it keeps the prefix time.
      else try {
        value = withTime(JSON.parse(cw.json), cw.ts);
      } catch (err) {
        // `<time> [info] send: {...}`: no CloudWatch line, but a text line with a message in it.
        const inText = appLogLine(text);
        if (!inText) {
          unusable(line.lineNo, 'invalid-json', `CloudWatch line: invalid JSON after the prefix (${describeJsonError(err)})`);
          return true;
        }
        value = inText;
      }
    } else {
      try {
        value = JSON.parse(text);
      } catch (err) {
        // A text line that opens with "[" (Flask's `[%(asctime)s] %(levelname)s in %(module)s: %(message)s`) is no JSON.
        const tf = c === '[' ? textFormatFor(text, forced, adapterState) : undefined;
        if (tf) return readText(tf, text, line.lineNo, out);
        const embedded = c === '[' && !(err instanceof RangeError) ? appLogLine(text) : undefined;
        if (embedded) value = embedded;
        else {
          const lone = text.trim();
          // Gemini CLI's local telemetry file, and any pretty-printed export, opens with a line that is just "{" or "[".
          // The last line with no line break after it: most often a log cut off, or one still being written.
          const cut = line.unterminated ? ': the last line, with no line break after it (cut off, or a log still being written?)' : '';
          const why = lone === '{' || lone === '[' ? `invalid JSON: a lone "${lone}" (pretty-printed JSON spreads one value over many lines; mcp-triage reads one JSON value per line, or a whole HAR file)` : `invalid JSON (${describeJsonError(err)})${cut}`;
          unusable(line.lineNo, err instanceof RangeError ? 'too-deep' : 'invalid-json', err instanceof RangeError ? 'JSON nested too deeply to parse' : why);
          return true;
        }
      }
    }
    const before = out.length;
    if (!guarded(line.lineNo, out, () => toItems(value, line.lineNo, out, text))) return true;
    if (!needSchemas) return true;
    out.length = before;
    return false;
  };

  /** One line read by a text format. False when that format needs the zod schemas (Claude Code's debug file, for its claims): nothing was pushed then. */
  const readText = (tf: TextFormat, text: string, lineNo: number, out: RecordItem[]): boolean => {
    const before = out.length;
    if (!guarded(lineNo, out, () => emit(tf, tf.textToRecords(text, ctx(lineNo)), lineNo, out))) return true;
    for (let i = before; i < out.length; i++) out[i]!.lineText = text;
    if (!needSchemas) return true;
    out.length = before;
    return false;
  };

  /**
   * Run what reads one line's value into records; a RangeError from it (a value nested so deep that reading a field of
   * it overflows the stack) makes that line unusable, 'too-deep', instead of ending the whole input. False then.
   */
  const guarded = (lineNo: number, out: RecordItem[], read: () => void): boolean => {
    const before = out.length;
    const counts = { used: account.used, records: account.records, unusable: account.unusable, skipped: account.skipped };
    try {
      read();
      return true;
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      out.length = before;
      Object.assign(account, counts);
      unusable(lineNo, 'too-deep', `a value in the record is nested too deeply to read (${err.message})`);
      return false;
    }
  };

  let spool: BackwardSpool | undefined;
  try {
    const chunks = opened.chunks[Symbol.asyncIterator]();
    const first = await chunks.next();
    if (first.done) return;
    account.gzip = opened.gzip();
    const head = first.value.subarray(0, 4096).toString('utf8');
    const rest: AsyncIterable<Buffer> = { [Symbol.asyncIterator]: () => prepend(first.value, chunks) };
    // A whole HAR document is recognised per file (forced `har` covers both whole documents and entry lines).
    if ((opts.inputFormat === undefined || opts.inputFormat === 'har') && looksLikeHarDocument(head)) {
      account.mode = 'har';
      const { harDocumentEntries } = await import('./read/har-document.js'); // loaded only for HAR documents
      const info: HarDocumentInfo = { entries: 0 };
      // What the producer leaves out of the file (the creator comes before the entries), said even of an empty file.
      let producerSaid = false;
      const sayProducer = () => {
        if (producerSaid || info.creator === undefined) return;
        producerSaid = true;
        for (const n of harProducerNotes(info.creator)) if (!account.limits.notes.includes(n)) account.limits.notes.push(n);
      };
      for await (const item of harDocumentEntries(rest, info)) {
        sayProducer();
        account.lines++;
        const out: RecordItem[] = [];
        if ('error' in item) {
          account.lines--;
          account.brokenAt = `line ${item.line}`;
          opts.diagnostics.add({ file: name, line: item.line, code: 'har-broken', message: item.error });
          if (opts.strict) throw new StrictStop(`${name}:${item.line}`, item.error);
          continue;
        }
        if (typeof item.value !== 'object' || item.value === null) unusable(item.line, 'invalid-record', `HAR entry ${account.lines} is not an object`);
        else {
          const entry = item.value as Record<string, unknown>;
          if (info.creator === 'mcpsnoop') {
            const { mcpsnoopHarLabel, noteMcpsnoopCall } = await import('./formats/mcpsnoop-export.js');
            const request = entry.request as Record<string, unknown> | undefined;
            noteMcpsnoopCall(account, mcpsnoopHarLabel(typeof request === 'object' && request !== null ? request.url : undefined), entry.startedDateTime);
          }
          if (!guarded(item.line, out, () => emit(harEntryFormat, harEntryFormat.toRecords(entry, ctx(item.line)), item.line, out))) needSchemas = false;
          else if (needSchemas) {
            needSchemas = false;
            await loadSchemas();
            guarded(item.line, out, () => emit(harEntryFormat, harEntryFormat.toRecords(entry, ctx(item.line)), item.line, out));
          }
        }
        account.bytesRead = opened.bytesRead();
        if (out.length) yield out;
      }
      sayProducer();
      return;
    }
    // mcpsnoop's exports (`mcpsnoop export -T json|html|text`): the JSON one's events are read as its trace's frames;
    // the html and text ones hold no record, and are refused as such (read line by line, no line of them could be used).
    const snoop = opts.inputFormat === undefined || opts.inputFormat === 'mcpsnoop' ? mcpsnoopExportOf(head) : undefined;
    if (snoop === 'html' || snoop === 'text') {
      // (counted as one unusable line, the first: the rest is not read)
      account.lines++;
      unusable(1, 'mcpsnoop-export', `an mcpsnoop ${snoop} export (mcpsnoop export -T ${snoop}), made to be read by a person, holds no record mcp-triage reads: the file is not read; export the session with -T json or -T har instead, or give its trace JSONL`);
      return;
    }
    // A document that is one JSON array over many lines (an MCP Inspector export): its items are read as lines.
    let lineSource: AsyncIterable<Line[]>;
    const page = looksLikeJsonArrayDocument(head) || snoop !== undefined ? undefined : pageKeyOf(head);
    if (snoop === 'json') {
      account.mode = 'array';
      const { mcpsnoopExportEvents } = await import('./read/har-document.js'); // loaded only for such documents
      const { mcpsnoopFrameOfEvent } = await import('./formats/mcpsnoop-export.js');
      const info: HarDocumentInfo = { entries: 0 };
      const said = "mcpsnoop's JSON export (export -T json): its events are read as the trace's frames (its calls, summary and interactions, mcpsnoop's own reading, are not used); it keeps no TCP connection (conn_id) and no Content-Type: an answer without a JSON-RPC id (a 401, a lost session's 404, a 502) is tied to the request in flight only while that is the run's one request still unanswered, and a bodiless 502 is not told from mcpsnoop's own";
      if (!account.limits.notes.includes(said)) account.limits.notes.push(said);
      lineSource = documentLines(mcpsnoopExportEvents(rest, info), 'event', 'an object', (v) => mcpsnoopFrameOfEvent(v, info.snoopSession));
    } else if (page !== undefined || looksLikeJsonArrayDocument(head)) {
      account.mode = 'array';
      const { jsonArrayItems, jsonPageItems } = await import('./read/har-document.js'); // loaded only for such documents
      // An OTLP export's item is one ResourceSpans (or ResourceLogs): read as the one-item request a collector writes per line.
      const otlp = page === 'resourceSpans' || page === 'resourceLogs';
      lineSource = documentLines(page !== undefined ? jsonPageItems(rest, page) : jsonArrayItems(rest), 'array item', 'an object record', (v) => (otlp ? { [page]: [v] } : v));
    } else lineSource = unwrapContainerLines(readLineBatches(rest, { maxLineBytes: opts.maxLineBytes }), { maxLineBytes: opts.maxLineBytes, stats: wrapper });
    if (opts.piece) lineSource = opts.piece.seam.lines(name, lineSource, (lines, of) => opts.onOverlap?.(account, lines, of));
    // The order of the lines: as written, or settled by the first lines' times (held meanwhile, one group per line).
    const asked = opts.inputOrder ?? 'auto';
    const probe = asked === 'auto' ? new OrderProbe() : undefined;
    // The account before the held lines were read, and after: what their first reading counted is taken back when
    // they are read again (newest first), so each line counts once, as its reading in time order found it.
    const probeBase = probe ? countsOf(account) : undefined;
    let probeEnd: AccountCounts | undefined;
    let order: InputOrder | undefined = asked === 'auto' ? undefined : asked;
    const held: RecordItem[][] = [];
    // The held lines themselves: read in file order to probe their times, and read again last line first if they run
    // newest first, so that a format that carries state from line to line (the Python SDK's DEBUG log: the session id
    // from its "Received session ID" line on, httpx's status line tied to the POST in flight) reads them in time order.
    const heldLines: Line[] = [];
    let broken: GzipError | undefined;
    try {
      try {
        for await (const batch of lineSource) {
          // Known from the first batch on (its first lines tell it): the analysis may name it in a diagnostic before the end.
          if (wrapper.kind !== undefined) account.wrapper ??= wrapper.kind;
          if (order === 'newest-first') {
            if (!spool) {
              const { BackwardSpool, spoolFolder } = await import('./read/backward-spool.js'); // loaded only for newest-first inputs
              spool = await BackwardSpool.create().catch((err: NodeJS.ErrnoException) => {
                throw new InputError(`${name}: its lines run newest first, and reading it backwards needs a temporary file, which could not be made in ${spoolFolder()} (${err.code ?? err.message}); set TMPDIR to a writable folder, or read it as written with --input-order oldest-first`);
              });
            }
            for (const line of batch) {
              // A line that can give no record is accounted for now; the others are read back last line first.
              if ('overLimit' in line || line.invalidUtf8 || isBlank(line.text)) readLine(line, []);
              else await spool.add(line);
            }
            account.bytesRead = opened.bytesRead();
            yield []; // nothing to analyze yet: lets the progress line follow the read
            continue;
          }
          const out: RecordItem[] = [];
          for (const line of batch) {
            if (order !== undefined) {
              if (!readLine(line, out)) await rereadLine(line, out);
              continue;
            }
            const group: RecordItem[] = [];
            if (!readLine(line, group)) await rereadLine(line, group);
            const first = group.find((r) => r.ts !== undefined);
            probe!.note(first?.ts, 'text' in line ? line.text.length : 0, first ? exchangeEnd(first) : undefined);
            if (group.length) held.push(group);
            heldLines.push(line);
          }
          account.bytesRead = opened.bytesRead();
          if (order === undefined) {
            order = probe!.settled();
            if (order === 'oldest-first') {
              for (const group of held) for (const r of group) out.push(r);
              held.length = 0;
              heldLines.length = 0;
            } else if (order === 'newest-first') {
              probeEnd = countsOf(account);
              clearStates(); // the spooled lines are read back from a clean state
            }

          }
          if (out.length) yield settleTies(out);
        }
      } catch (err) {
        // A damaged gzip ends the input: what was read before the damage is still analyzed, then the damage reported.
        if (!(err instanceof GzipError)) throw err;
        broken = err;
      }
      sayWrapper(wrapper, account, note);
      order ??= probe!.verdict();
      if (order === 'newest-first') {
        account.newestFirst = true;
        if (!probeEnd) {
          probeEnd = countsOf(account);
          clearStates();
        }
        if (spool) {
          for await (const batch of spool.backward()) {
            const out: RecordItem[] = [];
            for (const line of batch) if (!readLine(line, out)) await rereadLine(line, out);
            if (out.length) yield settleTies(out);
          }
        }
        // The held lines again, last line first, as the spooled ones were read. Their first reading's counts are taken
        // back (this one counts them); its diagnostics were printed already, so this reading's are not added again.
        if (probeBase && heldLines.length) {
          subtractCounts(account, probeEnd, probeBase);
          const diagnostics = opts.diagnostics;
          opts.diagnostics = new Diagnostics();
          try {
            held.length = 0;
            for (let i = heldLines.length - 1; i >= 0; i--) {
              const group: RecordItem[] = [];
              if (!readLine(heldLines[i]!, group)) await rereadLine(heldLines[i]!, group);
              if (group.length) held.push(group);
            }
          } finally {
            opts.diagnostics = diagnostics;
          }
        } else held.reverse();
      }
      // What a text format held back for a next line that never came (the Python SDK log's "SSE stream ended" as its
      // last record): said now, as more records of the line it belongs to (a line counted already).
      // (A rotated log's piece before its last: the next piece goes on with what is held.)
      // (A JSON format that held lines back may have used none yet: it is asked too.)
      for (const f of opts.piece?.last === false ? [] : new Set([...seenFormats, ...HOLDING_JSON_FORMATS])) {
        if (f.endOfInput === undefined) continue;
        // Each program's log of the input ends here (its own state), as one log would.
        for (const st of [baseState, ...streamStates.values()]) {
          adapterState = st;
          for (const end of f.endOfInput(ctx(account.lines))) {
            const group: RecordItem[] = [];
            const [used, ofFormat] = [account.used, account.formats[f.name]];
            emit(f, end.records, end.line, group);
            [account.used, account.formats[f.name]] = [used, ofFormat!];
            held.push(group);
          }
        }
      }
      const last = held.flat();
      if (last.length) yield settleTies(last);
    } finally {
      await spool?.dispose();
    }
    if (broken) throw broken;
  } catch (err) {
    if (err instanceof StrictStop || err instanceof InputError) throw err;
    if (err instanceof UnreadEncodingError) {
      // UTF-32 (no tool known to write MCP logs writes it): one diagnostic for the file, with the command that converts it.
      const from = encodingName(err.encoding);
      const iconvFrom = err.encoding.bom ? `UTF-${err.encoding.unit}` : from; // iconv drops the mark it reads the order from
      account.brokenAt = `line 1 (${from}, not read)`;
      const convert = name === '<stdin>' ? `pipe it through iconv -f ${iconvFrom} -t UTF-8` : `convert it first: ${opened?.gzip() ? `zcat ${name} | iconv -f ${iconvFrom} -t UTF-8 > ${name.replace(/\.gz$/i, '')}.utf8` : `iconv -f ${iconvFrom} -t UTF-8 ${name} > ${name}.utf8`}`;
      const message = `${err.message}: nothing of it was analyzed; ${convert}`;
      opts.diagnostics.add({ file: name, line: 1, code: 'unread-encoding', message });
      if (opts.strict) throw new StrictStop(`${name}:1`, message);
      return;
    }
    if (err instanceof GzipError) {
      account.brokenAt = `after line ${account.lines}`;
      opts.diagnostics.add({ file: name, line: account.lines + 1, code: 'gzip-truncated', message: `${err.message}; the ${account.lines} line${account.lines === 1 ? ' before the break was' : 's before the break were'} analyzed` });
      if (opts.strict) throw new StrictStop(`${name}:${account.lines + 1}`, err.message);
      return;
    }
    const e = err as NodeJS.ErrnoException;
    // A file opens at its first read: one it may not open is said as stat's errors are ('permission denied').
    if (e.code === 'EACCES' || e.code === 'EPERM') throw new InputError(`${name}: ${describeOpenError(err)}`);
    throw new InputError(`${name}: read failed (${e.code ?? e.message})`);
  }
}

/** An input that cannot be read at all (exit code 2). */
export class InputError extends Error {}

export function newAccount(spec: InputSpec, name: string): InputAccount {
  const a: InputAccount = {
    name, gzip: false, mode: 'lines', bytesRead: 0, lines: 0, blank: 0, used: 0, skipped: 0, unusable: 0, records: 0,
    reasons: {}, formats: {}, cannotShow: [], limits: MERGED_LIMITS(),
  };
  if (spec.side) a.side = spec.side;
  return a;
}

function mergeLimits(into: SourceLimits, l: SourceLimits): void {
  // A format's own word on the statuses it ties stands while it is the only one without them.
  if (!l.http && l.httpNote !== undefined && (into.http || into.httpNote === l.httpNote)) into.httpNote = l.httpNote;
  else if (!l.http) into.httpNote = undefined;
  into.http &&= l.http;
  // So does its word on the bodies it keeps (nginx's log: the requests', not the responses').
  if (!l.bodies && l.bodiesNote !== undefined && (into.bodies || into.bodiesNote === l.bodiesNote)) into.bodiesNote = l.bodiesNote;
  else if (!l.bodies) into.bodiesNote = undefined;
  into.bodies &&= l.bodies;
  into.session &&= l.session;
  into.typedIds &&= l.typedIds;
  for (const n of l.notes) if (!into.notes.includes(n)) into.notes.push(n);
}

/** Plain-language list of what an input's formats cannot show. */
export function cannotShow(l: SourceLimits): string[] {
  const out: string[] = [];
  if (!l.http) out.push(l.httpNote ?? 'no HTTP status (not checked from it: HTTP_ERROR, NO_RESPONSE, NO_FINAL_RESULT, SESSION_EXPIRED, RETRY_AFTER_IGNORED)');
  if (!l.bodies) out.push(l.bodiesNote ?? 'no bodies (results rebuilt from attributes or log text; INVALID_ENVELOPE, MALFORMED_JSON, INVALID_TOOL_RESULT and INVALID_RESULT not checked)');
  if (!l.session) out.push('no session (sessions cannot be told apart: ID_REUSED and ORPHAN_RESPONSE are weaker)');
  if (!l.typedIds) out.push('ids stringified (joins on them are weak)');
  return [...out, ...l.notes];
}

/** An object some format (or envelope) takes: what an array's items must all be for the array to be read as a page. */
function isKnownRecord(x: unknown): boolean {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const obj = x as Record<string, unknown>;
  return detectJsonFormat(obj) !== undefined || unwrapEnvelope(obj) !== undefined;
}

/** A record of a format whose shape names it, found inside an unknown envelope (nestedRecord); not a bare JSON-RPC message. */
function isNestedRecord(obj: Record<string, unknown>): boolean {
  const f = detectJsonFormat(obj);
  return f !== undefined && f.name !== 'jsonrpc';
}

/** A word or arrow that says which way a message went, where an `aws logs tail` line has its stream's name. */
const DIRECTION_TOKEN = /^(?:-+>|<-+|>>|<<|->|<-|sent|send|sending|received|receive|receiving|recv|in|out|incoming|outgoing|inbound|outbound)[:]?$/i;

/** A text line with a JSON-RPC message the application-log reader finds in it, as that reader's record; else undefined. */
function appLogLine(text: string): Record<string, unknown> | undefined {
  const line = embeddedMessageLine(text);
  return line && FALLBACK_FORMAT.detect(line) ? line : undefined;
}

/** A page item's time, as epoch ms: its envelope's (a search hit's, kept by the unwrapper), else its own `timestamp` or `ts`. */
function envelopeTime(envelope: unknown, item: unknown, timezone: string | undefined): number | undefined {
  const o = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : undefined;
  const t = envelope ?? o?.timestamp ?? o?.ts;
  return typeof t === 'string' || typeof t === 'number' ? parseTimestamp(t, timezone) : undefined;
}

/** When a whole-exchange record (a HAR entry) ended, for the order probe; undefined for any other record. */
function exchangeEnd(item: RecordItem): number | undefined {
  const rec = item.rec as { kind: string; durationMs?: unknown };
  return rec.kind === 'exchange' && typeof rec.durationMs === 'number' && item.ts !== undefined ? item.ts + rec.durationMs : undefined;
}

function textFormatFor(text: string, forced: InputFormat | undefined, state?: Map<string, unknown>): TextFormat | undefined {
  if (forced) return forced.kind === 'text' && forced.detectText(text, state) ? forced : undefined;
  for (const f of TEXT_FORMATS) if (f.detectText(text, state)) return f;
  return undefined;
}

function firstNonSpace(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== ' ' && c !== '\t' && c !== '\r') return c;
  }
  return '';
}

/**
 * The first keys of an unknown record, for its diagnostic. A key is shown whole or not at all: a key can be a token
 * (a JWT or an API key used as a field name), and a cut one is no longer recognizable to the redaction that runs when
 * the diagnostic is printed, so its prefix would leak.
 */
function describeKeys(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj).slice(0, 6).map((k) => (k.length > 64 ? `(a key of ${k.length} characters)` : k));
  return keys.join(', ') + (Object.keys(obj).length > 6 ? ', …' : '');
}


function describeOpenError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory (give the files inside it)';
    default:
      return e.message;
  }
}

async function* prepend(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield first;
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
}

/** The counters of an input's account that reading a line adds to. */
type AccountCounts = Pick<InputAccount, 'lines' | 'blank' | 'used' | 'skipped' | 'unusable' | 'records' | 'reasons' | 'formats'>;

function countsOf(a: InputAccount): AccountCounts {
  return { lines: a.lines, blank: a.blank, used: a.used, skipped: a.skipped, unusable: a.unusable, records: a.records, reasons: { ...a.reasons }, formats: { ...a.formats } };
}

/** Takes from the account what was counted between `from` and `to` (the first reading of lines read again). */
function subtractCounts(a: InputAccount, to: AccountCounts, from: AccountCounts): void {
  for (const k of ['lines', 'blank', 'used', 'skipped', 'unusable', 'records'] as const) a[k] -= to[k] - from[k];
  for (const [map, toMap, fromMap] of [[a.reasons, to.reasons, from.reasons], [a.formats, to.formats, from.formats]] as const) {
    for (const [k, n] of Object.entries(toMap)) {
      const left = (map[k] ?? 0) - (n - (fromMap[k] ?? 0));
      if (left > 0) map[k] = left;
      else delete map[k];
    }
  }
}

/** The input's account of the wrapper its lines were read in, and the notes on what that wrapper loses. */
function sayWrapper(w: WrapperStats, account: InputAccount, note: (text: string) => void): void {
  if (!w.kind) return;
  account.wrapper = w.kind;
  if (w.joined > 0) account.joined = w.joined;
  if (w.yearless > 0) note('the syslog times have no year (journalctl -o short): only the records\' own times are used; journalctl -o short-iso or -o json keeps them');
  if (w.streams && w.streams.length > 1) {
    const what = w.kind === 'compose' ? 'docker compose services' : 'pods\' containers';
    const names = w.streams.slice(0, 8).join(', ') + (w.streams.length > 8 ? ', ...' : '');
    note(`${account.name} holds the lines of ${w.streams.length} ${what} (${names}): each is read as its own log, with the side its records state (else the input's)`);
  }
  if (w.streamsOver) note(`${account.name}: the lines of its ${MAX_STREAMS + 1}th program on (${w.streamsOver} lines) are read together, as one program's`);
  if (w.kind === 'syslog') note('a line journald split (over its LineMax, 48 KiB by default) stays split in the text formats: journalctl -o json --all keeps the mark that joins it');
}

/** The JSON type of a line that is one JSON scalar (a string, number, true, false or null), else undefined. */
function jsonScalarType(text: string): string | undefined {
  const t = text.trim();
  const c = t.charCodeAt(0);
  // Only what can open a JSON scalar: a quote, a digit or minus, t, f, n.
  if (!(c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e)) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return v === null ? 'null' : typeof v;
  } catch {
    return undefined;
  }
}
