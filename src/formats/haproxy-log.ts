// Adapter for HAProxy's HTTP log line (`option httplog`, `option httplog clf`; raw or after a syslog header): one HTTP exchange as the gateway saw it, with no body.
import type { ExchangeRecord } from '../schema/record.js';
import type { AdapterContext, AdapterResult, GatewayAccount, TextFormat } from './adapter.js';

const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

// option httplog (HAProxy 2.6.12 as recorded; the layout HAProxy documents since 1.9): `%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc
// %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r`, the captured headers (%hr, %hs) in braces when `capture request header`
// or `capture response header` is set. A syslog header (`<134>Dec  6 04:32:46 haproxy[8952]: `) may come
// before it.
const HTTPLOG = /^(\S+):(\d+) \[(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}:\d{2}:\d{2})\.(\d{3})\] (\S+) (\S+)\/(\S+) (-?\d+)\/(-?\d+)\/(-?\d+)\/(-?\d+)\/\+?(-?\d+) (-?\d+) \+?(\d+) (\S+) (\S+) ([A-Za-z-]{4}) (\d+)\/(\d+)\/(\d+)\/(\d+)\/(\+?\d+) (\d+)\/(\d+)((?: \{[^}]*\})*) "([^"]*)"\s*$/;
// option httplog clf: `%{+Q}o %{-Q}ci - - [%trg] %r %ST %B "" "" %cp %ms %ft %b %s %TR %Tw %Tc %Tr %Ta %tsc %ac %fc
// %bc %sc %rc %sq %bq %cc %cs %hrl %hsl` (the strings quoted: the captured headers one quoted field each).
const CLF = /^"?([0-9A-Fa-f.:]+)"? - - \[(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})\] "([^"]*)" (-?\d+) \+?(\d+) "[^"]*" "[^"]*" (\d+) (\d{3}) "([^"]*)" "([^"]*)" "([^"]*)" (-?\d+) (-?\d+) (-?\d+) (-?\d+) \+?(-?\d+) ([A-Za-z-]{4}) (\d+) (\d+) (\d+) (\d+) (\+?\d+) (\d+) (\d+)((?: "[^"]*")*)\s*$/;

/** One line, read: what either layout gives. */
export interface HaproxyLine {
  /** The request's time as HAProxy wrote it (ISO 8601; no zone in httplog: its local time). */
  ts: string;
  frontend: string;
  backend: string;
  /** The server it went to last (`<NOSRV>`: none). */
  server: string;
  /** TR/Tw/Tc/Tr/Ta in ms (-1: the phase was not reached). */
  timers: [number, number, number, number, number];
  status: number;
  bytes: number;
  /** The termination state, two to four letters (`----`: normal). */
  state: string;
  /** The connection retries (`retries`), and whether the last one went to another server (`+`: redispatched). */
  retries: number;
  redispatched: boolean;
  /** The captured request headers (the first `{}` block, or the quoted list of clf). */
  captured: string[];
  /** The request line. */
  request: string;
}

function fromHttplog(m: RegExpExecArray): HaproxyLine {
  const g = m as unknown as string[];
  const rc = g[25]!;
  const blocks = (g[28] ?? '').match(/\{[^}]*\}/g) ?? [];
  return {
    ts: `${g[5]}-${MONTHS[g[4]!] ?? '01'}-${g[3]}T${g[6]}.${g[7]}`,
    frontend: g[8]!, backend: g[9]!, server: g[10]!,
    timers: [Number(g[11]), Number(g[12]), Number(g[13]), Number(g[14]), Number(g[15])],
    status: Number(g[16]), bytes: Number(g[17]), state: g[20]!,
    retries: Number(rc.replace('+', '')), redispatched: rc.startsWith('+'),
    captured: blocks.length > 0 ? blocks[0]!.slice(1, -1).split('|') : [],
    request: g[29]!,
  };
}

function fromClf(m: RegExpExecArray): HaproxyLine {
  const g = m as unknown as string[];
  const rc = g[26]!;
  const quoted = (g[29] ?? '').match(/"[^"]*"/g)?.map((q) => q.slice(1, -1)) ?? [];
  // %cc %cs first, then %hrl (the request headers captured), then %hsl
  return {
    ts: `${g[4]}-${MONTHS[g[3]!] ?? '01'}-${g[2]}T${g[5]}.${g[12]}${g[6]}:${g[7]}`,
    frontend: g[13]!, backend: g[14]!, server: g[15]!,
    timers: [Number(g[16]), Number(g[17]), Number(g[18]), Number(g[19]), Number(g[20])],
    status: Number(g[9]), bytes: Number(g[10]), state: g[21]!,
    retries: Number(rc.replace('+', '')), redispatched: rc.startsWith('+'),
    captured: quoted.length > 2 ? quoted[2]!.split('|') : [],
    request: g[8]!,
  };
}

/** The request's date in brackets, as both layouts write it: where the line's own fields are found. */
const DATE_AT = / \[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2}[. ]/;
/** Longer lines are no HAProxy log line (its request line and captures are cut at a few KB): not tried. */
const MAX_LINE = 65_536;

/**
 * One line read, or undefined. The fields are matched from the token before the bracketed date (the client's
 * address), so a syslog header of any shape may come before them, and a long line costs one scan for the date.
 */
export function parseHaproxyLine(line: string): HaproxyLine | undefined {
  if (line.length > MAX_LINE) return undefined;
  const at = DATE_AT.exec(line);
  if (!at) return undefined;
  const before = line.slice(0, at.index);
  const h = HTTPLOG.exec(line.slice(before.lastIndexOf(' ') + 1));
  if (h) return fromHttplog(h);
  if (!before.endsWith(' - -')) return undefined;
  const c = CLF.exec(line.slice(before.lastIndexOf(' ', before.length - 5) + 1));
  return c ? fromClf(c) : undefined;
}

const WHO: Record<string, string> = {
  C: 'the client closed or reset the connection',
  S: 'the server closed, reset or refused the connection (or answered an error HAProxy counts as the server\'s)',
  P: 'HAProxy refused the request itself (an http-request deny, a rate limit, a tarpit, or an internal limit)',
  I: 'HAProxy hit an internal error',
  R: 'HAProxy ran out of a resource (memory, sockets)',
  D: 'HAProxy killed the session when the server was marked down',
  L: 'HAProxy answered the request itself (a return, redirect or stats page)',
  U: 'HAProxy killed the session when a backup server came up',
  K: 'an administrator killed the session',
  c: 'the client sent nothing within timeout client',
  s: 'the server sent nothing within timeout server',
};
const PHASE: Record<string, string> = {
  R: 'while HAProxy waited for the request',
  Q: 'while the request waited in the queue for a server',
  C: 'while HAProxy was connecting to the server',
  H: 'before the server\'s response head was complete',
  D: 'while the response body was being sent',
  L: 'while HAProxy sent the last of the response to the client',
  T: 'while the request was tarpitted',
};

/** The termination state in words ("HAProxy: the server closed ... while the response body was being sent (SD)"), or undefined for a normal end. */
export function terminationText(state: string): string | undefined {
  const two = state.slice(0, 2);
  if (two === '--') return undefined;
  const who = WHO[two[0]!];
  const phase = PHASE[two[1]!];
  const words = [who, phase].filter((x) => x !== undefined).join(' ');
  return `HAProxy's termination state ${two}: ${words || 'a state HAProxy 2.6 does not document'}`;
}

/** The retries in words, when HAProxy re-sent the request (the tool may have run on each server it reached). */
function retriesText(l: HaproxyLine): string | undefined {
  if (l.retries <= 0) return undefined;
  return `HAProxy re-sent this request ${l.retries === 1 ? 'once' : `${l.retries} times`} (retries ${l.redispatched ? '+' : ''}${l.retries}${l.redispatched ? ': redispatched to another server, the last one ' : ': the last to '}${l.backend}/${l.server})`;
}

/** A captured Mcp-Session-Id: the first captured request header, when it looks like one (visible ASCII, 8 characters or more). */
function sessionOf(l: HaproxyLine): string | undefined {
  const v = l.captured[0];
  return v !== undefined && v !== '-' && /^[\x21-\x7e]{8,}$/.test(v) ? v : undefined;
}

function haproxyToRecords(text: string, ctx: AdapterContext): AdapterResult {
  const l = parseHaproxyLine(text);
  if (!l) return { error: 'not an HAProxy HTTP log line' };
  const [method, url] = l.request.split(' ');
  // <BADREQ> (a connection closed or garbled before a request), a CONNECT or OPTIONS: no MCP exchange
  if (method === undefined || url === undefined || !/^(POST|GET|DELETE)$/.test(method)) return [];
  // Tr -1: no server's response head reached HAProxy, so a status it logged is its own (503, 504, a deny's 403 or 429)
  const own = l.status >= 400 && l.timers[3] < 0 && !(l.state[0] === 'C' || l.state[0] === 'c') ? `HAProxy answered ${l.status} itself: no server's response head reached it` : undefined;
  const said = [terminationText(l.state), own, retriesText(l)].filter((x): x is string => x !== undefined);
  const two = l.state.slice(0, 2);
  const clientGone = two[0] === 'C' || two[0] === 'c';
  // The status HAProxy logs for a client that left before the head (CH: 400, CR/CQ/CC: -1 or 503) was sent to no one.
  const headSent = !clientGone || two[1] === 'D' || two[1] === 'L';
  const status = l.status >= 100 && headSent ? l.status : null;
  const end = clientGone ? 'aborted' : two[0] === 's' && (two[1] === 'D' || two[1] === 'L') ? 'timeout' : (two[0] === 'S' || two[0] === 'I' || two[0] === 'D' || two[0] === 'K') && (two[1] === 'D' || two[1] === 'L') ? 'error' : 'complete';
  const sid = sessionOf(l);
  const rec = {
    v: 1,
    kind: 'exchange',
    // the gateway's view: HAProxy is the server of its clients and the client of its servers
    side: ctx.side === 'client' || ctx.side === 'server' ? ctx.side : 'gateway',
    ts: l.ts,
    method,
    url,
    requestHeaders: sid !== undefined ? { 'mcp-session-id': sid } : {},
    status,
    end,
    ...(l.timers[4] >= 0 ? { durationMs: l.timers[4] } : {}),
    ...(said.length > 0 ? { error: `${said.join('; ')} (${l.backend}/${l.server}, status ${l.status}, timers ${l.timers.join('/')})` } : {}),
  } as ExchangeRecord;
  // What the join reads of the line beside the exchange (see GatewayAccount): the state and the retries, not in the schema
  const [tR, tw, tc, tr] = l.timers;
  const account: GatewayAccount = { log: 'haproxy', startKnown: true, state: two, retries: l.retries, beforeServerMs: Math.max(0, tR) + Math.max(0, tw) + Math.max(0, tc), serverHead: tr >= 0 };
  return [Object.assign(rec, { gatewayAccount: account })];
}

export const haproxyLogFormat: TextFormat = {
  kind: 'text',
  name: 'haproxy-log',
  detectText: (line) => line.includes('] ') && parseHaproxyLine(line) !== undefined,
  textToRecords: haproxyToRecords,
  limits: {
    http: true,
    bodies: false,
    bodiesNote: 'no bodies at all (no JSON-RPC method, id, tool or result: a line is one HTTP exchange of the gateway, joined to a client\'s or server\'s attempt by session, status and time)',
    session: true,
    typedIds: true,
    gatewayAccount: true,
    notes: [
      'no request body: alone, the log shows no tools/call; given beside a client\'s log (as --server) or the servers\' logs, each line that ended abnormally (its termination state) or was re-sent (retries) is joined to the attempt of the same session (a captured Mcp-Session-Id: `capture request header mcp-session-id len 64`), method and status that started within a second of it',
      'the session id only when captured (the first captured request header); the time is HAProxy\'s local time without a zone (--timezone, default UTC), to the millisecond',
      'the retries counter says HAProxy re-sent the request (a + prefix: to another server), not where each try went nor what it did: joined with the servers\' logs, a server\'s view alone of the same request (same JSON-RPC id and call, started while HAProxy had it) is attempt 1 of the call and the attempt of the line its re-send (retryOrigin gateway, UNSAFE_RETRY for a tool not safe to repeat); with the client\'s log only, UNSAFE_RETRY is a warning on the attempt the client saw',
      'the termination state ---- (normal) does not prove the client read the answer: without option abortonclose HAProxy 2.6 wrote the whole answer of a client that had already gone (real-audit52/hap-client-quit-*)',
    ],
  },
};
