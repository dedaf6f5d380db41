// Test helper: a recording reduced to what the wire carried, so two recorders of the same traffic can be compared.
import { readFileSync } from 'node:fs';

/** One line per record of a canonical log, without what differs between writers (time, xid, port, hop headers). */
export function wireDigest(path: string): string[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .map((r) => {
      const url = String(r.url ?? '').replace(/127\.0\.0\.1:\d+/, 'HOST');
      if (r.kind === 'request') return `request ${String(r.method)} ${url} ${JSON.stringify(r.send ?? r.sendText ?? null)}`;
      if (r.kind === 'response') return `response ${String(r.status)}`;
      if (r.kind === 'event') return `event ${String(r.id ?? '')} ${String(r.data)}`;
      return `end ${String(r.end)} ${String(r.recvText ?? '')}`;
    })
    .sort();
}
