// Adapters for the Cakewalk MCP test kitchen's own server-side records: RequestLoggingMiddleware's line per request (.NET's JSON console line, or its text via dotnet-console) and McpProtocolObservationMiddleware's observations (rows, the list API's page, the SSE stream's frames): each one HTTP exchange the server saw, no body, no JSON-RPC id.
import type { KitchenObservation } from '../schema/kitchen.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import type { ExchangeRecord } from '../schema/record.js';
import type { AdapterContext, AdapterResult, GatewayAccount, JsonFormat, SourceLimits, TextFormat } from './adapter.js';
import { requestLineRecord } from './request-line.js';
import { parseTimestamp } from './time.js';
import type { Obj } from './values.js';
import { describeZodError } from './zod-error.js';

/** The middleware's template, and its message as the template renders it. */
export const REQUEST_LOG_TEMPLATE = 'HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {ElapsedMs}ms';
const REQUEST_LOG_MESSAGE = /^HTTP ([A-Z]+) (\S+) responded (\d{3}) in (\d+)ms$/;
const CATEGORY_END = '.RequestLoggingMiddleware';
/** Longest text kept of a value the log or the observation gave (a method name, a tool name, an id). */
const SHORT = 120;

const short = (v: string): string => (v.length > SHORT ? `${v.slice(0, SHORT)}...` : v);
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A line of RequestLoggingMiddleware: its category (any namespace before the class) and its message's words. */
export function isRequestLogLine(category: unknown, message: unknown): boolean {
  return typeof category === 'string' && category.endsWith(CATEGORY_END) && typeof message === 'string' && REQUEST_LOG_MESSAGE.test(message);
}

/** What a status the server sent itself means, in the request log's words (the observations tell the layers apart). */
function ownStatus(status: number): string {
  if (status === 401 || status === 429) return `: the MCP server answered it itself, no hop did (its ${status === 401 ? 'PAT check' : 'rate limiter'}, before the observations and any tool, or a status errors.http_status_sequence injected: an observation of it tells which)`;
  if (status >= 400) return ': the MCP server answered it itself, no hop did';
  return '';
}

/**
 * One line of the request log as an exchange, from its Timestamp (when the request ended: the line is written in the
 * middleware's finally) and the template's values. `ts` undefined: the line has no date (Development's "HH:mm:ss ").
 */
export function requestLogRecords(ts: string | undefined, message: string, ctx: AdapterContext): AdapterResult {
  const m = REQUEST_LOG_MESSAGE.exec(message);
  if (!m) return { error: 'not a RequestLoggingMiddleware line' };
  const [, method, path, statusText, elapsedText] = m as unknown as [string, string, string, string, string];
  // GETs (the standalone stream, logged only when they failed or were slow), DELETEs and other paths: no POST to join
  if (method !== 'POST' || !/^\/mcp(?:\/|$)/i.test(path)) return [];
  const status = Number(statusText);
  const elapsed = Number(elapsedText);
  const end = ts === undefined ? undefined : parseTimestamp(ts, ctx.timezone);
  const said = `the kitchen's request log has this POST ${short(path)} answered ${status} in ${elapsed} ms${ownStatus(status)}`;
  return [requestLineRecord('kitchen-log', method, path, status, elapsed, end, said)];
}

/**
 * Whether the kitchen's scenario layer (ScenarioWireMiddleware, inside the observations, before the MCP SDK) answered a
 * POST itself, by the observation's scenario and what the client got: `errors.jsonrpc_error` answers a tools/call with a
 * JSON-RPC error in HTTP 200 (its tool, ScenarioBase's, only ever returns a result), `errors.http_status_sequence` and
 * `errors.http_status_per_method` answer a POST with a bare non-2xx status (cakewalk-mcp-test-kitchen @ cf2f689). Then
 * no tool ran for it. Other scenarios' answers (a tool error, a timeout, a closed connection) prove nothing of the kind.
 */
