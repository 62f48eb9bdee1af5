/**
 * The reader's own rules: those that depend on two cells at once, unit alias conversion,
 * and the notes (suspicious but allowed). They run on rows the schema has accepted.
 */
import { kindBounds, type ClassInfo, type NumericFieldSpec } from './definition.js';
import { escapePointer, quote } from './errors.js';
import {
  NRC_BANDS,
  RATING_OCTAVES,
  SAA_BANDS,
  noiseReductionCoefficient,
  practicalAbsorptionCoefficients,
  weightedAbsorption,
} from './ratings.js';
import { convertValue } from './units.js';

type Row = Record<string, unknown>;
type Obj = Record<string, unknown>;
const EMPTY: Obj = Object.freeze({});

export interface RelativeIssue {
  /** Pointer relative to the row. */
  readonly pointer: string;
  readonly message: string;
}

const FIELD_MAPS = [
  'basis',
  'ranges',
  'reported',
  'uncertainty',
  'converted',
  'unquantified',
  'not_derivable',
  'attributed_to',
  'borrowed',
] as const;
const FIELD_LISTS = ['approximate', 'bounded_above', 'bounded_below'] as const;
const CELL_MAPS = ['carried', 'misprinted'] as const;
const ALIAS_HEDGE_SET: ReadonlySet<string> = new Set([...FIELD_MAPS, ...CELL_MAPS, ...FIELD_LISTS]);

/** Whether a row holds any hedge the cross-cell rules look at (most rows hold none). */
function hasHedge(row: Row): boolean {
  return (
    row.unquantified !== undefined ||
    row.not_derivable !== undefined ||
    row.misprinted !== undefined ||
    row.bounded_above !== undefined ||
    row.bounded_below !== undefined ||
    row.ranges !== undefined ||
    row.reported !== undefined ||
    row.uncertainty !== undefined ||
    row.converted !== undefined ||
    row.borrowed !== undefined ||
    row.approximate !== undefined
  );
}

/** Canonical order of a row's members; user columns follow. */
export function rowOrder(info: ClassInfo): string[] {
  return [
    'key',
    'name',
    'variant',
    'group',
    'note',
    ...info.canonical,
    ...info.spec.text,
    ...info.spec.flags,
    'basis',
    ...FIELD_LISTS,
    'ranges',
    'reported',
    'uncertainty',
    'converted',
    'unquantified',
    'not_derivable',
    'carried',
    'misprinted',
    'attributed_to',
    'borrowed',
    'provenance',
  ];
}

/** The row with its members in canonical order (user columns last, in their order). */
export function orderRow(row: Row, info: ClassInfo): Row {
  const out: Row = {};
  for (const k of rowOrder(info)) if (row[k] !== undefined) out[k] = row[k];
  for (const k of Object.keys(row)) if (!(k in out)) out[k] = row[k];
  return out;
}

const at = (...t: string[]) => t.map((x) => `/${escapePointer(x)}`).join('');

function isNum(v: unknown): v is number {
  return typeof v === 'number';
}

