import type { SweepSummary } from '../collect.js';
import type { EtagCache, RateState } from '../http.js';

export interface RepositoryRow {
  repository: string;
  owner: string;
  name: string;
  ownerType: string;
  stargazersCount: number;
  /** Exposed by the Prometheus store; not kept in vcs_repository. */
  forksCount?: number;
  openIssues?: number;
  starListAccess: boolean;
  private: boolean;
}
export interface StarRow {
  login: string;
  starredAt: string;
}
export interface StarDayRow {
  day: string;
  stars: number;
}
export type FeatureState = 'enabled' | 'disabled' | 'unavailable';
export interface SecurityFeatureRow {
  feature: string;
  state: FeatureState;
  openAlerts: number | null;
}
export interface ParticipationRow {
  weeksAgo: number;
  allCommits: number;
  ownerCommits: number;
}
export interface PunchCardRow {
  weekday: number;
  hour: number;
  commits: number;
}
export interface TrafficRow {
  kind: 'views' | 'clones';
  timestamp: string;
  count: number;
  uniques: number;
}
export interface PackageRow {
  owner: string;
  packageType: string;
  name: string;
  repository: string | null;
  visibility: string | null;
  versions: { versionId: number; version: string; createdAt: string | null }[];
}
export interface CommitRow {
  sha: string;
  author: string | null;
  committedAt: string;
  additions: number;
  deletions: number;
}
export interface EventRow {
  id: string;
  type: string;
  actor: string | null;
  createdAt: string;
}
export interface BillingUsageRow {
  date: string;
  product: string;
  sku: string;
  quantity: number;
  unitType: string | null;
  grossAmount: number | null;
  netAmount: number | null;
  repository: string;
}
export type Outcome = 'ok' | 'unavailable' | 'not_ready' | 'end_of_data' | 'gone' | 'skipped' | 'error';
export interface StatusRow {
  scope: string;
  collector: string;
  outcome: Outcome;
  httpStatus: number | null;
  detail: string | null;
}

export interface SweepRow {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'complete' | 'incomplete';
  repositories: number;
  apiCalls: number;
}

/**
 * A store of records. Every write method is atomic: a sweep interrupted between (or during) calls leaves each
 * table either with the old rows or the new ones for that repository, never a mix. Writes are idempotent upserts.
 * Each returns the number of rows written.
 */
export interface Store extends EtagCache {
  readonly kind: string;
  init(): Promise<void>;
  close(): Promise<void>;
  writeRepository(row: RepositoryRow, at: string): Promise<number>;
  /** Replaces the repository's star rows with the given list (current stargazers). */
  writeStars(repository: string, rows: StarRow[]): Promise<number>;
  writeStarDays(repository: string, rows: StarDayRow[]): Promise<number>;
  /** Replaces the repository's feature states. */
  writeSecurityFeatures(repository: string, rows: SecurityFeatureRow[]): Promise<number>;
  writeParticipation(repository: string, rows: ParticipationRow[]): Promise<number>;
  writePunchCard(repository: string, rows: PunchCardRow[]): Promise<number>;
  writeTraffic(repository: string, rows: TrafficRow[]): Promise<number>;
  writePackages(rows: PackageRow[]): Promise<number>;
  writeCommits(repository: string, rows: CommitRow[]): Promise<number>;
  writeEvents(repository: string, rows: EventRow[]): Promise<number>;
  writeBillingUsage(account: string, rows: BillingUsageRow[]): Promise<number>;
  writeStatus(rows: StatusRow[], at: string): Promise<void>;
  writeSweep(row: SweepRow): Promise<void>;
  getState(key: string): Promise<string | undefined>;
  setState(key: string, value: string): Promise<void>;
  /** Shas already stored for a repository. */
  knownCommits(repository: string): Promise<Set<string>>;
  /** Told the outcome of a finished sweep (Prometheus exposes it; SQL stores keep vcs_sweep instead). */
  observeSweep?(summary: SweepSummary, rate: Record<string, RateState>): Promise<void>;
  /** Star history per day, oldest first. */
  starDays(repository: string): Promise<StarDayRow[]>;
  /** The last recorded outcome of one collector for a scope (a repository), if any (SQL stores). */
  collectionStatus?(
    scope: string,
    collector: string,
  ): Promise<{ outcome: string; httpStatus: number | null; detail: string | null } | undefined>;
}
