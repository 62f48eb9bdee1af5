/**
 * Generates the JSON Schema (2020-12) of a catalogue document from the row-class definition.
 * The published file `schema/acoustics-catalogue.schema.json` is this function's output.
 */
import {
  BASIS_VALUES,
  ROW_CLASS_NAMES,
  ROW_PROVENANCE_TEXT,
  classInfo,
  type NumberKind,
  type RowClassName,
} from './definition.js';

export const SCHEMA_ID = 'urn:acoustics-catalogue:schema:1';
export const MAX_ROWS = 50_000;

/** Python `str.isspace` characters (JS `\s` differs). */
export const WHITESPACE_CLASS =
  '\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
export const NON_WHITESPACE = `[^${WHITESPACE_CLASS}]`;

/**
 * What no text may hold: control characters other than tab and line feed, and the bidirectional
 * embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) that make a text show one
 * thing and hold another.
 */
export const UNSAFE_CLASS = '\\u0000-\\u0008\\u000b-\\u001f\\u202a-\\u202e\\u2066-\\u2069';
export const SAFE_TEXT = `^[^${UNSAFE_CLASS}]*$`;

export const CATALOGUE_PATTERN = '^[a-z0-9][a-z0-9._-]{0,63}$';
export const PACKAGED_NAME_PATTERN = '^[a-z0-9][a-z0-9._-]*-[0-9]{4}-[a-z]';
export const KEY_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}$';
export const USER_COLUMN_PATTERN = '^x-[A-Za-z0-9_][A-Za-z0-9_.+-]{0,125}$';

export const PROVENANCE_KINDS = [
  'datasheet',
  'declaration_of_performance',
  'test_report',
  'measurement',
  'calculation',
  'publication',
  'other',
] as const;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type SchemaObject = { [k: string]: Json };

const ref = (name: string): SchemaObject => ({ $ref: `#/$defs/${name}` });

const KIND_DEF: Record<NumberKind, string> = {
  number: 'number',
  from_0: 'number_from_0',
  from_0_to_1: 'number_from_0_to_1',
  from_0_to_100: 'number_from_0_to_100',
  whole: 'whole',
};

function nameEnum(names: readonly string[], description: string): Json {
  return names.length === 0 ? false : { description, enum: [...names] };
}

function rowSchema(name: RowClassName): SchemaObject {
  const info = classInfo(name);
  const fields = ref(`${name}.fields`);
  const cells = ref(`${name}.cells`);
  const fieldMap = (value: Json, description: string): SchemaObject => ({
    description,
    type: 'object',
    propertyNames: fields,
    additionalProperties: value,
  });
  const fieldList = (description: string): SchemaObject => ({ description, type: 'array', items: fields });
  const properties: SchemaObject = {
    key: { description: 'Row key; the full key is <catalogue>/<key>.', type: 'string', pattern: KEY_PATTERN },
    name: ref('filled'),
    variant: ref('text'),
    group: ref('text'),
    note: ref('prose'),
    provenance: {
      allOf: [ref('row_provenance'), { properties: { field_test_standards: { propertyNames: fields } } }],
    },
  };
  for (const field of info.fields) {
    const alias = info.aliases.get(field);
    const spec = info.spec.numeric[alias ? alias.canonical : field];
    const unit = alias ? alias.from.label : spec.unit;
    properties[field] = {
      ...ref(KIND_DEF[spec.kind]),
      description: alias
        ? `${alias.canonical} written in ${unit}; converted by the reader.`
        : `${field}${unit ? ` (${unit})` : ''}`,
    };
  }
  for (const text of info.spec.text) properties[text] = ref('text');
  for (const flag of info.spec.flags) properties[flag] = { type: 'boolean' };
  properties.basis = {
    description: 'Basis of single fields, or of the whole row under the word row.',
    type: 'object',
    propertyNames: { anyOf: [fields, { const: 'row' }] },
    additionalProperties: ref('basis'),
  };
  properties.approximate = fieldList('Fields the page prints with ~.');
  properties.bounded_above = fieldList('Fields printed as an upper bound (< or <=); each has a range.');
  properties.bounded_below = fieldList('Fields printed as a lower bound (> or >=); each has a range.');
  properties.ranges = fieldMap(ref('range'), 'Field to [low, high]; null is an open end.');
  properties.reported = fieldMap(
    { type: 'array', minItems: 1, items: ref('reading') },
    'Field to the readings the page reports.',
  );
  properties.uncertainty = fieldMap(ref('number_from_0_strict'), 'Field to its printed uncertainty (±).');
  properties.converted = fieldMap(ref('converted'), 'Field to [figure, unit] as printed before conversion.');
  properties.unquantified = fieldMap(ref('filled'), 'Field to what the page prints instead of a number.');
  properties.not_derivable = fieldMap(ref('filled'), 'Field to why it is left empty.');
  properties.carried = {
    description: 'Cell to the row that gives its value.',
    type: 'object',
    propertyNames: cells,
    additionalProperties: ref('filled'),
  };
  properties.misprinted = {
    description: 'Cell to what the page prints and why it is wrong.',
    type: 'object',
    propertyNames: cells,
    additionalProperties: ref('filled'),
  };
  properties.attributed_to = {
    description: 'Field, row or table to who the page credits it to.',
    type: 'object',
    propertyNames: { anyOf: [fields, { enum: ['row', 'table'] }] },
    additionalProperties: ref('filled'),
  };
  if (name === 'SolidMaterial') {
    properties.borrowed = fieldMap(ref('filled'), 'Field to the material its value is taken from.');
  }
  return {
    description: info.spec.description,
    type: 'object',
    required: ['key', 'name'],
    properties,
    patternProperties: { [USER_COLUMN_PATTERN]: { anyOf: [ref('text'), { type: 'number' }] } },
    additionalProperties: false,
  };
}

