/**
 * A session: one credential against one instance, with its view of the catalog and its surface.
 * Opening one checks the identity (GET /user), reads the token's kind and scopes, and settles the tier.
 */
import { catalog } from '../catalog/index.js';
import type { Tier } from '../catalog/types.js';
import type { Config } from '../config/types.js';
import { InstanceClient, InstanceError } from '../instance/index.js';
import { CatalogView, Surface, type SurfaceName } from '../surfaces/index.js';
import { TIER_RANK } from '../surfaces/view.js';
import { rewriter } from './substitutions.js';

export interface SessionInit {
  config: Config;
  baseUrl: string;
  token: string;
  tokenLabel: string;
  tokenHeader?: 'private-token' | 'bearer';
}

export interface Identity {
  id?: number;
  username?: string;
}

export class Session {
  refusal?: string;
  constructor(
    readonly config: Config,
    readonly client: InstanceClient,
    readonly view: CatalogView,
    readonly surface: Surface,
    readonly identity: Identity,
    readonly scopes: string[] | undefined,
  ) {}

  get surfaceName(): SurfaceName {
    return this.surface.opts.surface;
  }
}

/** Thrown when a credential cannot open a session; `code` is the JSON-RPC code to answer with. */
export class SessionRefused extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
  ) {
    super(message);
  }
}

const PLAN_TIER: Record<string, Tier> = {
  ultimate: 'ultimate',
  gold: 'ultimate',
  ultimate_trial: 'ultimate',
  premium: 'premium',
  silver: 'premium',
  premium_trial: 'premium',
  starter: 'premium',
  bronze: 'premium',
};

function tierOfPlan(plan: unknown): Tier {
  return (typeof plan === 'string' && PLAN_TIER[plan.toLowerCase()]) || 'free';
}

function maxTier(a: Tier, b: Tier): Tier {
  return TIER_RANK[a] >= TIER_RANK[b] ? a : b;
}

/** Tier detection: the license, then namespace plans, then (hosted instance only) group plans. */
export async function detectTier(client: InstanceClient): Promise<Tier> {
  let tier: Tier = 'free';
  try {
    const lic = await client.rest('GET', '/license');
    tier = maxTier(tier, tierOfPlan((lic.body as { plan?: unknown })?.plan));
    if (tier !== 'free') return tier;
  } catch {
    // No license answer (not an administrator, or not self-managed): fall through.
  }
  try {
    const ns = await client.rest('GET', '/namespaces', { query: { per_page: 100 } });
    for (const n of (ns.body as Array<{ plan?: unknown }>) ?? []) tier = maxTier(tier, tierOfPlan(n?.plan));
    if (tier !== 'free') return tier;
  } catch {
    // fall through
  }
  if (client.base.hostname === 'gitlab.com') {
    try {
      const groups = await client.rest('GET', '/groups', {
        query: { min_access_level: 10, top_level_only: true, per_page: 100 },
      });
      for (const g of (groups.body as Array<{ plan?: unknown }>) ?? [])
        tier = maxTier(tier, tierOfPlan(g?.plan));
    } catch {
      // none answering means free
    }
  }
  return tier;
}

