import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
beforeAll(async () => {
  sim = await startForgeSim();
});
afterAll(() => sim.close());

async function gql(body: unknown, token: string | null = sim.tokens.api) {
  const res = await fetch(`${sim.url}/api/graphql`, {
    method: 'POST',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

describe('GraphQL', () => {
  it('answers each selected field by its name, honouring aliases and fragments', async () => {
    const { status, json } = await gql({
      query: `query getIssues($path: ID!) {
        project(fullPath: $path) {
          id
          fullPath
          issues(first: 5) { count nodes { iid title createdAt confidential ...Who } pageInfo { hasNextPage endCursor } }
          mine: mergeRequests { edges { node { id webUrl } } }
        }
      }
      fragment Who on Issue { author { username } }`,
      variables: { path: 'acme/widgets' },
      operationName: 'getIssues',
    });
    expect(status).toBe(200);
    const project = json.data.project;
    expect(project.id).toBe('gid://gitlab/Project/1');
    expect(project.issues.count).toBe(1);
    expect(project.issues.nodes).toHaveLength(1);
    expect(project.issues.nodes[0]).toMatchObject({
      iid: '1',
      confidential: true,
      author: { username: 'alice' },
    });
    expect(project.issues.nodes[0].createdAt).toMatch(/^\d{4}-/);
    expect(project.issues.pageInfo.hasNextPage).toBe(false);
    expect(project.mine.edges[0].node.id).toMatch(/^gid:\/\/gitlab\//);
    expect(sim.requests.at(-1)?.graphqlOperation).toBe('getIssues');
  });

  it('answers mutations with the selected fields and errors: []', async () => {
    const { json } = await gql({
      query: 'mutation { createIssue(input: {projectPath: "a/b", title: "t"}) { issue { iid title } } }',
    });
    expect(json.data.createIssue).toEqual({ issue: { iid: '1', title: 'title 1' }, errors: [] });
    expect(sim.requests.at(-1)?.graphqlOperation).toBe('createIssue');
  });

  it('reports a parse error inside a 200', async () => {
    const { status, json } = await gql({ query: 'query { project(' });
    expect(status).toBe(200);
    expect(json.errors[0].message).toMatch(/^Parse error on /);
  });

  it('answers a missing or refused token with 401 Invalid token', async () => {
    expect(await gql({ query: '{ currentUser { id } }' }, null)).toEqual({
      status: 401,
      json: { errors: [{ message: 'Invalid token' }] },
    });
    expect((await gql({ query: '{ currentUser { id } }' }, sim.tokens.revoked)).status).toBe(401);
    expect((await gql({ query: '{ currentUser { id } }' }, sim.tokens.mcpOnly)).status).toBe(401);
  });

  it('refuses mutations for read_api with a null payload and errors', async () => {
    const { status, json } = await gql(
      { query: 'mutation { createNote(input: {}) { note { id } } }' },
      sim.tokens.readApi,
    );
    expect(status).toBe(200);
    expect(json.data).toEqual({ createNote: null });
    expect(json.errors[0].message).toMatch(/permission/);
  });
});
