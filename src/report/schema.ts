// The zod schemas of the machine outputs (the ndjson line contract), for tests and consumers; kept apart from the
// writers so that writing a report never loads zod.
import { z } from 'zod';
import { OUTCOMES } from '../outcomes.js';
import { FINDING_CODES } from '../findings/types.js';

const SourceSchema = z.object({ file: z.string(), line: z.number().int().positive() });
const FindingBrief = z.object({ code: z.enum(FINDING_CODES), severity: z.enum(['error', 'warning', 'info']), message: z.string() });

/** One ndjson `attempt` line: the stable machine contract. */
export const NdjsonAttemptSchema = z.object({
  type: z.literal('attempt'),
  session: z.string().nullable(),
  id: z.union([z.string(), z.number()]),
  method: z.string(),
  tool: z.string().nullable(),
  target: z.string().optional(),
  side: z.enum(['client', 'server', 'gateway']).optional(),
  status: z.number().int().nullable(),
  outcome: z.enum(OUTCOMES),
  layer: z.enum(['transport', 'protocol', 'interaction', 'application', 'unknown']),
  serverOutcome: z.enum(OUTCOMES).optional(),
  claim: z.object({ outcome: z.string().optional(), retryOrigin: z.string().optional(), postCount: z.number().optional(), httpStatuses: z.array(z.number()).optional(), errorCode: z.number().nullable().optional(), status: z.number().optional(), message: z.string().optional(), only: z.literal(true).optional(), source: SourceSchema }).optional(),
  call: z.string().optional(),
  attempt: z.number().int().positive().optional(),
  continuation: z.literal(true).optional(),
  versionFallback: z.literal(true).optional(),
  answerNotLogged: z.literal(true).optional(),
  retryOrigin: z.object({ origin: z.string(), how: z.string() }).optional(),
  findings: z.array(FindingBrief),
  sources: z.array(SourceSchema),
  ts: z.string().optional(),
  durationMs: z.number().optional(),
  detail: z.object({ errorCode: z.number().optional(), errorMessage: z.string().optional(), errorData: z.unknown().optional(), why: z.string().optional() }).optional(),
  notSeenByServer: z.literal(true).optional(),
  resumed: z.literal(true).optional(),
  weakId: z.literal(true).optional(),
  sse: z.object({ events: z.number(), resumedEvents: z.number().optional(), progress: z.number(), serverRequests: z.number(), end: z.string().optional() }).optional(),
  cancelled: z.literal(true).optional(),
  scope: z.string().optional(),
  endpoint: z.string().optional(),
  client: z.string().optional(),
  protocolVersion: z.string().optional(),
  serverStatus: z.number().int().nullable().optional(),
  serverSession: z.string().optional(),
  initialize: z.object({ clientInfo: z.string().optional(), serverInfo: z.string().optional(), requestedVersion: z.string().optional(), userAgent: z.string().optional() }).optional(),
});

/** A session-level finding line. */
export const NdjsonFindingSchema = z.object({
  type: z.literal('finding'),
  scope: z.literal('session'),
  session: z.string().nullable(),
  /** Traffic without a session id: the connection, client or input key it is grouped by (an attempt's `scope`). */
  group: z.string().optional(),
  code: z.enum(FINDING_CODES),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  sources: z.array(SourceSchema),
});

/** The closing summary line (its fields are the JSON document's `summary`). */
export const NdjsonSummarySchema = z.looseObject({
  type: z.literal('summary'),
  version: z.literal(1),
  attempts: z.number(),
  calls: z.number(),
  byOutcome: z.record(z.string(), z.number()),
  findings: z.looseObject({ total: z.number() }),
  lines: z.object({ read: z.number(), used: z.number(), blank: z.number(), skipped: z.number(), unusable: z.number() }),
  inputs: z.array(z.looseObject({ name: z.string(), lines: z.number(), used: z.number(), blank: z.number(), skipped: z.number(), unusable: z.number(), wrapper: z.string().optional(), joined: z.number().optional() })),
  /** Only with --fail-on. */
  failOn: z.object({
    conditions: z.array(z.string()),
    failed: z.boolean(),
    outcomes: z.record(z.string(), z.number()),
    codes: z.record(z.string(), z.number()),
    severities: z.partialRecord(z.enum(['error', 'warning', 'info']), z.number()),
    notCounted: z.object({ versionFallbacks: z.number().optional(), redirectsFollowed: z.number().optional(), answersNotLogged: z.number().optional() }).optional(),
  }).optional(),
  /** Only when filters are in force: what they left out. */
  filteredOut: z.object({ attempts: z.number(), findings: z.number() }).optional(),
});

export const NdjsonLineSchema = z.discriminatedUnion('type', [NdjsonAttemptSchema, NdjsonFindingSchema, NdjsonSummarySchema]);
