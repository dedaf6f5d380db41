// The machine outputs: the ndjson lines (contract in report/schema.ts) and the versioned JSON document, both written as they stream.
import type { AttemptRow, Summary } from './summary.js';
import type { Finding } from '../findings/types.js';
import type { OutputSink } from './sink.js';
import { escapeJsonControls } from './text.js';

/** The placeholder an exact big id takes while stringifying, as it reads after escapeJsonControls. */
const EXACT_ESCAPED = escapeJsonControls('"\u2063mcp-triage-exact-id\u2063"');

/** JSON text of an attempt row; an id beyond 2^53 is written as its exact source digits. */
export function attemptJson(row: AttemptRow): string {
  // The common case: the row as it is, with "type" spliced in first (no copy of the row is made).
  if (row.idText === undefined) return `{"type":"attempt",${rowJson(row).slice(1)}`;
  const { idText, ...rest } = row;
  return escapeJsonControls(JSON.stringify({ type: 'attempt', ...rest, id: '\u2063mcp-triage-exact-id\u2063' })).replace(EXACT_ESCAPED, idText);
}

/** JSON text of a row whose id is exact as a number, without "type" (as the JSON document's attempts are written). */
function rowJson(row: AttemptRow): string {
  return escapeJsonControls(JSON.stringify(row));
}

export function findingJson(f: Finding, message: string): string {
  return escapeJsonControls(JSON.stringify({ type: 'finding', scope: 'session', session: f.session ?? null, ...(f.group !== undefined && f.session == null ? { group: f.group } : {}), code: f.code, severity: f.severity, message, sources: f.sources }));
}

export class NdjsonSink implements OutputSink {
  constructor(private readonly write: (s: string) => void) {}
  attempt(row: AttemptRow): void {
    // In pieces: the writer joins them once, instead of each line being copied whole on the way.
    if (row.idText !== undefined) return this.write(`${attemptJson(row)}\n`);
    this.write('{"type":"attempt",');
    this.write(rowJson(row).slice(1));
    this.write('\n');
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
    this.write(this.first ? '\n' : ',\n');
    this.write(row.idText === undefined ? rowJson(row) : attemptJson(row).replace('{"type":"attempt",', '{'));
    this.first = false;
  }
  finding(f: Finding, message: string): void {
    this.findings.push(findingJson(f, message).replace('{"type":"finding",', '{'));
  }
  end(summary: Summary): void {
    this.write(`${this.first ? '' : '\n'}],"findings":[${this.findings.length ? `\n${this.findings.join(',\n')}\n` : ''}],\n"summary":${escapeJsonControls(JSON.stringify(summary))}}\n`);
  }
}
