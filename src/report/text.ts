// Making untrusted log strings safe to show: terminal control stripping, cutting to length, Markdown, Mermaid and JSON
// escaping, values bounded in depth and length. The terminal, Markdown and Mermaid helpers return a single line: line
// breaks become the visible mark NEWLINE_MARK.

/** What a line break inside a log string becomes: table cells and Mermaid messages must stay on one line. */
export const NEWLINE_MARK = '⏎';

/**
 * Anything that could need cleaning: C0 controls, DEL, C1 controls, line/paragraph separators and bidi controls
 * (U+061C, U+200E/F, U+202A-202E, U+2066-2069). Strings without any are returned as they are.
 */
// eslint-disable-next-line no-control-regex
const NEEDS_CLEANING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * Escape sequences removed whole (all linear: no nested quantifiers):
 * - CSI: ESC [ or U+009B, parameter bytes, intermediate bytes, a final byte (colours, cursor moves, erase);
 * - OSC/DCS/SOS/PM/APC strings: ESC ] P X ^ _ or U+009D/0090/0098/009E/009F up to BEL, ESC \ or U+009C
 *   (OSC 52 clipboard writes, OSC 8 hyperlinks, window titles);
 * - other two-byte ESC sequences (ESC c reset, ESC 7, ESC ( B ...).
 * What is left of a malformed or unterminated sequence loses its ESC below and prints as inert text.
 */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /(?:\x1b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[^\x07\x1b\u009b\u009c\u009d\u0090\u0098\u009e\u009f]*(?:\x07|\x1b\\|\u009c)|\x1b[ -/]*[0-~]/g;

/** Line breaks: CRLF, CR, LF, NEL, LS, PS. */
// eslint-disable-next-line no-control-regex
const LINE_BREAK = /\r\n|[\r\n\u0085\u2028\u2029]/g;

/** Everything still unsafe once sequences and breaks are handled (tab handled separately). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Make a log string safe for a terminal and a one-line table cell: ANSI/VT escape sequences removed whole,
 * line breaks shown as "⏎", tabs as one space, every other C0/C1 control, DEL and bidi control removed.
 */
export function cleanTerminal(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(LINE_BREAK, NEWLINE_MARK)
    .replace(/\t/g, ' ')
    .replace(CONTROL, '');
}

/** A count with its noun, singular for 1: `1 attempt`, `3 attempts`; `many` for a plural not made with -s (`1 retry`, `2 retries`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Findings of one severity counted: `1 error`, `3 errors`, `1 warning`, `2 warnings`, `4 info` (a mass noun). */
export function severityCount(n: number, severity: 'error' | 'warning' | 'info'): string {
  return severity === 'info' ? `${n} info` : plural(n, severity);
}

/** Shorten to at most max characters, marking the cut with an ellipsis; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let cut = max - 1;
  const last = text.charCodeAt(cut - 1);
  if (cut > 0 && last >= 0xd800 && last <= 0xdbff) cut--; // do not keep half of an astral character
  return `${text.slice(0, cut)}…`;
}

/** Longest free text (a finding's message, a why) one table cell shows, terminal or Markdown: a cap for hostile strings only. */
const MAX_CELL_TEXT = 2000;

/** The mark capString ends a cut log string with, and how many characters it says were left out. */
const CAP_MARK = /… \[(\d+) more characters\]$/;

/**
 * Text of at most about max characters, cut at a space when one is near, saying how much was left out. A text that
 * capString already cut (a row's why or error message) counts what that cut left out too, not its own mark.
 */
export function cutAtWord(text: string, max = MAX_CELL_TEXT): string {
  if (text.length <= max) return text;
  const mark = CAP_MARK.exec(text.slice(-40));
  const body = mark ? text.slice(0, text.length - mark[0].length) : text;
  const before = mark ? Number(mark[1]) : 0;
  if (body.length <= max) return text;
  let cut = body.lastIndexOf(' ', max);
  if (cut < max * 0.8) {
    cut = max;
    const last = body.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff) cut--; // do not keep half of an astral character
  }
  return `${body.slice(0, cut).trimEnd()}… [${body.slice(cut).trimStart().length + before} more characters]`;
}

/** Shorten to at most max characters by cutting the middle, so both ends stay readable (a path keeps its file name). */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 8) return truncate(text, max);
  let head = Math.ceil((max - 1) / 2);
  let tail = max - 1 - head;
  const h = text.charCodeAt(head - 1);
  if (h >= 0xd800 && h <= 0xdbff) { head--; tail++; } // keep astral characters whole on both sides
  const t = text.charCodeAt(text.length - tail);
  if (t >= 0xdc00 && t <= 0xdfff) tail--;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)}`;
}

/** Punctuation escaped in table cells: table pipes, backslash escapes, code spans, emphasis, strike, links. */
const CELL_PUNCTUATION = /[\\|`*_~[\]]/g;

/**
 * Escape text for one cell of a GitHub Markdown table: one line, pipes and backslashes escaped, `<` `>` `&` as
 * entities (no HTML tag or entity survives), backticks, emphasis and link brackets escaped.
 */
