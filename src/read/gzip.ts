// Gzip decompression that keeps every byte it could decompress: members one after another, then a clear error.

/** Thrown (and turned into a diagnostic by the reader) when a gzip input is damaged; everything before it was yielded. */
export class GzipError extends Error {
  constructor(message: string, readonly compressedOffset: number) {
    super(message);
  }
}

/** Longest gzip member header read (its fixed 10 bytes, extra field, file name, comment). */
const MAX_HEADER_BYTES = 1 << 20;

/**
 * The decompressed bytes of gzip data, member by member (`cat a.gz b.gz` is valid gzip). Node's Gunzip drops the
 * output of a member when junk follows it, so each member is inflated raw here: its end is known exactly, the rest
 * is read as the next member or reported as trailing garbage. A cut member yields what it had, then a GzipError.
 */
export async function* gunzipStream(input: AsyncIterator<Buffer>, first: Buffer, onRead: (bytes: number) => void): AsyncGenerator<Buffer> {
  let pending: Buffer = first;
  let offset = 0; // compressed bytes before `pending`
  let inputDone = false;
  onRead(first.length);
  const more = async (): Promise<boolean> => {
    if (inputDone) return false;
    const r = await input.next();
    if (r.done) {
      inputDone = true;
      return false;
    }
    onRead(r.value.length);
    pending = pending.length ? Buffer.concat([pending, r.value]) : r.value;
    return true;
  };

  for (let member = 0; ; member++) {
    // The member header (RFC 1952): magic, method 8, flags, then optional extra, name, comment, header CRC.
    let headerLength: number | 'incomplete' | 'bad' = 'incomplete';
    while ((headerLength = gzipHeaderLength(pending)) === 'incomplete') {
      // A header is a few bytes; one that runs on for megabytes (a file name or comment without its end) is not read
      // whole: each piece would copy and scan it again.
      if (pending.length > MAX_HEADER_BYTES) throw new GzipError(`gzip data is damaged: a member header runs over ${MAX_HEADER_BYTES} bytes (a file name or comment that never ends)`, offset);
      if (!(await more())) break;
    }
    if (member > 0 && pending.length === 0 && inputDone) return;
    if (headerLength === 'incomplete') {
      if (member > 0 && pending.length === 0) return;
      throw new GzipError(`gzip data ends early (truncated file?) after ${offset + pending.length} compressed bytes`, offset + pending.length);
    }
    if (headerLength === 'bad') {
      if (member === 0) throw new GzipError('gzip data is damaged (not a gzip header)', offset);
      // Not another member: what follows the compressed data is garbage. Count it, then report it.
      // Counted as it streams past, not gathered: the garbage can be a whole log appended after the gzip.
      let extra = pending.length;
      pending = Buffer.alloc(0);
      while (await more()) {
        extra += pending.length;
        pending = Buffer.alloc(0);
      }
      throw new GzipError(`gzip data is damaged: ${extra} byte${extra === 1 ? ' after the end of the compressed data is' : 's after the end of the compressed data are'} not gzip`, offset);
    }

    const inflater = process.getBuiltinModule('node:zlib').createInflateRaw(); // loaded only for gzip input
    const out: Buffer[] = [];
    let ended = false;
    let failure: Error | undefined;
    // A write whose data the inflater rejects never calls its callback: the error wakes the writer instead.
    let wake: (() => void) | undefined;
    inflater.on('data', (c: Buffer) => out.push(c));
    inflater.on('end', () => {
      ended = true;
    });
    inflater.on('error', (e: Error) => {
      failure = e;
      wake?.();
    });
    let fedFrom = offset + headerLength; // compressed offset of the first byte fed to this member's inflater
    let chunk: Buffer = pending.subarray(headerLength);
    pending = Buffer.alloc(0);
    offset = fedFrom;
    // Fed but maybe not consumed: needed to find where the member ended.
    let unconfirmed: Buffer[] = [];
    let unconfirmedFrom = fedFrom;
    for (;;) {
      if (chunk.length) {
        unconfirmed.push(chunk);
        await new Promise<void>((resolve) => {
          wake = resolve;
          if (failure) resolve();
          else inflater.write(chunk, () => resolve());
        });
        fedFrom += chunk.length;
      }
      while (out.length) yield out.shift()!;
      if (failure) throw damaged(failure, unconfirmedFrom);
      if (ended) break;
      // Drop what the inflater has certainly consumed.
      const consumedAt = offset + inflater.bytesWritten;
      while (unconfirmed.length && unconfirmedFrom + unconfirmed[0]!.length <= consumedAt) {
        unconfirmedFrom += unconfirmed[0]!.length;
        unconfirmed.shift();
      }
      const r = inputDone ? ({ done: true } as const) : await input.next();
      if (r.done) {
        inputDone = true;
        await new Promise<void>((resolve) => {
          if (inflater.closed) return resolve();
          inflater.once('close', resolve);
          inflater.end();
        });
        while (out.length) yield out.shift()!;
        if (failure || !ended) throw new GzipError(`gzip data ends early (truncated file?) after ${fedFrom} compressed bytes`, fedFrom);
        break;
      }
      onRead(r.value.length);
      chunk = r.value;
    }
    // The member's compressed data ended at offset + bytesWritten; after it come the 8 trailer bytes, then maybe more.
    const end = offset + inflater.bytesWritten;
    const rest = Buffer.concat(unconfirmed).subarray(end - unconfirmedFrom);
    unconfirmed = [];
    pending = rest;
    offset = end;
    while (pending.length < 8 && (await more()));
    if (pending.length < 8) throw new GzipError(`gzip data ends early (truncated file?) in the trailer after ${offset + pending.length} compressed bytes`, offset + pending.length);
    pending = pending.subarray(8);
    offset += 8;
    if (pending.length === 0 && !(await more())) return;
  }
}

function damaged(e: Error, at: number): GzipError {
  return new GzipError(`gzip data is damaged (${e.message}) near compressed byte ${at}`, at);
}

/** Length of the gzip member header at the start of `b`, 'incomplete' if more bytes are needed, 'bad' if not gzip. */
function gzipHeaderLength(b: Buffer): number | 'incomplete' | 'bad' {
  if (b.length >= 1 && b[0] !== 0x1f) return 'bad';
  if (b.length >= 2 && b[1] !== 0x8b) return 'bad';
  if (b.length >= 3 && b[2] !== 8) return 'bad';
  if (b.length < 10) return 'incomplete';
  const flags = b[3]!;
  let p = 10;
  if (flags & 0x04) {
    if (b.length < p + 2) return 'incomplete';
    p += 2 + b.readUInt16LE(p);
  }
  for (const bit of [0x08, 0x10]) {
    if (flags & bit) {
      const z = b.indexOf(0, p);
      if (z === -1) return 'incomplete';
      p = z + 1;
    }
  }
  if (flags & 0x02) p += 2;
  return b.length < p ? 'incomplete' : p;
}
