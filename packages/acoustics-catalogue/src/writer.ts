/** Writing JSON catalogue documents the reader accepts. */
import { NEVER_WRITTEN, classInfo, isRowClassName } from './definition.js';
import { CatalogueError, type Issue, pointer } from './errors.js';
import { checkCatalogueValue } from './reader.js';
import { orderRow } from './rules.js';
import type { CatalogueDocument } from './types.js';

export const TOP_LEVEL_ORDER = [
  '$schema',
  'schema',
  'schema_version',
  'catalogue',
  'row_type',
  'about',
  'basis',
  'attributed_to',
  'conventions',
  'provenance',
  'csv',
  'rows',
  'acoustics_version',
] as const;

export function orderDocument(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of TOP_LEVEL_ORDER) if (doc[k] !== undefined) out[k] = doc[k];
  for (const k of Object.keys(doc)) if (!(k in out)) out[k] = doc[k];
  if (Array.isArray(out.rows) && isRowClassName(out.row_type)) {
    const info = classInfo(out.row_type);
    out.rows = out.rows.map((r) => orderRow(r as Record<string, unknown>, info));
  }
  return out;
}

/** Rows carrying a word no row is ever written with. */
export function neverWrittenIssues(doc: { rows?: readonly unknown[] }): Issue[] {
  const issues: Issue[] = [];
  (doc.rows ?? []).forEach((row, i) => {
    if (typeof row !== 'object' || row === null) return;
    for (const word of Object.keys(NEVER_WRITTEN))
      if (word in row)
        issues.push({
          pointer: pointer('rows', i, word),
          message: `the writer never writes ${JSON.stringify(word)}: ${NEVER_WRITTEN[word]}`,
        });
  });
  return issues;
}

/** JSON with two-space indent; arrays of plain values stay on one line. */
export function stringify(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => typeof v !== 'object' || v === null))
      return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    const inner = `${indent}  `;
    return `[\n${value.map((v) => inner + stringify(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stringify(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/**
 * Writes a document as JSON text (two-space indent, members in canonical order, final newline).
 * The document is checked as the reader checks it; a document the reader would refuse
 * (including rows carrying derived, table, source or estimated) throws a CatalogueError.
 */
export function writeCatalogue(document: CatalogueDocument): string {
  const forbidden = neverWrittenIssues(document);
  if (forbidden.length) throw new CatalogueError(forbidden, 'document to write');
  const checked = checkCatalogueValue(document);
  if (!checked.document) throw new CatalogueError(checked.issues, 'document to write');
  return `${stringify(orderDocument(checked.document as unknown as Record<string, unknown>), '')}\n`;
}
