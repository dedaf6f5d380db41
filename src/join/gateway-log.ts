// What a gateway's own logs (nginx's combined access log, its error log) say of POSTs they keep no body of: kept for the client attempt each explains, counted per input when none took it.
import type { Source } from './attempt.js';
import type { Attempt } from './match.js';

/** One line of a gateway's log about a POST: the status it answered (access log) or its reason (error log, no status). */
export interface GatewayLine {
  /** The status nginx logged (499: the client left first); null for an error log's reason. */
  status: number | null;
  /** What the line says, for the attempt's why (the format's words). */
  said: string;
  /** When the request started (an access log line with $request_time), ended (without it), or the error happened. */
  ts: number | undefined;
  src: Source;
}

/** How far a gateway line's time may be from the client attempt's start and end: the logs have whole seconds. */
const SLACK_MS = 1000;
/** How long after its start a client view with no end (its log stopped mid-call) may be explained by a line. */
const OPEN_MS = 60_000;
/** Lines kept at most: a burst of errors with no client log must not fill memory (the oldest are counted then). */
const KEPT = 20_000;

/** The outcomes of a client attempt that got no answer, which a gateway's reason may explain. */
const FAILED = new Set(['HTTP_ERROR', 'NO_RESPONSE', 'STREAM_INCOMPLETE']);

/** A client attempt this line may explain: one that failed the way the line says (no answer, an HTTP error, a cut stream). */
function fits(line: GatewayLine, a: Attempt): boolean {
  const c = a.client;
  if (!c || c.startTs === undefined || line.ts === undefined) return false;
  // A view the client's log ends in, with no answer and no end (the app was stopped mid-call), has no known end: a line
  // nginx wrote when the connection closed (499) may come after the log's last record, within the window.
  const open = c.response === undefined && (c.streamEnd === undefined || c.endUnseen === true);
  const end = open ? c.startTs + OPEN_MS : (c.endTs ?? c.startTs);
  if (line.ts < c.startTs - SLACK_MS || line.ts > end + SLACK_MS) return false;
  const status = c.status;
  // (a client's message log has no status: its attempt must have failed without an answer, as its outcome says)
  if (line.status === null) return (typeof status === 'number' && status >= 400) || FAILED.has(c.outcome ?? '');
  // A POST nginx re-sent to its next upstream and answered 2xx is one of the many 2xx POSTs of its second, which a
  // line's time (whole seconds) cannot tell apart: it is counted, never given to one of them.
  if (line.status < 400) return false;
  if (line.status === 499) return typeof status !== 'number' ? FAILED.has(c.outcome ?? '') || c.outcome === 'UNANSWERED' : c.outcome === 'STREAM_INCOMPLETE';
  return status === line.status;
}

export class GatewayLog {
  private lines: GatewayLine[] = [];
  /** Lines no client attempt took, per input and status or reason: the gateway's own account, for the report's notes. */
  readonly unmatched = new Map<string, { file: string; status: number | null; label: string; count: number; first: Source }>();

  add(line: GatewayLine): void {
    if (this.lines.length >= KEPT) this.count(this.lines.shift()!);
    this.lines.push(line);
  }

  get size(): number {
    return this.lines.length;
  }

  /**
   * What the gateway's logs say of a client attempt: the nearest access log line of its status and the nearest error
   * log reason, each taken once (two attempts that failed alike in the same second take one each, nearest first).
   */
  take(a: Attempt): string[] {
    if (!a.client) return [];
    const start = a.client?.startTs;
    if (start === undefined || this.lines.length === 0) return [];
    const said: string[] = [];
    for (const reason of [false, true]) {
      let best = -1;
      for (let i = 0; i < this.lines.length; i++) {
        const l = this.lines[i]!;
        if ((l.status === null) !== reason || !fits(l, a)) continue;
        if (best === -1 || Math.abs(l.ts! - start) < Math.abs(this.lines[best]!.ts! - start)) best = i;
      }
      if (best !== -1) said.push(this.lines.splice(best, 1)[0]!.said);
    }
    return said;
  }

  /** Lines older than `before` can explain no attempt still to come: counted as the gateway's own account. */
  expire(before: number): void {
    if (this.lines.length === 0 || (this.lines[0]!.ts ?? -Infinity) >= before) return;
    const keep: GatewayLine[] = [];
    for (const l of this.lines) {
      if (l.ts !== undefined && l.ts >= before) keep.push(l);
      else this.count(l);
    }
    this.lines = keep;
  }

  flush(): void {
    for (const l of this.lines) this.count(l);
    this.lines = [];
  }

  private count(l: GatewayLine): void {
    // an error log line's reason: nginx's words (up to the upstream or the "; " before what they mean), without the
    // numbers that vary (`excess: 2.985 by zone "mcp"`, `4095 bytes`)
    const words = l.said.replace(/^nginx's error log \[\w+\](?: \*\d+)?: /, '');
    const cut = [words.indexOf(' (upstream '), words.indexOf('; ')].filter((i) => i !== -1);
    const label = l.status !== null ? `HTTP ${l.status}${l.status < 400 ? ' after a re-send to the next upstream' : ''}` : words.slice(0, cut.length ? Math.min(...cut) : 160).replace(/, excess: [\d.]+ by zone "[^"]*"/, '').replace(/: \d+ bytes$/, '');
    let key = `${l.src.file}|${label}`;
    let known = this.unmatched.get(key);
    if (!known && this.unmatched.size >= 1000) known = this.unmatched.get((key = `${l.src.file}|other`));
    if (known) known.count++;
    else this.unmatched.set(key, { file: l.src.file, status: l.status, label: key.endsWith('|other') ? 'other' : label, count: 1, first: l.src });
  }
}