/** Converts a row's alias columns (and hedges naming them) into canonical fields. */
function convertAliases(row: Row, info: ClassInfo): { row: Row } | { issue: RelativeIssue } {
  if (info.aliases.size === 0) return { row };
  // Most rows name no alias anywhere: one pass over the row's own members tells.
  let written = false;
  for (const name in row) {
    if (info.aliases.has(name)) {
      written = true;
      break;
    }
    if (!ALIAS_HEDGE_SET.has(name)) continue;
    const held = row[name] as Obj | string[];
    const names = Array.isArray(held) ? held : Object.keys(held);
    if (names.some((n) => info.aliases.has(n))) {
      written = true;
      break;
    }
  }
  if (!written) return { row };
  let out: Row | undefined;
  const copy = (): Row => {
    if (!out) {
      out = { ...row };
      for (const h of [...FIELD_MAPS, ...CELL_MAPS]) if (out[h]) out[h] = { ...(out[h] as Obj) };
      for (const h of FIELD_LISTS) if (out[h]) out[h] = [...(out[h] as string[])];
    }
    return out;
  };
  for (const name of Object.keys(row)) {
    const alias = info.aliases.get(name);
    if (!alias) continue;
    const o = copy();
    if (row[alias.canonical] !== undefined)
      return {
        issue: {
          pointer: at(name),
          message: `${name} and ${alias.canonical} are the same quantity; give it once`,
        },
      };
    const value = row[name];
    delete o[name];
    if (isNum(value)) {
      const conv = (o.converted ?? {}) as Obj;
      if (conv[alias.canonical] !== undefined || conv[name] !== undefined)
        return {
          issue: {
            pointer: at('converted', conv[name] !== undefined ? name : alias.canonical),
            message: `${alias.canonical} is written in ${alias.from.label} (${name}) and also has a converted record; give one`,
          },
        };
      o[alias.canonical] = convertValue(value, alias.from, alias.to);
      o.converted = { ...conv, [alias.canonical]: [String(value), alias.from.label] };
    } else {
      o[alias.canonical] = value;
    }
  }
  // Hedges that name alias fields.
  for (const hedge of [...FIELD_MAPS, ...CELL_MAPS]) {
    const map = row[hedge] as Obj | undefined;
    if (!map) continue;
    for (const name of Object.keys(map)) {
      const alias = info.aliases.get(name);
      if (!alias) continue;
      const o = copy();
      const target = o[hedge] as Obj;
      if (map[alias.canonical] !== undefined)
        return {
          issue: {
            pointer: at(hedge, name),
            message: `${hedge} names both ${name} and ${alias.canonical}, the same quantity; give it once`,
          },
        };
      const v = map[name];
      delete target[name];
      const conv = (x: number | null, difference = false) =>
        x === null ? null : convertValue(x, alias.from, alias.to, difference);
      if (hedge === 'ranges') {
        const r = v as [number | null, number | null];
        target[alias.canonical] = [conv(r[0]), conv(r[1])];
      } else if (hedge === 'reported') {
        target[alias.canonical] = (v as unknown[]).map((x) =>
          Array.isArray(x) ? [conv(x[0]), conv(x[1])] : conv(x as number),
        );
      } else if (hedge === 'uncertainty') {
        target[alias.canonical] = conv(v as number, true);
      } else {
        target[alias.canonical] = v;
      }
    }
  }
  for (const hedge of FIELD_LISTS) {
    const list = row[hedge] as string[] | undefined;
    if (!list || !list.some((n) => info.aliases.has(n))) continue;
    const o = copy();
    const renamed = list.map((n) => info.aliases.get(n)?.canonical ?? n);
    const dup = renamed.findIndex((n, i) => renamed.indexOf(n) !== i);
    if (dup >= 0)
      return {
        issue: {
          pointer: at(hedge, String(dup)),
          message: `${hedge} names ${renamed[dup]} twice (once by its alias)`,
        },
      };
    o[hedge] = renamed;
  }
  return { row: out ? orderRow(out, info) : row };
}

/**
 * Applies the cross-cell rules to a schema-valid row. Returns the converted row, or the
 * first broken rule.
 */
export function checkRow(input: Row, info: ClassInfo): { row: Row } | { issue: RelativeIssue } {
  const issue = crossCellIssue(input, info);
  return issue ? { issue } : convertAliases(input, info);
}

const NO_NAMES: readonly string[] = [];
const quantityNames = new WeakMap<ClassInfo, Map<string, readonly string[]>>();

/** Every name the quantity of `field` may be written under (the field and its unit aliases). */
function namesOfQuantity(info: ClassInfo, field: string): readonly string[] {
  let byField = quantityNames.get(info);
  if (!byField) {
    byField = new Map();
    for (const canonical of info.canonical) {
      const names = [
        canonical,
        ...[...info.aliases].filter(([, a]) => a.canonical === canonical).map(([n]) => n),
      ];
      for (const n of names) byField.set(n, names);
    }
    quantityNames.set(info, byField);
  }
  return byField.get(field) ?? NO_NAMES;
}

/** The spec of a field written under any of its names. */
function specOf(info: ClassInfo, field: string): NumericFieldSpec {
  return info.spec.numeric[info.aliases.get(field)?.canonical ?? field];
}

/**
 * The first rule on two cells at once a row breaks, checked on the row as written, so that
 * every pointer and message names the field as the document names it (an alias stays an alias).
 */
