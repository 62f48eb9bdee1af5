import { describe, expect, it } from 'vitest';
import {
  NRC_BANDS,
  OCTAVE_BANDS,
  PRACTICAL_OCTAVES,
  SAA_BANDS,
  THIRD_OCTAVE_100_5000,
  THIRD_OCTAVE_50_10000,
  THIRD_OCTAVE_50_5000,
  absorptionClass,
  classInfo,
  noiseReductionCoefficient,
  practicalAbsorptionCoefficient,
  practicalAbsorptionCoefficients,
  readCatalogue,
  soundAbsorptionAverage,
  weightedAbsorption,
} from '../src/index.js';
import { doc } from './helpers.js';

/**
 * ISO 11654:1997 Annex C: the one-third-octave sound absorption coefficients (ISO 354) of the
 * standard's worked example, 100 Hz to 5000 Hz; the standard rates them 0.65(MH), class C.
 */
const ANNEX_C: Readonly<Record<number, number>> = Object.fromEntries(
  THIRD_OCTAVE_100_5000.map((band, i) => [
    band,
    [0.12, 0.15, 0.17, 0.21, 0.31, 0.51, 0.54, 0.8, 0.93, 1.05, 1.1, 1.19, 1.2, 1.13, 1.02, 0.99, 0.94, 0.81][
      i
    ],
  ]),
);

describe('band lists', () => {
  it('are the bands the row classes name their fields by', () => {
    expect(OCTAVE_BANDS).toEqual([63, 125, 250, 500, 1000, 2000, 4000, 8000]);
    expect(THIRD_OCTAVE_50_5000).toHaveLength(21);
    expect(THIRD_OCTAVE_100_5000).toHaveLength(18);
    expect(THIRD_OCTAVE_50_10000).toHaveLength(24);
    expect(PRACTICAL_OCTAVES).toEqual([125, 250, 500, 1000, 2000, 4000]);
    const fields = (name: Parameters<typeof classInfo>[0]) => classInfo(name).canonical;
    expect(fields('AbsorptionSpectrum')).toEqual(OCTAVE_BANDS.map((b) => `absorption_coefficient_${b}`));
    expect(fields('ThirdOctaveAbsorptionSpectrum')).toEqual(
      expect.arrayContaining(THIRD_OCTAVE_50_10000.map((b) => `absorption_coefficient_${b}`)),
    );
    expect(fields('SoundReductionSpectrum')).toEqual(
      expect.arrayContaining(THIRD_OCTAVE_50_5000.map((b) => `sound_reduction_index_${b}_db`)),
    );
    expect(fields('ScatteringCoefficientSpectrum')).toEqual(
      THIRD_OCTAVE_100_5000.map((b) => `scattering_coefficient_${b}`),
    );
    expect(fields('PracticalAbsorptionSpectrum')).toEqual(
      expect.arrayContaining(PRACTICAL_OCTAVES.map((b) => `practical_absorption_coefficient_${b}`)),
    );
    expect(SAA_BANDS).toEqual(THIRD_OCTAVE_100_5000.slice(3, 15));
    expect(NRC_BANDS).toEqual([250, 500, 1000, 2000]);
  });
});

