// Adapter for Apache httpd's error log (the default ErrorLogFormat, 2.4): each mod_proxy line about a request (no connection to the backend, no status line before ProxyTimeout, a response cut, a worker put in error state) as the gateway's reason for how that request failed.
import type { ExchangeRecord } from '../schema/record.js';
import type { ApacheErrorLine } from '../schema/access-log.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { AdapterResult, GatewayAccount, TextFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

/**
 * `[Sun Dec 06 22:03:46.200993 2026] [proxy:error] [pid 23881:tid 23884] ` then, at debug, `proxy_util.c(2268): `,
 * then `(111)Connection refused: ` (the system error, when there is one), `[client 127.0.0.1:33404] ` (a line about a
 * request), `AH00957: ` and the message.
 */
const LINE = /^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) (\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?) (\d{4})\] \[([a-z_0-9]*):([a-z]+\d?)\] \[pid (\d+)(?::tid (\d+))?\] (.*)$/s;
const SOURCE = /^[\w.-]+\.c\(\d+\): /;
const OS_ERROR = /^(\(-?\d+\)[^:[]*): /;
const CLIENT = /^\[(?:client|remote) ([^\]]+)\] /;
const CODE = /^(AH\d{5}): /;
/** Levels at which mod_proxy says why a request failed (debug and trace lines narrate every request: skipped). */
const REASON_LEVELS = new Set(['emerg', 'alert', 'crit', 'error', 'warn']);

type Stage = NonNullable<GatewayAccount['stage']>;

/**
 * What Apache's words mean for the request, by its message code: how far the request got, whether the MCP server saw it
 * and who answered the client. Measured on Debian's 2.4.71 (test/fixtures/real-audit66/).
 */
function meaningOf(line: ApacheErrorLine): { stage: Stage; meaning: string } {
  const timeout = /\(70007\)/.test(line.os_error ?? '');
  switch (line.code) {
    case 'AH00957':
      return { stage: 'connect', meaning: 'Apache could not connect to that backend: the request never reached it' };
    case 'AH01114':
      return { stage: 'connect', meaning: 'Apache could not connect to the MCP server and answered the client itself (503): the server never saw the request (a balancer with another member sends it there instead, and the client gets that member\'s answer)' };
    case 'AH00940':
      return { stage: 'connect', meaning: 'the backend was in error state (retry=): Apache answered the client itself (503) without trying it, and the MCP server never saw the request' };
    case 'AH00959':
      return { stage: 'connect', meaning: 'Apache put that backend in error state after a failed connection: for that long it answers 503 for it without trying (a balancer sends to its other members)' };
    case 'AH01167': case 'AH01170':
      return { stage: 'connect', meaning: 'no balancer member could take the request: Apache answered the client itself (503), and no MCP server saw it' };
    case 'AH01102':
      return timeout
        ? { stage: 'head', meaning: 'the MCP server had the request and sent no response head within ProxyTimeout (or the worker\'s timeout=): Apache closed the server\'s connection and answered the client itself (502 on 2.4.71, not 504); the tool may have run' }
        : { stage: 'head', meaning: 'the MCP server (or its process) closed or reset the connection before any response head: Apache answered the client itself (502); the tool may have run' };
    case 'AH00898':
      return { stage: 'head', meaning: 'Apache got no response from the MCP server and answered the client itself (502, or 504 after a timeout on some versions); the tool may have run' };
    case 'AH01174':
      return { stage: 'head', meaning: 'the balancer put that member in error state because its answer\'s status matched failonstatus: the client got that status; the request was not sent to another member' };
    case 'AH01110':
      return timeout
        ? { stage: 'body', meaning: 'the MCP server\'s response had begun (its head was sent on) and then it was silent for ProxyTimeout: Apache cut the stream' }
        : { stage: 'body', meaning: 'the MCP server\'s response had begun and its connection closed before the end (the server process died, or Apache was stopping): Apache cut the stream' };
    case 'AH01097': case 'AH01095':
      return { stage: 'request', meaning: 'Apache failed while reading the request body from the client or passing it on to the MCP server: what the server got of it is not known' };
    default:
      return { stage: 'request', meaning: 'what the MCP server saw of it is not in this line' };
  }
}

