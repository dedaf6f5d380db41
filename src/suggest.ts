// "Did you mean ...?": the nearest known word to a mistyped option, command, outcome or code (Levenshtein distance).

/** Edit distance between two strings (case-insensitive). */
export function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const dp = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const tmp = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (x[i - 1] === y[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[y.length]!;
}

/**
 * The known word closest to `word`, when it is close enough to be a typo: at most 2 edits, or a third of the word's
 * length for long words; a known word that starts with `word` (an abbreviation) also counts.
 */
export function nearest(word: string, known: readonly string[]): string | undefined {
  if (!word) return undefined;
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(word, k);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  if (best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3))) return best;
  if (word.length >= 3) {
    const prefixed = known.filter((k) => k.toLowerCase().startsWith(word.toLowerCase()));
    if (prefixed.length === 1) return prefixed[0];
  }
  return undefined;
}

/**
 * The known words nearest to `word` by `measure` (default: distance), nearest first, at most `limit`: those within a
 * third of the word's length (at least one edit), so that a mistyped id is told from an unrelated one; none for a word
 * shorter than 3 characters, which is one edit from too many.
 */
export function nearestFew(word: string, known: Iterable<string>, limit = 3, measure: (word: string, known: string) => number = distance): string[] {
  if (word.length < 3) return [];
  const most = Math.max(1, Math.floor(word.length / 3));
  const close: [string, number][] = [];
  for (const k of known) {
    const d = measure(word, k);
    if (d <= most) close.push([k, d]);
  }
  return close.sort((a, b) => a[1] - b[1]).slice(0, limit).map(([k]) => k);
}
