/**
 * The catalog against the real instance's GraphQL contract: every document the server can send (the
 * catalog's declared documents and every document a handler builds) validates with graphql-js against
 * the schema introspected from a real instance (test/fixtures/instance-graphql-schema.graphql, release
 * 18.8). The only documents allowed to fail are those whose fields the instance's GraphQL reference
 * shows arriving after that release, each listed below with the release that brought it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, parse, validate, type GraphQLSchema } from 'graphql';
import { startForgeSim, type ForgeSim } from 'forge-sim';
import { catalog } from './index.js';
import { runAction } from '../executor/run.js';
import { InstanceClient } from '../instance/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const SCHEMA_RELEASE = '18.8';
const schema: GraphQLSchema = buildSchema(
  readFileSync(join(here, '../../test/fixtures/instance-graphql-schema.graphql'), 'utf8'),
);

/**
 * Documents that need a release after the schema's, with the release the instance's GraphQL reference
 * (doc/api/graphql/reference) names: saved views' `isPrivate` replaced `private` in 18.10 (the reference
 * marks `private` "Deprecated in GitLab 18.10. Replaced by isPrivate"), and `subscribed` is absent from
 * the 18.8 schema alike; `securityScanProfileAttach` and `securityScanProfileDetach` are "Introduced in
 * GitLab 18.9"; `Project.scanProfileStatuses` is "Introduced in GitLab 19.0".
 */
const LATER_RELEASE: Record<string, string> = {
  'issue.work_item_saved_view_create': '18.10',
  'issue.work_item_saved_view_get': '18.10',
  'issue.work_item_saved_view_list': '18.10',
  'issue.work_item_saved_view_subscribe': '18.10',
  'issue.work_item_saved_view_unsubscribe': '18.10',
  'issue.work_item_saved_view_update': '18.10',
  'security_scan_profile.attach': '18.9',
  'security_scan_profile.detach': '18.9',
  'security_scan_profile.list_project_statuses': '19.0',
};

const laterThanSchema = (release: string): boolean => {
  const [major, minor] = release.split('.').map(Number);
  const [sMajor, sMinor] = SCHEMA_RELEASE.split('.').map(Number);
  return major > sMajor || (major === sMajor && minor > sMinor);
};
const errorsOf = (document: string): string[] => validate(schema, parse(document)).map((e) => e.message);
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe(`GraphQL documents against the instance schema (release ${SCHEMA_RELEASE})`, () => {
  const declared = catalog().actions.flatMap((a) =>
    a.request && 'graphql' in a.request ? [{ id: a.id, document: a.request.graphql.document }] : [],
  );

  it('validates every declared catalog document, except exactly those listed with a later release', () => {
    const failing = new Map<string, string[]>();
    for (const { id, document } of declared) {
      const errors = errorsOf(document);
      if (errors.length) failing.set(id, errors);
    }
    const valid = declared.length - failing.size;
    console.log(
      `GraphQL contract: ${valid} of ${declared.length} catalog documents validate against the ${SCHEMA_RELEASE} schema; ` +
        `${failing.size} need a later release: ` +
        [...failing.keys()].map((id) => `${id} (${LATER_RELEASE[id] ?? 'unlisted'})`).join(', '),
    );
    const unexpected = [...failing].filter(([id]) => !LATER_RELEASE[id]);
    expect(unexpected.map(([id, e]) => `${id}: ${e.join(' | ')}`)).toEqual([]);
    // A listed document that validates again no longer needs its entry.
    expect([...failing.keys()].sort()).toEqual(Object.keys(LATER_RELEASE).sort());
    for (const release of Object.values(LATER_RELEASE)) expect(laterThanSchema(release), release).toBe(true);
  });

  describe('documents built by handlers', () => {
    let sim: ForgeSim;
    let client: InstanceClient;
    const sent = new Map<string, Set<string>>();

    /** Extra calls that take the handlers' other branches (a path instead of a numeric ID). */
    const VARIANTS: Record<string, Array<Record<string, unknown>>> = {
      'project.target_branch_rule_list': [{ project_id: 'acme/widgets' }, { project_id: '1' }],
      'project.target_branch_rule_create': [
        { project_id: 'acme/widgets', name: 'rule', target_branch: 'main' },
        { project_id: '1', name: 'rule', target_branch: 'main' },
      ],
    };

    beforeAll(async () => {
      sim = await startForgeSim();
      client = new InstanceClient({
        baseUrl: sim.url,
        token: sim.tokens.admin,
        tokenLabel: 'FORGE_TOKEN',
        timeoutMs: 10_000,
      });
      for (const a of catalog().actions.filter((x) => x.handler)) {
        for (const args of [a.example, ...(VARIANTS[a.id] ?? [])]) {
          sim.reset();
          await runAction(a, structuredClone(args), client, { embeddedResources: false });
          for (const r of sim.requests) {
            const query = (r.body as { query?: unknown } | undefined)?.query;
            if (r.path !== '/api/graphql' || typeof query !== 'string') continue;
            if (!sent.has(a.id)) sent.set(a.id, new Set());
            sent.get(a.id)!.add(query);
          }
        }
      }
    }, 120_000);
    afterAll(async () => sim?.close());

    it('validates every document a handler sent', () => {
      const documents = [...sent].flatMap(([id, docs]) => [...docs].map((d) => ({ id, d })));
      const failing = documents
        .map(({ id, d }) => ({ id, errors: errorsOf(d) }))
        .filter((x) => x.errors.length);
      console.log(
        `GraphQL contract: ${documents.length - failing.length} of ${documents.length} handler-built documents ` +
          `(from ${sent.size} handlers) validate against the ${SCHEMA_RELEASE} schema`,
      );
      expect(failing.map((f) => `${f.id}: ${f.errors.join(' | ')}`)).toEqual([]);
      expect(documents.length).toBeGreaterThan(0);
    });

    it('has sent every document the source builds (no handler document goes unchecked)', () => {
      // Every operation written in the server's source, named or built from a template, is matched
      // by its text up to the first interpolation against what was validated above or in the catalog.
      const validated = [
        ...[...sent.values()].flatMap((s) => [...s]),
        ...declared.map((x) => x.document),
      ].map(squash);
      const sources: string[] = [];
      const walk = (dir: string): void => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          const p = join(dir, e.name);
          if (e.isDirectory()) walk(p);
          else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) sources.push(p);
        }
      };
      walk(join(here, '..'));
      const unchecked: string[] = [];
      let found = 0;
      for (const file of sources) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(
          /[`'](\s*)(query|mutation) (\$\{\w+\}|\w+)\s*\(((?:[^`'$]|\$(?!\{))*)/g,
        )) {
          found++;
          const head = squash(`(${m[4]}`);
          const hit = validated.some((d) =>
            m[3].startsWith('${')
              ? d.startsWith(`${m[2]} `) && d.includes(head)
              : d.includes(`${m[2]} ${m[3]}${head}`),
          );
          if (!hit)
            unchecked.push(`${file.slice(file.indexOf('src/'))}: ${m[2]} ${m[3]}${head.slice(0, 60)}`);
        }
      }
      expect(found).toBeGreaterThan(0);
      expect(unchecked).toEqual([]);
    });
  });
});
