// Adapter for mcp-triage's own canonical records (version 1): a cheap guard on the hot path, zod for precise errors.
import type { CanonicalRecord } from '../schema/record.js';
import { RECORD_KINDS } from '../schema/kinds.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import { FULL_VIEW, type AdapterResult, type JsonFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

const KINDS = new Set<string>(RECORD_KINDS);
const isStr = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optTs = (v: unknown): boolean => v === undefined || typeof v === 'string' || typeof v === 'number';
const optObj = (v: unknown): boolean => v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v));

/** True when the common shape of a record is certainly valid, so the full zod parse can be skipped. */
export function quickValid(r: Record<string, unknown>): boolean {
  if (!optTs(r.ts) || !optStr(r.conn) || !optStr(r.client)) return false;
  if (r.side !== undefined && r.side !== 'client' && r.side !== 'server' && r.side !== 'gateway') return false;
  if (r.session !== undefined && r.session !== null && !isStr(r.session)) return false;
  switch (r.kind) {
    case 'exchange':
      return (
        isStr(r.method) && (r.status === null || Number.isSafeInteger(r.status)) && optStr(r.xid) && optStr(r.url) &&
        optObj(r.requestHeaders) && optObj(r.responseHeaders) && optStr(r.sendText) && optStr(r.recvText) &&
        eventsOk(r.events) && noteOk(r.note) && optStr(r.error) &&
        (r.end === undefined || r.end === 'complete' || r.end === 'aborted' || r.end === 'timeout' || r.end === 'error') &&
        (r.durationMs === undefined || typeof r.durationMs === 'number') && (r.endUnknown === undefined || typeof r.endUnknown === 'boolean') &&
        headersOk(r.requestHeaders) && headersOk(r.responseHeaders)
      );
    case 'message':
      return (r.direction === 'c2s' || r.direction === 's2c') && r.message !== undefined && (r.status === undefined || Number.isSafeInteger(r.status)) &&
        optStr(r.error) && (r.durationMs === undefined || (typeof r.durationMs === 'number' && Number.isFinite(r.durationMs) && r.durationMs >= 0));
    case 'event':
      return isStr(r.xid) && isStr(r.data) && optStr(r.id) && optStr(r.event) && (r.retry === undefined || typeof r.retry === 'number');
    case 'request':
      return isStr(r.xid) && isStr(r.method) && optStr(r.url) && optObj(r.requestHeaders) && headersOk(r.requestHeaders) && optStr(r.sendText) && noteOk(r.note);
    case 'response':
      return isStr(r.xid) && Number.isSafeInteger(r.status) && optObj(r.responseHeaders) && headersOk(r.responseHeaders) && optStr(r.recvText) && eventsOk(r.events);
    case 'end':
      return isStr(r.xid) && (r.end === 'complete' || r.end === 'aborted' || r.end === 'timeout' || r.end === 'error') && optStr(r.error) && optStr(r.recvText) && optStr(r.nonSseText) &&
        (r.durationMs === undefined || typeof r.durationMs === 'number');
    default:
      return false;
  }
}

const ORIGINS = new Set(['none', 'sdk', 'app', 'user', 'gateway', 'unknown']);

function noteOk(n: unknown): boolean {
  if (n === undefined) return true;
  if (typeof n !== 'object' || n === null || Array.isArray(n)) return false;
  const o = n as Record<string, unknown>;
  return (o.retryOrigin === undefined || (typeof o.retryOrigin === 'string' && ORIGINS.has(o.retryOrigin))) &&
    (o.attempt === undefined || (Number.isSafeInteger(o.attempt) && (o.attempt as number) > 0)) && optStr(o.call);
}

/** A response body kept as SSE events: each one an object with string data and the optional fields well typed. */
function eventsOk(events: unknown): boolean {
  if (events === undefined) return true;
  if (!Array.isArray(events)) return false;
  for (const e of events) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
    const o = e as Record<string, unknown>;
    if (!isStr(o.data) || !optTs(o.ts) || !optStr(o.id) || !optStr(o.event) || (o.retry !== undefined && typeof o.retry !== 'number')) return false;
  }
  return true;
}

function headersOk(h: unknown): boolean {
  if (h === undefined) return true;
  const o = h as Record<string, unknown>;
  for (const k in o) if (typeof o[k] !== 'string') return false; // JSON.parse objects have no inherited keys
  return true;
}

/** How to fix the fields a hand-written logger most often gets wrong, by the top-level field of the first issue. */
const HINTS: Record<string, string> = {
  status: 'status is the HTTP status as a number; on an exchange, null when no response came (a failed fetch)',
  end: 'end is one of complete, aborted, timeout, error',
  xid: 'xid joins the records of one exchange: text or an integer, the same on each of them',
  ts: 'ts is ISO 8601 text or epoch seconds, milliseconds, microseconds or nanoseconds',
  method: 'method is the HTTP method as text (POST, GET, DELETE)',
  requestHeaders: 'headers are an object of names to text (numbers and arrays of text are read too)',
  responseHeaders: 'headers are an object of names to text (numbers and arrays of text are read too)',
  data: "data is the SSE event's data field as text",
  direction: 'direction is c2s (client to server) or s2c',
  note: 'note may have retryOrigin (none, sdk, app, user, gateway, unknown), attempt (a positive integer) and call (text)',
  durationMs: 'durationMs is a number of milliseconds',
  session: 'session is the Mcp-Session-Id as text (or null)',
  side: 'side is client, server or gateway',
  events: "events are objects with data (the SSE event's data field, as text) and optional id, event, ts",
};

function hintFor(issues: readonly { path: readonly PropertyKey[] }[]): string | undefined {
  const first = [...issues].sort((a, b) => a.path.length - b.path.length)[0];
  const field = first?.path[0];
  return typeof field === 'string' && Object.hasOwn(HINTS, field) ? `fix: ${HINTS[field]}` : undefined;
}

export const canonicalFormat: JsonFormat = {
  kind: 'json',
  name: 'canonical',
  detect: (v) => v.v === 1 && typeof v.kind === 'string' && KINDS.has(v.kind),
  toRecords(value): AdapterResult {
    if (quickValid(value)) return [value as unknown as CanonicalRecord];
    const zod = schemas();
    if (!zod) return { error: NEEDS_SCHEMAS };
    const parsed = zod.CanonicalRecordSchema.safeParse(value);
    if (parsed.success) return [parsed.data];
    const hint = hintFor(parsed.error.issues);
    return { error: `not a valid canonical ${String(value.kind)} record: ${describeZodError(parsed.error)}${hint ? ` (${hint})` : ''}` };
  },
  limits: FULL_VIEW,
};
