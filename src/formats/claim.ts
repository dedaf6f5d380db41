// Adapter for the source article's per-call diagnostic line: a client's claim about one call.
import type { CanonicalRecord } from '../schema/record.js';
import { NEEDS_SCHEMAS, schemas } from '../schema/lazy.js';
import { FULL_VIEW, type AdapterResult, type JsonFormat } from './adapter.js';
import { describeZodError } from './zod-error.js';

const CLAIM_KEYS = ['postCount', 'httpStatuses', 'retryOrigin', 'jsonrpc'];

export const claimFormat: JsonFormat = {
  kind: 'json',
  name: 'claim',
  detect: (v) => v.kind === undefined && typeof v.outcome === 'string' && CLAIM_KEYS.some((k) => k in v),
  toRecords(value): AdapterResult {
    const { ts, timestamp, time, sessionId, ...rest } = value as Record<string, unknown>;
    const zod = schemas();
    if (!zod) return { error: NEEDS_SCHEMAS };
    const parsed = zod.ClaimSchema.safeParse({ session: sessionId, ...rest });
    if (!parsed.success) return { error: `not a valid call claim: ${describeZodError(parsed.error)}` };
    const when = ts ?? timestamp ?? time;
    const record: CanonicalRecord = {
      v: 1,
      kind: 'claim',
      ...(typeof when === 'string' || typeof when === 'number' ? { ts: when } : {}),
      ...(typeof parsed.data.session === 'string' ? { session: parsed.data.session } : {}),
      ...(parsed.data.client ? { client: parsed.data.client } : {}),
      side: 'client',
      claim: parsed.data,
    };
    return [record];
  },
  limits: FULL_VIEW,
};
