// Problems with the input or the run (not with the traffic): one-line messages located by file and line, counted exactly.

export interface Diagnostic {
  file: string;
  line?: number;
  /** Stable reason code: invalid-json, unknown-format, over-long-line, gzip-truncated, ... */
  code: string;
  message: string;
}

interface DiagnosticsOptions {
  /** Where each printed diagnostic goes (stderr); undefined prints nothing. */
  print?: ((line: string) => void) | undefined;
  /** How many diagnostics of one code per input are printed before they are only counted. */
  printLimit?: number;
}

/** One per run: collects diagnostics, prints the first ones of each kind, keeps exact counts and the first locations. */
export class Diagnostics {
  private perKey = new Map<string, number>();
  readonly counts = new Map<string, number>();
  readonly first: Diagnostic[] = [];
  total = 0;

  constructor(private readonly opts: DiagnosticsOptions = {}) {}

  add(d: Diagnostic): void {
    this.total++;
    this.counts.set(d.code, (this.counts.get(d.code) ?? 0) + 1);
    if (this.first.length < 20) this.first.push(d);
    const key = `${d.file}\0${d.code}`;
    const n = (this.perKey.get(key) ?? 0) + 1;
    this.perKey.set(key, n);
    const limit = this.opts.printLimit ?? 10;
    if (!this.opts.print) return;
    if (n <= limit) this.opts.print(formatDiagnostic(d));
    else if (n === limit + 1) this.opts.print(`mcp-triage: ${d.file}: more "${d.code}" problems; counting them without printing (see the report)`);
  }
}

function formatDiagnostic(d: Diagnostic): string {
  const where = d.line !== undefined ? `${d.file}:${d.line}` : d.file;
  return `mcp-triage: ${where}: ${d.message}`;
}

/**
 * Why JSON.parse failed, without the snippet of input V8 quotes in some messages ("…" is not valid JSON): a log line
 * may hold secrets, and diagnostics are printed before any redaction could see them.
 */
export function describeJsonError(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  const cut = m.replace(/, .* is not valid JSON$/s, ' (not valid JSON)').replace(/^(Unexpected token) '.*?'/s, '$1');
  return (cut.length > 80 ? `${cut.slice(0, 79)}…` : cut).replace(/[^\x20-\x7e…]/g, '?');
}
