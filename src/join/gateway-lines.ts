// A gateway's bodiless account of each HTTP request (HAProxy's httplog line): kept a while, taken by the attempt it tells of, the rest summed up for the report.
import type { Source } from './attempt.js';

/** One request as the gateway logged it: no body, so no JSON-RPC id; what ended it and whether it re-sent it. */
export interface GatewayLine {
  session: string | null;
  /** HTTP method (POST, GET, DELETE). */
  method: string;
  /** The status the client got (null: none, the client had gone before the head). */
  status: number | null;
  ts: number;
  /** When it ended (ts and HAProxy's total time Ta), when the line gives it. */
  endTs: number | undefined;
  /**
   * When HAProxy's last try of it reached a server (ts and the times spent before the server: TR, Tw, Tc; a re-sent
   * request waited its failed tries out in Tw), and the status that server gave (null: no head came from it, Tr -1).
   */
  lastTryTs: number;
  serverStatus: number | null;
  /** What the line says beyond a normal end: the termination state and the retries in words. */
  said: string;
  /** The termination state's first two letters (`--` normal), and the retries counter. */
  state: string;
  retries: number;
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
/** How far apart (ms) the client's request and the gateway's line of it may start. */
const SLACK_MS = 1000;

/** The attempt's side of the match: the view whose request the gateway passed on. */
export interface GatewayProbe {
  /** Whose view it is: a client's request reached the gateway at the line's time, a server's at its last try's. */
  side: 'client' | 'server';
  session: string | null;
  /** The request carried its session id (an initialize carries none). */
  sentSession: boolean;
  status: number | null | undefined;
  startTs: number | undefined;
  /** The attempt got its whole answer (a result or a JSON-RPC error): no line that ended abnormally tells of it. */
  answered: boolean;
}

export class GatewayLines {
  private lines: GatewayLine[] = [];
  /** Per input: requests read, those that ended abnormally by state, re-sent ones, taken by an attempt; the first few untaken lines. */
  readonly account = new Map<string, { requests: number; states: Map<string, number>; resent: number; taken: number; untaken: GatewayLine[] }>();

  get empty(): boolean {
    return this.lines.length === 0;
  }

  add(g: GatewayLine): void {
    const acc = this.accountOf(g.src.file);
    acc.requests++;
    if (g.state !== '--') acc.states.set(g.state, (acc.states.get(g.state) ?? 0) + 1);
    if (g.retries > 0) acc.resent++;
    // Every POST's line waits for its attempt, a normal one too (it says nothing more than the client's view): an attempt
    // takes the line nearest to it, so a line that says more is left to the attempt it tells of.
    if (g.method !== 'POST') return;
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
   * The line of this attempt's POST: the same status, started within a second of it; a captured session id the request
   * sent (none captured: any); a line that ended abnormally (the server or the client cut it) only for an attempt that
   * did not get its whole answer. The nearest start when several fit. (Not by its end: the TypeScript SDK 1.x keeps a
   * stream it gave up on open until its session closes, and HAProxy logs a request when its own side of it ends.)
   */
  take(p: GatewayProbe): GatewayLine | undefined {
    if (p.startTs === undefined || p.status === undefined) return undefined;
    let best = -1;
    let bestGap = Infinity;
    for (let i = 0; i < this.lines.length; i++) {
      const g = this.lines[i]!;
      if ((p.side === 'client' ? g.status : g.serverStatus) !== p.status) continue;
      if (g.session !== null && (!p.sentSession || g.session !== p.session)) continue;
      const gap = Math.abs((p.side === 'client' ? g.ts : g.lastTryTs) - p.startTs);
      if (gap > SLACK_MS) continue;
      if (p.answered && g.state[0] !== '-') continue;
      if (gap < bestGap) {
        best = i;
        bestGap = gap;
      }
    }
    if (best === -1) return undefined;
    const g = this.lines.splice(best, 1)[0]!;
    if (g.said !== '') this.accountOf(g.src.file).taken++;
    return g;
  }

  flush(): void {
    this.untaken(this.lines);
    this.lines = [];
  }

  /** The report's note per input: what the gateway's log told, request by request, where no attempt took it. */
  notes(): string[] {
    const out: string[] = [];
    for (const [file, a] of this.account) {
      const states = [...a.states].sort((x, y) => y[1] - x[1]).map(([s, n]) => `${s} x${n}`).join(', ');
      const head = `${file}: HAProxy's account of ${a.requests} HTTP request${a.requests === 1 ? '' : 's'} (no bodies: no JSON-RPC method or id, so no attempts of its own)`;
      const ended = states ? `; ended abnormally: ${states} (termination state)` : '; all ended normally (----)';
      const resent = a.resent ? `; ${a.resent} re-sent by HAProxy (retries)` : '';
      const taken = a.taken ? `; ${a.taken} joined to the attempt ${a.taken === 1 ? 'it tells' : 'they tell'} of (the why says what HAProxy saw)` : '';
      const rest = a.untaken.map((g) => `${g.src.file}:${g.src.line} ${g.method}${g.session !== null ? ` session ${g.session}` : ''} ${g.status ?? 'no status'}: ${g.said}`);
      out.push(`${head}${ended}${resent}${taken}${rest.length ? `; not joined to any attempt: ${rest.join('; ')}` : ''}`);
    }
    return out;
  }

  private accountOf(file: string) {
    let a = this.account.get(file);
    if (!a) this.account.set(file, (a = { requests: 0, states: new Map(), resent: 0, taken: 0, untaken: [] }));
    return a;
  }

  /** Lines no attempt took: the first few named in the note (the rest counted in the states). */
  private untaken(gs: GatewayLine[]): void {
    for (const g of gs) {
      if (g.said === '') continue;
      const a = this.accountOf(g.src.file);
      if (a.untaken.length < 5) a.untaken.push(g);
    }
  }
}
