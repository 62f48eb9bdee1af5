/**
 * Role words for access levels: a parameter taking a role as a number (access_level, group_access,
 * min_access_level, push_access_level, the access_level of each allowed_to_push entry, ...) also takes the role's
 * word, in any case ("developer", "Maintainer", "no access"), and the instance is sent the number. The schema a
 * client sees lists the words beside the numbers, only those of the levels the endpoint takes.
 */
import type { JsonSchema } from '../catalog/types.js';

/** The instance's role levels by word (Gitlab::Access; 25 is the Security Manager role, 60 administrators). */
const LEVEL_OF: Readonly<Record<string, number>> = {
  no_access: 0,
  minimal_access: 5,
  guest: 10,
  planner: 15,
  reporter: 20,
  security_manager: 25,
  developer: 30,
  maintainer: 40,
  owner: 50,
  admin: 60,
};
const WORD_OF = new Map(Object.entries(LEVEL_OF).map(([word, level]) => [level, word]));

/** A level's role as people write it ('Developer', 'Minimal access'); undefined for a number no role has. */
export function roleTitle(level: number): string | undefined {
  const word = WORD_OF.get(level);
  return word && word[0].toUpperCase() + word.slice(1).replace(/_/g, ' ');
}

/** The parameters that name a role by its level: access_level(s) at the end of the name, and group_access. */
const ROLE_NAME = /(^|_)access_levels?$|^group_access$/;

/** A schema of role levels: integers, every one a level (a feature's access level is a string, never matched). */
function levelsOf(schema: JsonSchema): number[] | undefined {
  const values = schema.enum as unknown[] | undefined;
  if (schema.type !== 'integer' || !values?.length) return undefined;
  return values.every((v) => typeof v === 'number' && WORD_OF.has(v)) ? (values as number[]) : undefined;
}

/** The schema with the words of its levels beside the numbers (integer or string, one fixed set). */
const withWords = (schema: JsonSchema, levels: number[]): JsonSchema => ({
  ...schema,
  type: ['integer', 'string'],
  enum: [...levels, ...levels.map((l) => WORD_OF.get(l)!)],
});

/**
 * A parameter's schema as a client sees it: where `name` is a role's (or an object or list holds one), its levels
 * take their words too. Unchanged schemas are answered as themselves.
 */
export function withRoleWords(name: string, schema: JsonSchema): JsonSchema {
  if (ROLE_NAME.test(name)) {
    const levels = levelsOf(schema);
    if (levels) return withWords(schema, levels);
  }
  const items = schema.items as JsonSchema | undefined;
  if (items && typeof items === 'object') {
    const inner = withRoleWords(name, items);
    return inner === items ? schema : { ...schema, items: inner };
  }
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props) return schema;
  let out: Record<string, JsonSchema> | undefined;
  for (const [key, p] of Object.entries(props)) {
    const inner = withRoleWords(key, p);
    if (inner !== p) (out ??= { ...props })[key] = inner;
  }
  return out ? { ...schema, properties: out } : schema;
}

/** Whether a schema is one withRoleWords made: integer or string, a fixed set of levels and their words. */
function takesWords(schema: JsonSchema): boolean {
  const values = schema.enum as unknown[] | undefined;
  return Array.isArray(schema.type) && !!values && values.some((v) => typeof v === 'string' && v in LEVEL_OF);
}

/**
 * The level a role's word or a string of digits names, when the schema takes it (the fixed set then reads it as
 * the number); otherwise the value as given, for the fixed set to refuse naming the words and numbers it takes.
 */
function levelFor(schema: JsonSchema, value: string): unknown {
  const text = value.trim();
  const level = /^\d+$/.test(text) ? Number(text) : LEVEL_OF[text.toLowerCase().replace(/[\s-]+/g, '_')];
  return level !== undefined && (schema.enum as unknown[]).includes(level) ? level : value;
}

/**
 * Turns the role words (and strings of digits) given for role parameters into their levels, in place, before
 * the arguments are validated: the number is what is sent. Only objects and lists are walked.
 */
export function wordsToLevels(schema: unknown, value: unknown): void {
  if (!schema || typeof schema !== 'object' || value === null || typeof value !== 'object') return;
  const s = schema as JsonSchema;
  if (Array.isArray(value)) {
    const items = s.items as JsonSchema | undefined;
    if (!items || typeof items !== 'object') return;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') {
        if (takesWords(items)) value[i] = levelFor(items, item);
      } else wordsToLevels(items, item);
    }
    return;
  }
  const props = s.properties as Record<string, JsonSchema> | undefined;
  if (!props) return;
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    if (!Object.hasOwn(props, key) || !Object.hasOwn(obj, key)) continue;
    const item = obj[key];
    const p = props[key]!;
    if (typeof item === 'string') {
      if (takesWords(p)) obj[key] = levelFor(p, item);
    } else wordsToLevels(p, item);
  }
}