/** Builds the catalogue document schema. Deterministic: same definition, same output. */
export function buildSchema(): SchemaObject {
  const defs: SchemaObject = {
    text: { type: 'string', maxLength: 2000, pattern: SAFE_TEXT },
    prose: { type: 'string', maxLength: 20000, pattern: SAFE_TEXT },
    filled: { type: 'string', maxLength: 2000, allOf: [{ pattern: NON_WHITESPACE }, { pattern: SAFE_TEXT }] },
    number: { type: ['number', 'null'] },
    number_from_0: { type: ['number', 'null'], minimum: 0 },
    number_from_0_strict: { type: 'number', minimum: 0 },
    number_from_0_to_1: { type: ['number', 'null'], minimum: 0, maximum: 1 },
    number_from_0_to_100: { type: ['number', 'null'], minimum: 0, maximum: 100 },
    whole: { type: ['integer', 'null'] },
    basis: { enum: [...BASIS_VALUES] },
    range: {
      type: 'array',
      prefixItems: [ref('number'), ref('number')],
      minItems: 2,
      items: false,
    },
    reading: {
      anyOf: [
        { type: 'number' },
        { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, items: false },
      ],
    },
    converted: {
      type: 'array',
      prefixItems: [ref('filled'), ref('filled')],
      minItems: 2,
      items: false,
    },
    row_provenance: {
      type: 'object',
      properties: {
        ...Object.fromEntries(ROW_PROVENANCE_TEXT.map((f) => [f, ref('text')])),
        field_test_standards: { type: 'object', additionalProperties: ref('filled') },
      },
      additionalProperties: false,
    },
    provenance: {
      type: 'object',
      required: ['kind', 'document', 'version', 'consulted'],
      properties: {
        kind: { enum: [...PROVENANCE_KINDS] },
        document: ref('filled'),
        version: { anyOf: [ref('filled'), { type: 'null' }] },
        consulted: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', format: 'date' },
        publisher: ref('text'),
        url: ref('text'),
        ...Object.fromEntries(ROW_PROVENANCE_TEXT.map((f) => [f, ref('text')])),
        issued: { type: 'string', pattern: '^([0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?)?$' },
        sha256: { type: 'string', pattern: '^([0-9a-fA-F]{64})?$' },
        field_test_standards: { type: 'object', additionalProperties: ref('filled') },
      },
      additionalProperties: false,
    },
    csv: {
      type: 'object',
      required: ['delimiter', 'decimal'],
      properties: { delimiter: { enum: [',', ';', '\t'] }, decimal: { enum: ['.', ','] } },
      additionalProperties: false,
      not: {
        properties: { delimiter: { const: ',' }, decimal: { const: ',' } },
        required: ['delimiter', 'decimal'],
      },
    },
  };
  for (const name of ROW_CLASS_NAMES) {
    const info = classInfo(name);
    defs[name] = rowSchema(name);
    defs[`${name}.fields`] = nameEnum(info.fields, `Numeric fields of ${name} and their unit aliases.`);
    defs[`${name}.cells`] = nameEnum(info.cells, `Cells of ${name}.`);
  }
  const branches: Json[] = ROW_CLASS_NAMES.map((name) => ({
    if: { properties: { row_type: { const: name } }, required: ['row_type'] },
    then: {
      properties: {
        rows: { items: ref(name) },
        provenance: { properties: { field_test_standards: { propertyNames: ref(`${name}.fields`) } } },
      },
    },
  }));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_ID,
    title: 'Acoustics catalogue document',
    description:
      'The rows of one table of a data sheet, declaration of performance, test report or measurement, ' +
      'or the header beside a CSV file that declares its dialect and holds no rows.',
    type: 'object',
    required: ['schema', 'schema_version', 'catalogue', 'row_type', 'about', 'provenance'],
    properties: {
      $schema: { description: 'Where an editor finds the schema; never read.' },
      schema: { const: 'acoustics-catalogue' },
      schema_version: { const: 1 },
      catalogue: {
        description: 'Catalogue name, first half of every row key.',
        type: 'string',
        pattern: CATALOGUE_PATTERN,
        not: { pattern: PACKAGED_NAME_PATTERN },
      },
      row_type: { enum: [...ROW_CLASS_NAMES] },
      about: ref('filled_prose'),
      provenance: ref('provenance'),
      basis: ref('basis'),
      attributed_to: ref('filled'),
      conventions: { type: 'array', items: ref('text') },
      csv: ref('csv'),
      rows: { type: 'array', minItems: 1, maxItems: MAX_ROWS },
      acoustics_version: { description: 'Version of the writer; never read.' },
    },
    additionalProperties: false,
    allOf: [
      { if: { required: ['csv'] }, then: { not: { required: ['rows'] } }, else: { required: ['rows'] } },
      ...branches,
    ],
    $defs: {
      ...defs,
      filled_prose: {
        type: 'string',
        maxLength: 20000,
        allOf: [{ pattern: NON_WHITESPACE }, { pattern: SAFE_TEXT }],
      },
    },
  };
}
