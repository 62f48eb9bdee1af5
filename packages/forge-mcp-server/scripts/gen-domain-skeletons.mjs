#!/usr/bin/env node
// One-time scaffolding: writes src/catalog/domains/<domain>.ts for every domain of the inventory that
// has no file yet, carrying the inventory's facts (IDs, tools, read/write, destructive, tier, scopes,
// routes). Domain authors then complete parameters, descriptions and examples by hand.
// Usage: node scripts/gen-domain-skeletons.mjs <path to actions.tsv> [--force]
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsv = process.argv[2] ?? join(here, '../../../../shared/reference/actions.tsv');
const force = process.argv.includes('--force');
const outDir = join(here, '../src/catalog/domains');

const ADMIN_GROUPS = {
  admin: 'forge_admin',
  enterprise_user: 'forge_enterprise_user',
  project_alias: 'forge_project_alias',
  geo: 'forge_geo',
  storage_move: 'forge_storage_move',
};

const rows = readFileSync(tsv, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [
      id,
      domain,
      meta_tool,
      individual_tool,
      read_write,
      destructive,
      tier,
      classic_scope,
      group_scope,
      requests,
    ] = line.split('\t');
    return {
      id,
      domain,
      meta_tool,
      individual_tool,
      read_write,
      destructive,
      tier,
      classic_scope,
      group_scope,
      requests,
    };
  });

const singular = (s) =>
  s.endsWith('ies')
    ? s.slice(0, -3) + 'y'
    : s.endsWith('ses')
      ? s.slice(0, -2)
      : s.endsWith('s')
        ? s.slice(0, -1)
        : s;

function ourPath(route) {
  // `:id` takes the name of the collection before it (/projects/:id -> :project_id).
  const parts = route.split('/');
  return parts
    .map((p, i) => (p === ':id' ? `:${singular(parts[i - 1] ?? 'object').replace(/-/g, '_')}_id` : p))
    .join('/')
    .replace('/(-/)', '/');
}

function parseRequests(text) {
  return text.split(' | ').map((r) => {
    const m = /^(REST|GQL) (\S+) (\S+)(?: \(([^)]*)\))? \[(\w+),([\w-]+)\]$/.exec(r.trim());
    if (!m) return { raw: r };
    return { kind: m[1], method: m[2], route: m[3], op: m[4], use: m[5], scope: m[6] };
  });
}

const sample = {
  project_id: '1',
  group_id: '10',
  user_id: 2,
  issue_iid: 1,
  merge_request_iid: 1,
  pipeline_id: 1,
  job_id: 1,
  branch: 'main',
  tag_name: 'v1.0.0',
  sha: 'main',
  ref: 'main',
  file_path: 'README.md',
  note_id: 1,
  milestone_id: 1,
  discussion_id: '1',
  snippet_id: 1,
  runner_id: 1,
  environment_id: 1,
  deployment_id: 1,
};

function describeParam(name) {
  if (name === 'project_id') return 'P.projectId';
  if (name === 'group_id') return 'P.groupId';
  if (name === 'user_id') return 'P.userId';
  if (name === 'issue_iid') return 'P.issueIid';
  if (name === 'merge_request_iid') return 'P.mergeRequestIid';
  const integer =
    /(_id|_iid|^iid)$/.test(name) && !['discussion_id', 'key_id', 'project_id', 'group_id'].includes(name);
  return `{ type: '${integer ? 'integer' : 'string'}', description: '${name.replace(/_/g, ' ')}' }`;
}

function titleOf(id) {
  const [domain, action] = id.split('.');
  const words = action.split('_');
  const verb = words[0][0].toUpperCase() + words[0].slice(1);
  return `${verb} ${[domain.replace(/_/g, ' '), ...words.slice(1)].join(' ')}`.trim();
}

const byDomain = new Map();
for (const r of rows) {
  if (!byDomain.has(r.domain)) byDomain.set(r.domain, []);
  byDomain.get(r.domain).push(r);
}

