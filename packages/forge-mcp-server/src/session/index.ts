/**
 * A session: one credential against one instance, with its view of the catalog and its surface.
 * Opening one checks the identity (GET /user), reads the token's kind and scopes, and settles the tier.
 */
import { lazyCatalog } from '../catalog/lazy.js';
import type { Tier } from '../catalog/types.js';
import type { Config } from '../config/types.js';
import type { InstanceClient } from '../instance/index.js';
import {
  probeCredential,
  introspects,
  readSelf,
  type CredentialProbe,
  type Identity,
  type SessionInit,
} from './credential.js';
import { CatalogView, Surface, type SurfaceName } from '../surfaces/index.js';
import { TIER_RANK } from '../surfaces/view.js';
import { rewriter } from './substitutions.js';
import { createLogger, type Logger } from '../log.js';
import { evaluateGrant, FineGrainedGate, judgeVersion } from './grant.js';

export { FineGrainedGate } from './grant.js';
export { probeCredential, readSelf, SessionRefused, verifiedProbe } from './credential.js';
export type { CredentialProbe, Identity, SessionInit } from './credential.js';

/**
 * The refusal of a fine-grained token whose grant lacks User: Read: the identity check (GET /user) needs it.
 * `label` names the token as the request presented it.
 */
export const noUserReadRefusal = (label: string) =>
  `${label} is a fine-grained token without the User: Read permission, which the identity check needs: create a fine-grained token granting User: Read, or use a token with api or read_api`;

export class Session {
  refusal?: string;
  /** The refusal is a fine-grained token's missing User: Read (remembered five minutes over HTTP). */
  refusedForUserRead = false;
  /**
   * The token's kind could not be learned (its own description failed by 5xx, 429, timeout or no answer):
   * served like a classic token until `relearnKind` learns it.
   */
  kindUnknown = false;
  /** Asks the instance for the token's kind again (no-op once learned); HTTP calls it at revalidation. */
  relearnKind: () => Promise<void> = async () => undefined;
  constructor(
    readonly config: Config,
    readonly client: InstanceClient,
    public view: CatalogView,
    public surface: Surface,
    readonly identity: Identity,
    public scopes: string[] | undefined,
    /** Set for a fine-grained token: its evaluated grant or the fallback. */
    public fineGrained?: FineGrainedGate,
  ) {}

