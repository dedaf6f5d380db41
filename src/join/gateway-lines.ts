// A gateway's bodiless account of each HTTP request (HAProxy's httplog, nginx's, Caddy's and Apache's access and error logs; the MCP test kitchen's own request log and observations, the server's account): kept a while, taken by the attempt it tells of, the rest summed up for the report.
import type { GatewayLog } from '../formats/adapter.js';
import type { Source } from './attempt.js';
import { STARTED } from '../formats/server-console.js';

/** One request as the gateway logged it: no body, so no JSON-RPC id; what ended it and whether it re-sent it. */
export interface GatewayLine {
  /** Whose log: it says how the line fits an attempt and how the report's note words it. */
  log: GatewayLog;
  session: string | null;
  /** HTTP method (POST, GET, DELETE). */
  method: string;
  /**
   * The status the client got (null: none, the client had gone before the head). nginx's error log has no status: its
   * lines are reasons, which explain an attempt that failed, whatever its status.
   */
  status: number | null;
  ts: number;
  /** ts is when the request started (HAProxy; nginx with $request_time), else when it ended or the error happened. */
  startKnown: boolean;
  /** When it ended (ts and HAProxy's total time Ta), when the line gives it. */
  endTs: number | undefined;
  /**
   * When HAProxy's last try of it reached a server (ts and the times spent before the server: TR, Tw, Tc; a re-sent
   * request waited its failed tries out in Tw), and the status that server gave (null: no head came from it, Tr -1).
   */
  lastTryTs: number;
  serverStatus: number | null;
  /** What the line says beyond a normal end, in words that name the log (empty: a normal end). */
  said: string;
  /** The termination state's first two letters (`--` normal), and the retries counter. */
  state: string;
  retries: number;
  /**
   * Counted in the note, never offered to an attempt: a POST nginx re-sent and then answered 2xx is one of the many 2xx
   * POSTs of its second, which whole seconds cannot tell apart.
   */
  countOnly?: true;
  /** The JSON-RPC method and tool the line names (the MCP test kitchen's observations). */
  rpcMethod?: string;
  tool?: string | null;
  /** The server saw the request aborted (an observation's wasCancelled). */
  cancelled?: true;
  /** The line names no request (Caddy's reverse_proxy "aborting with incomplete response"): it fits a stream that ended at its time. */
  unnamed?: true;
  /** The scenario an observation of the MCP test kitchen names (its scenarioId). */
  scenario?: string;
  /** Apache's error log: how far the request got when it failed, and the process:thread that wrote the line (see GatewayAccount). */
  stage?: 'connect' | 'head' | 'body' | 'request';
  thread?: string;
  src: Source;
}

/**
 * Lines kept at most waiting for their attempt (a safety bound: each also goes when no attempt can take it any more,
 * see expire). An attempt is released a window (and, with both sides' logs, --skew) after its end: at 100 requests a
 * second, some ten minutes of lines.
 */
const KEPT = 65_536;
/** How long a call may stay open before its attempt is released (the join follows an open call through 10 minutes of silence). */
const OPEN_MS = 10 * 60_000;
/** How far apart (ms) the client's request and the gateway's line of it may start (nginx: its whole seconds). */
const SLACK_MS = 1000;
/** How long after its start a client view with no end (its log stopped mid-call) may take a line nginx wrote when it closed. */
const OPEN_VIEW_MS = 60_000;
/** Two of the MCP test kitchen's lines that fit one attempt this close (start and end gaps summed, ms) cannot be told apart. */
const AMBIGUOUS_MS = 50;
/**
 * A POST the kitchen's request log covers (it has lines that ended before the POST started and lines that started after
 * it ended) and has no line of near it (no untaken line of a request starts this close to its span, ms) never reached it.
 */
const UNSEEN_MS = 100;
/** Labels counted per input at most (nginx's reasons); past this, "other". */
const LABELS_KEPT = 1000;

/** The attempt's side of the match: the view whose request the gateway passed on. */
export interface GatewayProbe {
  /** Whose view it is: a client's request reached the gateway at the line's time, a server's at its last try's. */
  side: 'client' | 'server';
  session: string | null;
  /** The request carried its session id (an initialize carries none). */
  sentSession: boolean;
  status: number | null | undefined;
  startTs: number | undefined;
  /** The attempt's JSON-RPC method and tool (matched to an observation's). */
  method?: string;
  tool?: string | null;
  /** When the view ended; open: no answer and no end in its log (the app was stopped mid-call). */
  endTs: number | undefined;
  open: boolean;
  /** The attempt got its whole answer (a result or a JSON-RPC error): no line that ended abnormally tells of it. */
  answered: boolean;
  /** The view's outcome. */
  outcome: string | undefined;
}

/** The outcomes of a client view that got no answer, which nginx's reason or its 499 may explain. */
const FAILED = new Set(['HTTP_ERROR', 'NO_RESPONSE', 'STREAM_INCOMPLETE']);

/** What one input of a gateway's log said, for the report's note. */
interface Account {
  log: GatewayLog;
  /** The input it tells of. */
  file: string;
  /** HAProxy: requests read, those that ended abnormally by state, re-sent ones, taken by an attempt, the first few untaken. */
  requests: number;
  states: Map<string, number>;
  resent: number;
  taken: number;
  untaken: GatewayLine[];
  /** nginx: the lines no attempt took, by status or reason. */
  labels: Map<string, { status: number | null; count: number; first: Source }>;
  /** The MCP test kitchen's lines with no date (Development's text time): counted, never joined. */
  untimed: number;
  /** A server's console (no time at all): its request lines by method, path and status, its events by what they tell, and whose lines they are. */
  consoleLines?: Map<string, { count: number; first: Source; post: boolean; status: number | null }>;
  consoleEvents?: Map<string, { count: number; first: Source }>;
  producers?: Set<string>;
  /** A server HTTP logger's lines taken of POSTs whose connection closed before any response (a hop's status). */
  cutsTaken?: number;
}

/** A server's console line with no time, as untimed() counts it: a request line's method, path and status, or an event's words. */
export interface ConsoleLine {
  method: string;
  path: string;
  status: number | null;
  event?: string;
  producer?: string;
  /** The session id the line names (the Python SDK's refusal of an unknown or expired session). */
  session?: string;
}

