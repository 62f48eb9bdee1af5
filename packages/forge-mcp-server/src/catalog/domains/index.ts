// The catalog's domains, one file each. Keep this list sorted.
import { domain as d_access } from './access.js';
import { domain as d_achievement } from './achievement.js';
import { domain as d_admin } from './admin.js';
import { domain as d_attestation } from './attestation.js';
import { domain as d_audit_event } from './audit_event.js';
import { domain as d_branch } from './branch.js';
import { domain as d_ci_catalog } from './ci_catalog.js';
import { domain as d_ci_variable } from './ci_variable.js';
import { domain as d_compliance_policy } from './compliance_policy.js';
import { domain as d_custom_emoji } from './custom_emoji.js';
import { domain as d_dependency } from './dependency.js';
import { domain as d_discover_project } from './discover_project.js';
import { domain as d_dora_metrics } from './dora_metrics.js';
import { domain as d_enterprise_user } from './enterprise_user.js';
import { domain as d_environment } from './environment.js';
import { domain as d_external_status_check } from './external_status_check.js';
import { domain as d_feature_flags } from './feature_flags.js';
import { domain as d_geo } from './geo.js';
import { domain as d_group } from './group.js';
import { domain as d_group_scim } from './group_scim.js';
import { domain as d_interactive } from './interactive.js';
import { domain as d_issue } from './issue.js';
import { domain as d_job } from './job.js';
import { domain as d_member_role } from './member_role.js';
import { domain as d_merge_request } from './merge_request.js';
import { domain as d_merge_train } from './merge_train.js';
import { domain as d_model_registry } from './model_registry.js';
import { domain as d_mr_review } from './mr_review.js';
import { domain as d_orbit } from './orbit.js';
import { domain as d_package } from './package.js';
import { domain as d_pipeline } from './pipeline.js';
import { domain as d_project } from './project.js';
import { domain as d_project_alias } from './project_alias.js';
import { domain as d_release } from './release.js';
import { domain as d_repository } from './repository.js';
import { domain as d_runner } from './runner.js';
import { domain as d_search } from './search.js';
import { domain as d_security_attribute } from './security_attribute.js';
import { domain as d_security_category } from './security_category.js';
import { domain as d_security_finding } from './security_finding.js';
import { domain as d_security_scan_profile } from './security_scan_profile.js';
import { domain as d_server } from './server.js';
import { domain as d_snippet } from './snippet.js';
import { domain as d_storage_move } from './storage_move.js';
import { domain as d_tag } from './tag.js';
import { domain as d_template } from './template.js';
import { domain as d_user } from './user.js';
import { domain as d_vulnerability } from './vulnerability.js';
import { domain as d_wiki } from './wiki.js';

import type { DomainSpec } from '../types.js';

export const domains: DomainSpec[] = [
  d_access,
  d_achievement,
  d_admin,
  d_attestation,
  d_audit_event,
  d_branch,
  d_ci_catalog,
  d_ci_variable,
  d_compliance_policy,
  d_custom_emoji,
  d_dependency,
  d_discover_project,
  d_dora_metrics,
  d_enterprise_user,
  d_environment,
  d_external_status_check,
  d_feature_flags,
  d_geo,
  d_group,
  d_group_scim,
  d_interactive,
  d_issue,
  d_job,
  d_member_role,
  d_merge_request,
  d_merge_train,
  d_model_registry,
  d_mr_review,
  d_orbit,
  d_package,
  d_pipeline,
  d_project,
  d_project_alias,
  d_release,
  d_repository,
  d_runner,
  d_search,
  d_security_attribute,
  d_security_category,
  d_security_finding,
  d_security_scan_profile,
  d_server,
  d_snippet,
  d_storage_move,
  d_tag,
  d_template,
  d_user,
  d_vulnerability,
  d_wiki,
];
