// One analysis run: read every input at once merged by time, join, classify, link calls, raise findings, release state as it goes.
import { Diagnostics } from './diagnostics.js';
import { ingest, newAccount, cannotShow, gatewayQuiet, bodilessPosts, type InputAccount, type InputSpec, type RecordItem, type ResolvedSpec } from './ingest.js';
import { startOrdered } from './read/exchange-order.js';
import { JoinEngine } from './join/engine.js';
import { Matcher, type Attempt } from './join/match.js';
import { SessionTracker } from './join/sessions.js';
import { SessionPairs } from './join/gateway.js';
import { implementationName, scopeKeyOf, type AttemptView } from './join/attempt.js';
import { Normalizer } from './normalize.js';
import { CallLinker, MAX_RETRY_AFTER_MS } from './calls.js';
import { DEFAULT_POLICY, type CallPolicy } from './findings/rules.js';
import { redirectFollowed } from './findings/resends.js';
import { estimateLineOffset, estimateOffset } from './join/clock.js';
import { RotatedInputs, type RepeatedLog } from './join/rotated.js';
import { mcpsnoopRepeatNotes } from './formats/mcpsnoop-export.js';
import { rotationSeries } from './read/rotation.js';
import { assumeSides, statedSides, type Stated } from './input-sides.js';
import type { Finding } from './findings/types.js';
import type { Source } from './join/attempt.js';
import type { CanonicalRecord, ExchangeRecord } from './schema/record.js';
import type { GatewayAccount } from './formats/adapter.js';

/** The analysis settings; streamAnalysis() checks them (src/options.ts) and throws OptionError for a value they cannot take. */
export interface AnalyzeOptions {
  inputs: InputSpec[];
  stdin?: NodeJS.ReadableStream;
  /** Force one input format (see `mcp-triage formats`); default: detect per line. */
  inputFormat?: string | undefined;
  /** Longest line kept, in bytes: 1024 (MIN_LINE_BYTES) or more. */
  maxLineBytes?: number;
  /** How long an open request may wait for its response, resumption or other side's view (ms). This and the other durations: finite, 0 or more. */
  windowMs?: number;
  /** How long after a failed attempt a repeat still counts as its retry (ms). */
  retryWindowMs?: number;
  /** Extra wait for the other side's view when clocks disagree (ms). */
  skewMs?: number;
  /** How far back in time a record of a time-ordered input may jump (ms). */
  orderToleranceMs?: number;
  timezone?: string | undefined;
  unwrap?: string | undefined;
  strict?: boolean;
  /** Line order of the inputs: "auto" (default) reads an input whose first lines' times run backwards from its last line. */
  inputOrder?: 'auto' | 'oldest-first' | 'newest-first';
  idempotent?: string[];
  policy?: CallPolicy;
  /** Called with each printable diagnostic line (stderr in the CLI). */
  onDiagnostic?: ((line: string) => void) | undefined;
  /** Called now and then with the raw bytes read so far across inputs, and their total size when known. */
  onProgress?: ((bytesRead: number, totalBytes: number | undefined) => void) | undefined;
}

interface AnalysisEvents {
  attempt(a: Attempt): void;
  finding(f: Finding): void;
  /** A promise to wait on while the output cannot take more (a slow pipe), else undefined. */
  backpressure?(): Promise<void> | undefined;
}

export interface RunResult {
  accounts: InputAccount[];
  diagnostics: Diagnostics;
  claims: number;
  /** Where each client claim that matched no attempt was logged. */
  unmatchedClaims: Source[];
  notes: string[];
}

/**
 * How long a call still open (a request without its response) is followed through silence, at least, before it is
 * taken as cut (ms): a tool may run for minutes without a record while other calls go on. --window raises it.
 */
const OPEN_CALL_MS = 600_000;

export const DEFAULTS = {
  maxLineBytes: 64 * 1024 * 1024,
  windowMs: 60_000,
  retryWindowMs: 60_000,
  skewMs: 120_000,
  orderToleranceMs: 5_000,
};

/**
 * How long after a call's last attempt ended another attempt of it can still be reported (ms): the next attempt
 * starts within the retry window (widened by a Retry-After of up to MAX_RETRY_AFTER_MS), and reaches the output at
 * most a join window, the skew wait and the order tolerance later; doubled for safety.
 */
export function callHorizonMs(o: Pick<AnalyzeOptions, 'windowMs' | 'retryWindowMs' | 'skewMs' | 'orderToleranceMs'>): number {
  return 2 * ((o.retryWindowMs ?? DEFAULTS.retryWindowMs) + (o.windowMs ?? DEFAULTS.windowMs) + (o.skewMs ?? DEFAULTS.skewMs) + (o.orderToleranceMs ?? DEFAULTS.orderToleranceMs)) + MAX_RETRY_AFTER_MS;
}

interface Cursor {
  index: number;
  /** Milliseconds this input's clock is ahead of the client log's (subtracted from its times). */
  offset: number;
  it: AsyncIterator<RecordItem[]>;
  batch: RecordItem[];
  pos: number;
  done: boolean;
  maxTs: number;
  account: InputAccount;
  /** A rotated log's piece after the first: not read until the piece before it is done (read/rotation.ts). */
  after?: Cursor;
  started?: boolean;
}