/** Whether a line is the MCP test kitchen's own (the server's account, not a gateway's). */
const isKitchen = (g: { log: GatewayLog }): boolean => g.log === 'kitchen-log' || g.log === 'kitchen-observation' || g.log === 'aspnet-hosting';
/** A server's line of every POST it answered (the kitchen's request log, ASP.NET Core's hosting log): its time span covers each. */
const everyPost = (log: GatewayLog): boolean => log === 'kitchen-log' || log === 'aspnet-hosting' || log === 'http-logger';

/**
 * Whether the MCP test kitchen's line fits the attempt: the same status, started within a second (and --skew: the
 * server's clock is another host's: it must be within that), and for an observation the same JSON-RPC method and tool. No session (the observations redact it).
 */
function kitchenFits(g: GatewayLine, p: GatewayProbe): boolean {
  if (p.startTs === undefined) return false;
  // A view the client gave up on before any head (no status, no answer): the server's line of it ended when the client
  // left (within a second of its end), its status went to no one; an observation says so (wasCancelled)
  if (typeof p.status !== 'number' && !p.answered) {
    if (Math.abs(g.ts - p.startTs) > SLACK_MS || p.endTs === undefined || g.endTs === undefined || Math.abs(g.endTs - p.endTs) > SLACK_MS) return false;
    if (g.log === 'kitchen-observation' && g.cancelled !== true) return false;
    return !(g.rpcMethod !== undefined && p.method !== undefined && g.rpcMethod !== p.method) && !(g.tool && p.tool && g.tool !== p.tool);
  }
  // A view that shows no status though it was answered (the Python SDK client's DEBUG log ties none to its messages):
  // a 2xx line of it fits
  const answeredUntold = typeof p.status !== 'number' && p.answered && g.status !== null && g.status >= 200 && g.status < 300;
  if (!answeredUntold && (typeof p.status !== 'number' || g.status !== p.status)) return false;
  if (Math.abs(g.ts - p.startTs) > SLACK_MS) return false;
  if (g.rpcMethod !== undefined && p.method !== undefined && g.rpcMethod !== p.method) return false;
  return !(g.tool && p.tool && g.tool !== p.tool);
}

/** Whether a line of nginx's logs fits the attempt: in its time, and failed the way the line says. */
function nginxFits(g: GatewayLine, p: GatewayProbe): boolean {
  if (p.side !== 'client' || p.startTs === undefined) return false;
  // A line whose start is unknown was written when the request ended (a view the client's log ends in, with no answer
  // and no end, may be taken by a line nginx wrote when the connection closed: 499, within a minute).
  const end = p.open ? p.startTs + OPEN_VIEW_MS : (p.endTs ?? p.startTs);
  if (g.ts < p.startTs - SLACK_MS || g.ts > end + SLACK_MS) return false;
  const outcome = p.outcome ?? '';
  if (g.log === 'nginx-error') return (typeof p.status === 'number' && p.status >= 400) || FAILED.has(outcome);
  // 499: a client that gave up (no status in its view: it got nothing; or a 200 whose stream it left)
  if (g.status === 499) return typeof p.status !== 'number' ? FAILED.has(outcome) || outcome === 'UNANSWERED' : outcome === 'STREAM_INCOMPLETE';
  return p.status === g.status;
}

/** Whether a line is Caddy's (its access log, or its error log's reason). */
const isCaddy = (g: { log: GatewayLog }): boolean => g.log === 'caddy-access' || g.log === 'caddy-error';

/**
 * Whether a line of Caddy's logs fits a client's attempt: the same status (none: Caddy's status 0, the client left before
 * any head), started within a second (Caddy's ts less its duration, to the microsecond); the session is compared by
 * take(). A 2xx line (an SSE stream that carried no byte) only for an attempt that got no answer. reverse_proxy's
 * "aborting with incomplete response" names no request: it fits a 2xx stream with no answer that ended (in the client's
 * view) within a second of it, or that the client's log leaves open. A server's view (its log, no client's beside it)
 * fits a line of its status, or, where the server sent no answer (Caddy's own 504 or 502, a client that left), any
 * failed line: what the client got, which the server's log cannot show.
 */
function caddyFits(g: GatewayLine, p: GatewayProbe): boolean {
  if (p.startTs === undefined) return false;
  const outcome = p.outcome ?? '';
  if (p.side === 'server') {
    if (p.answered) return false;
    if (g.unnamed) return g.ts >= p.startTs - SLACK_MS && p.endTs !== undefined && Math.abs(g.ts - p.endTs) <= SLACK_MS;
    if (Math.abs(g.ts - p.startTs) > SLACK_MS) return false;
    return g.status === p.status || (typeof p.status !== 'number' && (g.status === null || g.status >= 500));
  }
  if (g.unnamed) {
    if (p.answered || typeof p.status !== 'number' || p.status >= 300 || g.ts < p.startTs - SLACK_MS) return false;
    if (p.open) return g.ts <= p.startTs + OPEN_VIEW_MS;
    return p.endTs !== undefined && Math.abs(g.ts - p.endTs) <= SLACK_MS;
  }
  if (Math.abs(g.ts - p.startTs) > SLACK_MS) return false;
  if (g.status === null) return typeof p.status !== 'number' && (FAILED.has(outcome) || outcome === 'UNANSWERED' || p.open);
  if (g.status < 300) return p.status === g.status && !p.answered;
  return p.status === g.status;
}

/** Whether a line is Apache's (its access log told by %b's "-" or %D, or its error log's reason). */
const isApache = (g: { log: GatewayLog }): boolean => g.log === 'apache-access' || g.log === 'apache-error';
/** Apache's error log lines of one failure (one thread's, this close in time, ms) are joined into one reason. */
const APACHE_GROUP_MS = 50;

/**
 * Whether a line of Apache's logs fits a client's attempt. The access log's line: the same status, started within a
 * second (`%t` is when Apache received the request, to the second); a 200 with no body byte only for an attempt that got
 * no answer. The error log's line (no request named): in the attempt's time (the client's end, or a minute after its
 * start where its log leaves it open), and of its kind: no connection or no status line (Apache answered itself) for an
 * HTTP error or no response, a cut response for a 2xx stream with no answer.
 */