/** The modules whose lines are about a proxied request: mod_proxy and its providers (proxy_http, proxy_balancer, ...). */
const isProxy = (module: string): boolean => module === 'proxy' || module.startsWith('proxy_');

function split(text: string): Record<string, unknown> | undefined {
  const m = LINE.exec(text);
  if (!m) return undefined;
  const [, mon, d, time, y, module, level, pid, tid, rest0] = m as unknown as string[];
  let rest = rest0!.replace(SOURCE, '');
  const os = OS_ERROR.exec(rest);
  if (os) rest = rest.slice(os[0].length);
  const client = CLIENT.exec(rest);
  if (client) rest = rest.slice(client[0].length);
  const code = CODE.exec(rest);
  if (code) rest = rest.slice(code[0].length);
  return {
    time: `${y}-${MONTHS[mon!] ?? '00'}-${d} ${time}`,
    module, level, thread: `${pid}${tid !== undefined ? `:${tid}` : ''}`,
    ...(os ? { os_error: os[1]!.trim() } : {}),
    ...(client ? { client: client[1] } : {}),
    ...(code ? { code: code[1] } : {}),
    message: rest.replace(/, referer: .*$/s, ''),
  };
}

function errorToRecords(text: string): AdapterResult {
  const parts = split(text);
  if (!parts) return { error: 'not an Apache error log line' };
  // Start-up, signals, children that would not exit (core, mpm_*), and mod_proxy's debug narration: no failed request
  // in them, nothing to analyze (counted as skipped).
  if (!isProxy(String(parts.module)) || !REASON_LEVELS.has(String(parts.level))) return [];
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const parsed = zod.ApacheErrorLineSchema.safeParse(parts);
  if (!parsed.success) return { error: `Apache error log line: ${describeZodError(parsed.error)}` };
  const line = parsed.data;
  const { stage, meaning } = meaningOf(line);
  // `; ` ends Apache's words (src/join/gateway-lines.ts counts by them and joins the lines of one failure)
  const words = `${line.code ? `${line.code}: ` : ''}${line.message.slice(0, 300)}${line.os_error ? ` ${line.os_error.startsWith('(') ? line.os_error : `(${line.os_error})`}` : ''}`.replace(/; /g, ', ');
  const rec: ExchangeRecord = {
    v: 1,
    kind: 'exchange',
    // the gateway's reason for a request it failed: no status (the access log has it), no body, no session, and no
    // method or path (Apache's line names none); it explains the client's attempt it belongs to (src/join/gateway-lines.ts)
    side: 'gateway',
    ts: line.time,
    method: 'POST',
    requestHeaders: {},
    status: null,
    end: 'error',
    error: `Apache's error log [${line.module}:${line.level}]: ${words}; ${meaning}`,
  };
  const account: GatewayAccount = { log: 'apache-error', startKnown: false, state: '--', retries: 0, beforeServerMs: 0, serverHead: false, stage, thread: line.thread };
  return [Object.assign(rec, { gatewayAccount: account })];
}

export const apacheErrorFormat: TextFormat = {
  kind: 'text',
  name: 'apache-error',
  detectText: (line) => line.length > 40 && line.charCodeAt(0) === 91 && line.charCodeAt(4) === 32 && LINE.test(line),
  textToRecords: (line) => errorToRecords(line),
  limits: {
    http: false,
    httpNote: 'no HTTP status (the access log has it)',
    bodies: false,
    session: false,
    // no ids at all (none to stringify)
    typedIds: true,
    gatewayAccount: true,
    notes: [
      "no status, body, JSON-RPC id, session, method or path: a line is no attempt; a mod_proxy line at warn or above (AH00957/AH01114 no connection, AH01102/AH00898 no status line, AH01110 a response cut, AH00959/AH01174 a worker put in error state) is Apache's reason for the client attempt that failed within a second of it and fits how far it got (no head: an HTTP error or no response; a cut: a 2xx stream with no answer), the lines one thread wrote for one failure together, named in that attempt's why, given with the client's log; alone, such lines are counted in a note, by reason",
      'times are local with no zone (--timezone, default UTC), to the microsecond; lines of other modules (start-up, signals, children) and mod_proxy\'s debug and trace lines are counted as skipped; a GET stream\'s cut (AH01110, as every ProxyTimeout of silence and every stop of Apache writes) cannot be told from a POST\'s: the line names no request',
    ],
  },
};
