/** One numeric ID or several separated by commas ("3", "3,4", "3, 4"). */
export const NUMERIC_IDS = '^[0-9]+( *, *[0-9]+)*$';

/** What a parameter's pattern asks for, in words a model can act on (ajv would quote the expression). */
export const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  [NUMERIC_IDS]: 'a numeric ID, or several separated by commas, e.g. 3 or "3,4"',
};