describe('ISO 11654 ratings', () => {
  it('Annex A.1: practical coefficients 0.35 0.70 0.65 0.60 0.55 rate 0.60, no shape indicator, class C', () => {
    expect(weightedAbsorption([0.35, 0.7, 0.65, 0.6, 0.55])).toEqual({
      alphaW: 0.6,
      shapeIndicator: '',
      absorptionClass: 'C',
      label: '0.60',
      unfavourableSum: 0.05,
    });
  });

  it('Annex A.2: 500 Hz raised to 1.00 rates 0.60(M): the curve shifted by 0.40, unfavourable deviations 0.05', () => {
    expect(weightedAbsorption([0.35, 1.0, 0.65, 0.6, 0.55])).toEqual({
      alphaW: 0.6,
      shapeIndicator: 'M',
      absorptionClass: 'C',
      label: '0.60(M)',
      unfavourableSum: 0.05,
    });
  });

  it('Annex C: one-third octaves to practical coefficients (mean of three, 0.05 steps, at most 1.00), then 0.65(MH), class C', () => {
    expect(practicalAbsorptionCoefficients(ANNEX_C)).toEqual({
      125: 0.15,
      250: 0.35,
      500: 0.75,
      1000: 1.0,
      2000: 1.0,
      4000: 0.9,
    });
    const p = practicalAbsorptionCoefficients(ANNEX_C);
    expect(weightedAbsorption([p[250]!, p[500]!, p[1000]!, p[2000]!, p[4000]!]).label).toBe('0.65(MH)');
    expect(weightedAbsorption([0.35, 0.75, 1, 1, 0.9]).absorptionClass).toBe('C');
  });

  it('a practical coefficient rounds half up in 0.05 steps and never exceeds 1.00', () => {
    expect(practicalAbsorptionCoefficient([0.3, 0.32, 0.355])).toBe(0.35); // mean 0.325
    expect(practicalAbsorptionCoefficient([0.3, 0.32, 0.35])).toBe(0.3); // mean 0.3233
    expect(practicalAbsorptionCoefficient([1.2, 1.15, 1.1])).toBe(1);
    expect(() => practicalAbsorptionCoefficient([0.3, 0.3])).toThrow(RangeError);
  });

  it('a shape indicator L is given where 250 Hz exceeds the shifted curve by 0.25 or more', () => {
    expect(weightedAbsorption([1.0, 0.5, 0.5, 0.5, 0.5]).label).toBe('0.50(L)');
    expect(weightedAbsorption([1, 1, 1, 1, 1]).label).toBe('1.00');
    expect(weightedAbsorption([0, 0, 0, 0, 0]).label).toBe('0.00');
  });

  it('Annex B: the absorption classes at their edges', () => {
    const classes = [1, 0.9, 0.85, 0.8, 0.75, 0.6, 0.55, 0.3, 0.25, 0.15, 0.1, 0].map(absorptionClass);
    expect(classes).toEqual([
      'A',
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
      'E',
      'E',
      'Not classified',
      'Not classified',
    ]);
  });
});

describe('ASTM C423 ratings', () => {
  // ASTM C423 (3.2.x, "noise reduction coefficient" and "sound absorption average"): NRC is the mean
  // of 250, 500, 1000 and 2000 Hz to the nearest multiple of 0.05; SAA the mean of the twelve
  // one-third octaves 200 Hz to 2500 Hz to the nearest 0.01. Applied to the ISO 11654 Annex C spectrum.
  it('NRC of the Annex C spectrum: (0.31 + 0.80 + 1.10 + 1.13) / 4 = 0.835, printed 0.85', () => {
    expect(noiseReductionCoefficient(NRC_BANDS.map((b) => ANNEX_C[b]))).toBe(0.85);
  });

  it('SAA of the Annex C spectrum: 9.99 / 12 = 0.8325, printed 0.83', () => {
    expect(soundAbsorptionAverage(SAA_BANDS.map((b) => ANNEX_C[b]))).toBe(0.83);
  });

  it('NRC of a handbook carpet on foam (0.24, 0.57, 0.69, 0.71) is 0.55; a mean on a boundary rounds up', () => {
    expect(noiseReductionCoefficient([0.24, 0.57, 0.69, 0.71])).toBe(0.55);
    expect(noiseReductionCoefficient([0.8, 0.8, 0.85, 0.85])).toBe(0.85); // 0.825
    expect(soundAbsorptionAverage(Array.from({ length: 12 }, (_, i) => (i < 6 ? 0.5 : 0.51)))).toBe(0.51); // 0.505
    expect(() => noiseReductionCoefficient([0.5, Number.NaN, 0.5, 0.5])).toThrow(RangeError);
  });
});

