// The zod schema of one MCP test kitchen observation (ObservationResponse as its API and stream write it), loaded with the record schemas (lazy.ts).
import { z } from 'zod';

/** The fields read (camelCase, as JsonSerializerDefaults.Web writes the record); the nullable ones may be null. */
const maybeText = z.string().nullable().optional();
export const KitchenObservationSchema = z.object({
  requestId: z.string(),
  method: z.string(),
  phase: z.string(),
  durationMs: z.number(),
  wasCancelled: z.boolean(),
  occurredAt: z.string(),
  statusCode: z.number().int().nullable().optional(),
  scenarioId: maybeText,
  requestParamsJson: maybeText,
  clientProtocolVersion: maybeText,
});
export type KitchenObservation = z.infer<typeof KitchenObservationSchema>;
