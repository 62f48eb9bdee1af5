import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';

const responseFormat: ParamSpec = {
  type: 'string',
  enum: ['raw', 'llm'],
  description: 'raw: structured JSON (default); llm: a compact text rendering meant for a language model.',
};

function read(
  id: string,
  title: string,
  description: string,
  path: string,
  params: Record<string, ParamSpec> = {},
  example: Record<string, unknown> = {},
): ActionSpec {
  return {
    id: `orbit.${id}`,
    title,
    description,
    tool: `forge_orbit_${id}`,
    write: false,
    destructive: false,
    idempotent: true,
    tier: 'premium',
    scope: 'read_api',
    params: { ...params, response_format: responseFormat },
    request: { rest: { method: 'GET', path } },
    example,
  };
}

export const domain: DomainSpec = {
  domain: 'orbit',
  metaTool: 'forge_orbit',
  summary:
    'Orbit, the knowledge graph of projects, code, merge requests, pipelines and people: read its schema and query language, check indexing, and run read-only graph queries.',
  actions: [
    read(
      'dsl',
      'Get Orbit query language',
      'Read the grammar (a JSON Schema) of the Orbit query language, to write a valid orbit.query.',
      '/orbit/schema/dsl',
    ),
    read(
      'graph_status',
      'Get Orbit indexing status',
      'Show how far the knowledge graph has indexed a project or group: projects indexed, item counts per domain and the last indexing run.',
      '/orbit/graph_status',
      {
        project_id: { type: 'integer', minimum: 1, description: 'Numeric ID of the project to report on.' },
        namespace_id: { type: 'integer', minimum: 1, description: 'Numeric ID of the group to report on.' },
      },
      { project_id: 1 },
    ),
    {
      id: 'orbit.query',
      title: 'Query the Orbit knowledge graph',
      description:
        'Run a read-only query on the knowledge graph (traversal, aggregation, neighbors or path finding) written in the Orbit query language, e.g. which services call a function or who touched a project. Changes nothing; see orbit.dsl and orbit.schema first.',
      tool: 'forge_orbit_query',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'premium',
      scope: 'read_api',
      params: {
        query: {
          type: 'object',
          description:
            'The query as a JSON object, e.g. {"query_type": "traversal", "node": {"id": "p", "entity": "Project", "columns": ["name", "full_path"], "filters": {"full_path": {"op": "starts_with", "value": "acme/"}}}, "limit": 10}.',
        },
        response_format: responseFormat,
      },
      required: ['query'],
      request: { rest: { method: 'POST', path: '/orbit/query' } },
      example: {
        query: {
          query_type: 'traversal',
          node: { id: 'p', entity: 'Project', columns: ['name', 'full_path'] },
          limit: 10,
        },
      },
    },
    read(
      'schema',
      'Get Orbit graph schema',
      'Read the ontology of the knowledge graph: its domains, node types with their properties, and the edge types linking them.',
      '/orbit/schema',
      {
        expand: {
          type: 'string',
          description:
            'Comma-separated node types to detail with all their properties, e.g. "Project,MergeRequest".',
        },
      },
    ),
    read(
      'status',
      'Get Orbit service status',
      'Check whether the knowledge graph service is reachable and healthy, and whether it is available to you.',
      '/orbit/status',
    ),
    read(
      'tools',
      'List Orbit tools',
      'List the tool definitions the knowledge graph offers to agents (names, descriptions, parameter schemas).',
      '/orbit/tools',
    ),
  ],
};
