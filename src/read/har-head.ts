// Recognising a whole JSON document (a HAR file, a JSON array export) from an input's first bytes, without loading the streaming JSON parser.

/**
 * True when the first bytes of an input look like a whole HAR document: `{` then `"log"` as the first key, its value
 * an object (or a list, a broken HAR said as one) (after an optional BOM and whitespace). A one-line HAR entry starts with another key, and a Docker
 * json-file log line (`{"log":"<text>",...}`) holds a string there, so neither matches.
 */
export function looksLikeHarDocument(head: string): boolean {
  let i = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < head.length && /\s/.test(head[i]!)) i++;
  if (head[i] !== '{') return false;
  i++;
  while (i < head.length && /\s/.test(head[i]!)) i++;
  if (!head.startsWith('"log"', i)) return false;
  i += 5;
  while (i < head.length && /\s/.test(head[i]!)) i++;
  if (head[i] !== ':') return false;
  i++;
  while (i < head.length && /\s/.test(head[i]!)) i++;
  // The value may lie past a short head (a document padded with white space): only a string there rules a HAR out.
  // A list there is a broken HAR, said as such (har-document.ts); a string is Docker's json-file log.
  return i >= head.length || head[i] === '{' || head[i] === '[';
}

/**
 * True when an input is one JSON array spread over lines (an MCP Inspector export, `jq '[...]'` output): its first
 * line is only the array's opening `[` (perhaps with the first item's `{`). Any other first line, a broken one that
 * happens to start with `[` included, is read line by line.
 */
export function looksLikeJsonArrayDocument(head: string): boolean {
  const start = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  const nl = head.indexOf('\n', start);
  if (nl === -1) return false; // a first line longer than the head: a one-line array, read as a line
  return /^\s*\[\s*[[{]?\s*$/.test(head.slice(start, nl));
}

/** The list key of a pretty-printed document whose items are read as lines (see pageKeyOf). */
export type PageKey = 'items' | 'resourceSpans' | 'resourceLogs';

/**
 * The list whose items an input spread over lines is read by, when its first key is one: `items` (a paged API response,
 * `jq .` of the MCP test kitchen's `GET /api/management/observations`), `resourceSpans` or `resourceLogs` (an OTLP JSON
 * export pretty-printed: mcpsnoop's `export -T otlp`, a collector's file written with an indent). On one line, such a
 * document is read as a line; undefined for any other input.
 */
export function pageKeyOf(head: string): PageKey | undefined {
  const start = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  const nl = head.indexOf('\n', start);
  if (nl === -1 || !/^\s*\{\s*$/.test(head.slice(start, nl))) return undefined;
  const m = /^\s*\{\s*"(items|resourceSpans|resourceLogs)"\s*:\s*\[/.exec(head.slice(start));
  return m ? (m[1] as PageKey) : undefined;
}

/**
 * What an input is, when its first bytes are one of mcpsnoop's session exports (`mcpsnoop export LOG -T ...`,
 * test/fixtures/real-audit73, real-audit75): `json` (one pretty-printed document whose first keys are `generated_at`
 * then `session`; its `events` are read as the trace's frames), `html` (a page titled "mcpsnoop <label>") or `text`
 * (its first line "mcpsnoop session <id> (<label>)"), which hold no record mcp-triage reads.
 */
export function mcpsnoopExportOf(head: string): 'json' | 'html' | 'text' | undefined {
  const s = head.slice(head.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (/^\s*\{\s*"generated_at"\s*:\s*"[^"\\]{0,64}"\s*,\s*"session"\s*:\s*\{\s*"id"\s*:/.test(s)) return 'json';
  if (/^mcpsnoop session \S+ \(.*\)\r?\n(?:frames|calls): /.test(s)) return 'text';
  if (/^\s*<!doctype html>/i.test(s) && /<title>mcpsnoop [^<]*<\/title>/.test(s.slice(0, 1024))) return 'html';
  return undefined;
}
