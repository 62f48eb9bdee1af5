/**
 * Documents of the phonometry project's catalogue format, version 1, the format this one
 * descends from. A v1 document differs from ours in two names only: its `schema` constant
 * (`phonometry-catalogue`) and its writer's version field (`phonometry_version`); its CSV header
 * sits beside the CSV file as `<csv file>.phonometry.json`. Importing renames those two and
 * nothing else, so every value, member order and unit spelling is kept.
 */
import type { Issue } from './errors.js';
import { quote } from './errors.js';
import { SCHEMA_ID } from './schema.js';

export const PHONOMETRY_SCHEMA = 'phonometry-catalogue';
export const PHONOMETRY_SCHEMA_VERSION = 1;
export const PHONOMETRY_CSV_HEADER_SUFFIX = '.phonometry.json';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a parsed value is a phonometry catalogue document or CSV header. */
export function isPhonometryDocument(value: unknown): boolean {
  return isObject(value) && (value.schema === PHONOMETRY_SCHEMA || 'phonometry_version' in value);
}

/** The refusal `validate` gives a phonometry document: import it instead. */
export function phonometryIssue(): Issue {
  return {
    pointer: '/schema',
    message: `this is a phonometry catalogue (schema "${PHONOMETRY_SCHEMA}"), not yet one of ours; convert it without losing a value with: acoustics-catalogue import FILE OUT`,
  };
}

export interface PhonometryImport {
  /** The document (or CSV header) in our format, when it could be converted. */
  readonly value?: Record<string, unknown>;
  readonly issues: readonly Issue[];
}

/**
 * Converts a parsed phonometry v1 document or CSV header into ours: `schema` becomes
 * `acoustics-catalogue`, `phonometry_version` becomes `acoustics_version` (as
 * `phonometry <version>`), a `$schema` naming phonometry's schema names ours. Everything else
 * is kept as written, in its order. The result still has to pass the reader.
 */
export function importPhonometry(value: unknown): PhonometryImport {
  if (!isObject(value))
    return {
      issues: [{ pointer: '', message: `a phonometry catalogue is a JSON object, got ${quote(value)}` }],
    };
  if (value.schema !== PHONOMETRY_SCHEMA)
    return {
      issues: [
        {
          pointer: '/schema',
          message: `schema is ${quote(value.schema)}, not "${PHONOMETRY_SCHEMA}": this is not a phonometry catalogue${value.schema === 'acoustics-catalogue' ? '; it needs no import, validate it as it is' : ''}`,
        },
      ],
    };
  const version = value.schema_version;
  if (typeof version === 'number' && Number.isInteger(version) && version > PHONOMETRY_SCHEMA_VERSION)
    return {
      issues: [
        {
          pointer: '/schema_version',
          message: `phonometry schema_version ${version} is newer than the version ${PHONOMETRY_SCHEMA_VERSION} this import knows; upgrade acoustics-catalogue`,
        },
      ],
    };
  if ('acoustics_version' in value && 'phonometry_version' in value)
    return {
      issues: [
        {
          pointer: '/acoustics_version',
          message:
            'the document has both phonometry_version and acoustics_version; remove one, then import it',
        },
      ],
    };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'schema') out.schema = 'acoustics-catalogue';
    else if (k === 'phonometry_version')
      out.acoustics_version = typeof v === 'string' ? `phonometry ${v}` : v === null ? 'phonometry' : v;
    else if (k === '$schema' && typeof v === 'string' && v.startsWith('urn:phonometry:'))
      out.$schema = SCHEMA_ID;
    else out[k] = v;
  }
  return { value: out, issues: [] };
}
