// Writing the report to stdout: buffered, respecting backpressure, and ending quietly when the reader goes away (EPIPE).

export class OutputWriter {
  private buf: string[] = [];
  private size = 0;
  private waiting: Promise<void> | undefined;
  closed = false;

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      // The reader closed the pipe (`| head`): stop writing, finish quietly.
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') this.closed = true;
      else this.closed = true;
    });
  }

  write(s: string): void {
    if (this.closed) return;
    this.buf.push(s);
    this.size += s.length;
    if (this.size >= 1 << 16) this.flush();
  }

  /** A promise to await while the stream's buffer is full, else undefined. */
  drained(): Promise<void> | undefined {
    return this.closed ? undefined : this.waiting;
  }

  private flush(): void {
    if (this.size === 0 || this.closed) return;
    const chunk = this.buf.join('');
    this.buf = [];
    this.size = 0;
    const ok = this.stream.write(chunk);
    if (!ok && !this.waiting) {
      this.waiting = new Promise((resolve) => {
        // Whichever comes first settles the wait; the other two listeners go with it (a long run on a slow pipe
        // waits thousands of times, and listeners left behind would pile up on the stream).
        const done = () => {
          this.stream.removeListener('drain', done);
          this.stream.removeListener('error', done);
          this.stream.removeListener('close', done);
          this.waiting = undefined;
          resolve();
        };
        this.stream.on('drain', done);
        this.stream.on('error', done);
        this.stream.on('close', done);
      });
    }
  }

  /** Flush what is left and wait until the stream has taken it. */
  async close(): Promise<void> {
    this.flush();
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.stream.removeListener('error', done);
        resolve();
      };
      this.stream.on('error', done);
      this.stream.write('', done);
    });
  }
}
