// Adapter for mcp-triage's own canonical records (version 1): a cheap guard on the hot path, zod for precise errors.
import { CanonicalRecordSchema, RECORD_KINDS, type CanonicalRecord } from '../schema/record.js';
import { FULL_VIEW, type AdapterResult, type JsonFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

const KINDS = new Set<string>(RECORD_KINDS);
const isStr = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optTs = (v: unknown): boolean => v === undefined || typeof v === 'string' || typeof v === 'number';
const optObj = (v: unknown): boolean => v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v));

/** True when the common shape of a record is certainly valid, so the full zod parse can be skipped. */
function quickValid(r: Record<string, unknown>): boolean {
  if (!optTs(r.ts) || !optStr(r.conn) || !optStr(r.client)) return false;
  if (r.side !== undefined && r.side !== 'client' && r.side !== 'server' && r.side !== 'gateway') return false;
  if (r.session !== undefined && r.session !== null && !isStr(r.session)) return false;
  switch (r.kind) {
    case 'exchange':
      return (
        isStr(r.method) && (r.status === null || Number.isInteger(r.status)) && optStr(r.xid) && optStr(r.url) &&
        optObj(r.requestHeaders) && optObj(r.responseHeaders) && optStr(r.sendText) && optStr(r.recvText) &&
        r.events === undefined && r.note === undefined && optStr(r.error) &&
        (r.end === undefined || r.end === 'complete' || r.end === 'aborted' || r.end === 'timeout' || r.end === 'error') &&
        (r.durationMs === undefined || typeof r.durationMs === 'number') && headersOk(r.requestHeaders) && headersOk(r.responseHeaders)
      );
    case 'message':
      return (r.direction === 'c2s' || r.direction === 's2c') && (r.status === undefined || Number.isInteger(r.status));
    case 'event':
      return isStr(r.xid) && isStr(r.data) && optStr(r.id) && optStr(r.event) && r.retry === undefined;
    default:
      return false;
  }
}

function headersOk(h: unknown): boolean {
  if (h === undefined) return true;
  for (const v of Object.values(h as Record<string, unknown>)) if (typeof v !== 'string') return false;
  return true;
}

export const canonicalFormat: JsonFormat = {
  kind: 'json',
  name: 'canonical',
  detect: (v) => v.v === 1 && typeof v.kind === 'string' && KINDS.has(v.kind),
  toRecords(value): AdapterResult {
    if (quickValid(value)) return [value as unknown as CanonicalRecord];
    const parsed = CanonicalRecordSchema.safeParse(value);
    if (parsed.success) return [parsed.data];
    return { error: `not a valid canonical ${String(value.kind)} record: ${describeZodError(parsed.error)}` };
  },
  limits: FULL_VIEW,
};
