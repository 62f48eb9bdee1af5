/**
 * File content a caller sends as base64 (content_base64), decoded strictly: Node's decoder skips what is
 * not base64 and would upload whatever bytes are left, so such text is refused, saying where it went wrong.
 */

/** Base64 (standard or URL-safe alphabet), padding at the end only, once whitespace is taken out. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const WHITESPACE = /\s+/g;
/** The first character that cannot stand where it is: outside the alphabet, or anything after padding. */
const MISPLACED = /[^A-Za-z0-9+/_=-]|=[^=]/;

/** The bytes of base64 `text`; otherwise an Error naming `name` and what is wrong. */
export function fromBase64(text: string, name: string): Buffer {
  const bare = text.replace(WHITESPACE, '');
  if (BASE64.test(bare) && bare.replace(/=+$/, '').length % 4 !== 1) return Buffer.from(bare, 'base64');
  const bad = MISPLACED.exec(bare)?.[0];
  const what =
    bad === undefined
      ? 'its length leaves a lone character at the end'
      : bad.startsWith('=')
        ? '"=" padding stands before the end'
        : `${JSON.stringify(bad)} is outside the base64 alphabet`;
  throw new Error(
    `${name} is not base64 (${what}): send the file's bytes encoded as base64 (A-Z, a-z, 0-9, + and /, "=" padding at the end only)`,
  );
}