function crossCellIssue(row: Row, info: ClassInfo): RelativeIssue | undefined {
  if (!hasHedge(row)) return undefined;
  const valueOf = (f: string): number | undefined => {
    if (isNum(row[f])) return row[f];
    for (const n of namesOfQuantity(info, f)) if (isNum(row[n])) return row[n];
    return undefined;
  };
  const has = (f: string) => valueOf(f) !== undefined;
  const map = (h: string) => (row[h] ?? EMPTY) as Obj;
  const list = (h: string) => (row[h] ?? NO_NAMES) as string[];
  const ranges = map('ranges') as Record<string, [number | null, number | null]>;
  const rangeOf = (f: string) =>
    ranges[f] ??
    namesOfQuantity(info, f)
      .map((n) => ranges[n])
      .find(Boolean);
  const unquantified = map('unquantified');
  const notDerivable = map('not_derivable');
  const misprinted = map('misprinted');

  for (const f in unquantified) {
    if (has(f))
      return {
        pointer: at('unquantified', f),
        message: `${f} has the value ${valueOf(f)} but unquantified says the page prints no number for it; keep one of the two`,
      };
    if (notDerivable[f] !== undefined)
      return {
        pointer: at('not_derivable', f),
        message: `${f} is both unquantified (the page prints a word) and not_derivable (left empty); give one`,
      };
  }
  for (const f in notDerivable)
    if (has(f))
      return {
        pointer: at('not_derivable', f),
        message: `${f} has the value ${valueOf(f)} but not_derivable says it is left empty; keep one of the two`,
      };
  for (const f in misprinted)
    if (has(f))
      return {
        pointer: at('misprinted', f),
        message: `${f} has the value ${valueOf(f)} but misprinted says the figure the page prints for it is wrong; leave ${f} empty and keep the page's figure in misprinted`,
      };
  for (const hedge of ['bounded_above', 'bounded_below'] as const) {
    const fields = list(hedge);
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      const r = rangeOf(f);
      if (!r)
        return {
          pointer: at(hedge, String(i)),
          message: `${f} is ${hedge.replace('_', ' ')} but has no range; add ranges.${f} with the printed bound`,
        };
      const end = hedge === 'bounded_above' ? 1 : 0;
      if (r[end] === null)
        return {
          pointer: at('ranges', f, String(end)),
          message: `${f} is ${hedge.replace('_', ' ')}, so the ${end ? 'high' : 'low'} end of its range is the printed bound and must be a number`,
        };
      if (hedge === 'bounded_below' && r[1] === null) {
        const ceiling = kindBounds(specOf(info, f).kind)[1];
        if (ceiling !== null)
          return {
            pointer: at('ranges', f, '1'),
            message: `${f} cannot exceed ${ceiling}, so the high end of its range must be a number (${ceiling}), not open`,
          };
      }
    }
  }
  for (const f of Object.keys(ranges)) {
    const [lo, hi] = ranges[f];
    if (lo !== null && hi !== null && lo > hi)
      return {
        pointer: at('ranges', f),
        message: `range of ${f} runs backwards: low ${lo} is above high ${hi}`,
      };
    const spec: NumericFieldSpec = specOf(info, f);
    const [min, max] = kindBounds(spec.kind);
    for (const [end, v] of [
      [0, lo],
      [1, hi],
    ] as const) {
      if (v === null) continue;
      if ((min !== null && v < min) || (max !== null && v > max))
        return {
          pointer: at('ranges', f, String(end)),
          message: `range end ${v} of ${f} is outside ${min ?? '-∞'}..${max ?? '∞'}`,
        };
      if (spec.kind === 'whole' && !Number.isInteger(v))
        return { pointer: at('ranges', f, String(end)), message: `range end ${v} of ${f} must be whole` };
    }
  }
  const reported = map('reported') as Record<string, (number | [number, number])[]>;
  for (const f of Object.keys(reported)) {
    const readings = reported[f];
    for (let i = 0; i < readings.length; i++) {
      const r = readings[i];
      if (Array.isArray(r) && r[0] > r[1])
        return {
          pointer: at('reported', f, String(i)),
          message: `reading ${quote(r)} of ${f} runs backwards: low is above high`,
        };
    }
  }
  for (const hedge of ['uncertainty', 'converted', 'borrowed'] as const)
    for (const f of Object.keys(map(hedge)))
      if (!has(f))
        return {
          pointer: at(hedge, f),
          message: `${hedge} for ${f} needs a value of ${f}, and the row has none`,
        };
  const approximate = list('approximate');
  for (let i = 0; i < approximate.length; i++) {
    const f = approximate[i];
    if (!has(f) && !rangeOf(f))
      return {
        pointer: at('approximate', String(i)),
        message: `${f} is marked approximate (~) but has neither a value nor a range`,
      };
  }
  return undefined;
}