function apacheFits(g: GatewayLine, p: GatewayProbe): boolean {
  if (p.startTs === undefined) return false;
  const outcome = p.outcome ?? '';
  if (p.side === 'server') return apacheFitsServer(g, p);
  if (g.log === 'apache-access') {
    if (g.ts < p.startTs - SLACK_MS || g.ts > p.startTs + SLACK_MS) return false;
    if (g.status !== null && g.status < 300) return p.status === g.status && !p.answered;
    return p.status === g.status;
  }
  const end = p.open ? p.startTs + OPEN_VIEW_MS : (p.endTs ?? p.startTs);
  if (g.ts < p.startTs - SLACK_MS || g.ts > end + SLACK_MS) return false;
  const status = typeof p.status === 'number' ? p.status : undefined;
  if (g.stage === 'body') return status !== undefined && status < 300 && !p.answered;
  if (g.stage === 'connect' || g.stage === 'head') return (status !== undefined && status >= 500) || (status === undefined && FAILED.has(outcome));
  return (status !== undefined && status >= 400) || FAILED.has(outcome);
}

/**
 * A server's view (its log given without the client's) that got no whole answer out: Apache's line of what the client
 * got instead (its 502 after ProxyTimeout, a 200 stream with no body byte) or of the server's own error status, started
 * within a second; the error log's line of its time and stage (no head: a view with no status; a cut: a 2xx stream).
 * A refused connection never reached a server: no server's view takes it.
 */
function apacheFitsServer(g: GatewayLine, p: GatewayProbe): boolean {
  if (p.answered || p.startTs === undefined) return false;
  if (g.log === 'apache-access') {
    if (Math.abs(g.ts - p.startTs) > SLACK_MS) return false;
    return g.status === p.status || (typeof p.status !== 'number' && g.status !== null && g.status >= 500);
  }
  const end = p.open ? p.startTs + OPEN_VIEW_MS : (p.endTs ?? p.startTs);
  if (g.ts < p.startTs - SLACK_MS || g.ts > end + SLACK_MS) return false;
  if (g.stage === 'body') return typeof p.status === 'number' && p.status < 300;
  return g.stage === 'head' && typeof p.status !== 'number';
}

/**
 * Whether a server HTTP logger's body-less POST line (pino-http, ECS pino or morgan, Fastify's; with a time; a 2xx one
 * is never taken, see take()) fits a client's attempt: the same status, started within a second of it (the line's time less its
 * duration where the logger logs at the end, that duration no longer than the client's view; with no duration, written
 * within the attempt's time); the session, where the line has the header, is compared by take(). A hop's status the
 * server never sent finds no line of it.
 */
function loggerFits(g: GatewayLine, p: GatewayProbe): boolean {
  if (p.side !== 'client' || p.startTs === undefined || typeof p.status !== 'number') return false;
  // a line of a POST whose connection closed before the server answered (pino-http's "request aborted"): a hop's status
  if (g.status === null) return g.startKnown && HOP_GAVE_UP.has(p.status) && Math.abs(g.ts - p.startTs) <= SLACK_MS && withinClientTime(g, p);
  if (g.status !== p.status) return false;
  if (g.startKnown) return Math.abs(g.ts - p.startTs) <= SLACK_MS && withinClientTime(g, p);
  // a line with no duration (ECS morgan's) was written when the response ended: within the attempt's time
  return g.ts >= p.startTs - SLACK_MS && g.ts <= (p.open ? p.startTs + OPEN_VIEW_MS : (p.endTs ?? p.startTs)) + SLACK_MS;
}

/** The statuses a hop answers when the server it forwards to closed, failed or timed out (nginx, HAProxy, Envoy, Caddy). */
const HOP_GAVE_UP = new Set([502, 503, 504]);

/** How much longer (ms, and a share of it) a server logger's duration may be than the client's whole view of the request: timers and rounding. */
const LOGGER_LONGER_MS = 50;
const LOGGER_LONGER_SHARE = 0.1;

/**
 * The server's time on the request (its logger's duration: from the request's arrival to its response's end) is no
 * longer than the client's whole view of it, two clocks' durations, which no skew moves: a hop's own status, answered
 * in a few ms, is not the line of a server that took 122 ms on another POST of the same status started near it
 * (test/fixtures/real-audit74/hop-same-status). A view with no end (its log stopped mid-call) is not compared.
 */
function withinClientTime(g: GatewayLine, p: GatewayProbe): boolean {
  // (a client view with no length, one line with no duration, is not compared)
  if (g.endTs === undefined || p.endTs === undefined || p.open || p.startTs === undefined || p.endTs <= p.startTs) return true;
  const server = g.endTs - g.ts;
  return server <= p.endTs - p.startTs + LOGGER_LONGER_MS + server * LOGGER_LONGER_SHARE;
}

/** Whether HAProxy's line fits the attempt: the same status (the client's, or the server's of the last try), started within a second. */
function haproxyFits(g: GatewayLine, p: GatewayProbe): boolean {
  if (p.startTs === undefined || p.status === undefined) return false;
  if ((p.side === 'client' ? g.status : g.serverStatus) !== p.status) return false;
  if (Math.abs((p.side === 'client' ? g.ts : g.lastTryTs) - p.startTs) > SLACK_MS) return false;
  return !(p.answered && g.state[0] !== '-');
}

export class GatewayLines {
  private lines: GatewayLine[] = [];
  /** The MCP test kitchen's observations were given: a 401 or 429 its request log has and they lack came before them. */
  private observationsSeen = false;
  /** Per input: what its lines said, for the report's note. */
  private readonly account = new Map<string, Account>();
  /** A server's console's refusals of a session (the Python SDK's "Rejected request with unknown or expired session ID"), by the id: the first line of each. */
  private readonly refused = new Map<string, Source>();
  /** The client's POST attempts by the status they got: a server's console (no time, joined to none) is compared with them by count. */
  private readonly clientStatuses = new Map<number, number>();
  /** Per input of the kitchen's request log: the earliest end and the latest start of its lines, and how many were joined. */
  private readonly spans = new Map<string, { log: GatewayLog; minEnd: number; maxStart: number; joined: number }>();

  get empty(): boolean {
    return this.lines.length === 0;
  }

