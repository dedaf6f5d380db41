// One-line, input-free descriptions of zod validation failures, for diagnostics.
import type { z } from 'zod';

/** "field.path: message; other.path: message", shortest paths first, at most three issues, no input values. */
export function describeZodError(error: z.ZodError): string {
  const issues = [...error.issues].sort((a, b) => a.path.length - b.path.length).slice(0, 3);
  const parts = issues.map((i) => {
    const path = i.path.length ? i.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[') : '(record)';
    return `${path}: ${i.message}`;
  });
  const more = error.issues.length > issues.length ? ` (+${error.issues.length - issues.length} more)` : '';
  return parts.join('; ') + more;
}
