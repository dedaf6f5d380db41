// The progress line on stderr for long reads: bytes read (of the total when known), MB/s and ETA, redrawn in place at most ~5 times a second.

/** What the progress line writes to: process.stderr, or a fake in tests. */
export interface ProgressStream {
  write(text: string): unknown;
  /** Terminal width; the line is cut to fit so that `\r` redraws it in place. */
  columns?: number | undefined;
}

interface ProgressOptions {
  /** Size of all inputs together, in bytes; unknown (stdin, a pipe) when absent. */
  totalBytes?: number | undefined;
  stream: ProgressStream;
  /** When false every method is a no-op and nothing is ever written (see shouldShowProgress). */
  enabled: boolean;
  /** Milliseconds clock; performance.now by default (tests pass a fake). */
  now?: () => number;
  /** Nothing is drawn before this many ms have passed, so quick runs never flash a line. Default 500. */
  delayMs?: number;
  /** Minimum ms between two redraws. Default 200 (at most ~5 a second). */
  intervalMs?: number;
  /** Text before the figures. Default "mcp-triage:". */
  label?: string;
}

interface Progress {
  /**
   * Report the number of bytes read so far, in all inputs together (a running total, not a delta).
   * A totalBytes given here replaces the one given at creation (fits runAnalysis's onProgress(bytesRead, totalBytes)).
   */
  update(bytesRead: number, totalBytes?: number | undefined): void;
  /** Erase the line for now (call before writing anything else to the same stream); a later update redraws it. */
  clear(): void;
  /** Erase the line for good; later calls do nothing. */
  done(): void;
}

/** Inputs at least this large show progress when their size is known. */
export const PROGRESS_MIN_BYTES = 64 * 1024 * 1024;

/**
 * The rule for turning progress on: stderr is a terminal, --quiet is not given, and the input is large
 * (more than PROGRESS_MIN_BYTES) or of unknown size (stdin; the start delay keeps short pipes silent).
 */
export function shouldShowProgress(opts: { stderrIsTTY: boolean; quiet: boolean; totalBytes?: number | undefined }): boolean {
  if (!opts.stderrIsTTY || opts.quiet) return false;
  return opts.totalBytes === undefined || opts.totalBytes > PROGRESS_MIN_BYTES;
}

const NOOP: Progress = { update() {}, clear() {}, done() {} };

/** "12.3 MB", "1.08 GB" (decimal units, as in the benchmark figures). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e3).toFixed(0)} KB`;
}

/** "0:07", "12:34", "1:02:03". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The text of one progress line (no control characters). */
export function progressText(label: string, bytesRead: number, elapsedMs: number, totalBytes?: number): string {
  const rate = elapsedMs > 0 ? bytesRead / (elapsedMs / 1000) : 0;
  const speed = `${(rate / 1e6).toFixed(1)} MB/s`;
  if (totalBytes === undefined || totalBytes <= 0) return `${label} ${formatBytes(bytesRead)} read  ${speed}`;
  const shown = Math.min(bytesRead, totalBytes);
  const percent = Math.floor((shown / totalBytes) * 100);
  const eta = rate > 0 ? formatDuration((totalBytes - shown) / rate) : '--:--';
  return `${label} ${formatBytes(shown)} of ${formatBytes(totalBytes)} (${percent}%)  ${speed}  ETA ${eta}`;
}

export function createProgress(options: ProgressOptions): Progress {
  if (!options.enabled) return NOOP;
  const { stream } = options;
  let total = options.totalBytes;
  const now = options.now ?? (() => performance.now());
  const delayMs = options.delayMs ?? 500;
  const intervalMs = options.intervalMs ?? 200;
  const label = options.label ?? 'mcp-triage:';
  const startedAt = now();
  let lastDrawAt = -Infinity;
  let shown = false;
  let finished = false;

  const erase = (): void => {
    if (!shown) return;
    stream.write('\r\x1b[K');
    shown = false;
  };

  return {
    update(bytesRead, totalBytes) {
      if (finished) return;
      if (totalBytes !== undefined) total = totalBytes;
      const t = now();
      if (t - startedAt < delayMs || t - lastDrawAt < intervalMs) return;
      lastDrawAt = t;
      let text = progressText(label, bytesRead, t - startedAt, total);
      const columns = stream.columns;
      if (columns !== undefined && columns > 1 && text.length > columns - 1) text = text.slice(0, columns - 1);
      stream.write(`\r${text}\x1b[K`);
      shown = true;
    },
    clear() {
      erase(); // the throttle still holds: the line comes back at the next update due, not at once
    },
    done() {
      if (finished) return;
      finished = true;
      erase();
    },
  };
}
