/**
 * What a model sees: every surface's tools/list, kept as a snapshot per surface and domain (refreshed by
 * `npm run snapshots`, so a change is a reviewed diff), and its size in bytes and cl100k tokens per
 * surface and tier. The lists are built as the server builds them, over the lazy catalog (its generated
 * index, the domain files loaded as needed).
 */
import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { catalog } from '../catalog/index.js';
import { lazyCatalog } from '../catalog/lazy.js';
import type { Tier } from '../catalog/types.js';
import { CatalogView, Surface, type SurfaceName } from './index.js';

const SNAPSHOTS = new URL('../../test/snapshots/', import.meta.url);

function surface(
  name: SurfaceName,
  tier: Tier,
  metaParamSchema: 'opaque' | 'compact' | 'full' = 'opaque',
): Surface {
  const view = new CatalogView(lazyCatalog(), {
    readOnly: false,
    excludeTools: [],
    tier,
    tierSource: 'configured',
  });
  return new Surface(view, { surface: name, metaParamSchema, readOnly: false });
}

describe('tools/list snapshots', () => {
  it('dynamic', async () => {
    await expect(
      JSON.stringify(await surface('dynamic', 'ultimate').list(), null, 2) + '\n',
    ).toMatchFileSnapshot(new URL('dynamic.json', SNAPSHOTS).pathname);
  });
  for (const d of catalog().domains) {
    it(`meta and individual: ${d.domain}`, async () => {
      const meta = (await surface('meta', 'ultimate').list()).find((t) => t.name === d.metaTool);
      await expect(JSON.stringify(meta, null, 2) + '\n').toMatchFileSnapshot(
        new URL(`meta/${d.domain}.json`, SNAPSHOTS).pathname,
      );
      const tools = new Set(d.actions.map((a) => a.tool));
      const individual = (await surface('individual', 'ultimate').list()).filter((t) => tools.has(t.name));
      await expect(JSON.stringify(individual, null, 2) + '\n').toMatchFileSnapshot(
        new URL(`individual/${d.domain}.json`, SNAPSHOTS).pathname,
      );
    });
  }
});

describe('tools/list payload per surface and tier', () => {
  it('reports bytes and cl100k tokens, growing from dynamic to meta to individual', async () => {
    const rows: string[] = ['| surface | tier | tools | bytes | cl100k tokens |', '|---|---|---:|---:|---:|'];
    const size: Record<string, number> = {};
    for (const name of ['dynamic', 'meta', 'individual'] as const) {
      for (const tier of ['free', 'premium', 'ultimate'] as const) {
        const tools = await surface(name, tier).list();
        const json = JSON.stringify({ tools });
        const tokens = encode(json).length;
        size[`${name}/${tier}`] = json.length;
        rows.push(`| ${name} | ${tier} | ${tools.length} | ${Buffer.byteLength(json)} | ${tokens} |`);
      }
    }
    for (const mode of ['compact', 'full'] as const) {
      const tools = await surface('meta', 'ultimate', mode).list();
      const json = JSON.stringify({ tools });
      rows.push(
        `| meta (${mode} params) | ultimate | ${tools.length} | ${Buffer.byteLength(json)} | ${encode(json).length} |`,
      );
    }
    console.log(rows.join('\n'));
    expect(size['dynamic/ultimate']).toBeLessThan(size['meta/ultimate']);
    expect(size['meta/ultimate']).toBeLessThan(size['individual/ultimate']);
    expect(size['individual/free']).toBeLessThan(size['individual/ultimate']);
    expect(await surface('individual', 'ultimate').list()).toHaveLength(catalog().actions.length);
  });
});