let written = 0;
for (const [domain, actions] of byDomain) {
  const file = join(outDir, `${domain}.ts`);
  if (existsSync(file) && !force) continue;
  const out = [];
  out.push(`import type { DomainSpec } from '../types.js';`);
  out.push(`import * as P from '../params.js';`);
  out.push('');
  out.push(`export const domain: DomainSpec = {`);
  out.push(`  domain: '${domain}',`);
  out.push(`  metaTool: '${actions[0].meta_tool}',`);
  out.push(`  summary: '${domain.replace(/_/g, ' ')} actions.',`);
  out.push(`  actions: [`);
  for (const a of actions) {
    const reqs = parseRequests(a.requests);
    const rest = reqs.filter((r) => r.kind === 'REST' && r.use !== 'optional');
    const gql = reqs.filter((r) => r.kind === 'GQL' && r.use !== 'optional');
    const methods = new Set(reqs.filter((r) => r.kind === 'REST').map((r) => r.method));
    const write = a.read_write ? a.read_write === 'write' : !(methods.size === 1 && methods.has('GET'));
    const destructive = a.destructive ? a.destructive === 'true' : methods.has('DELETE');
    const tier = a.tier === 'premium+' ? 'premium' : a.tier || 'free';
    const scope = a.classic_scope || (write ? 'api' : 'read_api');
    const tool = a.individual_tool || `forge_${domain}_${a.id.split('.')[1]}`;
    let request = '';
    const pathParams = new Set();
    if (rest.length && !(gql.length && gql[0].use === 'mandatory')) {
      const paths = rest.filter((r) => r.method === rest[0].method).map((r) => ourPath(r.route));
      // Most specific first: the template with the most placeholders wins when all are given.
      paths.sort((x, y) => (y.match(/:/g) ?? []).length - (x.match(/:/g) ?? []).length);
      for (const p of paths) for (const m of p.matchAll(/:([a-z_]+)/g)) pathParams.add(m[1]);
      const path = paths.length === 1 ? `'${paths[0]}'` : `[${paths.map((p) => `'${p}'`).join(', ')}]`;
      request = `{ rest: { method: '${rest[0].method}', path: ${path} } }`;
    } else if (gql.length) {
      request = `{ graphql: { document: 'TODO ${gql.map((g) => `${g.method} ${g.route} (${g.op})`).join('; ')}' } }`;
    }
    const params = [...pathParams];
    const required = params;
    const example = Object.fromEntries(
      params.map((p) => [p, sample[p] ?? (/_id$|_iid$/.test(p) ? 1 : 'example')]),
    );
    out.push(`    {`);
    out.push(`      id: '${a.id}',`);
    out.push(`      title: '${titleOf(a.id)}',`);
    out.push(`      description: '${titleOf(a.id)}.',`);
    out.push(`      tool: '${tool}',`);
    out.push(`      write: ${write},`);
    out.push(`      destructive: ${destructive},`);
    out.push(`      idempotent: ${!write || methods.has('PUT') || methods.has('DELETE')},`);
    out.push(`      tier: '${tier}',`);
    out.push(`      scope: '${scope}',`);
    if (a.group_scope === 'admin_mode' && ADMIN_GROUPS[domain])
      out.push(`      adminGroup: '${ADMIN_GROUPS[domain]}',`);
    out.push(
      `      params: { ${params.map((p) => `${p}: ${describeParam(p)}`).join(', ')}${!write && /list|search/.test(a.id) ? `${params.length ? ', ' : ''}...P.paging` : ''} },`,
    );
    if (required.length && !(request.includes('[') && request.includes('rest')))
      out.push(`      required: [${required.map((p) => `'${p}'`).join(', ')}],`);
    if (request) out.push(`      request: ${request},`);
    out.push(`      example: ${JSON.stringify(example)},`);
    out.push(`    },`);
  }
  out.push(`  ],`);
  out.push(`};`);
  writeFileSync(file, out.join('\n') + '\n');
  written++;
}
console.log(`wrote ${written} domain files`);
