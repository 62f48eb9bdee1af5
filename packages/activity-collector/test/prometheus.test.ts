import { describe, expect, it } from 'vitest';
import { PrometheusStore } from '../src/index.js';
import { fullRepo, runSweep, star, startSim, USER, world } from './helpers.js';

const EXPECTED = `# HELP vcs_star_count Current stars of the repository (what vcs_star rows count).
# TYPE vcs_star_count gauge
vcs_star_count{repository="octo/own"} 2
vcs_star_count{repository="others/theirs"} 1

# HELP vcs_repository_forks Forks of the repository.
# TYPE vcs_repository_forks gauge
vcs_repository_forks{repository="octo/own"} 3
vcs_repository_forks{repository="others/theirs"} 0

# HELP vcs_repository_open_issues Open issues and pull requests of the repository.
# TYPE vcs_repository_open_issues gauge
vcs_repository_open_issues{repository="octo/own"} 5
vcs_repository_open_issues{repository="others/theirs"} 0

# HELP vcs_star_list_access 1 when the token can read the stargazer list, so vcs_star rows name stargazers.
# TYPE vcs_star_list_access gauge
vcs_star_list_access{repository="octo/own"} 1
vcs_star_list_access{repository="others/theirs"} 0

# HELP vcs_security_feature 1 for the current state of a security feature.
# TYPE vcs_security_feature gauge
vcs_security_feature{repository="octo/own",feature="advanced_security",state="unavailable"} 1
vcs_security_feature{repository="octo/own",feature="code_scanning_alerts",state="unavailable"} 1
vcs_security_feature{repository="octo/own",feature="dependabot_alerts",state="enabled"} 1
vcs_security_feature{repository="octo/own",feature="dependabot_security_updates",state="unavailable"} 1
vcs_security_feature{repository="octo/own",feature="secret_scanning",state="enabled"} 1
vcs_security_feature{repository="octo/own",feature="secret_scanning_alerts",state="enabled"} 1
vcs_security_feature{repository="octo/own",feature="secret_scanning_push_protection",state="disabled"} 1
vcs_security_feature{repository="others/theirs",feature="advanced_security",state="unavailable"} 1
vcs_security_feature{repository="others/theirs",feature="code_scanning_alerts",state="unavailable"} 1
vcs_security_feature{repository="others/theirs",feature="dependabot_alerts",state="unavailable"} 1
vcs_security_feature{repository="others/theirs",feature="dependabot_security_updates",state="unavailable"} 1
vcs_security_feature{repository="others/theirs",feature="secret_scanning",state="unavailable"} 1
vcs_security_feature{repository="others/theirs",feature="secret_scanning_alerts",state="unavailable"} 1
vcs_security_feature{repository="others/theirs",feature="secret_scanning_push_protection",state="unavailable"} 1

# HELP vcs_security_open_alerts Open alerts of an enabled alerting feature.
# TYPE vcs_security_open_alerts gauge
vcs_security_open_alerts{repository="octo/own",feature="dependabot_alerts"} 2
vcs_security_open_alerts{repository="octo/own",feature="secret_scanning_alerts"} 0

# HELP vcs_traffic_count Sum over the traffic window last told by the upstream.
# TYPE vcs_traffic_count gauge
vcs_traffic_count{repository="octo/own",kind="clones"} 1
vcs_traffic_count{repository="octo/own",kind="views"} 8

# HELP vcs_traffic_uniques Sum of daily uniques over the traffic window last told by the upstream.
# TYPE vcs_traffic_uniques gauge
vcs_traffic_uniques{repository="octo/own",kind="clones"} 1
vcs_traffic_uniques{repository="octo/own",kind="views"} 3

# HELP vcs_package_versions Versions of a package (from its one versions call).
# TYPE vcs_package_versions gauge
vcs_package_versions{owner="octo",package_type="npm",package="lib"} 1

# HELP activity_collector_collection_status 1 for the last outcome of a collector on a scope.
# TYPE activity_collector_collection_status gauge
activity_collector_collection_status{scope="octo",collector="billing_usage",outcome="ok"} 1
activity_collector_collection_status{scope="octo",collector="packages_npm",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="code_scanning_alerts",outcome="unavailable"} 1
activity_collector_collection_status{scope="octo/own",collector="commits",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="dependabot_alerts",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="events",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="participation",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="punch_card",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="repository",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="secret_scanning_alerts",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="security_settings",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="traffic_clones",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="traffic_views",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="vcs_star",outcome="ok"} 1
activity_collector_collection_status{scope="octo/own",collector="vcs_star_day",outcome="ok"} 1
activity_collector_collection_status{scope="others",collector="packages_npm",outcome="ok"} 1
activity_collector_collection_status{scope="others/theirs",collector="code_scanning_alerts",outcome="unavailable"} 1
activity_collector_collection_status{scope="others/theirs",collector="commits",outcome="ok"} 1
activity_collector_collection_status{scope="others/theirs",collector="dependabot_alerts",outcome="unavailable"} 1
activity_collector_collection_status{scope="others/theirs",collector="events",outcome="ok"} 1
activity_collector_collection_status{scope="others/theirs",collector="participation",outcome="ok"} 1
activity_collector_collection_status{scope="others/theirs",collector="punch_card",outcome="ok"} 1
activity_collector_collection_status{scope="others/theirs",collector="repository",outcome="ok"} 1
activity_collector_collection_status{scope="others/theirs",collector="secret_scanning_alerts",outcome="unavailable"} 1
activity_collector_collection_status{scope="others/theirs",collector="security_settings",outcome="unavailable"} 1
activity_collector_collection_status{scope="others/theirs",collector="traffic_clones",outcome="unavailable"} 1
activity_collector_collection_status{scope="others/theirs",collector="traffic_views",outcome="unavailable"} 1
activity_collector_collection_status{scope="others/theirs",collector="vcs_star",outcome="unavailable"} 1
activity_collector_collection_status{scope="others/theirs",collector="vcs_star_day",outcome="ok"} 1

# HELP activity_collector_sweep_repositories Repositories collected by the last sweep.
# TYPE activity_collector_sweep_repositories gauge
activity_collector_sweep_repositories 2

# HELP activity_collector_sweep_api_calls Upstream API calls made by the last sweep.
# TYPE activity_collector_sweep_api_calls gauge
activity_collector_sweep_api_calls 29

# HELP activity_collector_sweep_records Records written by the last sweep, per kind.
# TYPE activity_collector_sweep_records gauge
activity_collector_sweep_records{kind="vcs_billing_usage"} 0
activity_collector_sweep_records{kind="vcs_event"} 0
activity_collector_sweep_records{kind="vcs_package"} 2
activity_collector_sweep_records{kind="vcs_participation"} 104
activity_collector_sweep_records{kind="vcs_punch_card"} 4
activity_collector_sweep_records{kind="vcs_repository"} 2
activity_collector_sweep_records{kind="vcs_security_feature"} 14
activity_collector_sweep_records{kind="vcs_star"} 2
activity_collector_sweep_records{kind="vcs_star_day"} 162
activity_collector_sweep_records{kind="vcs_traffic"} 3

# HELP activity_collector_sweep_complete 1 when the last sweep completed.
# TYPE activity_collector_sweep_complete gauge
activity_collector_sweep_complete 1

# HELP activity_collector_sweep_finished_seconds Unix time the last sweep finished.
# TYPE activity_collector_sweep_finished_seconds gauge
activity_collector_sweep_finished_seconds 1795032000

# HELP activity_collector_rate_limit_remaining Rate limit left after the last sweep.
# TYPE activity_collector_rate_limit_remaining gauge
activity_collector_rate_limit_remaining{resource="core"} 4971

# HELP activity_collector_rate_limit_limit Rate limit size per window.
# TYPE activity_collector_rate_limit_limit gauge
activity_collector_rate_limit_limit{resource="core"} 5000

# HELP activity_collector_sweep_duration_seconds How long the last sweep took.
# TYPE activity_collector_sweep_duration_seconds gauge
activity_collector_sweep_duration_seconds 0

# HELP activity_collector_sweep_degraded 1 when the last sweep was rate-limited, stopped early or had errors.
# TYPE activity_collector_sweep_degraded gauge
activity_collector_sweep_degraded 0

# HELP activity_collector_token_rate_limit_remaining Core rate limit left per token after the last sweep (labelled by its environment variable).
# TYPE activity_collector_token_rate_limit_remaining gauge
activity_collector_token_rate_limit_remaining{token="token"} 4971

# HELP activity_collector_api_requests_total Upstream API requests, by the HTTP status that answered (304 for not modified).
# TYPE activity_collector_api_requests_total counter
activity_collector_api_requests_total{status="200"} 20
activity_collector_api_requests_total{status="403"} 3
activity_collector_api_requests_total{status="404"} 4
activity_collector_api_requests_total{status="409"} 2

# HELP activity_collector_collector_errors_total Collector errors (unexpected upstream answers), by collector.
# TYPE activity_collector_collector_errors_total counter

# HELP activity_collector_sweeps_total Sweeps finished, by status (complete or incomplete).
# TYPE activity_collector_sweeps_total counter
activity_collector_sweeps_total{status="complete"} 1
`;

