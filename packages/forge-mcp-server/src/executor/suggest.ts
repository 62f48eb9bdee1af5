/**
 * Nearest names by spelling, for the 'did you mean' part of argument errors: parameter names, fixed-set
 * values and action names. Deterministic: the closest candidate wins, ties go to the first listed.
 */

export function levenshtein(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

/** Short forms people write for the words of our names (mr_iid, pr_id for merge_request_iid). */
const SHORT_FORMS: Readonly<Record<string, string>> = { mr: 'merge_request', pr: 'merge_request' };

function expand(word: string): string {
  return word
    .toLowerCase()
    .split(/[_.\s-]+/)
    .map((t) => SHORT_FORMS[t] ?? t)
    .join('_');
}

/** Whether one of the names is a whole word of the other (project in project_id, assignee in assignee_ids). */
function wordOf(a: string, b: string): boolean {
  const words = (s: string) => s.split('_').filter(Boolean);
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return words(long).includes(short) || (short.length >= 3 && words(long).some((w) => w.startsWith(short)));
}

/**
 * Longer than any name or value a schema of ours holds, by far: a word this long was not misspelt from one, and
 * measuring its distance to each candidate would hold the event loop for seconds (a 1 MB word, 3 s).
 */
export const LONGEST_MEANT = 256;

/** The candidate `word` most probably meant, if one is close enough. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  if (word.length > LONGEST_MEANT) return undefined;
  const w = expand(word);
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = levenshtein(w, expand(c));
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (best === undefined) return undefined;
  if (bestD <= Math.max(2, Math.floor(w.length / 3)) || wordOf(w, expand(best))) return best;
  // A person by name where the parameter takes their ID (assignee_username for assignee_ids).
  const person = /^(.+)_usernames?$/.exec(w)?.[1];
  const byId = person && candidates.find((c) => [`${person}_id`, `${person}_ids`].includes(expand(c)));
  if (byId) return byId;
  // Nothing near by spelling: the one name the word is a whole word of (state for state_event, iid for
  // issue_iid); a word several names share (id in project_id and user_id) is no guess.
  const holding = candidates.filter((c) => expand(c).split('_').includes(w));
  return holding.length === 1 ? holding[0] : undefined;
}

/** A name as an error quotes it: the caller's own text, so cut to 64 characters. */
export function clip(name: string): string {
  return name.length > 64 ? `${[...name].slice(0, 64).join('')}...` : name;
}

/** How many names (or problems) an error lists before saying how many more there are. */
export const LISTED_AT_MOST = 10;

/**
 * Names as an error lists them: at most ten, each cut to 64 characters (or shown by `show`), then how many more.
 */
export function listNames(names: readonly string[], show: (name: string) => string = clip): string {
  const shown = names.slice(0, LISTED_AT_MOST).map(show).join(', ');
  return names.length > LISTED_AT_MOST ? `${shown} and ${names.length - LISTED_AT_MOST} more` : shown;
}

/**
 * 'Did you mean: merge_request_iid (for mr_iid)?' for the unknown names that are near a valid one; undefined
 * when none is. One text on every surface.
 */
export function didYouMean(unknown: readonly string[], valid: readonly string[]): string | undefined {
  const guesses = unknown.flatMap((u) => {
    const g = nearest(u, valid);
    if (!g) return [];
    // A username for a parameter taking user IDs: how to get the ID too.
    const ids =
      /_usernames?$/i.test(u) && /_ids?$/.test(g)
        ? '; it takes user IDs, which user.list finds by username'
        : '';
    return [`${g} (for ${clip(u)}${ids})`];
  });
  // Each name in a guess is cut already; the guess itself is not a name to cut.
  return guesses.length ? `Did you mean: ${listNames(guesses, (g) => g)}?` : undefined;
}

/** The words of a name or text, lower-cased (group_member_add: group, member, add). */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The names holding the words of `written` in their order (member_add in group_member_add), shortest first: an
 * action asked for by part of its own name, which no spelling distance finds.
 */
export function holdingWords(written: string, names: readonly string[]): string[] {
  if (written.length > LONGEST_MEANT) return [];
  const want = wordsOf(written);
  if (!want.length) return [];
  return names
    .filter((name) => {
      const have = wordsOf(name);
      for (let i = 0; i + want.length <= have.length; i++)
        if (want.every((w, k) => have[i + k] === w)) return true;
      return false;
    })
    .sort((a, b) => a.length - b.length);
}

/**
 * The names whose title holds every word of `written`, of those the ones where its first word comes earliest
 * (close: 'Update, close or reopen issue' before 'List MRs that close issue'; comment: 'Comment on issue'): a
 * title says the verb first, so the action doing the word, not one about its object, comes first.
 */
export function titledWith(
  written: string,
  actions: ReadonlyArray<{ name: string; title: string }>,
): string[] {
  if (written.length > LONGEST_MEANT) return [];
  const want = wordsOf(written);
  if (!want.length) return [];
  let best = Infinity;
  let names: string[] = [];
  for (const { name, title } of actions) {
    const have = wordsOf(title);
    if (!want.every((w) => have.includes(w))) continue;
    const at = have.indexOf(want[0]);
    if (at < best) [best, names] = [at, [name]];
    else if (at === best) names.push(name);
  }
  return names;
}
