/**
 * The one typed definition of the 28 row classes: their numeric fields (with value kind,
 * unit family and plausible range), text cells and flags. The JSON Schema, the TypeScript
 * row types, the CSV columns and the reader's rules are all derived from this table.
 */
import { UNIT_FAMILIES, memberOf, type UnitFamilyName, type UnitMember } from './units.js';

/**
 * Value kinds of a numeric field:
 * - `number`: a number or null;
 * - `from_0`: a number ≥ 0 or null;
 * - `from_0_to_1`, `from_0_to_100`: bounded numbers or null;
 * - `whole`: an integer or null.
 */
export type NumberKind = 'number' | 'from_0' | 'from_0_to_1' | 'from_0_to_100' | 'whole';

export interface NumericFieldSpec {
  readonly kind: NumberKind;
  /** Unit of the canonical column, for people ('' when dimensionless). */
  readonly unit: string;
  /** Family whose other members may be written instead (unit aliases). */
  readonly family?: UnitFamilyName;
  /** Domain note: values outside this range are noted, never refused. */
  readonly plausible?: readonly [number, number];
}

export interface RowClassSpec {
  readonly description: string;
  readonly numeric: Readonly<Record<string, NumericFieldSpec>>;
  readonly text: readonly string[];
  readonly flags: readonly string[];
}

export const OCTAVE_BANDS = [63, 125, 250, 500, 1000, 2000, 4000, 8000] as const;
export const THIRD_OCTAVE_50_5000 = [
  50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000,
  5000,
] as const;
export const THIRD_OCTAVE_100_5000 = [
  100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000,
] as const;
export const THIRD_OCTAVE_50_10000 = [...THIRD_OCTAVE_50_5000, 6300, 8000, 10000] as const;
export const PRACTICAL_OCTAVES = [125, 250, 500, 1000, 2000, 4000] as const;

function num(
  kind: NumberKind,
  unit = '',
  family?: UnitFamilyName,
  plausible?: readonly [number, number],
): NumericFieldSpec {
  return { kind, unit, ...(family ? { family } : {}), ...(plausible ? { plausible } : {}) };
}

/** One numeric field per band: `<prefix><band><suffix>`, all with the same spec. */
function bands<const P extends string, const B extends readonly (number | string)[], const S extends string>(
  prefix: P,
  list: B,
  suffix: S,
  spec: NumericFieldSpec,
): { readonly [K in `${P}${B[number]}${S}`]: NumericFieldSpec } {
  const out: Record<string, NumericFieldSpec> = {};
  for (const b of list) out[`${prefix}${b}${suffix}`] = spec;
  return out as { readonly [K in `${P}${B[number]}${S}`]: NumericFieldSpec };
}

const mm = (plausible?: readonly [number, number]) => num('from_0', 'mm', 'length', plausible);
const pa = (plausible?: readonly [number, number]) => num('from_0', 'Pa', 'pressure', plausible);
const kgM3 = (plausible?: readonly [number, number]) => num('from_0', 'kg/m3', 'density', plausible);
const kgM2 = (plausible?: readonly [number, number]) => num('from_0', 'kg/m2', 'areal_density', plausible);
const celsius = (plausible?: readonly [number, number]) => num('number', 'degC', 'temperature', plausible);
const db = (plausible?: readonly [number, number]) => num('number', 'dB', undefined, plausible);

const absorptionDescriptors = {
  weighted_absorption_coefficient: num('number', '', undefined, [0, 1]),
  noise_reduction_coefficient: num('number', '', undefined, [0, 1.25]),
  thickness_mm: mm([5, 300]),
  construction_depth_mm: mm([0, 1000]),
} as const;

const scattering = bands(
  'scattering_coefficient_',
  THIRD_OCTAVE_100_5000,
  '',
  num('number', '', undefined, [0, 1]),
);