describe('Prometheus store', () => {
  it('exposes current counts only, in the expected exposition text', async () => {
    const sim = await startSim(
      world(
        [
          fullRepo('own', { commits: [], events: [], forksCount: 3, openIssues: 5 }),
          fullRepo('theirs', {
            owner: 'others',
            permission: 'read',
            stars: [star('carol', '2026-10-01T12:00:00Z')],
            commits: [],
            events: [],
          }),
        ],
        {
          packages: [
            {
              owner: USER,
              type: 'npm',
              name: 'lib',
              versions: [{ id: 1, name: '1.0.0', created_at: '2026-10-01T00:00:00Z' }],
            },
          ],
          billing: [],
        },
      ),
    );
    const store = new PrometheusStore();
    await runSweep(sim, store, {
      targets: { repos: [`${USER}/own`, 'others/theirs'] },
      stores: { prometheus: { port: 0 } },
      packages: { types: ['npm'] },
      concurrency: 2,
    });
    const text = await store.metrics();
    expect(text).toBe(EXPECTED);
    // no history in Prometheus: no vcs_star_day series
    expect(text).not.toMatch(/^vcs_star_day/m);
  });

  it("a later sweep replaces a repository's security states and leaves every other repository's", async () => {
    const own = fullRepo('own', { commits: [], events: [] });
    const next = fullRepo('next', { commits: [], events: [] });
    const sim = await startSim(world([own, next]));
    const store = new PrometheusStore();
    const doc = {
      targets: { repos: [`${USER}/own`, `${USER}/next`] },
      stores: { prometheus: { port: 0 } },
      concurrency: 2,
    };
    await runSweep(sim, store, doc);
    const series = (text: string, repo: string) =>
      text
        .split('\n')
        .filter((l) =>
          l.startsWith(`vcs_security_feature{repository="${USER}/${repo}",feature="secret_scanning_push`),
        );
    expect(series(await store.metrics(), 'own')).toEqual([
      `vcs_security_feature{repository="${USER}/own",feature="secret_scanning_push_protection",state="disabled"} 1`,
    ]);
    own.securityAndAnalysis = { ...own.securityAndAnalysis, secret_scanning_push_protection: 'enabled' };
    await runSweep(sim, store, doc);
    const text = await store.metrics();
    expect(series(text, 'own')).toEqual([
      `vcs_security_feature{repository="${USER}/own",feature="secret_scanning_push_protection",state="enabled"} 1`,
    ]);
    expect(series(text, 'next')).toEqual([
      `vcs_security_feature{repository="${USER}/next",feature="secret_scanning_push_protection",state="disabled"} 1`,
    ]);
    // One outcome per collector and scope: the second sweep's replaces the first's.
    const statuses = text.split('\n').filter((l) => l.startsWith('activity_collector_collection_status{'));
    const scopes = statuses.map((l) => l.replace(/,outcome="[^"]*"/, ''));
    expect(new Set(scopes).size).toBe(statuses.length);
  });
});
