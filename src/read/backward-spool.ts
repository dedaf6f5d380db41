// Reading a newest-first input oldest first: its lines are spooled to a temporary file in segments, then read back last segment first.
import { rmSync } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TextLine } from './lines.js';

/** Bytes of lines gathered before a segment is written; also the most read back at once. */
const SEGMENT_BYTES = 1 << 20;
/** Characters of lines handed on per batch when reading back. */
const BATCH_CHARS = 1 << 16;

/** The folder spools are made in (the system's temporary folder, TMPDIR). */
export function spoolFolder(): string {
  return tmpdir();
}

/** Spool folders not yet removed: a run cut short (Ctrl-C, an exit on error) removes them as the process exits. */
const live = new Set<string>();
let exitHook = false;
function track(dir: string): void {
  live.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const d of live) rmSync(d, { recursive: true, force: true });
  });
}

/**
 * Lines go in as read (with their line numbers) and come back in reverse order, one segment per batch; memory holds
 * one segment, the disk holds the rest. Each spooled line is `<lineNo>\t<text>`, and a line has no newline in it.
 */
export class BackwardSpool {
  private pending: string[] = [];
  private pendingBytes = 0;
  private segments: { offset: number; bytes: number }[] = [];
  private written = 0;

  /** The temporary folder that holds the spool (removed by dispose). */
  private constructor(readonly dir: string, private readonly file: FileHandle) {}

  static async create(): Promise<BackwardSpool> {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-triage-'));
    track(dir);
    try {
      return new BackwardSpool(dir, await open(join(dir, 'lines'), 'w+'));
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      live.delete(dir);
      throw err;
    }
  }

  /** Bytes written to the temporary file so far. */
  get spooledBytes(): number {
    return this.written + this.pendingBytes;
  }

  async add(line: TextLine): Promise<void> {
    // A container log's time of the line (container-lines.ts) rides after the number: `<lineNo> s<ISO>` or `<lineNo> n<ms>`.
    const ts = line.wrapTs === undefined ? '' : ` ${typeof line.wrapTs === 'number' ? 'n' : 's'}${line.wrapTs}`;
    const entry = `${line.lineNo}${ts}\t${line.text}`;
    this.pending.push(entry);
    this.pendingBytes += entry.length + 1; // characters: a bound for the flush, not the byte count
    if (this.pendingBytes >= SEGMENT_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const buf = Buffer.from(this.pending.join('\n'), 'utf8');
    this.pending = [];
    this.pendingBytes = 0;
    await this.file.write(buf, 0, buf.length, this.written);
    this.segments.push({ offset: this.written, bytes: buf.length });
    this.written += buf.length;
  }

  /** The spooled lines, last first, in batches of about 64 KiB. */
  async *backward(): AsyncGenerator<TextLine[]> {
    await this.flush();
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const { offset, bytes } = this.segments[s]!;
      const buf = Buffer.allocUnsafe(bytes);
      await this.file.read(buf, 0, bytes, offset);
      const entries = buf.toString('utf8').split('\n');
      // Handed on in batches of about 64 KiB, as the forward reader does: a bigger batch of parsed records outlives
      // more young-generation collections (peak RSS went from 169 to 207 MB on a reversed 100 MB pair with whole segments).
      let batch: TextLine[] = [];
      let size = 0;
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries[i]!;
        const tab = e.indexOf('\t');
        const head = e.slice(0, tab);
        const space = head.indexOf(' ');
        if (space === -1) batch.push({ lineNo: Number(head), text: e.slice(tab + 1) });
        else {
          const ts = head.slice(space + 2);
          batch.push({ lineNo: Number(head.slice(0, space)), text: e.slice(tab + 1), wrapTs: head[space + 1] === 'n' ? Number(ts) : ts });
        }
        size += e.length;
        if (size >= BATCH_CHARS) {
          yield batch;
          batch = [];
          size = 0;
        }
      }
      if (batch.length) yield batch;
    }
  }

  /** Closes and removes the temporary file (always called, also after an error). */
  async dispose(): Promise<void> {
    await this.file.close().catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
    live.delete(this.dir);
  }
}