/** Run the analysis, streaming attempts and findings to `events` as they become final. */
export async function runAnalysis(options: AnalyzeOptions, events: AnalysisEvents): Promise<RunResult> {
  const windowMs = options.windowMs ?? DEFAULTS.windowMs;
  const skewMs = options.skewMs ?? DEFAULTS.skewMs;
  const tolerance = options.orderToleranceMs ?? DEFAULTS.orderToleranceMs;
  const diagnostics = new Diagnostics({ print: options.onDiagnostic });
  const notes: string[] = [];
  /** A note of the report that is also said once on stderr (not a problem: not counted as a diagnostic). */
  const notice = (text: string) => {
    notes.push(text);
    options.onDiagnostic?.(`mcp-triage: ${text}`);
  };
  const stated = await statedSides(options.inputs);
  const inputs = assumeSides(options.inputs, stated);
  // The side the records rule read plain inputs as, and the inputs it was not sure of (their first lines stated the
  // other side, or gave no record): the first record of that side of one of them is said (two logs in one file?).
  const ruled = inputs.find((i) => i.assumedBy === 'records')?.assumed;
  const watched = ruled === undefined ? undefined : inputs.map((i) => i.side === undefined && i.assumed === undefined && ['client', 'server', 'silent'].includes(stated(i.path)));
  let claims = 0;
  /** Attempts with both a client's and a server's view; and whether the sides that file names gave were said. */
  let bothViews = 0;
  let sidesByNameSaid = false;
  let sidesByRecordsSaid = false;

  /** The endpoints each input's requests reached by a redirect their HTTP client followed, the first 4. */
  const redirectedTo = new Map<number, Set<string>>();
  /** The servers each input's initialize (or server/discover) results named, the first 4 (see otherServers). */
  const serversByInput = new Map<number, Set<string>>();
  const noteServer = (v: AttemptView | undefined) => {
    const name = v?.initialize?.serverInfo !== undefined ? implementationName(v.initialize.serverInfo) : undefined;
    if (name === undefined) return;
    let set = serversByInput.get(v!.input);
    if (!set) serversByInput.set(v!.input, (set = new Set()));
    if (set.size < 4) set.add(name);
  };
  // Client and server session ids a gateway rewrote, paired by their initialize exchanges (released as the sessions close).
  const pairs = new SessionPairs();
  const linker = new CallLinker({
    pairs,
    retryWindowMs: options.retryWindowMs ?? DEFAULTS.retryWindowMs,
    policy: options.policy ?? DEFAULT_POLICY,
    idempotent: new Set(options.idempotent ?? []),
    onAttempt: (a) => {
      if (a.client !== undefined && a.server !== undefined) bothViews++;
      // A redirect's Location that the client's HTTP library followed is the same server's (see the endpoints note below).
      if (redirectFollowed(a)) {
        const v = a.client ?? a.primary;
        let set = redirectedTo.get(v.input);
        if (!set) redirectedTo.set(v.input, (set = new Set()));
        if (v.endpoint !== undefined && set.size < 4) set.add(v.endpoint);
      }
      if (a.method === 'initialize' || a.method === 'server/discover') for (const v of [a.client, a.server, a.primary]) noteServer(v);
      events.attempt(a);
    },
    onFinding: (f) => events.finding(f),
    // Frozen (an input not time-ordered): time stopped moving, everything is held to the end; no need to look.
    pendingFrom: () => (frozen ? lastAdvance : Math.min(lastAdvance, engine.earliestOpenStart(), matcher.earliestHeldStart())),
    crossedTimeout: (scopeKey, idKey) => engine.takeCrossedTimeout(scopeKey, idKey),
  });
  const sideOf = (i: ResolvedSpec) => i.side ?? i.assumed;
  const bothSides = inputs.some((i) => sideOf(i) === 'client') && inputs.some((i) => sideOf(i) === 'server');
  // Two logs of one side (an app's own log and a capture of it, given with one flag, or plain with records that state
  // that side): their views of one request are taken as one attempt.
  const sameSideInputs = (['client', 'server'] as const).some((side) => inputs.filter((i) => (sideOf(i) ?? stated(i.path)) === side).length > 1);
  const matcher = new Matcher({
    windowMs, skewMs, bothSides, sameSideInputs, pairs, onAttempt: (a) => linker.attempt(a), otherSideOpen: (v, session, nearMs) => engine.openOnOtherSide(v, session, nearMs),
    cancelledOpenBefore: (fp, start) => engine.cancelledOpenBefore(fp, start),
    seenOn: (side, session) => sessions.get(scopeKeyOf(side, 0, session)) !== undefined,
  });
  const sessions = new SessionTracker(windowMs * 2 + skewMs, (s) => {
    linker.session(s);
    pairs.closed(s.side, s.session);
  }, windowMs);
  const openMs = Math.max(windowMs, OPEN_CALL_MS);
  const rotated = new RotatedInputs(); // pieces of one log (rotated files, or a copy) are analyzed as that log
  /** Input name -> the name of the input whose records it repeats (see RotatedInputs.repeated). */
  const copyOf = new Map<string, string>();
  const rootLog = (name: string): string => {
    for (let i = 0; i < 64 && copyOf.has(name); i++) name = copyOf.get(name)!;
    return name;
  };
  const engine = new JoinEngine({
    windowMs, openMs, sessions, onView: (v) => matcher.add(v),
    sameLog: (a, b) => copyOf.size > 0 && rootLog(a) === rootLog(b),
    onStray: (_input, src, message) => diagnostics.add({ file: src.file, line: src.line, code: 'no-open-exchange', message }),
    onNotARequest: (src, code, message) => diagnostics.add({ file: src.file, line: src.line, code, message }),
    onUnreadAnswer: (u) => matcher.unreadAnswer(u),
  });
  const normalizer = new Normalizer(engine, (c) => {
    claims++;
    matcher.claim(c);
  });
  normalizer.onOAuthRequest = (input, side, ts) => linker.noteOAuth(input, side, ts);

  const ingestOptions = {
    inputFormat: options.inputFormat,
    maxLineBytes: options.maxLineBytes ?? DEFAULTS.maxLineBytes,
    timezone: options.timezone,
    unwrap: options.unwrap,
    stdin: options.stdin ?? process.stdin,
    diagnostics,
    strict: options.strict ?? false,
    inputOrder: options.inputOrder ?? 'auto',
    onAssumedSide: (account: InputAccount, spec: ResolvedSpec) => {
      if (spec.assumedBy === 'records') {
        // Said once for them all (a folder of HARs beside their servers' logs): they take one side.
        if (sidesByRecordsSaid) return;
        sidesByRecordsSaid = true;
        return notice(assumedByRecordsNote(cursors.filter((c) => inputs[c.index]!.assumedBy === 'records').map((c) => c.account.name), spec.assumed!));
      }
      if (spec.assumedBy === 'path') return notice(byPathNote(account.name));
      if (spec.assumedBy === 'caller') return notice(byCallerNote(account.name));
      if (spec.assumedBy !== 'name') return notice(assumedSideNote(account.name, spec.assumed!));
      if (sidesByNameSaid) return;
      sidesByNameSaid = true;
      notice(sidesByNameNote(namedSides()));
    },
  };
  // The pieces of a rotated log (app.log.2, app.log.1, app.log) are read one after the other as one file, each the next's.
  const pieces = rotationSeries(inputs);
  const cursors: Cursor[] = inputs.map((spec, i) => {
    const account = newAccount(spec, spec.path === '-' ? '<stdin>' : spec.path);
    const piece = pieces[i];
    const opts = piece ? { ...ingestOptions, piece, onOverlap: (a: InputAccount, lines: number, of: string) => notice(overlapSeamNote(a.name, lines, of)) } : ingestOptions;
    return { index: i, offset: 0, it: startOrdered(ingest(spec, opts, account), tolerance)[Symbol.asyncIterator](), batch: [], pos: 0, done: false, maxTs: -Infinity, account };
  });
  for (const [i, piece] of pieces.entries()) if (piece?.after !== undefined) cursors[i]!.after = cursors[piece.after];
  const seriesSaid = new Set<number>();
  for (const piece of pieces) {
    if (piece === undefined || seriesSaid.has(piece.head)) continue;
    seriesSaid.add(piece.head);
    notice(rotationNote(piece.series.map((i) => cursors[i]!.account.name), piece.by));
  }
  /** The inputs whose file names gave their side, with it. */
  const namedSides = () => cursors.filter((c) => inputs[c.index]!.assumedBy === 'name').map((c) => ({ name: c.account.name, side: inputs[c.index]!.assumed! }));
  /** The input a record is analyzed as: a rotated log's pieces as their first. */
  const inputOf = (i: number) => pieces[i]?.head ?? i;

  let frozen = false;
  let lastAdvance = -Infinity;
  const advance = (wm: number) => {
    engine.advance(wm);
    matcher.advance(wm);
    sessions.advance(wm);
  };

  /** Bytes read so far, and the total when known, to the progress line (which redraws itself a few times a second at most). */
  const progress = () => {
    if (!options.onProgress) return;
    let read = 0;
    let total: number | undefined = 0;
    for (const c of cursors) {
      read += c.account.bytesRead;
      total = c.account.size === undefined || total === undefined ? undefined : total + c.account.size;
    }
    options.onProgress(read, total);
  };
  const fill = async (c: Cursor): Promise<void> => {
    // A rotated log's piece waits for the one before it; the next piece starts when this one is done.
    if (c.after !== undefined && !c.after.done) return;
    if (!c.started && c.after !== undefined) c.offset = c.after.offset;
    c.started = true;
    while (c.pos >= c.batch.length && !c.done) {
      const r = await c.it.next();
      if (r.done) c.done = true;
      else if (r.value.length === 0) progress(); // an input still reading ahead (a newest-first one being spooled)
      else {
        c.batch = r.value;
        c.pos = 0;
        if (c.offset !== 0) shift(c.batch, 0, c.offset);
      }
    }
    if (c.done) for (const next of cursors) if (next.after === c && !next.started) await fill(next);
  };
  for (const c of cursors) await fill(c);
  if (cursors.length > 1) await alignClocks(cursors, notes, skewMs, notice);
  for (;;) {
    // Take the record with the earliest time among the inputs' next records (untimed records first).
    let best: Cursor | undefined;
    let bestTs = Infinity;
    for (const c of cursors) {
      if (c.pos >= c.batch.length) continue;
      const ts = c.batch[c.pos]!.ts ?? -Infinity;
      if (best === undefined || ts < bestTs) {
        best = c;
        bestTs = ts;
      }
    }
    if (!best) {
      // A rotated log's next piece whose piece before it ended while clocks were aligned: started now.
      const waiting = cursors.find((c) => !c.started && c.after?.done === true);
      if (waiting === undefined) break;
      await fill(waiting);
      continue;
    }
    const item = best.batch[best.pos++]!;
    const ts = item.ts;
    if (!frozen && best.account.formats.otlp) {
      frozen = true;
      diagnostics.add({ file: item.src.file, code: 'unordered-source', message: 'OpenTelemetry exports promise no order: calls are finalized at the end of input, using more memory' });
    }
    if (ts !== undefined) {
      if (ts < best.maxTs - tolerance && !best.account.unordered) {
        best.account.unordered = true;
        frozen = true;
        diagnostics.add({ file: item.src.file, line: item.src.line, code: 'not-time-ordered', message: `timestamp goes back ${((best.maxTs - ts) / 1000).toFixed(1)} s (more than --order-tolerance); calls are now finalized at the end of input, using more memory${best.account.wrapper === 'compose' ? COMPOSE_BLOCKS : ''}` });
      }
      if (ts > best.maxTs) best.maxTs = ts;
    }
    if (ts !== undefined) normalizer.release(ts);
    const account = item.gatewayAccount && item.rec.kind === 'exchange' ? (item.rec as ExchangeRecord & { gatewayAccount?: GatewayAccount }).gatewayAccount : undefined;
    if (account && ts !== undefined) {
      // A gateway's bodiless account of one request (HAProxy's httplog, nginx's access or error log): no view of an
      // attempt, offered to the attempt of its POST.
      const ex = item.rec as ExchangeRecord;
      const sid = ex.requestHeaders?.['mcp-session-id'];
      matcher.gatewayLine({
        log: account.log, session: typeof sid === 'string' ? sid : null, method: ex.method, status: ex.status, ts, startKnown: account.startKnown,
        endTs: ex.durationMs !== undefined ? ts + ex.durationMs : undefined, lastTryTs: ts + account.beforeServerMs, serverStatus: account.serverHead ? ex.status : null,
        said: typeof ex.error === 'string' ? ex.error : '', state: account.state, retries: account.retries, src: item.src, ...(account.countOnly ? { countOnly: true as const } : {}),
        ...(account.rpcMethod !== undefined ? { rpcMethod: account.rpcMethod, tool: account.tool ?? null } : {}), ...(account.cancelled ? { cancelled: true as const } : {}), ...(account.scenario !== undefined ? { scenario: account.scenario } : {}),
        ...(account.unnamed ? { unnamed: true as const } : {}), ...(account.stage !== undefined ? { stage: account.stage } : {}), ...(account.thread !== undefined ? { thread: account.thread } : {}),
      });
    } else if (account) {
      // A line of such a log with no date (the MCP test kitchen's Development text lines, "HH:mm:ss "): counted, never joined
      const ex = item.rec as ExchangeRecord;
      matcher.gatewayLines.untimed(account.log, item.src, account.log === 'server-console' ? { method: ex.method, path: ex.url ?? '', status: ex.status ?? null, ...(typeof ex.requestHeaders?.['mcp-session-id'] === 'string' ? { session: ex.requestHeaders['mcp-session-id'] } : {}), ...(account.consoleEvent !== undefined ? { event: account.consoleEvent } : {}), ...(account.producer !== undefined ? { producer: account.producer } : {}) } : undefined);
    } else {
      const rec = item.rec as { kind: string; side?: string; xid?: unknown };
      if (watched?.[best.index] === true && (item.side ?? rec.side) === ruled) {
        watched[best.index] = false;
        notice(lateSideNote(best.account.name, stated(inputs[best.index]!.path), ruled!, item.src.line, cursors.filter((c) => inputs[c.index]!.assumedBy === 'records').map((c) => c.account.name)));
      }
      let input = rotated.log(inputOf(best.index), rec.kind, item.side ?? rec.side ?? '', rec.xid, ts);
      if (cursors.length > 1 && rec.xid === undefined && isLoggedRequest(item.rec)) input = rotated.sameLine(inputOf(best.index), item.side ?? rec.side ?? '', ts, item.raw ?? item.lineText, item.src);
      if (rotated.repeated.length > copyOf.size) for (const r of rotated.repeated.slice(copyOf.size)) copyOf.set(cursors[r.input]!.account.name, cursors[r.owner]!.account.name);
      normalizer.record(item.rec, { input, src: item.src, sideOverride: item.side, ts, http: item.http, weakId: item.weakId, rebuilt: item.rebuilt, answersUnlogged: item.answersUnlogged, sessionSent: item.sessionSent, raw: item.raw });
    }
    if (!frozen && ts !== undefined && ts - tolerance > lastAdvance + 1000) {
      lastAdvance = ts - tolerance;
      advance(lastAdvance);
    }
    if (best.pos >= best.batch.length) {
      await fill(best);
      progress();
      const wait = events.backpressure?.();
      if (wait) await wait;
    }
  }
  normalizer.release();
  engine.flush();
  matcher.flush();
  const late = engine.lateAfterWindow;
  if (late.exchanges > 0) {
    // Silence closed these as cut while they went on: say how long a window would have followed them.
    const needed = Math.ceil(late.longestGapMs / 1000 / 10) * 10 + 10;
    const [calls, them, their] = late.exchanges === 1 ? ['1 call', 'it', 'its'] : [`${late.exchanges} calls`, 'them', 'their'];
    notes.push(`${calls} went on after ${openMs / 1000} s of silence had closed ${them}, up to ${(late.longestGapMs / 1000).toFixed(1)} s after ${their} previous record: ${their} attempts are reported as cut off or unanswered though more came; run again with --window ${needed} to follow ${them}`);
  }
  matcher.gatewayLines.flush();
  notes.push(...matcher.gatewayLines.notes());
  const unread = [...matcher.unmatchedUnread.values()];
  for (const file of new Set(unread.map((u) => u.file))) {
    const mine = unread.filter((u) => u.file === file).sort((a, b) => b.count - a.count);
    const total = mine.reduce((n, u) => n + u.count, 0);
    const sessions = new Set(mine.flatMap((u) => [...u.sessions])).size;
    const first = mine.map((u) => u.first).sort((a, b) => a.line - b.line)[0]!;
    // Not attempts (no method, no id), but never dropped silently: a rate limiter's 429s are an incident of their own.
    const posts = total === 1 ? '1 POST the server refused before it read its body' : `${total} POSTs the server refused before it read their body`;
    notes.push(`${file}: ${posts} (${mine.map((u) => `HTTP ${u.status} x${u.count}`).join(', ')}${sessions > 0 ? `, in ${sessions} session${sessions === 1 ? '' : 's'}` : ''}; the first at ${first.file}:${first.line}): the log has no JSON-RPC request of ${total === 1 ? 'it, so it is no attempt' : 'them, so they are no attempts'} here (what refuses a POST before its body is read: a middleware in front of the MCP handler, such as auth or a rate limiter, or the transport's own checks, such as an unknown session's 404); a client's log or a proxy's shows which ${total === 1 ? 'call it was' : 'calls they were'}`);
  }
  if (matcher.rebuiltDuplicates > 0) notes.push(`${matcher.rebuiltDuplicates === 1 ? '1 request of the OpenTelemetry spans is a request' : `${matcher.rebuiltDuplicates} requests of the OpenTelemetry spans are requests`} the other logs show too (the same trace context in params._meta.traceparent): counted once, the spans' view joined where the other logs have no view of that side`);
  if (matcher.looseJoins > 0) notes.push(`${matcher.looseJoins === 1 ? '1 request' : `${matcher.looseJoins} requests`} of a client log that names no session id (a message log: a desktop client's stdio log in front of a bridge, an app's own log; or an HTTP log that did not record Mcp-Session-Id) ${matcher.looseJoins === 1 ? "was joined to the server's view of it" : "were joined to the server's view of them"} by JSON-RPC id, method, arguments, answer and time, not by session; the server's session id is shown for ${matcher.looseJoins === 1 ? 'it' : 'them'}`);
  if (matcher.crossableJoins > 0) notes.push(`${matcher.crossableJoins === 1 ? '1 tools/call request' : `${matcher.crossableJoins} tools/call requests`} without a session (a stateless server's) ${matcher.crossableJoins === 1 ? 'was' : 'were'} joined to the server's view by JSON-RPC id, method, arguments and time alone while another request of the server's log with the same id and arguments fitted as well (another client's, or one re-sent on a new client: every client of a stateless server numbers its requests from the same start, and neither log says which client sent which): such a join may be crossed with that other request's; a tool result both views hold proves its own join`);
  if (matcher.mirrorJoins > 0) notes.push(`${matcher.mirrorJoins === 1 ? '1 request' : `${matcher.mirrorJoins} requests`} of a server log that names no session id (a server's own message log that leaves it out, mcpsnoop's HTTP trace) ${matcher.mirrorJoins === 1 ? "was joined to the client's view of it" : "were joined to the client's view of them"} by JSON-RPC id, method, arguments, answer and time, not by session`);
  sessions.flush();
  linker.flush();
  const paired = pairs.note();
  if (paired !== undefined) notes.push(paired);

  for (const i of engine.requestsOnly) {
    const account = cursors[i]?.account;
    if (account && !account.limits.answersUnlogged) {
      const text = 'no answer (response message) in this log before its first unanswered request, as in a log of the requests an app received only: its unanswered requests are not evidence that no answer came, and none of them is taken for a failed attempt (no retry, UNSAFE_RETRY or CALL_NEVER_SENT rests on it)';
      if (!account.limits.notes.includes(text)) account.limits.notes.push(text);
    }
  }
  const accounts = cursors.map((c) => {
    c.account.cannotShow = cannotShow(c.account.limits);
    if (c.account.formats.otlp) c.account.unordered = true;
    return c.account;
  });
  // Plain inputs' views of one request may be a client's and a server's that started and ended in the same
  // millisecond: their overlap counts only when it is at least half of the smaller input's requests.
  // (Two inputs whose initialize results name different servers are two servers' logs, whatever requests alike they
  // show: two stateless servers' logs of one client's calls sent at once.)
  const overlaps = [...matcher.overlaps.entries()].filter(([, o]) => (!o.plain || 2 * o.count >= Math.min(...o.inputs.map((i) => matcher.viewsByInput.get(i) ?? 0))) && !otherServers(serversByInput.get(o.inputs[0]), serversByInput.get(o.inputs[1])));
  // Two plain inputs that are one log given twice are no client and server to join: the overlap says so instead.
  const copies = sessions.sharedPlain.length === 2 && overlaps.some(([key]) => key === `${Math.min(...sessions.sharedPlain)}|${Math.max(...sessions.sharedPlain)}`);
  if (sessions.sharedPlain.length > 1 && !copies) notice(sharedPlainNote(sessions.sharedPlain.map((i) => accounts[i]!.name)));
  /** The sided inputs each HTTP logger's log given no side shares sessions with (its own note names them). */
  const undecidedBeside = new Map<number, string[]>();
  for (const [plain, sided] of sessions.plainBesideSided) {
    // One file whose records of a session state a side and others none (two recorders appending to one file): no other input to name.
    const others = [...sided].filter(([i]) => i !== plain).sort((x, y) => x[0] - y[0]);
    if (inputs[plain]?.undecided !== undefined && others.length > 0) {
      undecidedBeside.set(plain, others.map(([i]) => accounts[i]!.name));
      continue;
    }
    notice(others.length > 0 ? plainBesideSidedNote(accounts[plain]!.name, others.map(([i, side]) => `${accounts[i]!.name} (${side})`)) : mixedSidesNote(accounts[plain]!.name, sided.get(plain)!));
  }
  // The same, for a stateless server's traffic: no session ids, so by the requests both show (most of the smaller input's).
  const thirdViews = new Map<number, [number, string][]>();
  for (const t of matcher.sessionlessThirdViews.values()) {
    if (sessions.plainBesideSided.get(t.plain)?.has(t.sided)) continue;
    if (2 * t.count < Math.min(matcher.viewsByInput.get(t.plain) ?? 0, matcher.viewsByInput.get(t.sided) ?? 0)) continue;
    const list = thirdViews.get(t.plain);
    if (list) list.push([t.sided, t.side]);
    else thirdViews.set(t.plain, [[t.sided, t.side]]);
  }
  for (const [plain, sided] of thirdViews) notice(plainBesideSidedNote(accounts[plain]!.name, sided.sort((x, y) => x[0] - y[0]).map(([i, side]) => `${accounts[i]!.name} (${side})`), true));
  // Their retries and tools/list are kept apart by endpoint (see CallLinker); a server's log is joined to them without it.
  for (const [input, all] of normalizer.sessionlessEndpoints) {
    // (A redirect's Location is where the same server sent its client, not another server.)
    const followed = redirectedTo.get(input);
    const endpoints = followed === undefined ? all : new Set([...all].filter((e) => !followed.has(e)));
    if (endpoints.size < 2 || bothViews === 0) continue;
    const list = [...endpoints].slice(0, 3).map((e) => JSON.stringify(e)).join(', ');
    notice(`${accounts[input]!.name}: its requests without a session id go to ${endpoints.size > 3 ? 'more than 3' : endpoints.size} endpoints (${list}${endpoints.size > 3 ? ', ...' : ''}) with no conn to tell them apart: their retries are linked by endpoint, but a server's log is joined to them by JSON-RPC id, method, arguments and time alone (the URL a server logs may not be the one its client used), and the servers' ids and tool names may collide: a call may be joined to the other server's record of a request alike; record each server's traffic with a conn of its own (recordingFetch's conn option) or in a file of its own`);
  }
  for (const [, { inputs: [x, y], count }] of overlaps) notice(overlapNote(accounts[x]!.name, accounts[y]!.name, count));
  for (const n of twinNotes(matcher.twinViews, matcher.twinRows, (i) => accounts[i]!.name)) notice(n);
  for (const n of mcpsnoopRepeatNotes(accounts, new Set([...overlaps.map(([key]) => key), ...rotated.repeated.map((r) => `${Math.min(r.input, r.owner)}|${Math.max(r.input, r.owner)}`)]))) notice(n);
  for (const r of rotated.repeated) notice(repeatedLogNote(accounts[r.input]!.name, accounts[r.owner]!.name, r));
  for (const a of accounts) if (a.lines > 0 && a.blank === a.lines) notice(`${a.name}: every line of it (${a.lines}) is blank: nothing in it was analyzed`);
  // Every line broken (not JSON, no known format): as silent as a file of page assets would be, and as much to say.
  for (const a of accounts) if (a.used === 0 && a.skipped === 0 && a.unusable > 0) notice(`${a.name}: not one ${a.mode === 'har' ? 'HAR entry' : 'line'} of it could be used (${a.unusable} unusable${a.blank ? `, ${a.blank} blank` : ''}): nothing in it was analyzed`);
  for (const a of accounts) {
    if (a.used !== 0 || a.skipped === 0) continue;
    // A gateway's log whose lines were read and told of no failed POST (a healthy Caddy or nginx log): said so, not "no MCP traffic"
    const quiet = gatewayQuiet.get(a);
    if (quiet) notice(`${a.name}: a gateway's log with no bodies (${Object.entries(quiet).map(([f, n]) => `${n} line${n === 1 ? '' : 's'} read as ${f}`).join(', ')}): none of its ${a.skipped} lines tells of a POST that failed (its 2xx answers, GET streams and DELETEs, and lines of no request, say nothing a client's log does not): nothing in it to give to a call`);
    else notice(`${a.name}: no ${a.mode === 'har' ? 'HAR entry' : 'line'} of it carries MCP traffic (${a.skipped} skipped${a.unusable ? `, ${a.unusable} unusable` : ''}): nothing in it was analyzed${bodilessNote(bodilessPosts.get(a))}`);
  }
  for (const a of accounts) if (a.newestFirst) notes.push(`${a.name}: its lines run newest first (as log platforms export them); it was read from the last line back`);
  if (accounts.some((a) => a.unordered)) notes.push('some inputs were not time-ordered: their calls were finalized at the end of input');
  // Said only when both logs had calls: a server's log with none (the server was down) is no sign of another run.
  const namedInputs = cursors.filter((c) => inputs[c.index]!.assumedBy === 'name').map((c) => inputOf(c.index));
  if (sidesByNameSaid && bothViews === 0 && namedInputs.every((i) => (matcher.viewsByInput.get(i) ?? 0) > 0)) notice(unjoinedByNameNote(namedSides()));
  // The same for inputs read as the other side of logs whose records state one (or of the inputs given with one side):
  // another run's capture, say; or logs whose lines hold no call to join to (a server's console, a hop's access log).
  const views = (c: Cursor) => matcher.viewsByInput.get(inputOf(c.index)) ?? 0;
  const byRecords = cursors.filter((c) => c.account.sideAssumed === true && inputs[c.index]!.assumedBy !== 'name' && inputs[c.index]!.assumedBy !== 'path' && inputs[c.index]!.assumedBy !== 'caller' && views(c) > 0);
  if (byRecords.length > 0 && bothViews === 0) {
    const one = byRecords.length === 1;
    const side = inputs[byRecords[0]!.index]!.assumed!;
    const why = inputs[byRecords[0]!.index]!.assumedBy === 'records' ? `${one ? 'its' : 'their'} records state no side, the other logs' records state one` : `given without a side next to ${side === 'client' ? 'server' : 'client'}-side logs only`;
    const others = cursors.some((c) => !byRecords.includes(c) && views(c) > 0);
    notice(others
      ? `${listed(byRecords.map((c) => c.account.name))} ${one ? 'was' : 'were'} read as the ${side}'s view (${why}), but no call of ${one ? 'it' : 'them'} joined a call of the other logs: they may not show the same traffic (logs of different runs or servers?); each call is reported with the one view its log gave`
      : `${listed(byRecords.map((c) => c.account.name))} ${one ? 'was' : 'were'} read as the ${side}'s view (${why}), but no call of ${one ? 'it' : 'them'} joined a call of the other logs: they hold no call to join ${one ? 'it' : 'them'} to (no JSON-RPC request in their lines: a server's console, an access log); each call is reported with the ${side}'s view only`);
  }
  // An input whose first lines gave no record took no part in choosing the sides of the others: said where it had calls.
  if (watched !== undefined) {
    // (one whose records of the side the rule gave others were said already is not said again)
    const silent = cursors.filter((c) => watched[c.index] === true && stated(inputs[c.index]!.path) === 'silent' && views(c) > 0);
    for (const c of silent) notice(`${c.account.name}: its first 64 KiB give no record (start-up lines, a banner?), so it took no part in choosing the sides of the inputs given without one; its records that state a side keep it, those that state none are analyzed apart (give it with --client or --server to say its side)`);
  }
  // An HTTP logger's log that could be either side's second log took no side: said where it had calls.
  for (const c of cursors) if (inputs[c.index]!.undecided !== undefined && views(c) > 0) notice(undecidedNote(c.account.name, inputs[c.index]!.undecided!, undecidedBeside.get(inputOf(c.index))));
  return { accounts, diagnostics, claims, unmatchedClaims: matcher.unmatchedClaims, notes };
}

