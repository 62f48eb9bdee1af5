/**
 * The project audits: its settings, its branch protection and who has access. Each is a prompt of its own, and
 * audit_project_full runs them together with the workflow audit (people.ts).
 */
import { roleTitle } from '../executor/roles.js';
import { failed, list, project, type PromptSpec, type Rec, str, table } from './render.js';

export const auditProjectSettings: PromptSpec = {
  name: 'audit_project_settings',
  title: 'Audit project settings',
  description: 'Checks a project’s merge, visibility and pipeline settings against common good practice.',
  args: [project],
  reads: ['project.get'],
  render: async (a, fetch) => {
    const p = await fetch('project.get', { project_id: a.project_id });
    const r = (typeof p === 'object' ? p : {}) as Rec;
    const checks: [string, unknown, boolean][] = [
      ['Visibility', r.visibility, r.visibility !== 'public'],
      [
        'Pipelines must succeed to merge',
        r.only_allow_merge_if_pipeline_succeeds,
        r.only_allow_merge_if_pipeline_succeeds === true,
      ],
      [
        'Threads must be resolved to merge',
        r.only_allow_merge_if_all_discussions_are_resolved,
        r.only_allow_merge_if_all_discussions_are_resolved === true,
      ],
      [
        'Source branch removed after merge',
        r.remove_source_branch_after_merge,
        r.remove_source_branch_after_merge === true,
      ],
      ['Merge method', r.merge_method, true],
      ['Default branch', r.default_branch, !!r.default_branch],
    ];
    return [
      `# Settings audit of ${str(r.path_with_namespace ?? a.project_id)}`,
      failed(p),
      table(
        ['Setting', 'Value', 'Verdict'],
        checks.map(([k, v, ok]) => [k, v, ok ? 'ok' : 'review']),
      ),
    ].join('\n');
  },
};

export const auditBranchProtection: PromptSpec = {
  name: 'audit_branch_protection',
  title: 'Audit branch protection',
  description:
    'Who may push and merge to each protected branch, and whether the default branch is protected.',
  args: [project],
  reads: ['project.get', 'branch.list_protected'],
  render: async (a, fetch) => {
    const [p, prot] = await Promise.all([
      fetch('project.get', { project_id: a.project_id }),
      fetch('branch.list_protected', { project_id: a.project_id, per_page: 100 }),
    ]);
    const def = (p as Rec)?.default_branch;
    const rows = list(prot);
    const levels = (v: unknown) =>
      list(v)
        .map((l) => l.access_level_description ?? l.access_level)
        .join(', ');
    return [
      `# Branch protection of ${a.project_id}`,
      failed(p) + failed(prot),
      `Default branch ${str(def)}: ${rows.some((b) => b.name === def) ? 'protected' : '**not protected**'}`,
      '',
      table(
        ['Branch', 'Push', 'Merge', 'Force push'],
        rows.map((b) => [
          b.name,
          levels(b.push_access_levels),
          levels(b.merge_access_levels),
          b.allow_force_push,
        ]),
      ),
    ].join('\n');
  },
};

export const auditProjectAccess: PromptSpec = {
  name: 'audit_project_access',
  title: 'Audit project access',
  description: 'Members by access level, with owners and maintainers first.',
  args: [project],
  reads: ['project.members'],
  render: async (a, fetch) => {
    const members = await fetch('project.members', { project_id: a.project_id, per_page: 100 });
    const rows = list(members).sort((x, y) => Number(y.access_level) - Number(x.access_level));
    return [
      `# Access to ${a.project_id}`,
      failed(members),
      table(
        ['Member', 'Access', 'Expires', 'State'],
        rows.map((m) => [
          `@${m.username}`,
          roleTitle(Number(m.access_level)) ?? m.access_level,
          m.expires_at,
          m.state,
        ]),
      ),
      '',
      'Flag members with more access than their role needs and memberships without an expiry.',
    ].join('\n');
  },
};
