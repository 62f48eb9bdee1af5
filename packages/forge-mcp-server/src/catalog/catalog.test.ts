/**
 * Walks every action of the catalog: its schema compiles, its example passes it, the example runs
 * against forge-sim, and the request that reached the instance is the inventory's route.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startForgeSim, type FaultRule, type ForgeSim } from 'forge-sim';
import { Catalog, catalog, domains } from './index.js';
import { CATALOG_TRAITS, catalogIndex } from './catalog-index.generated.js';
import { domainEntries, findDocOf, traitCountsOf } from './entries.js';
import { findCorpus } from './find-corpus.generated.js';
import { LazyCatalog } from './lazy.js';
import { inputSchema, validatorFor } from '../executor/schema.js';
import { runAction } from '../executor/run.js';
import { actionAnnotations } from '../surfaces/index.js';
import { InstanceClient } from '../instance/index.js';
import type { ActionSpec } from './types.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsv = readFileSync(join(here, '../../test/fixtures/actions.tsv'), 'utf8').trim().split('\n').slice(1);
interface Row {
  id: string;
  domain: string;
  metaTool: string;
  tool: string;
  requests: Array<{ kind: 'REST' | 'GQL'; method: string; route: string }>;
}
const inventory = new Map<string, Row>(
  tsv.map((line) => {
    const f = line.split('\t');
    const requests = f[9].split(' | ').map((r) => {
      const [kind, method, route] = r.trim().split(' ');
      return { kind: kind as 'REST' | 'GQL', method, route };
    });
    return [f[0], { id: f[0], domain: f[1], metaTool: f[2], tool: f[3], requests }];
  }),
);

/**
 * An inventory route as a pattern over the recorded path: `:param` is one segment, `*param` any rest,
 * `( ... )` an optional piece.
 */
