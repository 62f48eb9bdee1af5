/**
 * Unit families and exact decimal conversion between the members of a family.
 *
 * A field is stored in one canonical unit; the same quantity may be written in another
 * member of its family (an "alias" column). The reader converts the alias value to the
 * canonical unit with exact decimal arithmetic on the digits of the number, so that
 * `2.5` cm becomes exactly `25` mm and not `25.000000000000004`.
 */

export type UnitFamilyName =
  | 'length'
  | 'pressure'
  | 'areal_density'
  | 'density'
  | 'temperature'
  | 'stiffness'
  | 'flow_resistivity'
  | 'absorption_area';

export interface UnitMember {
  /** Suffix of the column name, e.g. `mm` in `thickness_mm`. */
  readonly suffix: string;
  /** Unit as written in a `converted` record. */
  readonly label: string;
  /** Size of the unit in the family's base unit, as an exact decimal string. */
  readonly factor: string;
  /** Offset added after scaling (temperature only), as an exact decimal string. */
  readonly offset?: string;
}

export const UNIT_FAMILIES: Readonly<Record<UnitFamilyName, readonly UnitMember[]>> = {
  length: [
    { suffix: 'mm', label: 'mm', factor: '0.001' },
    { suffix: 'cm', label: 'cm', factor: '0.01' },
    { suffix: 'm', label: 'm', factor: '1' },
    { suffix: 'um', label: 'um', factor: '0.000001' },
  ],
  pressure: [
    { suffix: 'pa', label: 'Pa', factor: '1' },
    { suffix: 'gpa', label: 'GPa', factor: '1000000000' },
    { suffix: 'kpa', label: 'kPa', factor: '1000' },
    { suffix: 'mpa', label: 'MPa', factor: '1000000' },
    { suffix: 'n_mm2', label: 'N/mm2', factor: '1000000' },
  ],
  areal_density: [
    { suffix: 'kg_m2', label: 'kg/m2', factor: '1' },
    { suffix: 'g_m2', label: 'g/m2', factor: '0.001' },
  ],
  density: [
    { suffix: 'kg_m3', label: 'kg/m3', factor: '1' },
    { suffix: 'g_cm3', label: 'g/cm3', factor: '1000' },
  ],
  temperature: [
    { suffix: 'c', label: 'degC', factor: '1', offset: '0' },
    { suffix: 'k', label: 'K', factor: '1', offset: '-273.15' },
  ],
  stiffness: [
    { suffix: 'n_m3', label: 'N/m3', factor: '1' },
    { suffix: 'mn_m3', label: 'MN/m3', factor: '1000000' },
  ],
  flow_resistivity: [
    { suffix: 'pa_s_m2', label: 'Pa.s/m2', factor: '1' },
    { suffix: 'kpa_s_m2', label: 'kPa.s/m2', factor: '1000' },
  ],
  absorption_area: [
    { suffix: 'm2', label: 'm2', factor: '1' },
    { suffix: 'ft2', label: 'ft2', factor: '0.09290304' },
    // Sabins per 1000 cubic feet: only the area part is converted; the row's `per` says what it is for.
    { suffix: 'ft2_per_1000_ft3', label: 'ft2/1000ft3', factor: '0.09290304' },
  ],
};

/** An exact decimal: mantissa × 10^exponent. */
interface Decimal {
  readonly mantissa: bigint;
  readonly exponent: number;
}

function parseDecimal(text: string): Decimal {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const [, sign, intPart = '', fracPart = '', exp = '0'] = m;
  const digits = (intPart + fracPart).replace(/^0+(?=\d)/, '') || '0';
  const mantissa = BigInt(digits) * (sign === '-' ? -1n : 1n);
  return { mantissa, exponent: Number(exp) - fracPart.length };
}

function alignTo(a: Decimal, exponent: number): bigint {
  return a.mantissa * 10n ** BigInt(a.exponent - exponent);
}

function add(a: Decimal, b: Decimal): Decimal {
  const exponent = Math.min(a.exponent, b.exponent);
  return { mantissa: alignTo(a, exponent) + alignTo(b, exponent), exponent };
}

function multiply(a: Decimal, b: Decimal): Decimal {
  return { mantissa: a.mantissa * b.mantissa, exponent: a.exponent + b.exponent };
}

function toNumber(d: Decimal): number {
  const n = Number(`${d.mantissa}e${d.exponent}`);
  return Object.is(n, -0) ? 0 : n;
}

/** The power of ten a canonical unit factor is, or throws (canonical units must divide exactly). */
function powerOfTen(d: Decimal): number {
  let { mantissa, exponent } = d;
  while (mantissa !== 0n && mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  if (mantissa !== 1n) throw new Error('canonical unit factor must be a power of ten');
  return exponent;
}

/**
 * Converts `value`, written in unit `from`, into unit `to` of the same family.
 * `difference` converts a difference of two values (an uncertainty): scale only, no offset.
 */
export function convertValue(value: number, from: UnitMember, to: UnitMember, difference = false): number {
  const v = parseDecimal(String(value));
  const scaled = multiply(v, parseDecimal(from.factor));
  const withOffset = difference || !from.offset ? scaled : add(scaled, parseDecimal(from.offset));
  const base =
    difference || !to.offset
      ? withOffset
      : add(withOffset, { ...parseDecimal(to.offset), mantissa: -parseDecimal(to.offset).mantissa });
  const shift = powerOfTen(parseDecimal(to.factor));
  return toNumber({ mantissa: base.mantissa, exponent: base.exponent - shift });
}

/** The family member whose suffix ends `field` (longest suffix first). */
export function memberOf(family: UnitFamilyName, field: string): UnitMember | undefined {
  const members = [...UNIT_FAMILIES[family]].sort((a, b) => b.suffix.length - a.suffix.length);
  return members.find((m) => field.endsWith(`_${m.suffix}`));
}
