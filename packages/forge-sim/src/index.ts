/** forge-sim: a simulated code-hosting instance (REST /api/v4 + /api/graphql) for tests, benchmarks and the demo. */
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { buildRouter, handle, nonApiRouter } from './server.js';
import type { SimCore } from './server.js';
import { DEMO_TOKENS, OAUTH_APPLICATION_UID, SIGN_IN_PASSWORD, nextId, seed } from './state.js';
import type { State } from './state.js';
import { selfSignedCertificate } from './tls.js';
import type { FaultRule, ForgeSim, LicensePlan, SimOptions } from './types.js';

export type {
  FaultRule,
  ForgeSim,
  LicensePlan,
  RecordedRequest,
  SimOptions,
  SimTokens,
  TokenSpec,
} from './types.js';
export { DEMO_TOKENS } from './state.js';
export { startBalancer, type Balancer, type BalancerOptions, type Served } from './balancer.js';
export { selfSignedCertificate } from './tls.js';

export async function startForgeSim(opts: SimOptions = {}): Promise<ForgeSim> {
  const host = opts.host ?? '127.0.0.1';
  const initialLicense: LicensePlan | null = opts.license === undefined ? 'ultimate' : opts.license;
  const seeded = (): State => {
    const state = seed();
    state.oauth.applications[0].redirectUris.push(...(opts.oauthRedirectUris ?? []));
    return state;
  };
  const core: SimCore = {
    state: seeded(),
    rt: {
      version: opts.version ?? '19.4.1-ee',
      license: initialLicense,
      baseUrl: '',
      oauthTokenLifetimeSeconds: opts.oauthTokenLifetimeSeconds ?? 7200,
    },
    requests: [],
    faults: [],
    latencyMs: opts.latencyMs ?? 0,
    etags: opts.etags ?? true,
    router: buildRouter(),
    other: nonApiRouter(),
  };
  const listener = (req: Parameters<typeof handle>[1], res: Parameters<typeof handle>[2]) => {
    handle(core, req, res).catch((err: unknown) => {
      console.error('forge-sim: request failed', err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: '500 Internal Server Error' }));
    });
  };

  let ca: string | undefined;
  let server: Server;
  if (opts.tls) {
    const material = opts.tls === 'self-signed' ? await selfSignedCertificate(opts.tlsNames) : opts.tls;
    if (opts.tls === 'self-signed') ca = material.cert;
    server = createHttpsServer({ cert: material.cert, key: material.key }, listener);
  } else {
    server = createHttpServer(listener);
  }
  // Keep-alive sockets would hold close() open; the instance's clients reconnect cheaply.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `${opts.tls ? 'https' : 'http'}://${hostForUrl}:${port}`;
  core.rt.baseUrl = url;

  const sim: ForgeSim = {
    url,
    ...(ca ? { ca } : {}),
    tokens: { ...DEMO_TOKENS },
    requests: core.requests,
    clearRequests: () => {
      core.requests.length = 0;
    },
    fault: (rule: FaultRule) => {
      core.faults.push({ rule, left: rule.times ?? Number.POSITIVE_INFINITY });
    },
    clearFaults: () => {
      core.faults.length = 0;
    },
    setLicense: (plan) => {
      core.rt.license = plan;
    },
    addToken: (spec = {}) => {
      const id = nextId(core.state, 'token');
      const kind = spec.granularScopes ? 'personal' : (spec.kind ?? 'oauth');
      const secret =
        spec.secret ??
        `${kind === 'oauth' ? 'forgesim-oauth-added' : 'glpat-forgesim-added'}-${id}-${randomBytes(8).toString('hex')}`;
      const now = Date.now();
      core.state.tokens.push({
        id,
        name: `sim-added-${id}`,
        token: secret,
        userId: spec.userId ?? 2,
        scopes: spec.granularScopes ? ['granular'] : (spec.scopes ?? ['api']),
        kind,
        revoked: false,
        expiresAt:
          spec.expiresInSeconds === undefined
            ? null
            : new Date(now + spec.expiresInSeconds * 1000).toISOString(),
        createdAt: new Date(now).toISOString(),
        ...(spec.applicationUid ? { applicationUid: spec.applicationUid } : {}),
        ...(spec.granularScopes ? { granularScopes: spec.granularScopes } : {}),
      });
      return secret;
    },
    oauth: {
      clientId: OAUTH_APPLICATION_UID,
      redirectUris: [...core.state.oauth.applications[0].redirectUris],
      username: 'alice',
      password: SIGN_IN_PASSWORD,
    },
    reset: () => {
      core.state = seeded();
      core.requests.length = 0;
      core.faults.length = 0;
      core.rt.license = initialLicense;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  return sim;
}
