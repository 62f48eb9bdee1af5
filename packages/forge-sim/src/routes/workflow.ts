/**
 * How changes reach a project: its merge request approval settings and rules, and the issue and merge request
 * description templates its repository holds (.gitlab/issue_templates/*.md, .gitlab/merge_request_templates/*.md).
 */
import {
  bool,
  list,
  lookupUser,
  num,
  pageReq,
  project,
  required,
  requireProjectAccess,
  str,
  userById,
} from '../context.js';
import type { Ctx } from '../context.js';
import { genericHandler } from '../generic.js';
import { HttpError, json, paginate } from '../http.js';
import { userBasic } from '../serialize.js';
import type { ApprovalRule, Project } from '../state.js';
import { ACCESS, nextId } from '../state.js';
import type { RouteTable } from './table.js';

/** A new project's approval settings, as the instance starts them. */
const APPROVAL_DEFAULTS: Record<string, boolean> = {
  reset_approvals_on_push: true,
  selective_code_owner_removals: false,
  disable_overriding_approvers_per_merge_request: false,
  merge_requests_author_approval: false,
  merge_requests_disable_committers_approval: false,
  require_password_to_approve: false,
  require_reauthentication_to_approve: false,
};

function approvalsJson(p: Project): Record<string, unknown> {
  return {
    approvers: [],
    approver_groups: [],
    approvals_before_merge: Math.max(0, ...(p.approvalRules ?? []).map((r) => r.approvalsRequired)),
    ...APPROVAL_DEFAULTS,
    ...p.approvalSettings,
  };
}

function ruleJson(ctx: Ctx, p: Project, r: ApprovalRule): Record<string, unknown> {
  const users = r.userIds.map((id) => userBasic(ctx, userById(ctx.state, id))).filter(Boolean);
  return {
    id: r.id,
    name: r.name,
    rule_type: r.ruleType,
    report_type: null,
    eligible_approvers: users,
    approvals_required: r.approvalsRequired,
    users,
    groups: [],
    contains_hidden_groups: false,
    protected_branches: r.protectedBranches.map((name) => ({
      id: [...p.branches.keys()].indexOf(name) + 1,
      name,
    })),
    applies_to_all_protected_branches: false,
  };
}

/** Where the repository keeps the description templates of each kind. */
const TEMPLATE_FOLDERS: Record<string, string> = {
  issues: '.gitlab/issue_templates/',
  merge_requests: '.gitlab/merge_request_templates/',
};

export function registerWorkflow(r: RouteTable): void {
  r.add('GET', '/projects/:id/approvals', (ctx) => json(200, approvalsJson(project(ctx))));
  r.add('POST', '/projects/:id/approvals', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    for (const name of Object.keys(APPROVAL_DEFAULTS)) {
      const v = bool(ctx, name);
      if (v !== undefined) p.approvalSettings = { ...p.approvalSettings, [name]: v };
    }
    return json(201, approvalsJson(p));
  });
  r.add('GET', '/projects/:id/approval_rules', (ctx) => {
    const p = project(ctx);
    return paginate(
      pageReq(ctx),
      (p.approvalRules ?? []).map((x) => ruleJson(ctx, p, x)),
    );
  });
  r.add('POST', '/projects/:id/approval_rules', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const name = required(ctx, 'name');
    const approvalsRequired = num(ctx, 'approvals_required');
    if (approvalsRequired === undefined) throw new HttpError(400, { error: 'approvals_required is missing' });
    const ruleType = str(ctx, 'rule_type') ?? 'regular';
    if (ruleType !== 'regular' && ruleType !== 'any_approver')
      throw new HttpError(400, { error: 'rule_type does not have a valid value' });
    const userIds = [
      ...(list(ctx, 'user_ids') ?? []).map(Number),
      ...(list(ctx, 'usernames') ?? []).map((u) => lookupUser(ctx.state, u)?.id ?? 0),
    ].filter((id) => id > 0 && userById(ctx.state, id));
    const rule: ApprovalRule = {
      id: nextId(ctx.state, 'generic'),
      name,
      ruleType,
      approvalsRequired,
      userIds: [...new Set(userIds)],
      protectedBranches: (list(ctx, 'protected_branch_ids') ?? [])
        .map((id) => [...p.branches.keys()][Number(id) - 1])
        .filter((b): b is string => !!b),
    };
    p.approvalRules = [...(p.approvalRules ?? []), rule];
    return json(201, ruleJson(ctx, p, rule));
  });

  const otherTemplates = genericHandler('GET', '/projects/:id/templates/:type');
  r.add('GET', '/projects/:id/templates/:type', (ctx) => {
    const folder = TEMPLATE_FOLDERS[ctx.params.type];
    if (!folder) return otherTemplates(ctx);
    const p = project(ctx);
    const head = p.commits.get(p.branches.get(p.defaultBranch)?.commit ?? '');
    const keys = [...(head?.tree.keys() ?? [])]
      .filter(
        (path) => path.startsWith(folder) && path.endsWith('.md') && !path.slice(folder.length).includes('/'),
      )
      .map((path) => path.slice(folder.length, -3))
      .sort((x, y) => x.localeCompare(y));
    return paginate(
      pageReq(ctx),
      keys.map((key) => ({ key, name: key })),
    );
  });
}
