/** A global ID as the instance takes it: a bare number (or digit string) becomes `gid://gitlab/<type>/<number>`. */
export function toGlobalId(type: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => toGlobalId(type, v));
  const bare = typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));
  return bare ? `gid://gitlab/${type}/${String(value)}` : value;
}
