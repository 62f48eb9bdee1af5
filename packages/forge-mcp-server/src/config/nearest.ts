/** The setting name a misspelt one was most probably meant to be, for start-up messages. */
import { levenshtein } from '../executor/suggest.js';

/** The candidate nearest `written` by edit distance, when at most `within` edits away (ties: the first). */
export function nearestWithin(
  written: string,
  candidates: Iterable<string>,
  within: number,
): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    // At least as many edits as the lengths differ: a candidate that cannot be within reach is not measured.
    if (Math.abs(c.length - written.length) > within) continue;
    const d = levenshtein(written, c);
    if (d < bestD) [best, bestD] = [c, d];
  }
  return bestD <= within ? best : undefined;
}
