import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASIS_VALUES,
  ROW_CLASS_NAMES,
  checkCatalogue,
  checkCatalogueValue,
  classInfo,
  readCatalogue,
  readCatalogueCsv,
  writeCatalogue,
  writeCatalogueCsv,
  type CatalogueDocument,
  type CsvDialect,
  type RowClassName,
} from '../src/index.js';
import { kindBounds } from '../src/definition.js';

const TEXTS = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => /\S/.test(s)),
  fc.constantFrom('=SUM(A1)', '+44 1', '-3 dB', '@ref', '\tlead', "'quoted", 'a;b,"c"\nd', 'café ≤ 3'),
);

/** -0 is written as 0 by JSON; generate 0 instead so documents compare equal. */
const noNegativeZero = (x: number) => (x === 0 ? 0 : x);

type State = 'value' | 'range' | 'above' | 'below' | 'word';

function rowArb(rowType: RowClassName, index: number) {
  const info = classInfo(rowType);
  const fieldArb = (field: string) => {
    const spec = info.spec.numeric[field];
    const [lo, hi] = kindBounds(spec.kind);
    const num =
      spec.kind === 'whole'
        ? fc.integer({ min: -3000, max: 3000 })
        : fc
            .double({
              min: lo ?? -1e9,
              max: hi ?? 1e9,
              noNaN: true,
              noDefaultInfinity: true,
            })
            .map(noNegativeZero);
    return fc.record({
      field: fc.constant(field),
      state: fc.constantFrom<State>('value', 'range', 'above', 'below', 'word'),
      a: num,
      b: num,
      approximate: fc.boolean(),
      uncertainty: fc.option(fc.double({ min: 0, max: 100, noNaN: true }).map(noNegativeZero), {
        nil: undefined,
      }),
      word: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /\S/.test(s)),
    });
  };
  return fc
    .record({
      suffix: fc.stringMatching(/^[A-Za-z0-9_.+-]{0,6}$/),
      name: TEXTS,
      variant: fc.option(TEXTS, { nil: undefined }),
      note: fc.option(TEXTS, { nil: undefined }),
      basis: fc.option(fc.constantFrom(...BASIS_VALUES), { nil: undefined }),
      page: fc.option(TEXTS, { nil: undefined }),
      user: fc.option(TEXTS, { nil: undefined }),
      fields: fc
        .subarray([...info.canonical], { maxLength: Math.min(5, info.canonical.length) })
        .chain((fs) => fc.tuple(...fs.map(fieldArb))),
      texts: fc
        .subarray([...info.spec.text])
        .chain((ts) => fc.tuple(...ts.map((t) => fc.tuple(fc.constant(t), TEXTS)))),
    })
    .map((r) => {
      const row: Record<string, any> = { key: `r${index}${r.suffix}`, name: r.name };
      if (r.variant !== undefined) row.variant = r.variant;
      if (r.note !== undefined) row.note = r.note;
      for (const [t, v] of r.texts) row[t] = v;
      const add = (hedge: string, field: string, value?: unknown) => {
        if (value === undefined) (row[hedge] ??= []).push(field);
        else (row[hedge] ??= {})[field] = value;
      };
      for (const f of r.fields) {
        const [lo, hi] = [Math.min(f.a, f.b), Math.max(f.a, f.b)];
        const ceiling = kindBounds(info.spec.numeric[f.field].kind)[1];
        if (f.state === 'value') {
          row[f.field] = f.a;
          if (f.approximate) add('approximate', f.field);
          if (f.uncertainty !== undefined) add('uncertainty', f.field, f.uncertainty);
        } else if (f.state === 'range') {
          add('ranges', f.field, [lo, hi]);
          if (f.approximate) add('approximate', f.field);
        } else if (f.state === 'above') {
          add('ranges', f.field, [null, f.a]);
          add('bounded_above', f.field);
        } else if (f.state === 'below') {
          add('ranges', f.field, [f.a, ceiling]);
          add('bounded_below', f.field);
        } else add('unquantified', f.field, f.word);
      }
      if (r.basis) row.basis = { row: r.basis };
      if (r.page !== undefined) row.provenance = { page: r.page };
      if (r.user !== undefined) row['x-user'] = r.user;
      return row;
    });
}