export function kitchenAnsweredBeforeTool(scenario: string, rpcMethod: string | undefined, status: number | null, clientStatus: number | null | undefined, jsonRpcError: boolean): string | undefined {
  if (scenario === 'errors.jsonrpc_error' && rpcMethod === 'tools/call' && status === 200 && jsonRpcError) return `its scenario ${scenario} answers a tools/call with a JSON-RPC error in its wire layer, before the MCP SDK sees the request (its tool only ever returns a result): no tool ran for it`;
  if ((scenario === 'errors.http_status_sequence' || scenario === 'errors.http_status_per_method') && status !== null && (status < 200 || status > 299) && clientStatus === status) return `its scenario ${scenario} answers a POST with a bare HTTP ${status} in its wire layer, before the MCP SDK sees the request: no tool ran for it`;
  return undefined;
}

/** An observation row (ObservationResponse, camelCase as the API and the stream write it). */
function isObservation(v: Obj): boolean {
  return typeof v.requestId === 'string' && typeof v.method === 'string' && typeof v.phase === 'string' && typeof v.durationMs === 'number' && typeof v.wasCancelled === 'boolean' && typeof v.occurredAt === 'string';
}

/** The list API's page (ObservationListResponse): items, totalCount, page, pageSize. */
function isObservationPage(v: Obj): boolean {
  return Array.isArray(v.items) && typeof v.totalCount === 'number' && typeof v.pageSize === 'number' && v.items.every((x) => isObj(x) && isObservation(x));
}

/** The tool an observation names (requestParamsJson of a tools/call is `{"name": ...}`). */
function toolOf(row: KitchenObservation): string | null {
  if (row.method !== 'tools/call' || typeof row.requestParamsJson !== 'string') return null;
  try {
    const p = JSON.parse(row.requestParamsJson) as unknown;
    return isObj(p) && typeof p.name === 'string' ? p.name : null;
  } catch {
    return null;
  }
}

/** One observation as an exchange that started durationMs before occurredAt (written when the response was done). */
function observationRecord(row: KitchenObservation, ctx: AdapterContext): ExchangeRecord {
  const end = parseTimestamp(row.occurredAt, ctx.timezone);
  const status = row.statusCode ?? null;
  const duration = Math.max(0, row.durationMs);
  const method = short(row.method);
  const tool = toolOf(row);
  const scenario = typeof row.scenarioId === 'string' ? `, scenario ${short(row.scenarioId)}` : '';
  const cancelled = row.wasCancelled === true ? '; the request was aborted before the server was done (wasCancelled)' : '';
  const own = status !== null && status >= 400 ? ': the MCP server answered it itself, past its rate limiter and PAT check (a status the scenario layer injects, or the MCP SDK\'s own)' : '';
  const said = `the kitchen's observation ${short(row.requestId)} has this POST (${method}${tool !== null ? ` ${short(tool)}` : ''}, phase ${short(row.phase)}${scenario}) answered ${status ?? 'with no status'} in ${duration} ms${own}${cancelled}`;
  const account: GatewayAccount = { log: 'kitchen-observation', startKnown: true, state: '--', retries: 0, beforeServerMs: 0, serverHead: true, rpcMethod: row.method, tool, cancelled: row.wasCancelled === true, ...(typeof row.scenarioId === 'string' ? { scenario: row.scenarioId } : {}) };
  const rec = {
    v: 1,
    kind: 'exchange',
    side: 'server',
    ...(end !== undefined ? { ts: new Date(end - duration).toISOString() } : {}),
    method: 'POST',
    url: '/mcp',
    requestHeaders: {},
    status,
    durationMs: duration,
    error: said,
  } as ExchangeRecord;
  return Object.assign(rec, { gatewayAccount: account });
}