/** Reads the token's scopes; undefined when they cannot be read (then nothing is filtered). */
export async function readScopes(client: InstanceClient, bearer: boolean): Promise<string[] | undefined> {
  try {
    const self = await client.rest('GET', '/personal_access_tokens/self');
    const scopes = (self.body as { scopes?: unknown })?.scopes;
    if (Array.isArray(scopes)) return scopes.map(String);
  } catch (err) {
    if (!(err instanceof InstanceError) || !bearer) return undefined;
  }
  if (bearer) {
    try {
      const info = await client.rest('GET', '/oauth/token/info');
      const scope =
        (info.body as { scope?: unknown; scopes?: unknown })?.scope ??
        (info.body as { scopes?: unknown })?.scopes;
      if (Array.isArray(scope)) return scope.map(String);
      if (typeof scope === 'string') return scope.split(/\s+/).filter(Boolean);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const tierCache = new Map<string, Promise<Tier>>();

/**
 * Views and surfaces are shared by every session that sees the catalog the same way (same settings,
 * tier and scope class): a held credential then costs a session object, not a copy of the catalog.
 */
const surfaces = new Map<string, Surface>();
const RELEVANT_SCOPES = ['api', 'read_api', 'admin_mode'];

function sharedSurface(
  config: Config,
  tier: Tier,
  tierSource: 'configured' | 'detected',
  scopes: string[] | undefined,
): Surface {
  const scopeClass = scopes ? RELEVANT_SCOPES.filter((x) => scopes.includes(x)) : undefined;
  const key = JSON.stringify([
    config.readOnly,
    config.excludeTools,
    tier,
    tierSource,
    scopeClass,
    config.ignoreScopes,
    config.toolSurface,
    config.metaParamSchema,
    config.descriptionSubstitutions,
  ]);
  let surface = surfaces.get(key);
  if (!surface) {
    const view = new CatalogView(catalog(), {
      readOnly: config.readOnly,
      excludeTools: config.excludeTools,
      tier,
      tierSource,
      scopes: scopeClass,
      ignoreScopes: config.ignoreScopes,
    });
    surface = new Surface(view, {
      surface: config.toolSurface,
      metaParamSchema: config.metaParamSchema,
      readOnly: config.readOnly,
      rewrite: rewriter(config.descriptionSubstitutions),
    });
    surfaces.set(key, surface);
  }
  return surface;
}

export async function openSession(init: SessionInit): Promise<Session> {
  const { config } = init;
  const client = new InstanceClient({
    baseUrl: init.baseUrl,
    token: init.token,
    tokenHeader: init.tokenHeader,
    tokenLabel: init.tokenLabel,
    timeoutMs: config.actionTimeoutMs,
    skipTlsVerify: config.skipTlsVerify,
  });
  // The identity check and the scope read go out together; neither waits on the other.
  const scopesRead = readScopes(client, init.tokenHeader === 'bearer');
  scopesRead.catch(() => undefined);
  let identity: Identity;
  try {
    const me = await client.rest('GET', '/user');
    const body = me.body as { id?: number; username?: string };
    identity = { id: body?.id, username: body?.username };
  } catch (err) {
    if (err instanceof InstanceError && err.status === 401)
      throw new SessionRefused(
        `the instance refused ${init.tokenLabel}: ${err.render('identity check')}`,
        -40100,
        401,
      );
    if (!(err instanceof InstanceError && err.status === 403)) throw err;
    // A genuine token below the read_api minimum (only mcp, say): the session only refuses.
    identity = {};
  }
  const scopes = await scopesRead;
  const below =
    identity.id === undefined ||
    (scopes && !scopes.includes('granular') && !scopes.includes('api') && !scopes.includes('read_api'));
  const belowMinimum = below
    ? `${init.tokenLabel} carries neither the api nor the read_api scope${scopes ? ` (it has: ${scopes.join(', ') || 'none'})` : ''}; create a token with api, or read_api for read-only use`
    : undefined;
  let tier: Tier;
  let tierSource: 'configured' | 'detected';
  if (config.tier || belowMinimum) {
    tier = config.tier ?? 'free';
    tierSource = 'configured';
  } else {
    const key = `${init.baseUrl}\u0000${identity.id ?? ''}`;
    let p = tierCache.get(key);
    if (!p) {
      p = detectTier(client);
      tierCache.set(key, p);
    }
    tier = await p;
    tierSource = 'detected';
  }
  const surface = sharedSurface(config, tier, tierSource, scopes?.includes('granular') ? undefined : scopes);
  const view = surface.view;
  const session = new Session(config, client, view, surface, identity, scopes);
  // Below the read_api minimum: the session exists only to answer every catalog method with -40300.
  session.refusal = belowMinimum;
  return session;
}