  get surfaceName(): SurfaceName {
    return this.surface.opts.surface;
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

/**
 * Tier detection: the license, then namespace plans, then (hosted instance only) group plans; the highest
 * tier any of them shows wins, so only ultimate (nothing ranks above it) ends the search early.
 */
export async function detectTier(client: InstanceClient): Promise<Tier> {
  let tier: Tier = 'free';
  try {
    const lic = await client.rest('GET', '/license');
    tier = maxTier(tier, tierOfPlan((lic.body as { plan?: unknown })?.plan));
    if (tier === 'ultimate') return tier;
  } catch {
    // No license answer (not an administrator, or not self-managed): fall through.
  }
  try {
    const ns = await client.rest('GET', '/namespaces', { query: { per_page: 100 } });
    for (const n of (ns.body as Array<{ plan?: unknown }>) ?? []) tier = maxTier(tier, tierOfPlan(n?.plan));
    if (tier === 'ultimate') return tier;
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
const sessionLogs = new Map<string, Logger>();
function sessionLog(level: string): Logger {
  let l = sessionLogs.get(level);
  if (!l) sessionLogs.set(level, (l = createLogger(level)));
  return l;
}

/**
 * Reads and evaluates a fine-grained token's grant (its id from /personal_access_tokens/self) and the
 * instance version. Logs one INFO line for the session: phase B (grant evaluated) or A (not, with the reason
 * and at most three unknown permission names); never the token, its id, projects or groups.
 */
export async function readFineGrained(
  client: InstanceClient,
  tokenId: number | undefined,
  log: Pick<Logger, 'info'>,
): Promise<FineGrainedGate> {
  const [grantRead, versionRead] = await Promise.all([
    (async () => {
      if (tokenId === undefined) return { ok: false as const, unknown: [] };
      try {
        const res = await client.rest('GET', `/personal_access_tokens/${tokenId}`);
        const len = Number(res.headers['content-length']);
        const bytes =
          Number.isFinite(len) && len > 0 ? len : Buffer.byteLength(JSON.stringify(res.body ?? null));
        return evaluateGrant(res.body, bytes);
      } catch {
        return { ok: false as const, unknown: [] };
      }
    })(),
    (async () => {
      try {
        const res = await client.rest('GET', '/version');
        return judgeVersion((res.body as { version?: unknown } | null)?.version);
      } catch {
        return judgeVersion(undefined);
      }
    })(),
  ]);
  let gate: FineGrainedGate;
  if (!grantRead.ok) gate = FineGrainedGate.fallback('grant-unreadable', grantRead.unknown);
  else if (typeof versionRead === 'object') gate = FineGrainedGate.fallback(versionRead.fallback);
  else gate = new FineGrainedGate(versionRead, grantRead.grant);
  if (gate.mode === 'fallback')
    log.info(
      {
        token_kind: 'fine-grained',
        phase: 'A',
        reason: gate.reason,
        ...(gate.unknown.length ? { unknown_permissions: gate.unknown } : {}),
      },
      `fine-grained token: grant not evaluated (${gate.reason}); withholding only what no fine-grained token can reach`,
    );
  else
    log.info(
      { token_kind: 'fine-grained', phase: 'B', judged_as: '19.4.1', prerelease: gate.mode === 'prerelease' },
      'fine-grained token: grant evaluated; listing what the grant reaches',
    );
  return gate;
}

/** Stdio asks again every 15 minutes while the kind is unknown, and on the first successful call after the start. */
export const KIND_RETRY_MS = 15 * 60_000;

function learnKindLater(
  session: Session,
  init: SessionInit,
  tier: Tier,
  tierSource: 'configured' | 'detected',
) {
  const { config } = init;
  const client = session.client;
  session.kindUnknown = true;
  let busy = false;
  const retry: { timer?: NodeJS.Timeout } = {};
  session.relearnKind = async () => {
    if (busy || !session.kindUnknown) return;
    busy = true;
    try {
      const self = await readSelf(client, introspects(init));
      if (!self.scopes) return;
      session.kindUnknown = false;
      if (retry.timer) clearInterval(retry.timer);
      client.onSuccess = undefined;
      session.scopes = self.scopes;
      if (self.scopes.includes('granular')) {
        const gate = await readFineGrained(client, self.id, init.log ?? sessionLog(config.logLevel));
        client.fineGrained = gate;
        session.fineGrained = gate;
        session.surface = sharedSurface(config, tier, tierSource, undefined, gate);
        session.view = session.surface.view;
      } else if (!self.scopes.includes('api') && !self.scopes.includes('read_api')) {
        // A classic token below the minimum: from now on every catalog method is refused.
        session.refusal = `${init.tokenLabel} carries neither the api nor the read_api scope (it has: ${self.scopes.join(', ') || 'none'}); create a token with api, or read_api for read-only use`;
      }
      // Otherwise a classic token keeps the narrowing decided earlier until restart or rebuild.
    } catch {
      // still unknown; asked again later
    } finally {
      busy = false;
    }
  };
  if (config.transport !== 'stdio') return;
  retry.timer = setInterval(() => void session.relearnKind(), KIND_RETRY_MS);
  retry.timer.unref();
  client.onSuccess = () => {
    client.onSuccess = undefined;
    void session.relearnKind();
  };
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
  fineGrained?: FineGrainedGate,
): Surface {
  const scopeClass = scopes ? RELEVANT_SCOPES.filter((x) => scopes.includes(x)) : undefined;
  const key = JSON.stringify([
    fineGrained?.key,
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
    const view = new CatalogView(lazyCatalog(), {
      readOnly: config.readOnly,
      excludeTools: config.excludeTools,
      tier,
      tierSource,
      scopes: scopeClass,
      ignoreScopes: config.ignoreScopes,
      fineGrained,
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

/**
 * Opens a session for a credential. `probe` is the identity check and token read already under way
 * (probeCredential); without one, they start here.
 */
export async function openSession(
  init: SessionInit,
  probe: CredentialProbe = probeCredential(init),
): Promise<Session> {
  const { config } = init;
  const { client } = probe;
  const identity = await probe.identity;
  const self = await probe.self;
  const scopes = self.scopes;
  const below =
    identity.id === undefined ||
    (scopes && !scopes.includes('granular') && !scopes.includes('api') && !scopes.includes('read_api'));
  const noUserRead = identity.id === undefined && !!scopes?.includes('granular');
  const belowMinimum = !below
    ? undefined
    : noUserRead
      ? noUserReadRefusal(init.tokenLabel)
      : `${init.tokenLabel} carries neither the api nor the read_api scope${scopes ? ` (it has: ${scopes.join(', ') || 'none'})` : ''}; create a token with api, or read_api for read-only use`;
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
  const granular = !!scopes?.includes('granular');
  const fineGrained =
    granular && !belowMinimum
      ? await readFineGrained(client, self.id, init.log ?? sessionLog(config.logLevel))
      : undefined;
  const surface = sharedSurface(config, tier, tierSource, granular ? undefined : scopes, fineGrained);
  const view = surface.view;
  if (fineGrained) client.fineGrained = fineGrained;
  const session = new Session(config, client, view, surface, identity, scopes, fineGrained);
  // Below the read_api minimum: the session exists only to answer every catalog method with -40300.
  session.refusal = belowMinimum;
  session.refusedForUserRead = noUserRead;
  if (self.transient && !scopes && identity.id !== undefined) learnKindLater(session, init, tier, tierSource);
  return session;
}