describe('the reader uses the same ratings for its notes', () => {
  it('notes a printed shape indicator and αw the third octaves do not give, and keeps them', () => {
    const row: Record<string, unknown> = { key: 'annex-c', name: 'Annex C specimen' };
    for (const [band, alpha] of Object.entries(ANNEX_C)) row[`absorption_coefficient_${band}`] = alpha;
    const ok = readCatalogue(
      JSON.stringify(
        doc('ThirdOctaveAbsorptionSpectrum', [
          {
            ...row,
            weighted_absorption_coefficient: 0.65,
            shape_indicator: 'MH',
            noise_reduction_coefficient: 0.85,
          },
        ]),
      ),
    );
    expect(ok.notes.filter((n) => /shape|αw|NRC/.test(n.message))).toEqual([]);
    const off = readCatalogue(
      JSON.stringify(
        doc('ThirdOctaveAbsorptionSpectrum', [
          {
            ...row,
            weighted_absorption_coefficient: 0.7,
            shape_indicator: 'H',
            noise_reduction_coefficient: 0.8,
          },
        ]),
      ),
    );
    expect(off.notes.map((n) => n.pointer)).toEqual(
      expect.arrayContaining([
        '/rows/0/weighted_absorption_coefficient',
        '/rows/0/shape_indicator',
        '/rows/0/noise_reduction_coefficient',
      ]),
    );
    expect((off.document.rows[0] as Record<string, unknown>).shape_indicator).toBe('H');
  });
});

describe('ASTM C423 ratings against published figures', () => {
  // "Noise Reduction Coefficient", concerthalls.org, http://concerthalls.org/?page_id=71: wallpapered
  // plaster, 0.03 / 0.04 / 0.05 / 0.07 at 250 / 500 / 1000 / 2000 Hz, mean printed as 0.0475; to the
  // nearest multiple of 0.05 that is an NRC of 0.05.
  it('NRC of wallpapered plaster (concerthalls.org): 0.0475 rates 0.05', () => {
    expect(noiseReductionCoefficient([0.03, 0.04, 0.05, 0.07])).toBe(0.05);
  });

  // "Prime17 FE Asymmetrical Hardwood Diffuser Systems", AVL Systems data sheet,
  // https://avlonline.com/prime17-fe-asymmetrical-hardwood-diffuser-systems: absorption coefficients,
  // Type A mount, 0.21 / 0.23 / 0.22 / 0.20 at 250 / 500 / 1000 / 2000 Hz, printed NRC 0.20 (mean 0.215).
  it('NRC of the AVL Prime17 FE data sheet (Type A mount) is the printed 0.20', () => {
    expect(noiseReductionCoefficient([0.21, 0.23, 0.22, 0.2])).toBe(0.2);
  });

  // "Sound Absorption Test Results, 1\" Echo Eliminator (6 lb. pcf)", Acoustical Surfaces, ASTM C423
  // A-mount, report AS-SA1713, https://docslib.org/doc/9111295/title-sound-absorption-test-results-product-1-echo-eliminator-6lb-pcf:
  // one-third-octave coefficients 0.30 / 0.86 / 1.10 / 1.05 at 250 / 500 / 1000 / 2000 Hz, printed
  // NRC 0.85 (mean 0.8275); coefficients above 1 enter the mean as measured.
  it('NRC of the 1" Echo Eliminator report (ASTM C423 A-mount) is the printed 0.85', () => {
    expect(noiseReductionCoefficient([0.3, 0.86, 1.1, 1.05])).toBe(0.85);
  });

  // "Sound Absorption Average (SAA)", APMR (Matelys), https://apmr.matelys.com/Standards/SAA/index.html:
  // a 40 mm rock wool measured in third octaves at ENTPE (2006); the twelve bands 200 to 2500 Hz
  // below (sum 10.35, mean 0.8625) give the printed SAA of 0.86.
  it('SAA of the APMR rock wool example is the printed 0.86', () => {
    const measured: Readonly<Record<number, number>> = {
      200: 0.67,
      250: 0.89,
      315: 0.86,
      400: 1.04,
      500: 1.05,
      630: 1.01,
      800: 1.07,
      1000: 0.67,
      1250: 0.8,
      1600: 0.76,
      2000: 0.82,
      2500: 0.71,
    };
    expect(soundAbsorptionAverage(SAA_BANDS.map((b) => measured[b]))).toBe(0.86);
  });
});
