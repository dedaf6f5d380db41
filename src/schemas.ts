// The zod schemas, as a separate entry point (`mcp-triage/schemas`) so that importing the library does not load zod.
export { CanonicalRecordSchema, ClaimSchema, canonicalJsonSchema } from './schema/record.js';
export { NdjsonAttemptSchema, NdjsonFindingSchema, NdjsonSummarySchema, NdjsonLineSchema } from './report/schema.js';
