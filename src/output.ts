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
        const done = () => {
          this.waiting = undefined;
          resolve();
        };
        this.stream.once('drain', done);
        this.stream.once('error', done);
        this.stream.once('close', done);
      });
    }
  }

  /** Flush what is left and wait until the stream has taken it. */
  async close(): Promise<void> {
    this.flush();
    if (this.closed) return;
    await new Promise<void>((resolve) => {
      if (this.stream.write('', () => resolve())) return;
      this.stream.once('error', () => resolve());
    });
  }
}