const documentArb = fc
  .record({
    rowType: fc.constantFrom(...ROW_CLASS_NAMES),
    count: fc.integer({ min: 1, max: 4 }),
    basis: fc.option(fc.constantFrom(...BASIS_VALUES), { nil: undefined }),
    catalogue: fc.stringMatching(/^[a-z0-9][a-z0-9._]{0,20}$/),
    about: TEXTS,
  })
  .chain((d) =>
    fc.tuple(...Array.from({ length: d.count }, (_, i) => rowArb(d.rowType, i))).map(
      (rows) =>
        ({
          schema: 'acoustics-catalogue',
          schema_version: 1,
          catalogue: d.catalogue,
          row_type: d.rowType,
          about: d.about,
          ...(d.basis ? { basis: d.basis } : {}),
          provenance: { kind: 'datasheet', document: 'Sheet', version: null, consulted: '2024-06-30' },
          rows,
        }) as unknown as CatalogueDocument,
    ),
  );

/** Texts of any script, with tab and line feed, that the reader keeps. */
const WIDE_TEXTS = fc.oneof(
  TEXTS,
  fc.constantFrom(
    'שטיח על בטון',
    'سجادة',
    'line one\nline two',
    'col\tcol',
    'Ω·m², ±5 %',
    '日本語のテキスト',
  ),
);

/** A valid document with the hedges JSON alone can express added where the row allows them. */
const jsonDocumentArb = documentArb.chain((d) =>
  fc
    .record({
      text: WIDE_TEXTS,
      word: WIDE_TEXTS,
      conventions: fc.array(WIDE_TEXTS, { maxLength: 2 }),
      attributed: fc.boolean(),
      perRow: fc.array(
        fc.record({
          reported: fc.boolean(),
          misprinted: fc.boolean(),
          carried: fc.boolean(),
          basis: fc.constantFrom(...BASIS_VALUES),
        }),
        {
          minLength: d.rows.length,
          maxLength: d.rows.length,
        },
      ),
    })
    .map((extra) => {
      const info = classInfo(d.row_type);
      const rows = (d.rows as readonly Record<string, any>[]).map((original, i) => {
        const row: Record<string, any> = { ...original };
        const x = extra.perRow[i];
        const valued = info.canonical.find((f) => typeof row[f] === 'number');
        const empty = info.canonical.find(
          (f) => row[f] === undefined && row.ranges?.[f] === undefined && row.unquantified?.[f] === undefined,
        );
        if (valued && x.reported) row.reported = { [valued]: [row[valued], [row[valued], row[valued]]] };
        if (valued) row.basis = { ...row.basis, [valued]: x.basis };
        if (empty && x.misprinted) row.misprinted = { [empty]: extra.word };
        else if (empty) row.not_derivable = { [empty]: extra.word };
        if (x.carried) row.carried = { name: extra.text };
        if (valued) row.provenance = { ...row.provenance, field_test_standards: { [valued]: 'ISO 354' } };
        row.attributed_to = { row: extra.text };
        return row;
      });
      return {
        ...d,
        about: extra.text,
        ...(extra.conventions.length ? { conventions: extra.conventions } : {}),
        ...(extra.attributed ? { attributed_to: extra.word } : {}),
        rows,
      } as unknown as CatalogueDocument;
    }),
);

const DIALECTS: CsvDialect[] = [
  { delimiter: ',', decimal: '.' },
  { delimiter: ';', decimal: '.' },
  { delimiter: ';', decimal: ',' },
  { delimiter: '\t', decimal: '.' },
  { delimiter: '\t', decimal: ',' },
];

