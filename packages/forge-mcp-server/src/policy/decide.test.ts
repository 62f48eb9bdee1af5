/**
 * The destructive call decision over every combination of read-only, safe mode, YOLO/AUTOPILOT,
 * confirm, the client's ability to prompt and the surface, against the spec's order: withheld, then
 * read-only, then safe mode, then proceed on YOLO, confirm=true or an approved elicitation.
 */
import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog/index.js';
import { CatalogView } from '../surfaces/view.js';
import { decide, type SurfaceName } from './index.js';

const destructive = catalog().get('issue.delete')!;
const write = catalog().get('issue.create')!;
const read = catalog().get('issue.get')!;
const bools = [false, true];
const surfaces: SurfaceName[] = ['dynamic', 'meta', 'individual'];

function view(readOnly: boolean) {
  return new CatalogView(catalog(), {
    readOnly,
    excludeTools: [],
    tier: 'ultimate',
    tierSource: 'configured',
  });
}

describe('decision order, every combination', () => {
  const cases: Array<[string, boolean, boolean, boolean, boolean, boolean, SurfaceName]> = [];
  for (const readOnly of bools)
    for (const safe of bools)
      for (const yolo of bools)
        for (const confirm of bools)
          for (const canElicit of bools)
            for (const surface of surfaces)
              cases.push([
                `ro=${readOnly} safe=${safe} yolo=${yolo} confirm=${confirm} elicit=${canElicit} ${surface}`,
                readOnly,
                safe,
                yolo,
                confirm,
                canElicit,
                surface,
              ]);

  it.each(cases)('%s', (_name, readOnly, safe, yolo, confirm, canElicit, surface) => {
    const input = {
      view: view(readOnly),
      safeMode: safe,
      yolo,
      surface,
      tool: 'forge_x',
      confirm,
      canElicit,
    };
    const d = decide(destructive, { project_id: '1', issue_iid: 1 }, input);
    if (readOnly) expect(d).toMatchObject({ kind: 'refuse', reason: 'read_only' });
    else if (safe) expect(d).toMatchObject({ kind: 'preview', isError: surface === 'individual' });
    else if (yolo || confirm) expect(d.kind).toBe('proceed');
    else if (canElicit && surface !== 'dynamic') expect(d.kind).toBe('ask');
    else expect(d.kind).toBe('confirm_text');
    // A plain write never asks; a read always runs unless excluded.
    const w = decide(write, { project_id: '1', title: 't' }, input);
    expect(w.kind).toBe(readOnly ? 'refuse' : safe ? 'preview' : 'proceed');
    expect(decide(read, { project_id: '1', issue_iid: 1 }, input).kind).toBe('proceed');
  });
});
