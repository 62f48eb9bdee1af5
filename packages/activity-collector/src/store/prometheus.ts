import { Counter, Gauge, Registry } from 'prom-client';
import type { SweepSummary } from '../collect.js';
import { MemoryEtagCache, type RateState } from '../http.js';
import type {
  PackageRow,
  RepositoryRow,
  SecurityFeatureRow,
  StarDayRow,
  StatusRow,
  Store,
  TrafficRow,
} from './types.js';

type Series = Map<string, { labels: Record<string, string>; value: number }>;

/**
 * A metric's series, with the keys of each group (the series sharing the values of the labels a write
 * replaces together, such as one repository's security features) indexed, so replacing one group costs its
 * own size and not a walk of every series: 10,000 repositories would make that walk quadratic.
 */
interface Metric {
  data: Series;
  groupBy: string[];
  groups: Map<string, Set<string>>;
}

/**
 * The Prometheus store: current values only, exposed in the text exposition format. It holds no history
 * (vcs_star_day is not exposed); vcs_star is still counted, as vcs_star_count. Series are emitted sorted by
 * labels so the output is stable.
 */
export class PrometheusStore extends MemoryEtagCache implements Store {
  readonly kind = 'prometheus';
  readonly registry = new Registry();
  private readonly series = new Map<string, Metric>();
  private readonly state = new Map<string, string>();
  private readonly requests: Counter<'status'>;
  private readonly collectorErrors: Counter<'collector'>;
  private readonly sweeps: Counter<'status'>;