function noteRatings(row: Row, info: ClassInfo, notes: RelativeIssue[]): void {
  let practical: number[] | undefined;
  if (info.name === 'PracticalAbsorptionSpectrum') {
    const values = RATING_OCTAVES.map((b) => row[`practical_absorption_coefficient_${b}`]);
    if (values.every(isNum)) practical = values;
    for (const b of [125, ...RATING_OCTAVES]) {
      const f = `practical_absorption_coefficient_${b}`;
      const v = row[f];
      if (!isNum(v)) continue;
      if (v > 1)
        notes.push({ pointer: at(f), message: `${f} is ${v}; ISO 11654 caps αp at 1.00 (kept as printed)` });
      else if (Math.abs(v * 20 - Math.round(v * 20)) > 1e-9)
        notes.push({
          pointer: at(f),
          message: `${f} is ${v}; αp is rounded in 0.05 steps (kept as printed)`,
        });
    }
  } else if (info.name === 'ThirdOctaveAbsorptionSpectrum') {
    const thirds: Record<number, unknown> = {};
    for (const b of [...SAA_BANDS, 3150, 4000, 5000]) thirds[b] = row[`absorption_coefficient_${b}`];
    const byOctave = practicalAbsorptionCoefficients(thirds as Record<number, number>);
    const values = RATING_OCTAVES.map((b) => byOctave[b]);
    if (values.every(isNum)) practical = values as number[];
    const nrcBands = NRC_BANDS.map((b) => row[`absorption_coefficient_${b}`]);
    const nrc = row.noise_reduction_coefficient;
    if (isNum(nrc) && nrcBands.every(isNum)) {
      const computed = noiseReductionCoefficient(nrcBands as number[]);
      if (Math.abs(computed - nrc) > 1e-9)
        notes.push({
          pointer: at('noise_reduction_coefficient'),
          message: `printed NRC ${nrc}; the 250–2000 Hz coefficients give ${computed} (kept as printed)`,
        });
    }
  }
  if (!practical) return;
  const rating = weightedAbsorption(practical);
  const printed = row.weighted_absorption_coefficient;
  if (isNum(printed) && Math.abs(rating.alphaW - printed) > 1e-9)
    notes.push({
      pointer: at('weighted_absorption_coefficient'),
      message: `printed αw ${printed}; the coefficients give ${rating.alphaW} (kept as printed, never reconciled)`,
    });
  const shape = row.shape_indicator;
  if (typeof shape === 'string' && shape !== rating.shapeIndicator)
    notes.push({
      pointer: at('shape_indicator'),
      message: `printed shape indicator ${quote(shape)}; the coefficients give ${quote(rating.shapeIndicator)} (kept as printed)`,
    });
}

const PLAUSIBLE = new WeakMap<ClassInfo, ReadonlyMap<string, readonly [number, number]>>();

/** The usual range of each canonical field that has one. */
function plausibleRanges(info: ClassInfo): ReadonlyMap<string, readonly [number, number]> {
  let ranges = PLAUSIBLE.get(info);
  if (!ranges) {
    const m = new Map<string, readonly [number, number]>();
    for (const f of info.canonical) {
      const p = info.spec.numeric[f].plausible;
      if (p) m.set(f, p);
    }
    PLAUSIBLE.set(info, (ranges = m));
  }
  return ranges;
}

/** Notes on an accepted row: suspicious but allowed. Pointers are relative to the row. */
export function rowNotes(
  row: Row,
  info: ClassInfo,
  docBasis: string | undefined,
  docHasReport: boolean,
): RelativeIssue[] {
  const notes: RelativeIssue[] = [];
  const basis = (row.basis ?? EMPTY) as Obj;
  const provenance = (row.provenance ?? EMPTY) as Obj;
  if ((basis.row ?? docBasis) === 'measured' && !docHasReport && !provenance.report && !provenance.laboratory)
    notes.push({
      pointer: '',
      message: 'measured, but neither the row nor the document names a report or laboratory',
    });
  const unquantified = (row.unquantified ?? EMPTY) as Record<string, string>;
  for (const [f, word] of row.unquantified === undefined ? [] : Object.entries(unquantified))
    if (word.length > 32)
      notes.push({
        pointer: at('unquantified', f),
        message: `unquantified text for ${f} is ${word.length} characters long; it is meant for the short word the page prints`,
      });
  const plausibleOf = plausibleRanges(info);
  for (const f in row) {
    const plausible = plausibleOf.get(f);
    const v = row[f];
    if (plausible === undefined || !isNum(v)) continue;
    if (v < plausible[0] || v > plausible[1])
      notes.push({
        pointer: at(f),
        message: `${f} is ${v}, outside the usual ${plausible[0]}..${plausible[1]} (kept as printed)`,
      });
  }
  noteRatings(row, info, notes);
  return notes;
}
