// Client and server session ids paired by their initialize exchanges when a gateway between them rewrote the id; released as the sessions close.
import type { AttemptView, ViewSide } from './attempt.js';
import { escapeJsonControls } from '../report/text.js';

/** Pairs kept at most (a safety bound: each pair goes when both its sessions have closed). */
const PAIRS_KEPT = 65_536;
/** Pairings (and ambiguous sessions) named in the report's note; the rest are counted. */
const NAMED = 3;

/**
 * The client's session id and the server's for the same session, when they differ: a gateway that gives the client
 * ids of its own (`gw-1-…`) and maps them to the server's both ways. Views of the client's session then join the
 * server's by JSON-RPC id as views of one session do. Each pair is kept until both sessions have closed.
 */
export class SessionPairs {
  private toServer = new Map<string, string>();
  private toClient = new Map<string, string>();
  /** Sessions of a pair whose state closed, until the other one closes too. */
  private closedOnce = new Set<string>();
  /** How many pairs were made, and the first few (client id, server id), for the report's note. */
  paired = 0;
  readonly named: [string, string][] = [];
  /** Client sessions left apart because more than one server session's initialize fitted theirs (or the reverse). */
  ambiguous = 0;
  readonly ambiguousNamed: string[] = [];

  /** The server's id of a client session paired with one. */
  serverOf(clientSession: string): string | undefined {
    return this.toServer.get(clientSession);
  }

  /** The client's id of a server session paired with one. */
  clientOf(serverSession: string): string | undefined {
    return this.toClient.get(serverSession);
  }

  get size(): number {
    return this.toServer.size;
  }

  /** Of the pairs, those whose initialize exchanges alone were alike and the requests after them told apart. */
  toldByRequests = 0;

  pair(clientSession: string, serverSession: string, byRequests = false): void {
    if (byRequests) this.toldByRequests++;
    if (this.toServer.size >= PAIRS_KEPT) {
      const [c, s] = this.toServer.entries().next().value!;
      this.forget(c, s);
    }
    this.toServer.set(clientSession, serverSession);
    this.toClient.set(serverSession, clientSession);
    this.paired++;
    if (this.named.length < NAMED) this.named.push([clientSession, serverSession]);
  }

  /** A client session whose initialize fitted more than one server session's (or one of several clients'): kept apart. */
  leftApart(clientSession: string): void {
    this.ambiguous++;
    if (this.ambiguousNamed.length < NAMED) this.ambiguousNamed.push(clientSession);
  }

  /** A session's state closed (see SessionTracker): its pair goes once the other session of it has closed too. */
  closed(side: ViewSide, session: string | null): void {
    if (session === null || this.toServer.size === 0) return;
    const c = side === 'client' ? session : side === 'server' ? this.toClient.get(session) : undefined;
    const s = c !== undefined ? this.toServer.get(c) : undefined;
    if (c === undefined || s === undefined) return;
    const key = `${side}|${session}`;
    const other = side === 'client' ? `server|${s}` : `client|${c}`;
    if (this.closedOnce.has(other)) this.forget(c, s);
    else this.closedOnce.add(key);
  }

  private forget(c: string, s: string): void {
    this.toServer.delete(c);
    this.toClient.delete(s);
    this.closedOnce.delete(`client|${c}`);
    this.closedOnce.delete(`server|${s}`);
  }

  /** The report's note, or undefined when no session was paired or left apart. */
  note(): string | undefined {
    const out: string[] = [];
    const id = quoteId;
    if (this.paired > 0) {
      const list = this.named.map(([c, s]) => `${id(c)} with ${id(s)}`).join(', ');
      const more = this.paired > this.named.length ? ` and ${this.paired - this.named.length} more` : '';
      out.push(`${this.paired === 1 ? "1 client session id the server's log does not show was" : `${this.paired} client session ids the server's log does not show were`} paired with the server's session by their initialize exchanges (same JSON-RPC id, HTTP status, clientInfo and protocol version, within --skew; one candidate each${this.toldByRequests > 0 ? '; where more than one fitted, the only session whose requests after it were the same calls under the same JSON-RPC ids' : ''}): ${list}${more}; a gateway between them gives the client session ids of its own, and the requests of each pair are joined by JSON-RPC id`);
    }
    if (this.ambiguous > 0) {
      const more = this.ambiguous > this.ambiguousNamed.length ? ` and ${this.ambiguous - this.ambiguousNamed.length} more` : '';
      out.push(`${this.ambiguous === 1 ? "1 client session id the server's log does not show was" : `${this.ambiguous} client session ids the server's log does not show were`} not paired with a server session: the initialize of more than one fitted (same JSON-RPC id, HTTP status, clientInfo and protocol version, within --skew): ${this.ambiguousNamed.map(id).join(', ')}${more}; ${this.ambiguous === 1 ? 'its' : 'their'} calls are counted in each log apart (their requests did not tell them apart either: the same calls under the same JSON-RPC ids in more than one, or none in common; when the two logs' clocks agree, a --skew shorter than the time between those sessions' initialize exchanges tells them apart)`);
    }
    return out.length ? out.join('. ') : undefined;
  }
}

/** A session id as the notes and whys quote it: cut at 80 characters, JSON-quoted, every control character escaped (ids come from logs). */
export function quoteId(s: string): string {
  return escapeJsonControls(JSON.stringify(s.slice(0, 80)));
}

/** What a session's initialize asked and got, to tell two sessions' initialize exchanges apart: id, status, clientInfo, version asked for. */
export function initializeFit(v: AttemptView): string {
  const init = v.initialize;
  const text = (x: unknown) => (x === undefined ? '' : JSON.stringify(x) ?? '').slice(0, 500);
  return `${v.idKey}|${v.status}|${text(init?.clientInfo)}|${text(init?.requestedProtocolVersion)}`;
}

/** Whether two initialize views' answers agree where both kept them (server and negotiated version). */
export function answersAgree(a: AttemptView, b: AttemptView): boolean {
  const same = (x: unknown, y: unknown) => x === undefined || y === undefined || JSON.stringify(x) === JSON.stringify(y);
  return same(a.initialize?.serverInfo, b.initialize?.serverInfo) && same(a.initialize?.protocolVersion, b.initialize?.protocolVersion);
}