  add(g: GatewayLine): void {
    if (g.log === 'kitchen-observation') this.observationsSeen = true;
    const acc = this.accountOf(g);
    acc.requests++;
    if (g.state !== '--') acc.states.set(g.state, (acc.states.get(g.state) ?? 0) + 1);
    if (g.retries > 0) acc.resent++;
    if (g.countOnly) return this.untaken([g]);
    // Every POST's line waits for its attempt, a normal one too (it says nothing more than the client's view): an attempt
    // takes the line nearest to it, so a line that says more is left to the attempt it tells of.
    if (g.method !== 'POST') return;
    if (everyPost(g.log)) {
      const s = this.spans.get(g.src.file);
      const end = g.endTs ?? g.ts;
      if (!s) this.spans.set(g.src.file, { log: g.log, minEnd: end, maxStart: g.ts, joined: 0 });
      else {
        if (end < s.minEnd) s.minEnd = end;
        if (g.ts > s.maxStart) s.maxStart = g.ts;
      }
    }
    this.lines.push(g);
    if (this.lines.length > KEPT) this.untaken(this.lines.splice(0, this.lines.length - KEPT));
  }

  /** Lines that started before `before` (the watermark less the window, --skew and the longest open call): no attempt will take them now. */
  expire(before: number): void {
    before -= OPEN_MS;
    if (this.lines.length === 0 || this.lines[0]!.ts >= before) return;
    const keep: GatewayLine[] = [];
    for (const g of this.lines) if (g.ts >= before) keep.push(g); else this.untaken([g]);
    this.lines = keep;
  }

  /**
   * The lines of this attempt's POST, nearest start first: one account of it (HAProxy's line, or nginx's access log
   * line: the same status, started within a second, a captured session id the request sent; a line that ended
   * abnormally only for an attempt that did not get its whole answer) and one reason (nginx's error log, for an attempt
   * that failed). (Not by its end: the TypeScript SDK 1.x keeps a stream it gave up on open until its session closes,
   * and HAProxy logs a request when its own side of it ends.)
   */
  take(p: GatewayProbe): GatewayLine[] {
    if (p.startTs === undefined) return [];
    const out: GatewayLine[] = [];
    // one line of each kind: a gateway's account, nginx's error log's reason, the kitchen's request log, its observation
    for (const kind of ['account', 'reason', 'kitchen-log', 'kitchen-observation', 'aspnet-hosting', 'http-logger'] as const) {
      let best = -1;
      let bestGap = Infinity;
      let runnerUp = Infinity;
      for (let i = 0; i < this.lines.length; i++) {
        const g = this.lines[i]!;
        if ((isKitchen(g) || g.log === 'http-logger' ? g.log : g.log === 'nginx-error' || g.log === 'caddy-error' || g.log === 'apache-error' ? 'reason' : 'account') !== kind) continue;
        if (g.session !== null && (!p.sentSession || g.session !== p.session)) continue;
        if (!(g.log === 'http-logger' ? loggerFits(g, p) : g.log === 'haproxy' ? haproxyFits(g, p) : isKitchen(g) ? kitchenFits(g, p) : isCaddy(g) ? caddyFits(g, p) : isApache(g) ? apacheFits(g, p) : nginxFits(g, p))) continue;
        // A server logger's 2xx line says nothing the client's view lacks: never taken (one with no duration, ECS morgan's,
        // fits any attempt it falls within), it stays where it is for unseen(); that it fits shows the clocks agree.
        if (g.log === 'http-logger' && g.said === '') {
          this.spans.get(g.src.file)!.joined++;
          continue;
        }
        // (Caddy's line of a cut stream and Apache's error lines name no request: how near the time is to the end of the client's view)
        let gap = g.unnamed || g.log === 'apache-error' ? Math.abs(g.ts - (p.endTs ?? p.startTs)) : Math.abs((p.side === 'server' && g.log === 'haproxy' ? g.lastTryTs : g.ts) - p.startTs);
        // the kitchen's lines: how far apart the starts and the ends are (the server's time taken against the client's)
        if (isKitchen(g) && g.endTs !== undefined && p.endTs !== undefined) gap += Math.abs(g.endTs - p.endTs);
        if (gap < bestGap) [best, bestGap, runnerUp] = [i, gap, bestGap];
        else if (gap < runnerUp) runnerUp = gap;
      }
      if (best === -1) continue;
      let g = this.lines.splice(best, 1)[0]!;
      // Apache writes one failure in several lines (AH00957 then AH01114; AH01102 then AH00898): the same thread's within 50 ms go with it
      if (g.log === 'apache-error') g = this.apacheGroup(g);
      // The kitchen's lines name no id: where another fits about as well (its start and end within 50 ms of this one's), which is this attempt's is a guess
      if (isKitchen(g) && typeof p.status !== 'number' && !p.answered) g = { ...g, said: `${g.said} (no response head reached the client, which had gone: the server's ${g.status} went to no one)` };
      if (isKitchen(g) && runnerUp - bestGap < AMBIGUOUS_MS) g = { ...g, said: `${g.said} (another POST of the same ${g.log === 'kitchen-observation' ? 'method and status' : 'status'} started and ended within ${AMBIGUOUS_MS} ms of this one: no id in the line tells them apart, so the two may be swapped)` };
      if (g.said !== '') this.accountOf(g).taken++;
      if (g.log === 'http-logger' && g.status === null) this.accountOf(g).cutsTaken = (this.accountOf(g).cutsTaken ?? 0) + 1;
      if (everyPost(g.log)) this.spans.get(g.src.file)!.joined++;
      out.push(g);
    }
    // The kitchen's 401 or 429 with no observation of it, where observations were given: its PAT check or rate limiter
    const logged = out.findIndex((g) => g.log === 'kitchen-log' && (g.status === 401 || g.status === 429));
    if (logged !== -1 && this.observationsSeen && !out.some((g) => g.log === 'kitchen-observation')) {
      const g = out[logged]!;
      out[logged] = { ...g, said: `${g.said.replace(/ \(its (?:PAT check|rate limiter), before the observations.*?an observation of it tells which\)/, '')}, and the observations given have none of it: ${g.status === 401 ? 'the PAT check' : 'the rate limiter'} refused it before the observations, the scenario layer and any tool (unless the observations given do not reach its time)` };
    }
    return out;
  }