  constructor() {
    super();
    const gauge = (name: string, help: string, labelNames: string[], groupBy: string[] = []) => {
      const data: Series = new Map();
      this.series.set(name, { data, groupBy, groups: new Map() });
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const key of [...data.keys()].sort()) {
            const s = data.get(key)!;
            this.set(s.labels, s.value);
          }
        },
      });
    };
    gauge('vcs_star_count', 'Current stars of the repository (what vcs_star rows count).', ['repository']);
    gauge('vcs_repository_forks', 'Forks of the repository.', ['repository']);
    gauge('vcs_repository_open_issues', 'Open issues and pull requests of the repository.', ['repository']);
    gauge(
      'vcs_star_list_access',
      '1 when the token can read the stargazer list, so vcs_star rows name stargazers.',
      ['repository'],
    );
    gauge(
      'vcs_security_feature',
      '1 for the current state of a security feature.',
      ['repository', 'feature', 'state'],
      ['repository'],
    );
    gauge(
      'vcs_security_open_alerts',
      'Open alerts of an enabled alerting feature.',
      ['repository', 'feature'],
      ['repository'],
    );
    gauge('vcs_traffic_count', 'Sum over the traffic window last told by the upstream.', [
      'repository',
      'kind',
    ]);
    gauge('vcs_traffic_uniques', 'Sum of daily uniques over the traffic window last told by the upstream.', [
      'repository',
      'kind',
    ]);
    gauge('vcs_package_versions', 'Versions of a package (from its one versions call).', [
      'owner',
      'package_type',
      'package',
    ]);
    gauge(
      'activity_collector_collection_status',
      '1 for the last outcome of a collector on a scope.',
      ['scope', 'collector', 'outcome'],
      ['scope', 'collector'],
    );
    gauge('activity_collector_sweep_repositories', 'Repositories collected by the last sweep.', []);
    gauge('activity_collector_sweep_api_calls', 'Upstream API calls made by the last sweep.', []);
    gauge('activity_collector_sweep_records', 'Records written by the last sweep, per kind.', ['kind']);
    gauge('activity_collector_sweep_complete', '1 when the last sweep completed.', []);
    gauge('activity_collector_sweep_finished_seconds', 'Unix time the last sweep finished.', []);
    gauge('activity_collector_rate_limit_remaining', 'Rate limit left after the last sweep.', ['resource']);
    gauge('activity_collector_rate_limit_limit', 'Rate limit size per window.', ['resource']);
    gauge('activity_collector_sweep_duration_seconds', 'How long the last sweep took.', []);
    gauge(
      'activity_collector_sweep_degraded',
      '1 when the last sweep was rate-limited, stopped early or had errors.',
      [],
    );
    gauge(
      'activity_collector_token_rate_limit_remaining',
      'Core rate limit left per token after the last sweep (labelled by its environment variable).',
      ['token'],
    );
    this.requests = new Counter({
      name: 'activity_collector_api_requests_total',
      help: 'Upstream API requests, by the HTTP status that answered (304 for not modified).',
      labelNames: ['status'],
      registers: [this.registry],
    });
    this.collectorErrors = new Counter({
      name: 'activity_collector_collector_errors_total',
      help: 'Collector errors (unexpected upstream answers), by collector.',
      labelNames: ['collector'],
      registers: [this.registry],
    });
    this.sweeps = new Counter({
      name: 'activity_collector_sweeps_total',
      help: 'Sweeps finished, by status (complete or incomplete).',
      labelNames: ['status'],
      registers: [this.registry],
    });
  }

  private set(name: string, labels: Record<string, string>, value: number) {
    const key = JSON.stringify(Object.entries(labels));
    const m = this.series.get(name)!;
    m.data.set(key, { labels, value });
    if (!m.groupBy.length) return;
    const group = JSON.stringify(m.groupBy.map((l) => labels[l]));
    const keys = m.groups.get(group);
    if (keys) keys.add(key);
    else m.groups.set(group, new Set([key]));
  }

  /** Drops one group of a metric's series: `group` gives a value to each of the metric's groupBy labels. */
  private dropGroup(name: string, group: Record<string, string>) {
    const m = this.series.get(name)!;
    const id = JSON.stringify(m.groupBy.map((l) => group[l]));
    for (const key of m.groups.get(id) ?? []) m.data.delete(key);
    m.groups.delete(id);
  }

  async init() {}
  async close() {}

  /** The exposition text served at /metrics. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
  get contentType(): string {
    return this.registry.contentType;
  }

  async writeRepository(r: RepositoryRow) {
    this.set('vcs_star_count', { repository: r.repository }, r.stargazersCount);
    this.set('vcs_star_list_access', { repository: r.repository }, r.starListAccess ? 1 : 0);
    this.set('vcs_repository_forks', { repository: r.repository }, r.forksCount ?? 0);
    this.set('vcs_repository_open_issues', { repository: r.repository }, r.openIssues ?? 0);
    return 1;
  }
  async writeStars(_repository: string, rows: unknown[]) {
    return rows.length;
  }
  async writeStarDays(_repository: string, rows: StarDayRow[]) {
    return rows.length;
  }
  async writeSecurityFeatures(repository: string, rows: SecurityFeatureRow[]) {
    this.dropGroup('vcs_security_feature', { repository });
    this.dropGroup('vcs_security_open_alerts', { repository });
    for (const r of rows) {
      this.set('vcs_security_feature', { repository, feature: r.feature, state: r.state }, 1);
      if (r.openAlerts !== null)
        this.set('vcs_security_open_alerts', { repository, feature: r.feature }, r.openAlerts);
    }
    return rows.length;
  }
  async writeParticipation(_r: string, rows: unknown[]) {
    return rows.length;
  }
  async writePunchCard(_r: string, rows: unknown[]) {
    return rows.length;
  }
  async writeTraffic(repository: string, rows: TrafficRow[]) {
    for (const kind of new Set(rows.map((r) => r.kind))) {
      const mine = rows.filter((r) => r.kind === kind);
      this.set(
        'vcs_traffic_count',
        { repository, kind },
        mine.reduce((n, r) => n + r.count, 0),
      );
      this.set(
        'vcs_traffic_uniques',
        { repository, kind },
        mine.reduce((n, r) => n + r.uniques, 0),
      );
    }
    return rows.length;
  }
  async writePackages(rows: PackageRow[]) {
    for (const p of rows) {
      this.set(
        'vcs_package_versions',
        { owner: p.owner, package_type: p.packageType, package: p.name },
        p.versions.length,
      );
    }
    return rows.reduce((n, p) => n + 1 + p.versions.length, 0);
  }
  async writeCommits(_r: string, rows: unknown[]) {
    return rows.length;
  }
  async writeEvents(_r: string, rows: unknown[]) {
    return rows.length;
  }
  async writeBillingUsage(_a: string, rows: unknown[]) {
    return rows.length;
  }
  async writeStatus(rows: StatusRow[]) {
    for (const r of rows) {
      this.dropGroup('activity_collector_collection_status', { scope: r.scope, collector: r.collector });
      this.set(
        'activity_collector_collection_status',
        { scope: r.scope, collector: r.collector, outcome: r.outcome },
        1,
      );
    }
  }
  async writeSweep() {}
  async observeSweep(s: SweepSummary, rate: Record<string, RateState>) {
    this.set('activity_collector_sweep_repositories', {}, s.repositories);
    this.set('activity_collector_sweep_api_calls', {}, s.apiCalls);
    this.series.get('activity_collector_sweep_records')!.data.clear();
    for (const [kind, n] of Object.entries(s.records))
      this.set('activity_collector_sweep_records', { kind }, n);
    this.set('activity_collector_sweep_complete', {}, s.status === 'complete' ? 1 : 0);
    this.set('activity_collector_sweep_finished_seconds', {}, Math.floor(Date.parse(s.finishedAt) / 1000));
    this.set('activity_collector_sweep_duration_seconds', {}, s.durationSeconds);
    this.set('activity_collector_sweep_degraded', {}, s.degraded.length ? 1 : 0);
    for (const [status, n] of Object.entries(s.requestsByStatus)) this.requests.inc({ status }, n);
    for (const e of s.errors) this.collectorErrors.inc({ collector: e.collector });
    this.sweeps.inc({ status: s.status });
    for (const [token, t] of Object.entries(s.tokens))
      this.set('activity_collector_token_rate_limit_remaining', { token }, t.remaining);
    for (const [resource, r] of Object.entries(rate)) {
      this.set('activity_collector_rate_limit_remaining', { resource }, r.remaining);
      this.set('activity_collector_rate_limit_limit', { resource }, r.limit);
    }
  }
  async getState(key: string) {
    return this.state.get(key);
  }
  async setState(key: string, value: string) {
    this.state.set(key, value);
  }
  async knownCommits() {
    return new Set<string>();
  }
  async starDays(): Promise<StarDayRow[]> {
    return [];
  }
}
