// Recognising a whole HAR document from an input's first bytes, without loading the streaming JSON parser.

/**
 * True when the first bytes of an input look like a whole HAR document: `{` then `"log"` as the first key
 * (after an optional BOM and whitespace). A one-line HAR entry starts with another key, so it does not match.
 */
export function looksLikeHarDocument(head: string): boolean {
  let i = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < head.length && /\s/.test(head[i]!)) i++;
  if (head[i] !== '{') return false;
  i++;
  while (i < head.length && /\s/.test(head[i]!)) i++;
  return head.startsWith('"log"', i);
}