function observationRecords(v: Obj, ctx: AdapterContext): AdapterResult {
  const zod = schemas();
  if (!zod) return { error: NEEDS_SCHEMAS };
  const rows = isObservationPage(v) ? (v.items as unknown[]) : [v];
  const out: ExchangeRecord[] = [];
  for (const [i, row] of rows.entries()) {
    const parsed = zod.KitchenObservationSchema.safeParse(row);
    if (!parsed.success) return { error: `the kitchen's observation${rows.length > 1 ? ` (item ${i + 1})` : ''}: ${describeZodError(parsed.error)}` };
    out.push(observationRecord(parsed.data, ctx));
  }
  // The page lists newest first: its records go oldest first, as a log's lines do
  return out.sort((a, b) => (parseTimestamp(a.ts) ?? 0) - (parseTimestamp(b.ts) ?? 0));
}

const LIMITS: SourceLimits = {
  http: true,
  bodies: false,
  session: false,
  // (no ids at all: nothing is joined on one)
  typedIds: true,
  gatewayAccount: true,
  notes: [],
};

export const kitchenLogFormat: JsonFormat = {
  kind: 'json',
  name: 'kitchen-log',
  detect: (v) => isRequestLogLine(v.Category, v.Message),
  toRecords: (v, ctx) => requestLogRecords(typeof v.Timestamp === 'string' ? v.Timestamp : undefined, v.Message as string, ctx),
  limits: {
    ...LIMITS,
    bodiesNote: 'no bodies, no JSON-RPC method, id, session or tool: each POST /mcp line is the server\'s account of one request (its status and how long it took), joined to the client\'s attempt of the same status that started within a second of it (a clock further off, found within --skew, is first put on the client\'s)',
    notes: [
      "the MCP test kitchen's request log (RequestLoggingMiddleware; .NET's JSON console lines, or the Development text lines through dotnet-console): written when a request ended, its start is the line's time less ElapsedMs; successful GETs are not logged; a status here was sent by the server itself (no hop in front of it logs here), but the line cannot say which of its layers sent it (401: the PAT check; 429: the rate limiter; any status: errors.http_status_sequence): the observations tell",
      'the Development text format\'s time ("HH:mm:ss ") has no date: such lines are counted, not joined',
    ],
  },
};

export const kitchenObservationFormat: JsonFormat = {
  kind: 'json',
  name: 'kitchen-observation',
  detect: (v) => isObservation(v) || isObservationPage(v),
  toRecords: observationRecords,
  limits: {
    ...LIMITS,
    bodiesNote: 'no bodies and no JSON-RPC id: each observation is the server\'s account of one /mcp POST (method, tool, status, duration, wasCancelled), joined to the client\'s attempt of the same method, tool and status that started within a second of it (a clock further off, found within --skew, is first put on the client\'s)',
    notes: [
      "the MCP test kitchen's observations (GET /api/management/observations pages, or rows one a line): one per /mcp POST that got past the rate limiter and the PAT check (their 429 and 401 have none); no JSON-RPC id, result, isError or error code (a 200 may carry a JSON-RPC error or a tool error: the client's log says which); Mcp-Session-Id is redacted, so no session; occurredAt is when the response was done, the start is that less durationMs",
    ],
  },
};

/** The SSE stream saved as it came (`curl -N .../observations/stream > file`): `data: <row>` frames, `: heartbeat` comments. */
const FRAME = /^data: ?(\{.*\})\s*$/s;
const HEARTBEAT = /^: ?heartbeat\s*$/;

export const kitchenObservationStreamFormat: TextFormat = {
  kind: 'text',
  name: 'kitchen-observation-stream',
  detectText: (line) => {
    if (HEARTBEAT.test(line)) return true;
    const m = FRAME.exec(line);
    if (!m || !m[1]!.includes('"requestId"')) return false;
    try {
      const v = JSON.parse(m[1]!) as unknown;
      return isObj(v) && isObservation(v);
    } catch {
      return false;
    }
  },
  textToRecords: (line, ctx) => {
    const m = FRAME.exec(line);
    if (!m) return [];
    return observationRecords(JSON.parse(m[1]!) as Obj, ctx);
  },
  limits: { ...kitchenObservationFormat.limits, notes: [...kitchenObservationFormat.limits.notes, 'the stream sends only observations made while it was open, for the signed-in caller; its heartbeat comments are skipped'] },
};
