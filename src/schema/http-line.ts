// The zod schema of a developer's own HTTP log line (src/formats/http-line.ts), after its fields were picked from the names loggers give them; loaded with the record schemas (lazy.ts).
import { z } from 'zod';

const headers = z.record(z.string(), z.unknown());
/** A body as logged: the text sent or received, the JSON it parsed to, or null (not logged). */
const body = z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown()), z.null()]);

export const HttpLineSchema = z.object({
  method: z.string(),
  url: z.string(),
  status: z.number().int().min(100).max(599).nullable(),
  time: z.union([z.string(), z.number()]).optional(),
  requestHeaders: headers.optional(),
  responseHeaders: headers.optional(),
  requestBody: body.optional(),
  responseBody: body.optional(),
  session: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
  error: z.string().optional(),
});
export type HttpLine = z.infer<typeof HttpLineSchema>;
