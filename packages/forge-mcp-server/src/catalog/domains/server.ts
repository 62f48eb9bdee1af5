import type { ActionHandler, DomainSpec } from '../types.js';

/** The instance's version plus who the credential authenticates as (left out when /user is refused). */
const status: ActionHandler = async (_args, ctx) => {
  const instance = await ctx.rest('GET', '/metadata');
  let user: unknown = null;
  try {
    const u = (await ctx.rest('GET', '/user')) as Record<string, unknown>;
    user = { id: u.id, username: u.username, name: u.name, is_admin: u.is_admin, state: u.state };
  } catch {
    user = null;
  }
  return { instance, user };
};

export const domain: DomainSpec = {
  domain: 'server',
  metaTool: 'forge_server',
  summary:
    'The connection to the instance: check that it answers, its version and edition, and which user the credential acts as.',
  actions: [
    {
      id: 'server.health_check',
      title: 'Check instance connection',
      description:
        'Quick check that the instance answers and the credential is accepted; answers the version, revision and whether it is the enterprise edition.',
      tool: 'forge_server_health_check',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {},
      request: { rest: { method: 'GET', path: '/metadata' } },
      example: {},
    },
    {
      id: 'server.status',
      title: 'Instance and session status',
      description:
        'Report the instance version, revision and edition plus the user the credential acts as (ID, username, admin or not); use it to find out who you are before acting.',
      tool: 'forge_server_status',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'free',
      scope: 'read_api',
      params: {},
      request: { rest: { method: 'GET', path: '/metadata' } },
      handler: status,
      example: {},
    },
  ],
};