export const ROW_CLASSES = {
  AbsorptionAreaSpectrum: {
    description: 'One row a table prints as an absorption area rather than a coefficient.',
    numeric: bands('absorption_area_', OCTAVE_BANDS, '_m2', num('from_0', 'm2', 'absorption_area', [0, 3])),
    text: ['per'],
    flags: [],
  },
  AbsorptionSpectrum: {
    description: 'One finish of a published table, with its coefficient in each band.',
    numeric: bands('absorption_coefficient_', OCTAVE_BANDS, '', num('number', '', undefined, [0, 1.2])),
    text: ['mounting'],
    flags: [],
  },
  BandedRow: {
    description: 'One row of a table that prints its quantity once per frequency band.',
    numeric: {},
    text: [],
    flags: [],
  },
  Carpet: {
    description: 'One carpet as a page printed it: its pile, what it is laid on, and its NRC.',
    numeric: {
      pile_weight_kg_m2: kgM2([0.2, 3]),
      pile_height_mm: mm([2, 30]),
      noise_reduction_coefficient: num('number', '', undefined, [0.05, 0.8]),
    },
    text: ['pile_surface', 'fibre', 'mounting'],
    flags: [],
  },
  CatalogueRow: {
    description: 'One row of a published table, with what each cell said.',
    numeric: {},
    text: [],
    flags: [],
  },
  DampingMaterial: {
    description: 'One commercial damping material, as its published table prints it.',
    numeric: {
      max_loss_factor: num('number', '', undefined, [0.1, 2.5]),
      ...bands('peak_temperature_at_', [10, 100, 1000] as const, '_hz_c', celsius([-60, 150])),
      youngs_modulus_max_pa: pa([1e5, 1e10]),
      youngs_modulus_min_pa: pa([1e5, 1e10]),
      youngs_modulus_transition_pa: pa([1e5, 1e10]),
      loss_modulus_max_pa: pa([1e4, 1e10]),
    },
    text: [],
    flags: [],
  },
  DampingTreatment: {
    description: "One damping treatment, rated on the chapter's standard panel.",
    numeric: {
      decay_rate_db_s: num('number', 'dB/s'),
      temperature_c: celsius([-60, 150]),
      adhered_area_percent: num('from_0_to_100', '%'),
      surface_density_kg_m2: kgM2(),
    },
    text: [],
    flags: [],
  },
  DuctWallSpectrum: {
    description: 'One duct wall of one printed table, in one of the two directions.',
    numeric: {
      ...bands('transmission_loss_', OCTAVE_BANDS, '_db', db([0, 80])),
      first_side_mm: mm(),
      second_side_mm: mm(),
      diameter_mm: mm(),
      duct_length_m: num('from_0', 'm', 'length'),
    },
    text: ['direction', 'shape', 'printed_table', 'sheet_metal_gauge'],
    flags: [],
  },
  Gas: {
    description: 'One gas of a published table: the two numbers that close its state.',
    numeric: {
      molar_mass_kg_mol: num('from_0', 'kg/mol', undefined, [0.002, 0.36]),
      heat_capacity_ratio: num('number', '', undefined, [1, 1.67]),
    },
    text: [],
    flags: [],
  },
  GroundSurface: {
    description: 'One ground surface as one table prints it.',
    numeric: {
      flow_resistivity_pa_s_m2: num('from_0', 'Pa.s/m2', 'flow_resistivity'),
      porosity: num('from_0_to_1'),
      water_content_percent: num('number', '%'),
      porosity_decay_rate_per_m: num('number', '1/m'),
      iso_9613_ground_factor: num('number', '', undefined, [0, 1]),
      nmpb_ground_factor: num('number', '', undefined, [0, 1]),
    },
    text: ['harmonoise_class'],
    flags: [],
  },
  ImpactImprovementSpectrum: {
    description: 'One covering or floating floor of a report, with its ΔL.',
    numeric: {
      ...bands('impact_improvement_', THIRD_OCTAVE_50_5000, '_db', db([-10, 60])),
      weighted_impact_improvement_db: db([0, 50]),
      reference_floor_adaptation_term_db: db(),
      impact_improvement_adaptation_term_db: db(),
    },
    text: [],
    flags: [],
  },
  ImpactInsulation: {
    description: 'One floor-ceiling construction or surface treatment, as printed.',
    numeric: {
      impact_insulation_class: num('number', '', undefined, [20, 90]),
      impact_insulation_class_improvement: num('number'),
      impact_sound_improvement_db: db(),
      added_load_pa: pa([500, 5000]),
      layer_density_kg_m3: kgM3(),
    },
    text: ['refers_to_row'],
    flags: ['has_section_drawing'],
  },
  NonlinearityParameter: {
    description: 'One published value of B/A, with the conditions it was measured at.',
    numeric: {
      b_over_a: num('number', '', undefined, [0.3, 13]),
      temperature_c: celsius(),
      static_pressure_pa: pa(),
      year: num('whole'),
    },
    text: [],
    flags: [],
  },
  NormalizedDiffusionSpectrum: {
    description: 'One surface at one angle of incidence, with its coefficient in each band.',
    numeric: {
      ...bands('diffusion_coefficient_', THIRD_OCTAVE_100_5000, '', num('number', '', undefined, [0, 1])),
      angle_of_incidence_deg: num('number', 'deg', undefined, [0, 90]),
    },
    text: [],
    flags: [],
  },
  OrthotropicWood: {
    description: "One wood's plate stiffnesses, as a page printed them.",
    numeric: {
      density_kg_m3: kgM3([300, 900]),
      plate_stiffness_d1_pa: pa(),
      plate_stiffness_d2_pa: pa(),
      plate_stiffness_d3_pa: pa(),
      plate_stiffness_d4_pa: pa(),
      relative_scaling_factor: num('number'),
    },
    text: [],
    flags: [],
  },
  PlateauMaterial: {
    description: "One material's plateau-method constants, as a page printed them.",
    numeric: {
      surface_density_per_mm_kg_m2: kgM2([0.01, 25]),
      coincidence_height_db: db([10, 60]),
      plateau_frequency_ratio: num('number', '', undefined, [1.5, 11]),
    },
    text: [],
    flags: [],
  },
  PorousMaterial: {
    description: 'One row of a published table of porous-material parameters.',
    numeric: {
      flow_resistivity_pa_s_m2: num('from_0', 'Pa.s/m2', 'flow_resistivity', [1e3, 1e6]),
      porosity: num('from_0_to_1', '', undefined, [0.5, 1]),
      tortuosity: num('number', '', undefined, [1, 4]),
      viscous_length_um: num('from_0', 'um', 'length', [5, 500]),
      thermal_length_um: num('from_0', 'um', 'length', [10, 1000]),
      thermal_permeability_m2: num('from_0', 'm2', undefined, [1e-11, 1e-7]),
      fibre_diameter_um: num('from_0', 'um', 'length', [1, 50]),
      fibre_diameter_distribution_parameter: num('number'),
      shot_content_percent: num('from_0_to_100', '%', undefined, [0, 40]),
      binder_content_percent: num('from_0_to_100', '%', undefined, [0, 15]),
      frame_density_kg_m3: kgM3([5, 300]),
      thickness_mm: mm(),
      youngs_modulus_pa: pa([1e3, 1e7]),
      shear_modulus_pa: pa([1e3, 1e7]),
      poisson_ratio: num('number', '', undefined, [0, 0.49]),
      structural_loss_factor: num('number', '', undefined, [0.01, 0.5]),
    },
    text: [],
    flags: [],
  },
  PracticalAbsorptionSpectrum: {
    description: 'One specimen of a data sheet, with its practical coefficient per octave.',
    numeric: {
      ...bands(
        'practical_absorption_coefficient_',
        PRACTICAL_OCTAVES,
        '',
        num('number', '', undefined, [0, 1]),
      ),
      ...absorptionDescriptors,
    },
    text: ['shape_indicator', 'absorption_class', 'mounting'],
    flags: [],
  },
  PredictedScatteringSpectrum: {
    description: 'One computed surface at one angle, band by band.',
    numeric: { ...scattering, angle_of_incidence_deg: num('number', 'deg', undefined, [0, 90]) },
    text: ['model'],
    flags: [],
  },
  ResilientLayer: {
    description: 'A resilient layer under a floating floor, as its source prints it.',
    numeric: {
      dynamic_stiffness_n_m3: num('from_0', 'N/m3', 'stiffness', [1e6, 2e8]),
      apparent_dynamic_stiffness_n_m3: num('from_0', 'N/m3', 'stiffness', [1e6, 2e8]),
      density_kg_m3: kgM3(),
      thickness_mm: mm(),
    },
    text: [],
    flags: [],
  },
  ResilientMaterial: {
    description: "One resilient material's dynamic modulus, as a page printed it.",
    numeric: {
      density_kg_m3: kgM3(),
      dynamic_youngs_modulus_pa: pa([1e5, 1e8]),
      static_load_pa: pa([500, 20000]),
    },
    text: [],
    flags: [],
  },
  ResistiveSheet: {
    description: 'One thin resistive facing, as its published table prints it.',
    numeric: {
      specific_flow_resistance_pa_s_m: num('from_0', 'Pa.s/m', undefined, [10, 5000]),
      normalized_flow_resistance: num('number', '', undefined, [0.05, 10]),
      wires_per_cm: num('from_0', '1/cm'),
      wire_diameter_um: num('from_0', 'um', 'length'),
      thickness_mm: mm(),
      mass_per_area_kg_m2: kgM2(),
      surface_density_g_m2: num('from_0', 'g/m2', 'areal_density'),
      nonlinearity_factor: num('number'),
    },
    text: ['weave_construction'],
    flags: [],
  },
  ScatteringCoefficientSpectrum: {
    description: 'One measured surface of a published table, band by band.',
    numeric: scattering,
    text: [],
    flags: [],
  },
  SolidMaterial: {
    description: 'One row of a published materials table, with what the cell said.',
    numeric: {
      density_kg_m3: kgM3([1, 22600]),
      youngs_modulus_pa: pa([1e5, 1.2e12]),
      shear_modulus_pa: pa([1e5, 1.2e12]),
      poisson_ratio: num('number', '', undefined, [-1, 0.5]),
      longitudinal_speed_m_s: num('from_0', 'm/s', undefined, [10, 18000]),
      bar_longitudinal_speed_m_s: num('from_0', 'm/s', undefined, [10, 18000]),
      plate_longitudinal_speed_m_s: num('from_0', 'm/s', undefined, [10, 18000]),
      bulk_longitudinal_speed_m_s: num('from_0', 'm/s', undefined, [10, 18000]),
      transverse_speed_m_s: num('from_0', 'm/s', undefined, [10, 18000]),
      loss_factor: num('number', '', undefined, [1e-5, 1]),
      flexural_loss_factor: num('number', '', undefined, [1e-5, 1]),
      longitudinal_loss_factor: num('number', '', undefined, [1e-5, 1]),
      in_situ_loss_factor: num('number', '', undefined, [1e-5, 1]),
      thickness_critical_frequency_product_m_hz: num('from_0', 'm.Hz'),
    },
    text: [],
    flags: [],
  },
  SolidNonlinearity: {
    description: "One solid's ultrasonic nonlinearity parameter, as a page printed it.",
    numeric: { nonlinearity_parameter: num('number') },
    text: ['bonding'],
    flags: [],
  },
  SoundReductionSpectrum: {
    description: 'One element of a laboratory report, with its sound reduction index.',
    numeric: {
      ...bands('sound_reduction_index_', THIRD_OCTAVE_50_5000, '_db', db([0, 100])),
      weighted_sound_reduction_index_db: db([0, 90]),
      spectrum_adaptation_term_db: db([-10, 5]),
      traffic_spectrum_adaptation_term_db: db([-20, 5]),
      ...bands('spectrum_adaptation_term_', ['50_3150', '50_5000', '100_5000'] as const, '_db', db()),
      ...bands('traffic_spectrum_adaptation_term_', ['50_3150', '50_5000', '100_5000'] as const, '_db', db()),
      surface_density_kg_m2: kgM2([1, 1000]),
      thickness_mm: mm(),
    },
    text: ['construction'],
    flags: [],
  },
  ThirdOctaveAbsorptionSpectrum: {
    description: 'One specimen of a test report, with its coefficient per one-third octave.',
    numeric: {
      ...bands('absorption_coefficient_', THIRD_OCTAVE_50_10000, '', num('number', '', undefined, [0, 1.3])),
      ...absorptionDescriptors,
    },
    text: ['shape_indicator', 'absorption_class', 'mounting'],
    flags: [],
  },
  TransmissionLossSpectrum: {
    description: 'One construction of a published table, with its loss in each band.',
    numeric: {
      ...bands('transmission_loss_', OCTAVE_BANDS, '_db', db([0, 80])),
      thickness_mm: mm(),
      surface_density_kg_m2: kgM2(),
      sound_transmission_class: num('number', '', undefined, [15, 75]),
      block_mass_kg: num('from_0', 'kg'),
    },
    text: ['refers_to_row'],
    flags: [],
  },
} as const satisfies Record<string, RowClassSpec>;