  /**
   * The kitchen's request log (an input of it whose lines were joined to other attempts: its clock is the client's, or
   * put on it) that covers this client POST's time, lines before it and after it, and has none of it: the POST never
   * reached the kitchen (RequestLoggingMiddleware, outermost, logs every POST /mcp it answers, its 401 and 429 too).
   * Undefined when no such log covers it, or a line not taken by another attempt starts near it.
   */
  unseen(p: GatewayProbe): { file: string; log: GatewayLog } | undefined {
    if (p.side !== 'client' || p.startTs === undefined || p.endTs === undefined || p.open) return undefined;
    const from = p.startTs - UNSEEN_MS;
    const to = p.endTs + UNSEEN_MS;
    for (const [file, s] of this.spans) {
      const log = s.log;
      if (s.joined === 0 || s.minEnd >= p.startTs || s.maxStart <= p.endTs) continue;
      // (a 202 is a notification's or a response's: the kitchen answers a request 200 or an error, never 202)
      if (this.lines.some((g) => everyPost(g.log) && g.src.file === file && g.status !== 202 && g.ts >= from && g.ts <= to)) continue;
      return { file, log };
    }
    return undefined;
  }

  /**
   * Apache's error log lines written by the thread of this one within 50 ms of it (one failure: the connection refused
   * and the 503, the status line not read and the 502, the worker put in error state), taken with it: one reason, in
   * Apache's words line by line, with what the most telling of them means.
   */
  private apacheGroup(g: GatewayLine): GatewayLine {
    const group = [g];
    for (let i = 0; i < this.lines.length; i++) {
      const o = this.lines[i]!;
      if (o.log !== 'apache-error' || o.src.file !== g.src.file || o.thread !== g.thread || Math.abs(o.ts - g.ts) > APACHE_GROUP_MS) continue;
      group.push(o);
      this.lines.splice(i--, 1);
    }
    if (group.length === 1) return g;
    group.sort((a, b) => a.ts - b.ts || a.src.line - b.src.line);
    const parts = group.map((l) => { const cut = l.said.indexOf('; '); return { words: l.said.slice(0, cut === -1 ? l.said.length : cut).replace(/^Apache's error log /, ''), meaning: cut === -1 ? '' : l.said.slice(cut + 2) }; });
    // the meaning of the line that says the most of the request: the client's answer (AH01114, AH01102, AH01110) over the backend's state (AH00957, AH00898, AH00959, AH01174)
    const rank = (w: string): number => (/AH01114|AH01102|AH01110|AH00940|AH01167|AH01170/.test(w) ? 0 : /AH00957|AH00898/.test(w) ? 1 : 2);
    const lead = [...parts].sort((a, b) => rank(a.words) - rank(b.words))[0]!;
    const state = parts.filter((x) => /AH00959|AH01174/.test(x.words)).map((x) => x.meaning);
    const said = `Apache's error log ${parts.map((x) => x.words).join(', then ')}; ${lead.meaning}${state.length && !state.includes(lead.meaning) ? `; ${state.join('; ')}` : ''}`;
    return { ...g, said, stage: group.map((l) => l.stage).find((st) => st === 'body') ?? g.stage };
  }

  /** The server console's line refusing this session as unknown or expired, if it has one (matched by the id, no time needed). */
  refusal(session: string): Source | undefined {
    return this.refused.get(session);
  }

  /** A client's POST attempt and the HTTP status it got, counted for the comparison with a server's console. */
  clientPost(status: number): void {
    this.clientStatuses.set(status, (this.clientStatuses.get(status) ?? 0) + 1);
  }

  /** A line of such a log with no date: counted in its note, never offered to an attempt (a server's console's by what it says). */
  untimed(log: GatewayLog, src: Source, line?: ConsoleLine): void {
    const a = this.accountOf({ log, src } as GatewayLine);
    if (log === 'server-console' && line) {
      if (line.session !== undefined && !this.refused.has(line.session) && this.refused.size < KEPT) this.refused.set(line.session, src);
      return countConsole(a, src, line);
    }
    a.requests++;
    a.untimed++;
  }

  flush(): void {
    this.untaken(this.lines);
    this.lines = [];
  }

  /** The report's notes per input: what the gateway's log told, where no attempt took it. */
  notes(): string[] {
    const out: string[] = [];
    // (one server's console beside the client's log is compared with its POSTs; with several, which server answered which is unknown)
    const consoles = [...this.account.values()].filter((a) => a.log === 'server-console' && a.consoleLines !== undefined).length;
    for (const a of this.account.values()) out.push(...(a.log === 'server-console' ? consoleNotes(a.file, a, consoles === 1 ? this.clientStatuses : undefined) : a.log === 'http-logger' ? loggerNotes(a.file, a) : a.log === 'haproxy' ? haproxyNotes(a.file, a) : isKitchen(a) ? kitchenNotes(a.file, a) : isCaddy(a) ? caddyNotes(a.file, a) : isApache(a) ? apacheNotes(a.file, a) : nginxNotes(a.file, a)));
    return out;
  }

  private accountOf(g: GatewayLine): Account {
    // (ASP.NET Core's lines in the kitchen's Development text log, beside its request log's: a note of their own)
    const key = g.log === 'aspnet-hosting' ? `${g.src.file}\0aspnet-hosting` : g.src.file;
    let a = this.account.get(key);
    if (!a) this.account.set(key, (a = { log: g.log, file: g.src.file, requests: 0, states: new Map(), resent: 0, taken: 0, untaken: [], labels: new Map(), untimed: 0 }));
    return a;
  }

  /** Lines no attempt took: HAProxy's first few named in the note (the rest counted in the states), nginx's counted by status or reason. */
  private untaken(gs: GatewayLine[]): void {
    for (const g of gs) {
      if (g.said === '') continue;
      const a = this.accountOf(g);
      if (isKitchen(g)) {
        const label = `${g.rpcMethod !== undefined ? `${g.rpcMethod.slice(0, 60)} ` : ''}HTTP ${g.status ?? 'no status'}`;
        const known = a.labels.get(label);
        if (known) known.count++;
        else if (a.labels.size < LABELS_KEPT) a.labels.set(label, { status: g.status, count: 1, first: g.src });
        continue;
      }
      if (g.log === 'haproxy') {
        if (a.untaken.length < 5) a.untaken.push(g);
        continue;
      }
      let label = g.log === 'http-logger' ? (g.status === null ? LOGGER_CUT : `HTTP ${g.status}`) : isCaddy(g) ? caddyLabel(g) : isApache(g) ? apacheLabel(g) : nginxLabel(g);
      if (!a.labels.has(label) && a.labels.size >= LABELS_KEPT) label = 'other';
      const known = a.labels.get(label);
      if (known) known.count++;
      else a.labels.set(label, { status: g.status, count: 1, first: g.src });
    }
  }
}

/** Counts a server's console line in its input's account: a request line by method, path and status, an event by its words. */
function countConsole(a: Account, src: Source, line: ConsoleLine): void {
  if (line.event !== undefined) {
    const ev = (a.consoleEvents ??= new Map());
    const known = ev.get(line.event);
    if (known) known.count++;
    else if (ev.size < LABELS_KEPT) ev.set(line.event, { count: 1, first: src });
    return;
  }
  a.requests++;
  if (line.producer !== undefined) (a.producers ??= new Set()).add(line.producer);
  const path = line.path.split('?')[0]!.slice(0, 80);
  const label = `${line.method} ${path} ${line.status ?? 'no status'}`;
  const lines = (a.consoleLines ??= new Map());
  const known = lines.get(label);
  if (known) known.count++;
  else if (lines.size < LABELS_KEPT) lines.set(label, { count: 1, first: src, post: line.method === 'POST', status: line.status });
}

/**
 * A server's console: what its request lines say (the POSTs by status first: "3 POSTs /mcp got 404, 1 got 500"), the
 * other requests (GET streams, DELETEs, probes of other paths), the events its SDK and server printed, and why none of
 * it is joined to a call: the lines have no time.
 */
function consoleNotes(file: string, a: Account, client: Map<number, number> | undefined): string[] {
  const lines = [...(a.consoleLines ?? new Map<string, { count: number; first: Source; post: boolean; status: number | null }>())];
  const events = [...(a.consoleEvents ?? new Map<string, { count: number; first: Source }>())];
  if (lines.length === 0 && events.length === 0) return [];
  const who = [...(a.producers ?? [])].map((p) => (p === 'uvicorn' ? "uvicorn's access lines" : p === 'morgan' ? "morgan's lines" : "hono/logger's lines")).join(' and ') || 'its lines';
  const posts = lines.filter(([, l]) => l.post).sort((x, y) => (x[1].status ?? 0) - (y[1].status ?? 0) || x[0].localeCompare(y[0]));
  const others = lines.filter(([, l]) => !l.post).sort((x, y) => y[1].count - x[1].count);
  const postCount = posts.reduce((k, [, l]) => k + l.count, 0);
  const failed = posts.filter(([, l]) => l.status !== null && l.status >= 400);
  const parts: string[] = [`${file}: the server's console (${who}) has ${a.requests} request line${a.requests === 1 ? '' : 's'} and no time on any`];
  if (postCount) parts.push(`${postCount} POST${postCount === 1 ? '' : 's'}: ${posts.map(([label, l]) => `${label.replace(/^POST /, '')} x${l.count}`).join(', ')}`);
  if (failed.length) parts.push(`of them answered with an error: ${failed.map(([label, l]) => `${l.count} got ${l.status} (${label.replace(/ \d{3}$/, '')}, the first at ${l.first.file}:${l.first.line})`).join(', ')}`);
  if (others.length) parts.push(`other requests: ${others.map(([label, l]) => `${label} x${l.count}`).join(', ')}`);
  if (events.length) parts.push(`it also printed: ${events.map(([label, e]) => `${label}: ${e.count} (the first at ${e.first.file}:${e.first.line})`).join('; ')}`);
  const starts = events.find(([label]) => label === STARTED)?.[1].count ?? 0;
  if (starts > 1) parts.push(`the server was started ${starts} times in this console: a session of an earlier run is unknown to a later one, and its requests get 404`);
  const compared = client && client.size > 0 ? compareWithClient(posts, client) : '';
  if (compared) parts.push(compared);
  parts.push('no JSON-RPC id, method, session or body in the request lines, and no time: no request line is an attempt, and none is joined to a client\'s attempt, even beside its log (by order alone they cannot be: requests of several connections interleave, a stream\'s line is written at its head or at its end); a 200 here may still carry a JSON-RPC error or a tool\'s isError');
  return [parts.join('; ')];
}

/**
 * A server's console beside the client's log: its POSTs answered 4xx or 5xx against the client's POST attempts of each
 * status, by count (the lines have no time to pair them by). The same count: the server itself sent those statuses; fewer
 * here: if the console covers the client's time, the server never sent the rest (something between them did); more here:
 * other clients', requests with no JSON-RPC message, or outside the client log's time.
 */
function compareWithClient(posts: [string, { count: number; status: number | null }][], client: Map<number, number>): string {
  const mine = new Map<number, number>();
  for (const [, l] of posts) if (l.status !== null && l.status >= 400) mine.set(l.status, (mine.get(l.status) ?? 0) + l.count);
  const statuses = [...new Set([...mine.keys(), ...[...client.keys()].filter((s) => s >= 400)])].sort((x, y) => x - y);
  if (statuses.length === 0) return '';
  const said = statuses.map((s) => {
    const c = client.get(s) ?? 0;
    const m = mine.get(s) ?? 0;
    if (c === m) return `${s}: ${c} in both (as far as counts tell, the server itself answered ${c === 1 ? 'it' : 'them'} so)`;
    if (c > m) return `${s}: ${c} in the client's log, ${m} here (if this console covers the client's time, the server never sent ${c - m === 1 ? 'one of them' : `${c - m} of them`}: something between them did)`;
    return `${s}: ${m} here, ${c} in the client's log (the rest: other clients', requests with no JSON-RPC message, or outside the client log's time)`;
  });
  return `beside the client's log, its POST attempts answered with an error compared by count (no time to pair them by): ${said.join(', ')}`;
}

/**
 * How an untaken line of nginx's is counted: by its status, or by nginx's words (up to the upstream or the "; " before
 * what they mean), without the numbers that vary (`excess: 2.985 by zone "mcp"`, `4095 bytes`).
 */
function nginxLabel(g: GatewayLine): string {
  if (g.log === 'nginx-access') return `HTTP ${g.status}${g.countOnly ? ' after a re-send to the next upstream' : ''}`;
  const words = g.said.replace(/^nginx's error log \[\w+\](?: \*\d+)?: /, '');
  const cut = [words.indexOf(' (upstream '), words.indexOf('; ')].filter((i) => i !== -1);
  return words.slice(0, cut.length ? Math.min(...cut) : 160).replace(/, excess: [\d.]+ by zone "[^"]*"/, '').replace(/: \d+ bytes$/, '');
}

/**
 * How an untaken line of Caddy's is counted: by its status (status 0: the client left; a 2xx stream with no byte), or by
 * Caddy's words up to what they mean, without its err_id and the local ports of its connections.
 */
function caddyLabel(g: GatewayLine): string {
  if (g.log === 'caddy-access') return g.status === null ? 'status 0 (the client left before any head)' : g.status < 300 ? `HTTP ${g.status} with no body byte` : `HTTP ${g.status}`;
  const words = g.said.replace(/^Caddy's error log \[\w+\](?: [^\s:]+)?: /, '');
  const cut = words.indexOf('; ');
  return words.slice(0, cut === -1 ? 160 : Math.min(cut, 160)).replace(/(\d+\.\d+\.\d+\.\d+|\[[\d:a-f]+\]):\d+->/g, '$1->');
}

/** How an untaken line of Apache's is counted: by its status, or by its message code and words up to what they mean, without ports and hosts. */
/** A label of gateway lines no attempt took (a status, a reason), how many, and the first one's place. */
type Untaken = { label: string; status: number | null; count: number; first: Source };
const untakenOf = (a: Account): Untaken[] => [...a.labels].map(([label, l]) => ({ label, ...l }));
const countOf = (ls: Untaken[]): number => ls.reduce((k, l) => k + l.count, 0);
/** Where the first of these lines is (file:line). */
const firstAt = (ls: Untaken[]): string => {
  const f = ls.map((l) => l.first).sort((x, y) => x.line - y.line)[0]!;
  return `${f.file}:${f.line}`;
};
/** The labels, most lines first, each with its count. */
const listOf = (ls: Untaken[]): string => ls.sort((x, y) => y.count - x.count).map((l) => `${l.label} x${l.count}`).join(', ');

function apacheLabel(g: GatewayLine): string {
  if (g.log === 'apache-access') return g.status !== null && g.status < 300 ? `HTTP ${g.status} with no body byte` : `HTTP ${g.status}`;
  const words = g.said.replace(/^Apache's error log \[[\w:]+\]: /, '');
  const cut = words.indexOf('; ');
  return words.slice(0, cut === -1 ? 160 : Math.min(cut, 160)).replace(/\d+\.\d+\.\d+\.\d+(?::\d+)?/g, 'HOST').replace(/\(HOST\)/g, '').replace(/\s+/g, ' ').trim();
}

/** Apache's access and error log lines that explained no client attempt, by status and by reason: never dropped silently. */
function apacheNotes(file: string, a: Account): string[] {
  const mine = untakenOf(a);
  if (mine.length === 0) return [];
  const out: string[] = [];
  const access = mine.filter((l) => /^HTTP \d/.test(l.label));
  const reasons = mine.filter((l) => !access.includes(l));
  if (access.length) {
    const k = countOf(access);
    // Express's morgan writes `combined` in the same layout, its "-" a length never set: every SSE body, healthy ones too
    // (test/fixtures/real-audit69/express-calls/morgan-combined.log); no line tells the two apart.
    const bodiless = access.some((l) => l.label.endsWith('with no body byte'));
    const morgan = bodiless ? ' (if this is a Node server\'s morgan `combined` log, the same layout, its "-" is a length never set: every SSE response, healthy ones too, so a 200 there says nothing of the body)' : '';
    out.push(`${file}: Apache's access log has ${k === 1 ? '1 POST' : `${k} POSTs`} it answered with an error or with no body byte (${listOf(access)}; the first at ${firstAt(access)}) that no client attempt of the same status took: the log has no JSON-RPC request, so ${k === 1 ? 'it is no attempt' : 'they are no attempts'} here; give the client's log beside it to name the ${k === 1 ? 'call' : 'calls'}${morgan}`);
  }
  if (reasons.length) {
    const k = countOf(reasons);
    out.push(`${file}: Apache's error log has ${k === 1 ? '1 line' : `${k} lines`} of mod_proxy about requests (${listOf(reasons)}; the first at ${firstAt(reasons)}) that no failed client attempt took: its lines name no request, so no attempts here (a GET stream cut by ProxyTimeout or by Apache stopping, which the SDK reconnects, is one; a balancer that sent the request on to another member after a refused connection, where it went well, another); give the client's log beside it to attach each reason to its call`);
  }
  return out;
}

/**
 * Caddy's access and error log lines (one file may hold both: its default logger gets the access log too when the `log`
 * directive names no output) that explained no client attempt, by status and by reason: never dropped silently.
 */
function caddyNotes(file: string, a: Account): string[] {
  const mine = untakenOf(a);
  if (mine.length === 0) return [];
  const out: string[] = [];
  const access = mine.filter((l) => /^(?:HTTP \d|status 0)/.test(l.label));
  const reasons = mine.filter((l) => !access.includes(l));
  if (access.length) {
    const k = countOf(access);
    out.push(`${file}: Caddy's access log has ${k === 1 ? '1 POST' : `${k} POSTs`} it failed or cut (${listOf(access)}; the first at ${firstAt(access)}) that no client attempt of the same status and session took: the log has no JSON-RPC request, so ${k === 1 ? 'it is no attempt' : 'they are no attempts'} here; give the client's log beside it to name the ${k === 1 ? 'call' : 'calls'}`);
  }
  if (reasons.length) {
    const k = countOf(reasons);
    out.push(`${file}: Caddy's error log has ${k === 1 ? '1 line' : `${k} lines`} about POSTs and streams (${listOf(reasons)}; the first at ${firstAt(reasons)}) that no failed client attempt took: no JSON-RPC request in it, so no attempts here (a POST Caddy retried on its next upstream, lb_try_duration, and that went well there is one; reverse_proxy's cut of a GET stream, which the SDK reconnects, another); give the client's log beside it to attach each reason to its call`);
  }
  return out;
}

/**
 * The MCP test kitchen's request log or observations: how many POSTs it told of, how many were joined to the attempt
 * they tell of, and those no attempt took, by method and status (a notification's 202, a POST the client's log does not
 * show), with the first of each; the lines with no date.
 */
function kitchenNotes(file: string, a: Account): string[] {
  const what = a.log === 'kitchen-log' ? "the MCP test kitchen's request log" : a.log === 'aspnet-hosting' ? "ASP.NET Core's hosting log" : "the MCP test kitchen's observations";
  const rest = [...a.labels].sort((x, y) => y[1].count - x[1].count).map(([label, l]) => `${label} x${l.count} (first at ${l.first.file}:${l.first.line})`);
  const untaken = [...a.labels.values()].reduce((k, l) => k + l.count, 0);
  const parts = [`${file}: ${what}, the server's own account of ${a.requests} POST${a.requests === 1 ? '' : 's'} /mcp (no JSON-RPC id or session: joined by ${a.log === 'kitchen-observation' ? 'method, tool, status' : 'status'} and start time)`];
  parts.push(`${a.taken} joined to the client's attempt ${a.taken === 1 ? 'it tells' : 'they tell'} of (its why says what the server saw)`);
  if (untaken) parts.push(`${untaken} no attempt took: ${rest.join(', ')} (notifications and responses to the server are no attempts; a POST no client log given shows, or one the client's clock puts more than a second away, is not joined)`);
  if (a.untimed) parts.push(`${a.untimed} line${a.untimed === 1 ? ' has' : 's have'} no date (Development's "HH:mm:ss " time): counted, not joined; a TimestampFormat with the date, or the JSON console format, lets them join`);
  return [parts.join('; ')];
}

/**
 * A server HTTP logger's body-less POST lines with an error status (pino-http's, ECS's, Fastify's defaults): how many
 * were joined to the client's attempt of their status, and those no attempt took, by status (alone, every one).
 */
/** A server logger's line of a POST whose connection closed before any response, in its note. */
const LOGGER_CUT = 'connection closed before any response';

function loggerNotes(file: string, a: Account): string[] {
  const all = untakenOf(a);
  const cuts = all.filter((l) => l.label === LOGGER_CUT);
  const mine = all.filter((l) => l.label !== LOGGER_CUT);
  const parts: string[] = [];
  if (a.taken) parts.push(`${a.taken} joined to the client's attempt ${a.taken === 1 ? 'it tells' : 'they tell'} of (its why says ${a.cutsTaken ? 'whether the server itself answered it or a hop did' : 'the server itself answered so'})`);
  if (cuts.length) {
    const k = countOf(cuts);
    parts.push(`${k === 1 ? '1 POST' : `${k} POSTs`} whose connection closed before the server sent any response ("request aborted"; the first at ${firstAt(cuts)}) that no client attempt a hop answered 502, 503 or 504 took: the client left, or a hop in between gave up on ${k === 1 ? 'it' : 'them'}`);
  }
  if (mine.length) {
    const k = countOf(mine);
    parts.push(`${k === 1 ? '1 POST' : `${k} POSTs`} the server answered with an error (${listOf(mine)}; the first at ${firstAt(mine)}) that no client attempt of the same status and session took: the line has no JSON-RPC body, so ${k === 1 ? 'it is no attempt' : 'they are no attempts'} here; give beside it a client's log that has each request's HTTP status (a capture, recordingFetch's) to name the ${k === 1 ? 'call' : 'calls'}`);
  }
  if (parts.length === 0) return [];
  return [`${file}: the server's HTTP logger's body-less POST lines with an error status: ${parts.join('; ')}`];
}

function haproxyNotes(file: string, a: Account): string[] {
  const states = [...a.states].sort((x, y) => y[1] - x[1]).map(([s, n]) => `${s} x${n}`).join(', ');
  const head = `${file}: HAProxy's account of ${a.requests} HTTP request${a.requests === 1 ? '' : 's'} (no bodies: no JSON-RPC method or id, so no attempts of its own)`;
  const ended = states ? `; ended abnormally: ${states} (termination state)` : '; all ended normally (----)';
  const resent = a.resent ? `; ${a.resent} re-sent by HAProxy (retries)` : '';
  const taken = a.taken ? `; ${a.taken} joined to the attempt ${a.taken === 1 ? 'it tells' : 'they tell'} of (the why says what HAProxy saw)` : '';
  const rest = a.untaken.map((g) => `${g.src.file}:${g.src.line} ${g.method}${g.session !== null ? ` session ${g.session}` : ''} ${g.status ?? 'no status'}: ${g.said}`);
  return [`${head}${ended}${resent}${taken}${rest.length ? `; not joined to any attempt: ${rest.join('; ')}` : ''}`];
}

/**
 * nginx's access and error log lines that explained no client attempt: its own account, by status or by reason. No
 * attempts (no method, no id), but never dropped silently: a run of 502s is an incident.
 */
function nginxNotes(file: string, a: Account): string[] {
  const mine = untakenOf(a).sort((x, y) => y.count - x.count);
  if (mine.length === 0) return [];
  if (a.log === 'nginx-error') {
    const total = countOf(mine);
    return [`${file}: nginx's error log has ${total === 1 ? '1 line' : `${total} lines`} about POSTs (${listOf(mine)}; the first at ${firstAt(mine)}) that no failed client attempt took: no JSON-RPC request or session in it, so no attempts here (a POST nginx re-sent to its next upstream, proxy_next_upstream, and that went well there is one: the access log's $upstream_status shows it; a client that closed a stream it was done with is another, at level info); give the client's log beside it to attach each reason to its call`];
  }
  const out: string[] = [];
  const errors = mine.filter((l) => l.status !== null && l.status >= 400);
  const resent = mine.filter((l) => l.status !== null && l.status < 400);
  if (errors.length) {
    const e = countOf(errors);
    const has499 = errors.some((l) => l.status === 499);
    out.push(`${file}: nginx's access log has ${e === 1 ? '1 POST' : `${e} POSTs`} it answered with an error (${listOf(errors)}${has499 ? "; 499 is nginx's code for a client that closed the connection first" : ''}; the first at ${firstAt(errors)}) that no client attempt of the same status took: the log has no JSON-RPC request or session, so ${e === 1 ? 'it is no attempt' : 'they are no attempts'} here; give the client's log beside it to name the ${e === 1 ? 'call' : 'calls'}`);
  }
  if (resent.length) {
    const r = countOf(resent);
    out.push(`${file}: nginx's access log has ${r === 1 ? '1 POST' : `${r} POSTs`} it sent to more than one upstream (proxy_next_upstream) and then answered (${resent.map((l) => `${l.label.replace(' after a re-send to the next upstream', '')} x${l.count}`).join(', ')}; the first at ${firstAt(resent)}): the client sent each once and the gateway sent it again, which no client's log shows; the line keeps no JSON-RPC id and whole seconds cannot tell which call of its second it was (nginx's JSON access log with $request_body, nginx-json, names it: see Behind nginx); nginx's error log says why the first upstream failed`);
  }
  return out;
}