/**
 * What is said of a plain HTTP logger's log given no side: its URLs do not tell whether it is the other side's view or
 * a second log of the same side (`same`: the inputs with a side whose sessions it carries).
 */
function undecidedNote(name: string, why: 'urls' | 'paths' | 'caller', same: string[] | undefined): string {
  const said = why === 'urls'
    ? "its HTTP log lines name full URLs, as a client's fetch logger writes them (and a Fetch-API server's logger too: Hono's c.req.url, a Next.js route handler's request.url), and no caller's address, next to logs whose records state the client's side only"
    : why === 'caller'
      ? "its HTTP log lines name full URLs and the caller's address (or a proxy's X-Forwarded-For among the request's headers), as a server's logger writes the requests it receives, next to logs whose records state the server's side and no view of the client's"
      : "its HTTP log lines name the request's path only (/mcp), as a server's logger writes them, next to logs whose records state the server's side and no view of the client's";
  const side = why === 'urls' ? 'client' : 'server';
  const shared = same !== undefined ? ` (it carries the same sessions as ${listed(same)})` : '';
  // Full URLs: say exactly what to give when it is the server's log after all (its lines cannot tell).
  const give = why === 'urls'
    ? `leave it out if it is the client's own fetch logger; if it is the server's own log (a Fetch-API server's), give it as --server ${name} and ${same !== undefined ? `the others as ${same.map((n) => `--client ${n}`).join(' ')}` : "the client's logs with --client"}`
    : 'leave it out if it logs the same requests, or give each input with --client or --server';
  return `${name}: given without a side, and its records state none; ${said}: it may be a second log of the ${side}'s side of the same calls${shared}, so it is not joined to them as the other side's view: its calls are analyzed apart, and counted a second time if they are the same calls; ${give}`;
}