describe('properties', () => {
  it('whatever the writer produces, the reader accepts, and writing it again gives the same text', () => {
    fc.assert(
      fc.property(documentArb, (d) => {
        const text = writeCatalogue(d);
        const read = readCatalogue(text);
        expect(writeCatalogue(read.document)).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it('any valid document, JSON-only hedges and any script included, is written then read back identically', () => {
    fc.assert(
      fc.property(jsonDocumentArb, (d) => {
        const text = writeCatalogue(d);
        const read = readCatalogue(text);
        expect(read.document).toEqual(JSON.parse(JSON.stringify(d)));
        expect(writeCatalogue(read.document)).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it('whatever the CSV writer produces, the CSV reader accepts as the same document, in every dialect', () => {
    fc.assert(
      fc.property(documentArb, fc.constantFrom(...DIALECTS), (d, dialect) => {
        const { header, csv } = writeCatalogueCsv(d, dialect);
        const fromCsv = readCatalogueCsv(header, csv).document;
        expect(fromCsv).toEqual(readCatalogue(writeCatalogue(d)).document);
        expect(writeCatalogueCsv(fromCsv, dialect)).toEqual({ header, csv });
      }),
      { numRuns: 150 },
    );
  });

  type Token = string | number;
  function paths(value: unknown, at: Token[] = []): Token[][] {
    if (typeof value !== 'object' || value === null) return [];
    const entries: [Token, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value as Record<string, unknown>);
    return entries.flatMap(([k, v]) => [[...at, k], ...paths(v, [...at, k])]);
  }
  const toPointer = (p: Token[]) =>
    p.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  const rowOf = (p: string) => /^\/rows\/(\d+)/.exec(p)?.[1];

  it('a single mutation of a valid document is accepted or refused with a pointer at the mutated place', () => {
    const mutation = fc.record({
      pick: fc.nat(),
      kind: fc.constantFrom('replace', 'delete', 'add'),
      value: fc.jsonValue({ maxDepth: 2 }),
      name: fc.string({ minLength: 1, maxLength: 8 }),
    });
    let refused = 0;
    fc.assert(
      fc.property(documentArb, mutation, (d, m) => {
        const doc = JSON.parse(writeCatalogue(d));
        const all = paths(doc);
        const path = all[m.pick % all.length];
        const parent = path.slice(0, -1).reduce((o: any, k) => o[k], doc);
        const last = path[path.length - 1];
        let mutated = path;
        if (m.kind === 'delete') {
          if (Array.isArray(parent)) parent.splice(last as number, 1);
          else delete parent[last];
        } else if (
          m.kind === 'add' &&
          typeof parent[last] === 'object' &&
          parent[last] !== null &&
          !Array.isArray(parent[last])
        ) {
          parent[last][m.name] = m.value;
          mutated = [...path, m.name];
        } else parent[last] = m.value;
        const place = toPointer(mutated);
        const { issues } = checkCatalogueValue(doc);
        if (issues.length === 0) return;
        refused++;
        const related = issues.some((i) => {
          const p = i.pointer;
          if (p === place || p.startsWith(`${place}/`) || place.startsWith(`${p}/`) || p === '') return true;
          // A rule on two cells of one row may point at the other cell.
          if (rowOf(p) !== undefined && rowOf(p) === rowOf(place)) return true;
          // A key changed to one used later is reported at the later row's key.
          if (place.endsWith('/key') && p.endsWith('/key') && i.message.includes('repeats')) return true;
          // A different row class changes what every row and field_test_standards may hold.
          return place === '/row_type';
        });
        expect(related, `mutation at ${place}: ${JSON.stringify(issues)}`).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(refused).toBeGreaterThan(50);
  });

  const UNSAFE = ['\u0000', '\u0007', '\u000d', '\u001b', '\u202a', '\u202e', '\u2066', '\u2069'];
  const NEVER_READ = new Set(['/$schema', '/acoustics_version']);

  /** Forbidden single-field mutations: each returns the document (or its text) and where it must be refused. */
  type Forbidden = { doc?: any; text?: string; at: string };
  const forbidden = fc.record({
    kind: fc.constantFrom(
      'unsafe',
      'type',
      'unknown',
      'hedge-key',
      'beside',
      'twice',
      'required',
      'limit',
      'bound',
    ),
    pick: fc.nat(),
    char: fc.constantFrom(...UNSAFE),
    name: fc.stringMatching(/^zz[a-z_]{1,8}$/),
  });

  function mutate(
    d: any,
    m: { kind: string; pick: number; char: string; name: string },
  ): Forbidden | undefined {
    const doc = JSON.parse(writeCatalogue(d));
    const info = classInfo(doc.row_type);
    const rowIndex = m.pick % doc.rows.length;
    const row = doc.rows[rowIndex];
    const rowAt = `/rows/${rowIndex}`;
    switch (m.kind) {
      case 'unsafe': {
        const texts = paths(doc).filter((p) => {
          const v = p.reduce((o: any, k) => o[k], doc);
          return typeof v === 'string' && !NEVER_READ.has(toPointer(p.slice(0, 1)));
        });
        const p = texts[m.pick % texts.length];
        const parent = p.slice(0, -1).reduce((o: any, k) => o[k], doc);
        const v: string = parent[p[p.length - 1]];
        const cut = m.pick % (v.length + 1);
        parent[p[p.length - 1]] = v.slice(0, cut) + m.char + v.slice(cut);
        return { doc, at: toPointer(p) };
      }
      case 'type': {
        const field = info.canonical.find((f) => typeof row[f] === 'number');
        if (!field) return undefined;
        row[field] = String(row[field]);
        return { doc, at: `${rowAt}/${field}` };
      }
      case 'unknown': {
        const holders: [any, string][] = [
          [doc, ''],
          [row, rowAt],
          [doc.provenance, '/provenance'],
        ];
        const [holder, at] = holders[m.pick % holders.length];
        holder[m.name] = 1;
        return { doc, at: `${at}/${m.name}` };
      }
      case 'hedge-key': {
        const hedges = [
          'ranges',
          'uncertainty',
          'unquantified',
          'not_derivable',
          'carried',
          'misprinted',
          'basis',
          'attributed_to',
        ];
        const hedge = hedges[m.pick % hedges.length];
        const value =
          hedge === 'ranges'
            ? [1, 2]
            : hedge === 'uncertainty'
              ? 0.1
              : hedge === 'basis'
                ? 'measured'
                : 'text';
        row[hedge] = { ...row[hedge], [m.name]: value };
        return { doc, at: `${rowAt}/${hedge}/${m.name}` };
      }
      case 'beside': {
        const field = info.canonical.find((f) => typeof row[f] === 'number');
        if (!field) return undefined;
        const hedge = ['unquantified', 'misprinted', 'not_derivable'][m.pick % 3];
        row[hedge] = { [field]: 'as printed' };
        return { doc, at: `${rowAt}/${hedge}/${field}` };
      }
      case 'twice': {
        const text = JSON.stringify(doc).replace('"about":', '"about":"again","about":');
        return { text, at: '/about' };
      }
      case 'required': {
        const required: [any, string, string][] = [
          ...['schema', 'schema_version', 'catalogue', 'row_type', 'about', 'provenance'].map(
            (k) => [doc, '', k] as [any, string, string],
          ),
          [row, rowAt, 'key'],
          [row, rowAt, 'name'],
          [doc.provenance, '/provenance', 'consulted'],
        ];
        const [holder, at, key] = required[m.pick % required.length];
        delete holder[key];
        return { doc, at: `${at}/${key}` };
      }
      case 'limit': {
        const which = m.pick % 4;
        if (which === 0) doc.catalogue = 'c'.repeat(65);
        else if (which === 1) doc.catalogue = '';
        else if (which === 2) row.key = 'k'.repeat(129);
        else row.key = '';
        return { doc, at: which < 2 ? '/catalogue' : `${rowAt}/key` };
      }
      case 'bound': {
        const field = info.canonical[m.pick % Math.max(1, info.canonical.length)];
        if (!field) return undefined;
        for (const h of ['ranges', 'unquantified', 'not_derivable', 'misprinted', 'uncertainty', 'reported'])
          if (row[h]) delete row[h][field];
        row.approximate = row.approximate?.filter((f: string) => f !== field);
        if (!row.approximate?.length) delete row.approximate;
        row.bounded_below = row.bounded_below?.filter((f: string) => f !== field);
        if (!row.bounded_below?.length) delete row.bounded_below;
        delete row[field];
        row.bounded_above = [...(row.bounded_above ?? []).filter((f: string) => f !== field), field];
        row.ranges = { ...row.ranges, [field]: [0, null] };
        return { doc, at: `${rowAt}/ranges/${field}/1` };
      }
    }
    return undefined;
  }

  it('every single-field mutation the format forbids is refused, at the pointer of what was mutated', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(documentArb, forbidden, (d, m) => {
        const mutated = mutate(d, m);
        if (!mutated) return;
        seen.add(m.kind);
        const { issues } =
          mutated.text !== undefined ? checkCatalogue(mutated.text) : checkCatalogueValue(mutated.doc);
        expect(
          issues.map((i) => i.pointer),
          `${m.kind}: ${JSON.stringify(issues)}`,
        ).toContain(mutated.at);
      }),
      { numRuns: 400 },
    );
    expect([...seen].sort()).toEqual([
      'beside',
      'bound',
      'hedge-key',
      'limit',
      'required',
      'twice',
      'type',
      'unknown',
      'unsafe',
    ]);
  });
});