export type RowClassName = keyof typeof ROW_CLASSES;
export const ROW_CLASS_NAMES = Object.keys(ROW_CLASSES).sort() as RowClassName[];

export const BASIS_VALUES = ['measured', 'declared', 'calculated', 'estimated', 'extended'] as const;
export type Basis = (typeof BASIS_VALUES)[number];

/** Cells every row class has besides its own: they may be named by `carried` and `misprinted`. */
export const COMMON_TEXT_CELLS = ['group', 'name', 'note', 'variant'] as const;

/** Row provenance fields (a row never says which document it is). */
export const ROW_PROVENANCE_TEXT = [
  'page',
  'printed_table',
  'laboratory',
  'accreditation',
  'report',
  'test_date',
  'test_standard',
] as const;

/** Words a row never carries, with the reason given when one appears. */
export const NEVER_WRITTEN: Readonly<Record<string, string>> = {
  derived: 'a row holds what the page printed; derived values are computed by whoever reads it',
  table: 'the table is the document: name it in provenance.printed_table',
  source: "the source is the document's provenance, not a row field",
  estimated: 'an estimate is a basis: write basis {"<field>": "estimated"}',
};

export interface AliasInfo {
  readonly canonical: string;
  readonly from: UnitMember;
  readonly to: UnitMember;
}

