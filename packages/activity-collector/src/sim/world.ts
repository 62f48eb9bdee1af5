/** The data a simulated upstream serves. Tests mutate it between sweeps (an unstar, a new commit...). */

export interface SimStar {
  login: string;
  /** RFC 3339, to the second. */
  starredAt: string;
}
export interface SimCommit {
  sha: string;
  author: string;
  date: string;
  additions: number;
  deletions: number;
}
export interface SimEvent {
  id: string;
  type: string;
  actor: string;
  createdAt: string;
}
export interface SimTrafficDay {
  timestamp: string;
  count: number;
  uniques: number;
}
export type AlertSetting = number | 'off';

export interface SimRepo {
  owner: string;
  name: string;
  ownerType?: 'User' | 'Organization';
  /** The token's access. Default: admin on the account's own repositories, read elsewhere. */
  permission?: 'admin' | 'write' | 'read';
  private?: boolean;
  fork?: boolean;
  archived?: boolean;
  disabled?: boolean;
  forksCount?: number;
  openIssues?: number;
  createdAt?: string;
  stars?: SimStar[];
  /** security_and_analysis, shown to admins only. */
  securityAndAnalysis?: Record<string, 'enabled' | 'disabled'>;
  /** Open alerts per list, or 'off' (switched off: 403 for Dependabot, 404 for the others). Default 'off'. */
  alerts?: { dependabot?: AlertSetting; codeScanning?: AlertSetting; secretScanning?: AlertSetting };
  participation?: { all: number[]; owner: number[] } | 'computing';
  punchCard?: [number, number, number][] | 'computing';
  /** Days that had traffic; the answer is always the last fourteen of them, however old. */
  traffic?: { views: SimTrafficDay[]; clones: SimTrafficDay[] };
  /** Newest first. */
  commits?: SimCommit[];
  /** Newest first. */
  events?: SimEvent[];
  /** How many events the feed pages through before answering 422. Default 300. */
  eventCeiling?: number;
  /**
   * The account is a collaborator on the repository: its stargazer list is served even with the read role, which
   * shows pull only, as anyone's permission on a public repository does.
   */
  collaborator?: boolean;
  /** The REST stargazer list answers 404 whatever the token's permission says. */
  starListHidden?: boolean;
  /** Star history: the week rolls over after page 1 is served, so page 2 repeats page 1's last week. */
  historyRollover?: boolean;
  /** Star history: every week's total is one more than the sum of its days (a malformed answer). */
  historyTotalOff?: boolean;
}

export interface SimPackage {
  owner: string;
  type: string;
  name: string;
  repository?: string;
  versions: { id: number; name: string; created_at: string }[];
}

export interface SimBillingItem {
  date: string;
  product: string;
  sku: string;
  quantity: number;
  unitType: string;
  pricePerUnit: number;
  grossAmount: number;
  discountAmount: number;
  netAmount: number;
  repositoryName?: string;
}

/** A further token the upstream accepts, with its own rate-limit budget. */
export interface SimToken {
  name: string;
  token: string;
  limit?: number;
  remaining?: number;
  /** A GitHub App installation token: GET /user answers 403; /installation/repositories lists `repositories`. */
  installation?: boolean;
  repositories?: string[];
}

export interface SimWorld {
  extraTokens?: SimToken[];
  /** The token's account. */
  user: string;
  token: string;
  /** Organisations that exist (their repositories are the repos owned by them). */
  orgs?: string[];
  repos: SimRepo[];
  packages?: SimPackage[];
  /** Usage items, or 'gone' to answer 410. */
  billing?: SimBillingItem[] | 'gone';
}

/** A small deterministic pseudo-random generator (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A seeded world of `repos` repositories for demos and benchmarks: a quarter owned by the account, a quarter in an
 * organisation it administers, the rest in others' organisations (no stargazer-list access).
 */
export function generateWorld(opts: {
  repos: number;
  seed?: number;
  now?: Date;
  user?: string;
  token?: string;
}): SimWorld {
  const rnd = prng(opts.seed ?? 1);
  const now = (opts.now ?? new Date()).getTime();
  const user = opts.user ?? 'octo-demo';
  const day = 86_400_000;
  const int = (n: number) => Math.floor(rnd() * n);
  const repos: SimRepo[] = [];
  for (let i = 0; i < opts.repos; i++) {
    const kind = i % 4;
    const owner = kind === 0 ? user : kind === 1 ? 'demo-admin-org' : `others-${i % 7}`;
    const created = now - (60 + int(300)) * day;
    const stars: SimStar[] = Array.from({ length: int(40) }, (_, k) => ({
      login: `fan-${i}-${k}`,
      starredAt: iso(created + int(now - created)),
    }));
    const commits: SimCommit[] = Array.from({ length: 1 + int(6) }, (_, k) => ({
      sha: `${i.toString(16).padStart(8, '0')}${k.toString(16).padStart(32, '0')}`,
      author: k % 2 ? user : `dev-${k}`,
      date: iso(now - (k + 1) * day),
      additions: int(200),
      deletions: int(80),
    })).sort((a, b) => b.date.localeCompare(a.date));
    repos.push({
      owner,
      name: `repo-${i}`,
      ownerType: kind === 0 ? 'User' : 'Organization',
      permission: kind <= 1 ? 'admin' : 'read',
      createdAt: iso(created),
      stars,
      securityAndAnalysis: {
        secret_scanning: 'enabled',
        secret_scanning_push_protection: i % 2 ? 'enabled' : 'disabled',
      },
      alerts: { dependabot: i % 3 === 0 ? 'off' : int(4), secretScanning: int(2), codeScanning: 'off' },
      participation:
        i % 10 === 0
          ? 'computing'
          : { all: Array.from({ length: 52 }, () => int(5)), owner: Array(52).fill(0) },
      punchCard: Array.from(
        { length: 168 },
        (_, k) => [Math.floor(k / 24), k % 24, int(3)] as [number, number, number],
      ),
      traffic: {
        views: Array.from({ length: 14 }, (_, k) => ({
          timestamp: iso(now - (20 - k) * day),
          count: 1 + int(30),
          uniques: 1,
        })),
        clones: [],
      },
      commits,
      events: Array.from({ length: int(20) }, (_, k) => ({
        id: `${i}${k}`,
        type: 'WatchEvent',
        actor: `fan-${i}-${k}`,
        createdAt: iso(now - k * 3_600_000),
      })),
    });
  }
  const packages: SimPackage[] = [
    {
      owner: user,
      type: 'npm',
      name: 'demo-lib',
      versions: [{ id: 1, name: '1.0.0', created_at: iso(now - 9 * day) }],
    },
  ];
  return {
    user,
    token: opts.token ?? 'sim-token-demo',
    orgs: ['demo-admin-org', ...Array.from({ length: 7 }, (_, k) => `others-${k}`)],
    repos,
    packages,
    billing: [
      {
        date: iso(now - day).slice(0, 10) + 'T00:00:00Z',
        product: 'actions',
        sku: 'actions_linux',
        quantity: 42,
        unitType: 'minutes',
        pricePerUnit: 0.008,
        grossAmount: 0.336,
        discountAmount: 0.336,
        netAmount: 0,
        repositoryName: `${user}/repo-0`,
      },
    ],
  };
}
