/**
 * FORGE_MCP_DESCRIPTION_SUBSTITUTIONS: old=new rewrites of descriptions and titles. A rewrite that
 * would grow a string beyond twice its length (or 512 bytes more, if larger) leaves it as written.
 */
export function rewriter(pairs: Array<[string, string]>): ((text: string) => string) | undefined {
  if (!pairs.length) return undefined;
  return (text: string) => {
    let out = text;
    for (const [from, to] of pairs) out = out.split(from).join(to);
    const before = Buffer.byteLength(text);
    const limit = Math.max(before * 2, before + 512);
    return Buffer.byteLength(out) > limit ? text : out;
  };
}