export function escapeMarkdownCell(text: string): string {
  return cleanTerminal(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(CELL_PUNCTUATION, '\\$&');
}

/**
 * Characters replaced by look-alikes in Mermaid text: ";" and line breaks end statements, "%%" opens comments and
 * %%{init}%% directives, "#" opens entity codes, "<" ">" carry HTML and arrows, "{" "}" directives, ":" splits
 * participant and message, quotes and backticks delimit strings and break out of the ``` code fence.
 */
const MERMAID_LOOKALIKES: Record<string, string> = {
  ';': '；', '%': '％', '#': '＃', '<': '‹', '>': '›', '{': '｛', '}': '｝', ':': '꞉', '"': 'ʺ', '`': 'ˋ',
  '&': '＆', '\\': '＼', '[': '［', ']': '］', '|': '｜',
};
const MERMAID_UNSAFE = /[;%#<>{}:"`&\\[\]|]/g;

/**
 * Make text safe inside a Mermaid sequenceDiagram message or participant label: one line, and no character
 * that can end the statement, start a directive, comment, entity, HTML or click callback, or close the fence.
 */
export function escapeMermaid(text: string): string {
  return cleanTerminal(text).replace(MERMAID_UNSAFE, (c) => MERMAID_LOOKALIKES[c]!);
}

/** Characters JSON.stringify leaves raw that a terminal may still act on: DEL, C1 controls, LS/PS, bidi controls. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text (from JSON.stringify) with DEL, C1 controls, U+2028/U+2029 and bidi controls written as \uXXXX escapes:
 * the same JSON value, lossless, but inert when the json/ndjson output is shown on a terminal.
 * (JSON.stringify already escapes C0 controls; these characters can only occur inside JSON strings.)
 */
export function escapeJsonControls(json: string): string {
  JSON_UNSAFE.lastIndex = 0;
  if (!JSON_UNSAFE.test(json)) return json;
  JSON_UNSAFE.lastIndex = 0;
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What replaces a value nested deeper than boundValue's limit. */
export const TOO_DEEP_MARK = '[nested too deeply]';

/** Longest log string a report row carries whole (an error message, a why, a string inside error data), in characters. */
const MAX_REPORT_STRING = 4096;

/**
 * A log string cut to max characters, with a mark that says how many more there were (the whole string is at the
 * source line the row names). A tool's error can be a file or a dump of megabytes; one report row need not repeat it.
 */
export function capString(text: string, max = MAX_REPORT_STRING): string {
  if (text.length <= max) return text;
  let cut = max;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // do not keep half of an astral character
  return `${text.slice(0, cut)}… [${text.length - cut} more characters]`;
}

/**
 * A copy of a JSON value whose containers nested deeper than maxDepth are replaced by TOO_DEEP_MARK, so that
 * JSON.stringify and every renderer can print it (V8's JSON.parse accepts 100,000 levels; JSON.stringify overflows),
 * and whose strings longer than maxString are cut by capString. Iterative; the value is returned as it is when it
 * has neither.
 */
export function boundValue(value: unknown, maxDepth = 64, maxString = MAX_REPORT_STRING): unknown {
  if (typeof value === 'string') return capString(value, maxString);
  if (typeof value !== 'object' || value === null || withinBounds(value, maxDepth, maxString)) return value;
  const root: unknown[] = [undefined];
  const stack: { src: unknown; dst: Record<string, unknown> | unknown[]; key: string | number; depth: number }[] = [{ src: value, dst: root, key: 0, depth: 0 }];
  while (stack.length) {
    const { src, dst, key, depth } = stack.pop()!;
    let copy: unknown = src;
    if (typeof src === 'object' && src !== null) {
      if (depth >= maxDepth) copy = TOO_DEEP_MARK;
      else if (Array.isArray(src)) {
        const arr = new Array<unknown>(src.length);
        for (let i = 0; i < src.length; i++) stack.push({ src: src[i], dst: arr, key: i, depth: depth + 1 });
        copy = arr;
      } else {
        const obj: Record<string, unknown> = {};
        for (const k of Object.keys(src)) stack.push({ src: (src as Record<string, unknown>)[k], dst: obj, key: k, depth: depth + 1 });
        copy = obj;
      }
    } else if (typeof src === 'string') copy = capString(src, maxString);
    if (typeof key === 'number') (dst as unknown[])[key] = copy;
    else if (key === '__proto__') Object.defineProperty(dst, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else (dst as Record<string, unknown>)[key] = copy;
  }
  return root[0];
}

/** Whether no container in value is nested deeper than maxDepth and no string is longer than maxString (iterative). */
function withinBounds(value: object, maxDepth: number, maxString: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v === 'string' && v.length > maxString) return false;
    if (typeof v !== 'object' || v === null) continue;
    if (d >= maxDepth) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if ((typeof child === 'object' && child !== null) || typeof child === 'string') stack.push([child, d + 1]);
  }
  return true;
}

/**
 * JSON.stringify for a value taken from a log, to quote in a message: a container nested deeper than 64 levels is
 * written as TOO_DEEP_MARK (JSON.stringify itself overflows the stack at some thousands of levels: an id, a resultType
 * or an isError of 100,000 nested arrays crashed the report). Undefined for undefined, as JSON.stringify.
 */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  return JSON.stringify(boundValue(value, 64, Infinity));
}
