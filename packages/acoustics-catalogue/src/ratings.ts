/**
 * The frequency bands the row classes use and the single-number ratings people compute from
 * them: the practical and weighted sound absorption coefficients with their shape indicators
 * and absorption class (ISO 11654), the noise reduction coefficient and the sound absorption
 * average (ASTM C423).
 *
 * Arithmetic is done on whole ten-thousandths so that a mean landing on a rounding boundary
 * (0.825, 0.835) rounds the way the standards' printed examples do (half up), not the way its
 * binary floating-point neighbour happens to fall.
 */
import {
  OCTAVE_BANDS,
  PRACTICAL_OCTAVES,
  THIRD_OCTAVE_100_5000,
  THIRD_OCTAVE_50_10000,
  THIRD_OCTAVE_50_5000,
} from './definition.js';

export {
  OCTAVE_BANDS,
  PRACTICAL_OCTAVES,
  THIRD_OCTAVE_100_5000,
  THIRD_OCTAVE_50_10000,
  THIRD_OCTAVE_50_5000,
};

/** The octave bands ISO 11654 rates: 250 Hz to 4000 Hz. */
export const RATING_OCTAVES = [250, 500, 1000, 2000, 4000] as const;
/** The ISO 11654 reference curve at the rating octaves. */
export const REFERENCE_CURVE = [0.8, 1.0, 1.0, 1.0, 0.9] as const;
/** The one-third octaves whose mean is each octave's practical coefficient (ISO 11654 §4.1). */
export const OCTAVE_THIRDS: Readonly<Record<(typeof PRACTICAL_OCTAVES)[number], readonly number[]>> = {
  125: [100, 125, 160],
  250: [200, 250, 315],
  500: [400, 500, 630],
  1000: [800, 1000, 1250],
  2000: [1600, 2000, 2500],
  4000: [3150, 4000, 5000],
};
/** The octaves the noise reduction coefficient averages (ASTM C423). */
export const NRC_BANDS = [250, 500, 1000, 2000] as const;
/** The twelve one-third octaves the sound absorption average averages (ASTM C423). */
export const SAA_BANDS = [200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500] as const;

export type ShapeIndicator = '' | 'L' | 'M' | 'H' | 'LM' | 'LH' | 'MH' | 'LMH';
export type AbsorptionClass = 'A' | 'B' | 'C' | 'D' | 'E' | 'Not classified';

export interface WeightedAbsorption {
  /** αw: the shifted reference curve read at 500 Hz, a multiple of 0.05. */
  readonly alphaW: number;
  /** L, M, H where a practical coefficient exceeds the shifted curve by 0.25 or more. */
  readonly shapeIndicator: ShapeIndicator;
  readonly absorptionClass: AbsorptionClass;
  /** As a data sheet prints it: `0.60(MH)`. */
  readonly label: string;
  /** The sum of the unfavourable deviations at the shifted curve (at most 0.10). */
  readonly unfavourableSum: number;
}

const UNIT = 10_000;
const units = (x: number) => Math.round(x * UNIT);
/** `sum / n` rounded half up to a multiple of `step`, all in whole units. */
const meanRounded = (sum: number, n: number, step: number) =>
  Math.floor((sum + (step * n) / 2) / (step * n)) * step;

function finite(values: readonly number[], count: number, what: string): void {
  if (values.length !== count || !values.every((v) => typeof v === 'number' && Number.isFinite(v)))
    throw new RangeError(`${what} needs ${count} finite numbers, got ${JSON.stringify(values)}`);
}

/** The mean of `count` coefficients rounded half up to a multiple of `step` ten-thousandths. */
function roundedMean(values: readonly number[], count: number, step: number, what: string): number {
  finite(values, count, what);
  return (
    meanRounded(
      values.reduce((s, x) => s + units(x), 0),
      count,
      step,
    ) / UNIT
  );
}

/**
 * The practical sound absorption coefficient αp of one octave (ISO 11654 §4.1): the mean of its
 * three one-third-octave coefficients to two decimals, rounded in steps of 0.05, at most 1.00.
 */
export function practicalAbsorptionCoefficient(thirds: readonly number[]): number {
  finite(thirds, 3, 'a practical absorption coefficient');
  const mean = meanRounded(
    thirds.reduce((s, x) => s + units(x), 0),
    3,
    100,
  );
  return Math.min(UNIT, meanRounded(mean, 1, 500)) / UNIT;
}

/**
 * The practical coefficients at 125 … 4000 Hz from one-third-octave coefficients keyed by
 * band (100 … 5000 Hz); an octave with a band missing is left out.
 */
export function practicalAbsorptionCoefficients(
  thirdOctave: Readonly<Record<number, number | null | undefined>>,
): Partial<Record<(typeof PRACTICAL_OCTAVES)[number], number>> {
  const out: Partial<Record<(typeof PRACTICAL_OCTAVES)[number], number>> = {};
  for (const octave of PRACTICAL_OCTAVES) {
    const thirds = OCTAVE_THIRDS[octave].map((b) => thirdOctave[b]);
    if (thirds.every((v) => typeof v === 'number'))
      out[octave] = practicalAbsorptionCoefficient(thirds as number[]);
  }
  return out;
}

/** The sound absorption class of a weighted coefficient (ISO 11654 Annex B). */
export function absorptionClass(alphaW: number): AbsorptionClass {
  const w = units(alphaW);
  if (w >= 9000) return 'A';
  if (w >= 8000) return 'B';
  if (w >= 6000) return 'C';
  if (w >= 3000) return 'D';
  if (w >= 1500) return 'E';
  return 'Not classified';
}

/**
 * The weighted sound absorption coefficient αw of the practical coefficients at 250, 500,
 * 1000, 2000 and 4000 Hz (ISO 11654 §4.2), with its shape indicators (§4.3) and class.
 */
export function weightedAbsorption(practical: readonly number[]): WeightedAbsorption {
  finite(practical, 5, 'a weighted absorption coefficient');
  const p = practical.map(units);
  const reference = REFERENCE_CURVE.map(units);
  for (let shift = 0; ; shift -= 500) {
    const curve = reference.map((r) => r + shift);
    const unfavourable = curve.reduce((s, r, i) => s + Math.max(0, r - p[i]), 0);
    if (unfavourable <= 1000 || curve[1] <= 0) {
      const alphaW = Math.max(0, curve[1]) / UNIT;
      const exceeds = (i: number) => p[i] - curve[i] >= 2500;
      const shapeIndicator = ((exceeds(0) ? 'L' : '') +
        (exceeds(1) || exceeds(2) ? 'M' : '') +
        (exceeds(3) || exceeds(4) ? 'H' : '')) as ShapeIndicator;
      return {
        alphaW,
        shapeIndicator,
        absorptionClass: absorptionClass(alphaW),
        label: `${alphaW.toFixed(2)}${shapeIndicator ? `(${shapeIndicator})` : ''}`,
        unfavourableSum: unfavourable / UNIT,
      };
    }
  }
}

/**
 * The noise reduction coefficient (ASTM C423): the mean of the coefficients at 250, 500, 1000
 * and 2000 Hz, rounded to the nearest multiple of 0.05.
 */
export function noiseReductionCoefficient(coefficients: readonly number[]): number {
  return roundedMean(coefficients, 4, 500, 'a noise reduction coefficient');
}

/**
 * The sound absorption average (ASTM C423): the mean of the twelve one-third-octave
 * coefficients from 200 Hz to 2500 Hz, rounded to the nearest 0.01.
 */
export function soundAbsorptionAverage(coefficients: readonly number[]): number {
  return roundedMean(coefficients, 12, 100, 'a sound absorption average');
}
