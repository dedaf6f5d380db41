// Where capture records go: an append-only NDJSON file or a writable stream; writes never throw into the application.
import { closeSync, openSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** An NDJSON destination shared by every exchange of one recorder. */
export interface RecordSink {
  /** Append one record as one line. Never throws; the first failure is reported once on stderr. */
  write(record: object): void;
  /** A new exchange id, unique within this sink (a random prefix keeps ids apart across processes). */
  nextXid(): string;
  /** Release the file (a stream passed in by the caller is left open). */
  close(): Promise<void>;
}

/** Anything with a `write(text)` method, e.g. process.stdout or fs.createWriteStream(). */
export type RecordOutput = string | NodeJS.WritableStream;

/** Open a sink on a file path (created 0600 if missing, appended to) or on a stream. */
export function openRecordSink(out: RecordOutput): RecordSink {
  const prefix = randomBytes(2).toString('hex');
  let counter = 0;
  let reported = false;
  const report = (err: unknown): void => {
    if (reported) return;
    reported = true;
    const where = typeof out === 'string' ? out : 'the output stream';
    const why = err instanceof Error ? err.message : String(err);
    try {
      process.stderr.write(`mcp-triage capture: cannot write records to ${where}: ${why} (later write errors are not reported)\n`);
    } catch {
      // stderr itself is gone: nothing left to tell.
    }
  };
  const nextXid = (): string => `${prefix}-${++counter}`;

  if (typeof out === 'string') {
    let fd: number | undefined;
    let closed = false;
    return {
      nextXid,
      write(record) {
        if (closed) return;
        try {
          // A new file is created 0600 (owner only): records hold request and response bodies. An existing file
          // keeps its mode.
          fd ??= openSync(out, 'a', 0o600);
          writeSync(fd, JSON.stringify(record) + '\n');
        } catch (err) {
          report(err);
        }
      },
      async close() {
        closed = true;
        if (fd === undefined) return;
        try {
          closeSync(fd);
        } catch (err) {
          report(err);
        }
        fd = undefined;
      },
    };
  }

  const stream = out;
  if (typeof stream.on === 'function') stream.on('error', report);
  return {
    nextXid,
    write(record) {
      try {
        stream.write(JSON.stringify(record) + '\n');
      } catch (err) {
        report(err);
      }
    },
    async close() {},
  };
}