function routePattern(route: string): RegExp {
  let re = '';
  for (let i = 0; i < route.length; i++) {
    const c = route[i];
    if (c === '(') re += '(?:';
    else if (c === ')') re += ')?';
    else if (c === ':' || c === '*') {
      let j = i + 1;
      while (j < route.length && /[a-z0-9_]/i.test(route[j])) j++;
      re += c === ':' ? '[^/]+' : '.+';
      i = j - 1;
    } else re += c.replace(/[.+?^${}|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^/api/v4${re}$`);
}

const cat = catalog();
let sim: ForgeSim;
let client: InstanceClient;

beforeAll(async () => {
  sim = await startForgeSim();
  client = new InstanceClient({
    baseUrl: sim.url,
    token: sim.tokens.admin,
    tokenLabel: 'FORGE_TOKEN',
    timeoutMs: 10_000,
  });
});
afterAll(async () => sim.close());

describe('catalog as a whole', () => {
  it('holds exactly the inventory: 1,098 actions with its canonical IDs', () => {
    expect(cat.actions).toHaveLength(1098);
    expect(new Set(cat.actions.map((a) => a.id))).toEqual(new Set(inventory.keys()));
  });

  it('gives no two actions the same individual tool name (and refuses a catalog that would)', () => {
    const tools = cat.actions.map((a) => a.tool);
    expect(new Set(tools).size).toBe(tools.length);
    const a = cat.actions[0];
    expect(
      () =>
        new Catalog([
          { domain: 'x', metaTool: 'forge_x', summary: 's', actions: [a, { ...a, id: 'x.copy' }] },
        ]),
    ).toThrow(/declared by both/);
  });

  it('answers Not Found for the get actions of 22 domains, whose next steps name real actions', () => {
    const withCard = cat.actions.filter((a) => a.notFound);
    expect(new Set(withCard.map((a) => a.id.split('.')[0])).size).toBe(22);
    for (const a of withCard)
      for (const id of a.notFound!.next) expect(cat.get(id), `${a.id} suggests ${id}`).toBeDefined();
    for (const a of withCard)
      expect(a.params, `${a.id} names its object by ${a.notFound!.key}`).toHaveProperty(a.notFound!.key);
  });

  it('keeps the inventory tool names, except the four renamed duplicates', () => {
    const renamed = cat.actions
      .filter((a) => inventory.get(a.id)!.tool && inventory.get(a.id)!.tool !== a.tool)
      .map((a) => a.id);
    expect(renamed.sort()).toEqual([
      'group.issues',
      'repository.file_history',
      'server.health_check',
      'user.me',
    ]);
  });
});

describe('the generated index, which a start reads instead of the domain files', () => {
  it('holds every action as its domain file declares it (a stale index fails here: npm run build rewrites it)', () => {
    expect(catalogIndex()).toEqual(domainEntries(domains));
  });

  it('counts its actions by traits as the entries have them (what a start counts its listed actions by)', () => {
    expect(CATALOG_TRAITS).toEqual(traitCountsOf(cat.actions));
    expect(new LazyCatalog().traitCounts()).toEqual(traitCountsOf(new LazyCatalog().actions));
  });

  it('gives forge_find_action each action as its domain file declares it (the search corpus is not stale)', async () => {
    expect(findCorpus()).toEqual(cat.actions.map(findDocOf));
    const lazy = new LazyCatalog();
    const docs = await lazy.findable(lazy.actions);
    docs.forEach((doc, i) =>
      expect(Object.keys(doc.params), doc.id).toEqual(Object.keys(cat.actions[i].params)),
    );
  });

  it('loads each domain on first use, giving the specs its file declares', async () => {
    const lazy = new LazyCatalog();
    expect(lazy.actions.map((a) => a.id)).toEqual(cat.actions.map((a) => a.id));
    for (const d of domains) {
      const specs = await lazy.specs(lazy.domain(d.actions[0].id)!.actions);
      expect(specs.length).toBe(d.actions.length);
      specs.forEach((a, i) => expect(a, a.id).toBe(d.actions[i]));
    }
    expect(await lazy.spec(lazy.get(cat.actions[0].aliases?.[0] ?? cat.actions[0].id)!)).toBe(cat.actions[0]);
  });

  it('reads a domain file again after a failed read, instead of remembering the failure', async () => {
    let reads = 0;
    const lazy = new LazyCatalog(catalogIndex(), async () => {
      if (++reads === 1) throw new Error('EMFILE: too many open files');
      return Object.fromEntries(domains.map((d) => [d.domain, async () => ({ domain: d })]));
    });
    const entry = lazy.get('issue.get')!;
    await expect(lazy.spec(entry)).rejects.toThrow(/EMFILE/);
    expect(await lazy.spec(entry)).toBe(cat.get('issue.get'));
    expect(reads).toBe(2);
  });

  it('refuses an index whose action its domain file does not declare', async () => {
    const [d] = catalogIndex();
    const lazy = new LazyCatalog([
      { ...d, actions: [...d.actions, { ...d.actions[0], id: `${d.domain}.gone`, tool: 'forge_gone' }] },
    ]);
    await expect(lazy.spec(lazy.get(`${d.domain}.gone`)!)).rejects.toThrow(/not in its domain file/);
  });
});

const b64 = (text: string) => Buffer.from(text).toString('base64');
/**
 * Answers the seed cannot give, installed as forge-sim answers for the one action that needs them: a
 * repository with a submodule (its .gitmodules, the pinned commit in the tree, a file of the submodule).
 */
const SUBMODULE: FaultRule[] = [
  {
    path: /\/projects\/1\/repository\/files\/\.gitmodules$/,
    status: 200,
    body: {
      file_name: '.gitmodules',
      encoding: 'base64',
      content: b64(
        '[submodule "lib"]\n\tpath = vendor/lib\n\turl = https://forge.example/acme/gadgets.git\n',
      ),
    },
  },
  {
    path: /\/projects\/1\/repository\/tree$/,
    status: 200,
    body: [
      {
        id: 'c0ffee0000000000000000000000000000000001',
        name: 'lib',
        type: 'commit',
        path: 'vendor/lib',
        mode: '160000',
      },
    ],
  },
  {
    path: /gadgets\/repository\/files\/README\.md$/,
    status: 200,
    body: { file_name: 'README.md', encoding: 'base64', content: b64('# Gadgets\n') },
  },
];
const FIXTURES: Record<string, FaultRule[]> = {
  'repository.list_submodules': SUBMODULE,
  'repository.read_submodule_file': SUBMODULE,
};
/** Actions run with another seeded credential than the administrator's (whose approval it withdraws). */
const ACT_AS: Record<string, 'api'> = { 'merge_request.unapprove': 'api' };

const byDomain = new Map<string, ActionSpec[]>();
for (const a of cat.actions) {
  const d = a.id.split('.')[0];
  if (!byDomain.has(d)) byDomain.set(d, []);
  byDomain.get(d)!.push(a);
}

for (const [domain, actions] of byDomain) {
  describe(`domain ${domain}`, () => {
    // Each action meets a freshly seeded instance: a token rotation or a delete must not leak into the next.
    beforeEach(() => sim.reset());
    it.each(actions.map((a) => [a.id, a] as const))('%s', async (_id, a) => {
      const row = inventory.get(a.id)!;
      expect(cat.domain(a.id)!.metaTool).toBe(row.metaTool);
      expect(a.tool).toMatch(/^forge_[a-z0-9_]+$/);
      // Annotations agree with read/write/destructive.
      const ann = actionAnnotations(a);
      expect(ann.readOnlyHint).toBe(!a.write);
      expect(ann.destructiveHint).toBe(a.destructive);
      if (a.destructive) expect(a.write).toBe(true);
      // The schema compiles and the example passes it.
      const schema = inputSchema(a);
      const validate = validatorFor(schema);
      const example = structuredClone(a.example);
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      for (const r of a.required ?? [])
        expect(a.params, `${r} is required but not declared`).toHaveProperty(r);
      if (a.request && 'graphql' in a.request) expect(a.request.graphql.document).not.toMatch(/^TODO/);
      if (a.scope === 'no-request') return;
      // The example runs against forge-sim, and what reached it is the inventory's route.
      const before = sim.requests.length;
      for (const rule of FIXTURES[a.id] ?? []) sim.fault(rule);
      const as = ACT_AS[a.id]
        ? new InstanceClient({
            baseUrl: sim.url,
            token: sim.tokens[ACT_AS[a.id]],
            tokenLabel: 'FORGE_TOKEN',
            timeoutMs: 10_000,
          })
        : client;
      const result = await runAction(a, example, as, { embeddedResources: false });
      sim.clearFaults();
      const sent = sim.requests.slice(before);
      expect(sent.length, 'nothing reached the instance').toBeGreaterThan(0);
      const rest = row.requests.filter((r) => r.kind === 'REST');
      const gql = row.requests.filter((r) => r.kind === 'GQL');
      const matched = sent.some(
        (q) =>
          (q.path === '/api/graphql' && gql.length > 0) ||
          rest.some((r) => r.method === q.method && routePattern(r.route).test(q.path)),
      );
      expect(
        matched,
        `sent ${sent.map((q) => `${q.method} ${q.path}`).join(', ')}; inventory: ${row.requests.map((r) => `${r.method} ${r.route}`).join(' | ')}`,
      ).toBe(true);
      expect(result.isError, (result.content[0] as { text?: string }).text).toBeFalsy();
    });
  });
}
