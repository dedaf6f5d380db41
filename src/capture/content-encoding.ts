// Decoding a response body's Content-Encoding for the record: the recorders keep bodies as the client reads them.
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** A decompressor for a response's Content-Encoding (gzip, deflate, br), or undefined for an identity body. */
export function decoderFor(encoding: string | number | string[] | undefined): Transform | undefined {
  const e = (Array.isArray(encoding) ? encoding.join(',') : String(encoding ?? '')).trim().toLowerCase();
  if (e === 'gzip' || e === 'x-gzip') return createGunzip();
  if (e === 'deflate') return createInflate();
  if (e === 'br') return createBrotliDecompress();
  return undefined;
}