/** Two inputs' servers (as their initialize results named them) are known and none is the other's: two servers' logs. */
function otherServers(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (!a || !b) return false;
  for (const n of a) if (b.has(n)) return false;
  return true;
}

/** "a.ndjson and b.ndjson" (or "a, b and c"). */
function listed(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** What is said, once, of plain inputs read as the client's and the server's view because their names say so. */
function sidesByNameNote(named: { name: string; side: 'client' | 'server' }[]): string {
  const of = (side: 'client' | 'server') => listed(named.filter((n) => n.side === side).map((n) => n.name));
  return `${listed(named.map((n) => n.name))}: given without a side, and their records state none: read as the client's view (${of('client')}) and the server's view (${of('server')}), as their names say, so that the two views of each call are joined and counted once (give them with --client and --server to say so)`;
}

/** What is said when no call of the inputs sided by their names joined across them: the names may not be what they seem. */
function unjoinedByNameNote(named: { name: string; side: 'client' | 'server' }[]): string {
  return `${listed(named.map((n) => n.name))} were read as the client's and the server's view by their names, but no call of one joined a call of the other: they may not be the two sides of the same traffic (logs of different runs or servers?); each call is reported with the one view its log gave`;
}

/** What to add to an HTTP logger's log whose POST lines hold no request body (pino-http's default, ECS morgan, Fastify's). */
function bodilessNote(n: number | undefined): string {
  if (n === undefined || n === 0) return '';
  return `; ${n} of its lines ${n === 1 ? 'is' : 'are'} an HTTP logger's line of a POST without the request body (pino-http's or Fastify's req/res, ECS http.* fields, express-winston's meta): a call is read from its JSON-RPC body, so log it (pino-http: customProps: (req) => ({ body: req.body }); express-winston: requestWhitelist: [...expressWinston.requestWhitelist, 'body']; ECS: http.request.body.content)`;
}

/** A request of a log without recorder xids (a message record). */
function isLoggedRequest(rec: CanonicalRecord): boolean {
  if (rec.kind !== 'message' || rec.direction !== 'c2s') return false;
  const m = rec.message as { id?: unknown; method?: unknown } | null;
  return typeof m === 'object' && m !== null && m.id !== undefined && typeof m.method === 'string';
}

/** Why a `docker compose logs` output runs back in time, and what to give instead. */
const COMPOSE_BLOCKS = " (`docker compose logs` writes each service's lines as a block: give each service's own log, `docker compose logs SERVICE`, as an input of its own, or the attached output of `docker compose up`, which is in time order)";

/** What is said of the pieces of a rotated log, read as one file (read/rotation.ts). */
function rotationNote(names: string[], by: 'number' | 'date'): string {
  const how = by === 'number' ? 'the current file and its .1, .2, ...' : 'the dates in them, the current file last';
  return `${names.join(', ')}: one log and its rotated files (by their names: ${how}): read in that order as one file, oldest first, so that a session, a request in flight and a retry go on from one file to the next`;
}

/** What is said of a rotated piece whose first lines repeat the end of the piece before it. */
function overlapSeamNote(name: string, lines: number, of: string): string {
  return `${name}: its first ${lines === 1 ? 'line repeats the last line' : `${lines} lines repeat the last ${lines} lines`} of ${of} (a rotation that copied the file before truncating it, as logrotate's copytruncate does): read once, counted as skipped`;
}

/** What is said of an input read as another's log because it repeats that log's records (see RotatedInputs). */
function repeatedLogNote(copy: string, first: string, r: RepeatedLog): string {
  const what = r.xid !== undefined ? `the same recorder's request ${JSON.stringify(r.xid)} at the same time` : `${r.line!.file}:${r.line!.line} is a request line of it, the same text at the same millisecond`;
  return `${copy} repeats records of ${first} (${what}: a copy of that log, or a rotated pair or export pages that overlap): read as one log, each record seen twice counted once (DUPLICATE_RECORD lists them)`;
}

/** What is said of two logs of one side whose views of the same requests were taken as one attempt each (see Matcher.twinViews). */
function twinNote(first: string, second: string, t: { side: string; count: number; unsure: number }): string {
  const plural = (n: number, what: string) => (n === 1 ? `1 ${what}` : `${n} ${what}s`);
  const taken = t.count > 0 ? `${first} and ${second} are two logs of the ${t.side}'s side of the same ${plural(t.count, 'request')} (the same session or none, JSON-RPC id, method and arguments, HTTP status and result where both have one, within --skew): each is reported once, with the lines of both` : '';
  const unsure = t.unsure > 0 ? `${taken ? '; ' : `${first} and ${second}: `}${plural(t.unsure, 'request')} without a session id in one may be ${t.unsure === 1 ? 'a request' : 'requests'} of the other (the same id, method and arguments at the same time, but not the same start and end to 5 ms, or alike to two of its requests), which the records cannot tell from two clients of a stateless server sending alike requests at once: reported apart, counted twice if one` : '';
  return taken + unsure;
}

/**
 * The notes of logs of one side taken as views of the same requests (Matcher.twinViews, by pair): two logs, one note
 * each pair; three or more logs linked by their pairs, one note naming them all, with the rows that took a view of more
 * than one of them (Matcher.twinRows) and the sessionless requests left apart.
 */
function twinNotes(pairs: Map<string, { inputs: [number, number]; side: string; count: number; unsure: number }>, rows: Map<number, number>, name: (input: number) => string): string[] {
  // (Inputs linked by their pairs, each group under its lowest input.)
  const parent = new Map<number, number>();
  const root = (i: number): number => {
    let r = i;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  for (const t of pairs.values()) {
    const [a, b] = [root(t.inputs[0]), root(t.inputs[1])];
    const low = Math.min(a, b);
    parent.set(a, low);
    parent.set(b, low);
  }
  const members = new Map<number, number[]>();
  for (const t of pairs.values()) {
    for (const i of t.inputs) {
      const m = members.get(root(i)) ?? [];
      if (!m.includes(i)) m.push(i);
      members.set(root(i), m);
    }
  }
  const out: string[] = [];
  const said = new Set<number>();
  for (const t of pairs.values()) {
    const r = root(t.inputs[0]);
    const m = members.get(r)!;
    if (m.length === 2) out.push(twinNote(name(t.inputs[0]), name(t.inputs[1]), t));
    else if (!said.has(r)) {
      said.add(r);
      const inGroup = [...pairs.values()].filter((p) => root(p.inputs[0]) === r);
      const count = m.reduce((n, i) => n + (rows.get(i) ?? 0), 0);
      const unsure = inGroup.reduce((n, p) => n + p.unsure, 0);
      out.push(twinGroupNote(m.sort((x, y) => x - y).map(name), t.side, count, unsure));
    }
  }
  return out;
}

const NUMBER_WORDS: Record<number, string> = { 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine' };

/** twinNote for three logs or more of one side. */
function twinGroupNote(names: string[], side: string, count: number, unsure: number): string {
  const plural = (n: number, what: string) => (n === 1 ? `1 ${what}` : `${n} ${what}s`);
  const taken = count > 0 ? `${listed(names)} are ${NUMBER_WORDS[names.length] ?? names.length} logs of the ${side}'s side of the same calls: ${plural(count, 'request')} more than one of them shows (the same session or none, JSON-RPC id, method and arguments, HTTP status and result where they have one, within --skew) ${count === 1 ? 'is' : 'are each'} reported once, with the lines of each` : '';
  const apart = unsure > 0 ? `${taken ? '; ' : `${listed(names)}: `}${plural(unsure, 'request')} without a session id in one may be ${unsure === 1 ? 'a request' : 'requests'} of another (the same id, method and arguments at the same time, but not the same start and end to 5 ms, or alike to two of its requests), which the records cannot tell from two clients of a stateless server sending alike requests at once: reported apart, counted twice if one` : '';
  return taken + apart;
}

/** What is said of two inputs that show the same requests (see Matcher.overlaps). */
function overlapNote(first: string, second: string, count: number): string {
  return `${first} and ${second} show the same ${count === 1 ? 'request' : `${count} requests`} (the same side, session, JSON-RPC id, method and arguments, and HTTP status where both logs have one, within a second): the same traffic given twice (both forms of one capture, or a log and its copy)? Each input's are analyzed, so those calls appear twice; give one of them`;
}

/** What is said, once, of plain inputs (no side given or stated) that carry the same session ids: analyzed apart. */
function sharedPlainNote(names: string[]): string {
  return `${listed(names)} carry the same sessions without saying which side wrote them: they are analyzed apart; give them as --client and --server to join them`;
}

/** What is said, once, of a plain input that carries the sessions (or, without any, the requests) of inputs with a side: its calls are counted again. */
function plainBesideSidedNote(name: string, names: string[], sessionless = false): string {
  const same = sessionless ? `shows the same requests as ${listed(names)} (the same JSON-RPC ids, methods and arguments, within a second; no session id to tell them by)` : `carries the same sessions as ${listed(names)}`;
  return `${name} ${same} but says no side, so its calls are analyzed apart and counted a second time (a third view of the same traffic, such as a recording proxy's between them): give it with --client or --server in place of that side's log, or leave it out`;
}

/**
 * What is said, once, of an input whose records of the same sessions state a side and state none (a recordingFetch and
 * a recording proxy appending to one file): those without are analyzed apart from those with one.
 */
function mixedSidesNote(name: string, side: string): string {
  return `${name} holds records that state a side (${side}) and records of the same sessions that state none (two recorders appending to one file, one of them without a side?): those without are analyzed apart, so their calls are counted a second time; give each recorder a file of its own, or the proxy's records a side (--side)`;
}

/** What is said, once, of the plain inputs whose records state no side, next to logs whose records state one side only. */
function assumedByRecordsNote(names: string[], assumed: 'client' | 'server'): string {
  const other = assumed === 'client' ? 'server' : 'client';
  const one = names.length === 1;
  return `${listed(names)}: given without a side, and ${one ? 'its' : 'their'} records state none, next to logs whose records state the ${other}'s side only (as recordingFetch's and recordingHandler's do, and logs that one side only writes: a Python SDK DEBUG log, a client's debug log, a server's console, a server's HTTP logger of request paths): read as the ${assumed}'s view, to be joined to theirs (give ${one ? 'it' : 'them'} with --${assumed} to say so)`;
}

/** What is said, once, of a plain input whose records state no side, next to inputs of one side. */
function assumedSideNote(name: string, assumed: 'client' | 'server'): string {
  const other = assumed === 'client' ? 'server' : 'client';
  return `${name}: given without a side next to ${other}-side logs only, and its records state none: read as the ${assumed}'s view, to be joined to theirs (give it with --${assumed} to say so)`;
}

/** What is said, once, of a plain input read as the server's view because its HTTP log lines name request paths only. */
function byPathNote(name: string): string {
  return `${name}: given without a side, and its records state none, but its HTTP log lines name the request's path only (/mcp), as a server's logger writes the requests it receives (a client's names the full URL it sends to): read as the server's view, to be joined to the client's (give it with --server to say so)`;
}

/** What is said, once, of a plain input read as the server's view because its HTTP log lines of full URLs name the caller's address. */
function byCallerNote(name: string): string {
  return `${name}: given without a side, and its records state none; its HTTP log lines name full URLs (as a client's fetch logger and a Fetch-API server's logger both write them), but also what only the server that received each request knows (the caller's address, or a proxy's X-Forwarded-For among the request's headers): read as the server's view, to be joined to the client's (give it with --server to say so)`;
}

/**
 * What is said, once per input, when an input the records rule did not side (its first lines stated the other side, or
 * gave no record) holds a record of the side the rule read plain inputs as: the server's view of those calls twice?
 */
function lateSideNote(name: string, first: Stated, side: 'client' | 'server', line: number | undefined, ruled: string[]): string {
  const other = side === 'client' ? 'server' : 'client';
  const head = first === 'silent' ? 'its first 64 KiB give no record' : `its first lines state the ${other}'s side`;
  const at = line !== undefined ? `from line ${line} on` : 'further on';
  const two = first === 'silent' ? '' : ' (two logs in one file, such as `cat client.log server.log`?)';
  return `${name}: ${head}, and the sides of the inputs given without one were chosen so (${listed(ruled)} read as the ${side}'s view), but ${at} its records state the ${side}'s side${two}: the ${side}'s view of those calls may be given twice; give each log in a file of its own, or the inputs with --client and --server`;
}

/** How many records of each input are looked at to estimate clock offsets. */
const ALIGN_RECORDS = 2000;
/** How many bytes of each input at most are read ahead for it: a log of 10 MB results holds fewer records. */
const ALIGN_BYTES = 16 * 1024 * 1024;

/**
 * Put server logs on the client log's clock: read ahead the first records of every input, pair the requests both
 * sides show, and shift a server input's times by the median difference when it is large (a skewed clock).
 */
async function alignClocks(cursors: Cursor[], notes: string[], skewMs: number, notice: (text: string) => void): Promise<void> {
  for (const c of cursors) {
    if (!c.started) continue; // a rotated log's later piece: read after the piece before it
    const from = c.account.bytesRead;
    while (!c.done && c.batch.length - c.pos < ALIGN_RECORDS && c.account.bytesRead - from < ALIGN_BYTES) {
      const r = await c.it.next();
      if (r.done) c.done = true;
      else c.batch = c.pos === 0 ? c.batch.concat(r.value) : c.batch.slice(c.pos).concat(r.value);
      if (c.pos !== 0) c.pos = 0;
    }
  }
  // An input's side: the one given on the command line, else the one its first records state.
  const sideOf = (c: Cursor) => c.account.side ?? statedSide(c.batch.slice(c.pos, c.pos + ALIGN_RECORDS));
  const clients = cursors.filter((c) => sideOf(c) === 'client');
  if (clients.length === 0) return;
  const base = clients.flatMap((c) => c.batch.slice(c.pos, c.pos + ALIGN_RECORDS));
  for (const c of cursors) {
    if (sideOf(c) !== 'server') continue;
    const offset = estimateOffset(base, c.batch.slice(c.pos, c.pos + ALIGN_RECORDS));
    if (offset === undefined) continue;
    c.offset = offset;
    shift(c.batch, c.pos, offset);
    const how = `${(Math.abs(offset) / 1000).toFixed(1)} s ${offset > 0 ? 'ahead of' : 'behind'} the client log's`;
    notes.push(`${c.account.name}: clock ${how}; its times were shifted by ${(-offset / 1000).toFixed(1)} s to join the two views (times shown are the client's)`);
  }
  alignKitchenClocks(cursors, clients, skewMs, notice);
}

/** Whether an item is one of the MCP test kitchen's own lines (its request log's, an observation). */
function isKitchenLine(item: RecordItem): boolean {
  const log = item.gatewayAccount ? (item.rec as { gatewayAccount?: GatewayAccount }).gatewayAccount?.log : undefined;
  return (log === 'kitchen-log' || log === 'kitchen-observation' || log === 'aspnet-hosting') && item.ts !== undefined;
}

/**
 * The MCP test kitchen's lines have no JSON-RPC id to pair by: their clock is put on the client's from when its POSTs
 * started (each line's start against the client's POST starts, within --skew), when the shift that lines up most of them
 * is plain (see estimateLineOffset); said on stderr too, as the join of such lines within a second would miss them all.
 */
function alignKitchenClocks(cursors: Cursor[], clients: Cursor[], skewMs: number, notice: (text: string) => void): void {
  const posts: number[] = [];
  for (const c of clients) {
    for (const item of c.batch.slice(c.pos, c.pos + ALIGN_RECORDS)) {
      const rec = item.rec as { kind: string; method?: string; direction?: string };
      if (item.ts === undefined || item.gatewayAccount) continue;
      if (((rec.kind === 'request' || rec.kind === 'exchange') && rec.method?.toUpperCase() === 'POST') || (rec.kind === 'message' && rec.direction === 'c2s')) posts.push(item.ts);
    }
  }
  if (posts.length === 0) return;
  for (const c of cursors) {
    if (c.offset !== 0 || clients.includes(c)) continue;
    const lines = c.batch.slice(c.pos, c.pos + ALIGN_RECORDS).filter(isKitchenLine).map((item) => item.ts!);
    const found = estimateLineOffset(posts, lines, skewMs);
    if (!found) continue;
    c.offset = found.offset;
    shift(c.batch, c.pos, found.offset);
    notice(`${c.account.name}: the MCP test kitchen's clock reads ${(Math.abs(found.offset) / 1000).toFixed(1)} s ${found.offset > 0 ? 'ahead of' : 'behind'} the client's (${found.matched} of its ${found.of} POSTs in the client's time span start that much apart from the client's, each within 50 ms): its times were shifted by ${(-found.offset / 1000).toFixed(1)} s to join its lines to the client's attempts (times shown are the client's)`);
  }
}

function shift(batch: RecordItem[], from: number, offset: number): void {
  for (let i = from; i < batch.length; i++) {
    const item = batch[i]!;
    if (item.ts !== undefined) item.ts -= offset;
  }
}

/** The side that every record of these (which state one) agree on, else undefined. */
function statedSide(items: RecordItem[]): 'client' | 'server' | undefined {
  let side: 'client' | 'server' | undefined;
  for (const { rec } of items) {
    if (rec.side !== 'client' && rec.side !== 'server') continue;
    if (side && rec.side !== side) return undefined;
    side = rec.side;
  }
  return side;
}

