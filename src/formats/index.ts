// The input-format registry: the order in which formats are tried on each line, and lookup by --input-format name.
import type { InputFormat, JsonFormat, TextFormat } from './adapter.js';
import { canonicalFormat } from './canonical.js';
import { claimFormat } from './claim.js';
import { jsonRpcFormat } from './jsonrpc.js';

/**
 * JSON formats in detection order: the first whose detect() accepts a line wins.
 * Specific shapes first; the bare JSON-RPC message format last, as it accepts the least structure.
 */
export const JSON_FORMATS: JsonFormat[] = [canonicalFormat, claimFormat, jsonRpcFormat];

/** Text formats (JSON embedded in a text line), tried on lines that do not start with '{'. */
export const TEXT_FORMATS: TextFormat[] = [];

export const ALL_FORMATS: InputFormat[] = [...JSON_FORMATS, ...TEXT_FORMATS];

export function formatByName(name: string): InputFormat | undefined {
  return ALL_FORMATS.find((f) => f.name === name);
}
