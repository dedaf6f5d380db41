// The machine outputs: the ndjson line contract (with its zod schema) and the versioned JSON document, both written as they stream.
import { z } from 'zod';
import type { AttemptRow, Summary } from './summary.js';
import type { Finding } from '../findings/types.js';
import type { OutputSink } from './sink.js';
import { OUTCOMES } from '../outcomes.js';
import { FINDING_CODES } from '../findings/types.js';
import { escapeJsonControls } from './text.js';

const SourceSchema = z.object({ file: z.string(), line: z.number().int().positive() });
const FindingBrief = z.object({ code: z.enum(FINDING_CODES), severity: z.enum(['error', 'warning', 'info']), message: z.string() });

/** One ndjson `attempt` line: the stable machine contract. */
export const NdjsonAttemptSchema = z.object({
  type: z.literal('attempt'),
  session: z.string().nullable(),
  id: z.union([z.string(), z.number()]),
  method: z.string(),
  tool: z.string().nullable(),
  side: z.enum(['client', 'server', 'gateway']).optional(),
  status: z.number().int().nullable(),
  outcome: z.enum(OUTCOMES),
  layer: z.enum(['transport', 'protocol', 'interaction', 'application', 'unknown']),
  serverOutcome: z.enum(OUTCOMES).optional(),
  claim: z.object({ outcome: z.string().optional(), retryOrigin: z.string().optional(), postCount: z.number().optional(), httpStatuses: z.array(z.number()).optional(), errorCode: z.number().nullable().optional(), source: SourceSchema }).optional(),
  call: z.string().optional(),
  attempt: z.number().int().positive().optional(),
  retryOrigin: z.object({ origin: z.string(), how: z.string() }).optional(),
  findings: z.array(FindingBrief),
  sources: z.array(SourceSchema),
  ts: z.string().optional(),
  durationMs: z.number().optional(),
  detail: z.object({ errorCode: z.number().optional(), errorMessage: z.string().optional(), errorData: z.unknown().optional(), why: z.string().optional() }).optional(),
  notSeenByServer: z.literal(true).optional(),
  resumed: z.literal(true).optional(),
  weakId: z.literal(true).optional(),
  sse: z.object({ events: z.number(), progress: z.number(), serverRequests: z.number(), end: z.string().optional() }).optional(),
  cancelled: z.literal(true).optional(),
  scope: z.string().optional(),
  client: z.string().optional(),
  protocolVersion: z.string().optional(),
  serverStatus: z.number().int().nullable().optional(),
  initialize: z.object({ clientInfo: z.string().optional(), serverInfo: z.string().optional(), requestedVersion: z.string().optional(), userAgent: z.string().optional() }).optional(),
});

/** A session-level finding line. */
export const NdjsonFindingSchema = z.object({
  type: z.literal('finding'),
  scope: z.literal('session'),
  session: z.string().nullable(),
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
  lines: z.object({ read: z.number(), used: z.number(), blank: z.number(), unusable: z.number() }),
  inputs: z.array(z.looseObject({ name: z.string(), lines: z.number(), used: z.number(), blank: z.number(), unusable: z.number() })),
});

export const NdjsonLineSchema = z.discriminatedUnion('type', [NdjsonAttemptSchema, NdjsonFindingSchema, NdjsonSummarySchema]);

/** The placeholder an exact big id takes while stringifying, as it reads after escapeJsonControls. */
const EXACT_ESCAPED = escapeJsonControls('"\u2063mcp-triage-exact-id\u2063"');

/** JSON text of an attempt row; an id beyond 2^53 is written as its exact source digits. */
export function attemptJson(row: AttemptRow): string {
  const { idText, ...rest } = row;
  const obj = { type: 'attempt', ...rest };
  if (idText === undefined) return escapeJsonControls(JSON.stringify(obj));
  return escapeJsonControls(JSON.stringify({ ...obj, id: '\u2063mcp-triage-exact-id\u2063' })).replace(EXACT_ESCAPED, idText);
}

export function findingJson(f: Finding, message: string): string {
  return escapeJsonControls(JSON.stringify({ type: 'finding', scope: 'session', session: f.session ?? null, code: f.code, severity: f.severity, message, sources: f.sources }));
}

export class NdjsonSink implements OutputSink {
  constructor(private readonly write: (s: string) => void) {}
  attempt(row: AttemptRow): void {
    this.write(`${attemptJson(row)}\n`);
  }
  finding(f: Finding, message: string): void {
    this.write(`${findingJson(f, message)}\n`);
  }
  end(summary: Summary): void {
    this.write(`${escapeJsonControls(JSON.stringify({ type: 'summary', ...summary }))}\n`);
  }
}

/** `{"version":1,"attempts":[...],"findings":[...],"summary":{...}}`, with attempts written as they come. */
export class JsonDocumentSink implements OutputSink {
  private first = true;
  private findings: string[] = [];
  constructor(private readonly write: (s: string) => void) {
    this.write('{"version":1,"attempts":[');
  }
  attempt(row: AttemptRow): void {
    this.write(`${this.first ? '\n' : ',\n'}${attemptJson(row).replace('{"type":"attempt",', '{')}`);
    this.first = false;
  }
  finding(f: Finding, message: string): void {
    this.findings.push(findingJson(f, message).replace('{"type":"finding",', '{'));
  }
  end(summary: Summary): void {
    this.write(`${this.first ? '' : '\n'}],"findings":[${this.findings.length ? `\n${this.findings.join(',\n')}\n` : ''}],\n"summary":${escapeJsonControls(JSON.stringify(summary))}}\n`);
  }
}