export interface ClassInfo {
  readonly name: RowClassName;
  readonly spec: RowClassSpec;
  /** Canonical numeric fields, in definition order. */
  readonly canonical: readonly string[];
  /** Alias column name → what it converts to. */
  readonly aliases: ReadonlyMap<string, AliasInfo>;
  /** `.fields`: numeric fields and their aliases. */
  readonly fields: readonly string[];
  /** `.cells`: `.fields`, text cells, and the common text cells. */
  readonly cells: readonly string[];
}

function buildClassInfo(name: RowClassName): ClassInfo {
  const spec: RowClassSpec = ROW_CLASSES[name];
  const canonical = Object.keys(spec.numeric);
  const aliases = new Map<string, AliasInfo>();
  const fields: string[] = [];
  for (const field of canonical) {
    fields.push(field);
    const family = spec.numeric[field].family;
    if (!family) continue;
    const to = memberOf(family, field);
    if (!to) throw new Error(`${name}.${field}: name does not end in a unit of ${family}`);
    const stem = field.slice(0, field.length - to.suffix.length);
    for (const from of UNIT_FAMILIES[family]) {
      if (from === to) continue;
      const alias = stem + from.suffix;
      aliases.set(alias, { canonical: field, from, to });
      fields.push(alias);
    }
  }
  const cells = [...fields, ...spec.text, ...COMMON_TEXT_CELLS];
  return { name, spec, canonical, aliases, fields, cells };
}

const CLASS_INFO = new Map<RowClassName, ClassInfo>(ROW_CLASS_NAMES.map((n) => [n, buildClassInfo(n)]));

export function classInfo(name: RowClassName): ClassInfo {
  const info = CLASS_INFO.get(name);
  if (!info) throw new Error(`unknown row class ${name}`);
  return info;
}

export function isRowClassName(name: unknown): name is RowClassName {
  return typeof name === 'string' && CLASS_INFO.has(name as RowClassName);
}

/** Lower and upper bound the schema puts on a value kind (null: none). */
export function kindBounds(kind: NumberKind): readonly [number | null, number | null] {
  switch (kind) {
    case 'from_0':
      return [0, null];
    case 'from_0_to_1':
      return [0, 1];
    case 'from_0_to_100':
      return [0, 100];
    default:
      return [null, null];
  }
}
