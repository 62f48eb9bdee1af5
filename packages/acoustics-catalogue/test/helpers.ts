import { classInfo, ROW_CLASS_NAMES, type RowClassName } from '../src/index.js';

export const PROVENANCE = {
  kind: 'test_report',
  document: 'Test report 12/2024',
  version: 'Rev. 4',
  consulted: '2025-03-14',
  laboratory: 'Example Acoustics Lab',
  report: 'R-2024-118',
};

/** A document of one row class with the given rows. */
export function doc(rowType: RowClassName, rows: unknown[], extra: Record<string, unknown> = {}): any {
  return {
    schema: 'acoustics-catalogue',
    schema_version: 1,
    catalogue: 'demo',
    row_type: rowType,
    about: 'Rows transcribed for tests.',
    basis: 'measured',
    provenance: PROVENANCE,
    ...extra,
    rows,
  };
}

/** A plausible value for every numeric field of a class. */
export function fullRow(rowType: RowClassName, key = 'r1'): Record<string, unknown> {
  const info = classInfo(rowType);
  const row: Record<string, unknown> = { key, name: `${rowType} sample`, variant: 'v1', group: 'g' };
  for (const f of info.canonical) {
    const spec = info.spec.numeric[f];
    const p = spec.plausible;
    row[f] =
      spec.kind === 'whole'
        ? 2001
        : spec.kind === 'from_0_to_1'
          ? 0.95
          : spec.kind === 'from_0_to_100'
            ? 10
            : p
              ? Number(((p[0] + p[1]) / 2).toPrecision(3))
              : 2.5;
  }
  for (const t of info.spec.text) row[t] = `${t} text`;
  for (const b of info.spec.flags) row[b] = true;
  return row;
}

export const ALL_CLASSES = ROW_CLASS_NAMES;
