import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryRoutes } from './inventory-routes.js';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
let discussion: { issue: string; mr: string };
beforeAll(async () => {
  sim = await startForgeSim();
  const get = async (p: string) =>
    (await fetch(`${sim.url}/api/v4${p}`, { headers: { 'PRIVATE-TOKEN': sim.tokens.admin } })).json() as any;
  discussion = {
    issue: (await get('/projects/1/issues/1/discussions'))[0].id,
    mr: (await get('/projects/1/merge_requests/1/discussions'))[0].id,
  };
});
afterAll(() => sim.close());

/** Plausible values for each placeholder, chosen from the seeded data so stateful handlers find them. */
function samplePath(route: string): string {
  const isMr = route.includes('/merge_requests/');
  const value = (name: string, before: string): string => {
    switch (name) {
      case 'id':
        if (before.endsWith('/groups/')) return '10';
        if (before.endsWith('/users/')) return '2';
        if (before.endsWith('/namespaces/')) return '10';
        return '1';
      case 'user_id':
        return '2';
      case 'pipeline_id':
        return '101';
      case 'job_id':
        return '1001';
      case 'sha':
        return 'main';
      case 'branch':
        return 'feature%2Flogin';
      case 'tag_name':
        return 'v1.0.0';
      case 'file_path':
        return 'README.md';
      case 'name':
        return before.endsWith('/labels/') ? 'bug' : 'main';
      case 'milestone_id':
        return '1';
      case 'note_id':
        return isMr ? '3' : '1';
      case 'discussion_id':
        return isMr ? discussion.mr : discussion.issue;
      case 'version_id':
        return '10';
      case 'slug':
        return 'home';
      case 'key':
        // The seeded project variable (other variable routes are generic and take any key).
        return before.endsWith('/projects/1/variables/') ? 'DEPLOY_ENV' : '1';
      default:
        return '1';
    }
  };
  let out = '';
  let rest = route.replace(/\(([^()]*)\)/g, '$1');
  while (rest.length) {
    const m = /^[:*]([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (m) {
      out += value(m[1], out);
      rest = rest.slice(m[0].length);
    } else {
      out += rest[0];
      rest = rest.slice(1);
    }
  }
  return out;
}

const QUERY = 'ref=main&from=v1.0.0&to=main&refs[]=main&refs[]=feature/login';
/** Answers that are right for the seeded state even though they say "not found". */
const STATE_DEPENDENT_404 = new Set([
  'POST /projects/:id/merge_requests/:merge_request_iid/unapprove',
  // No generic package "1" was ever uploaded; packages.test.ts uploads one and downloads it.
  'GET /projects/:id/packages/generic/:package_name/*package_version/(*path/):file_name',
]);

describe('every inventory route answers', () => {
  it('with something other than 404/405 for the admin token', async () => {
    const failures: string[] = [];
    const reads = inventoryRoutes.filter((r) => r.method === 'GET' || r.method === 'HEAD');
    const writes = inventoryRoutes.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
    const one = async (r: (typeof inventoryRoutes)[number]): Promise<string | undefined> => {
      const path = samplePath(r.route);
      const res = await fetch(`${sim.url}/api/v4${path}?${QUERY}`, {
        method: r.method,
        headers: { 'PRIVATE-TOKEN': sim.tokens.admin, 'content-type': 'application/json' },
        body:
          r.method === 'GET' || r.method === 'HEAD' ? undefined : JSON.stringify({ name: 'bug', title: 'x' }),
      });
      await res.arrayBuffer();
      if ((res.status === 404 || res.status === 405) && !STATE_DEPENDENT_404.has(`${r.method} ${r.route}`)) {
        return `${r.method} ${r.route} -> ${path}: ${res.status}`;
      }
      return undefined;
    };
    const batch = async (routes: typeof inventoryRoutes, size: number, resetFirst: boolean) => {
      const failed: (typeof inventoryRoutes)[number][] = [];
      for (let i = 0; i < routes.length; i += size) {
        if (resetFirst) sim.reset();
        const chunk = routes.slice(i, i + size);
        const out = await Promise.all(chunk.map(one));
        out.forEach((f, idx) => f && failed.push(chunk[idx]));
      }
      return failed;
    };
    // Reads leave the state alone; writes run in batches on a fresh state, and a write that failed
    // next to another (deleted by a sibling, say) is tried again alone before it counts.
    const failedReads = await batch(reads, 25, false);
    const failedWrites = await batch(writes, 25, true);
    for (const r of [...failedReads, ...failedWrites]) {
      sim.reset();
      const f = await one(r);
      if (f) failures.push(f);
    }
    expect(failures).toEqual([]);
  });
});

describe('a token rotation', () => {
  it.each([
    '/projects/1/access_tokens/1/rotate',
    '/groups/10/access_tokens/1/rotate',
    '/personal_access_tokens/1/rotate',
  ])('POST %s answers the new token with its secret and expiry, as the instance does', async (path) => {
    const res = await fetch(`${sim.url}/api/v4${path}`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': sim.tokens.admin, 'content-type': 'application/json' },
      body: JSON.stringify({ expires_at: '2027-01-31' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ active: true, revoked: false, expires_at: '2027-01-31' });
    expect(body.token).toMatch(/^glpat-forgesim-rotated-\d{6}$/);
    expect(body.id).not.toBe(1);
  });
});
