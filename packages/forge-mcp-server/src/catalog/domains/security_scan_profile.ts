import type { ActionSpec, DomainSpec, ParamSpec } from '../types.js';
import { globalIdParam } from '../patterns.js';

const profileId: ParamSpec = {
  ...globalIdParam('scanProfile'),
  description:
    'Global ID of the scan profile: a saved one like "gid://gitlab/Security::ScanProfile/4" or a built-in default named by scan type, e.g. "gid://gitlab/Security::ScanProfile/secret_detection".',
};
const projectIds: ParamSpec = {
  type: 'array',
  items: globalIdParam('project'),
  gid: 'Project',
  description: 'Projects, as global IDs, e.g. ["gid://gitlab/Project/1"] or just ["1"].',
};
const groupIds: ParamSpec = {
  type: 'array',
  items: globalIdParam('group'),
  gid: 'Group',
  description:
    'Groups whose projects all take the change, as global IDs, e.g. ["gid://gitlab/Group/10"] or just ["10"].',
};

function attachDetach(verb: 'attach' | 'detach'): ActionSpec {
  const mutation = verb === 'attach' ? 'securityScanProfileAttach' : 'securityScanProfileDetach';
  return {
    id: `security_scan_profile.${verb}`,
    title: verb === 'attach' ? 'Apply scan profile' : 'Remove scan profile',
    description:
      verb === 'attach'
        ? 'Apply a security configuration (scan) profile to projects and/or every project of groups, turning that scanner on with the profile settings. All targets must share one top-level group; at most 100 IDs per call.'
        : 'Take a security configuration (scan) profile off projects and/or every project of groups, turning that scanner configuration off. At most 100 IDs per call.',
    tool: `forge_security_scan_profile_${verb}`,
    write: true,
    destructive: false,
    idempotent: true,
    tier: 'ultimate',
    scope: 'api',
    params: { security_scan_profile_id: profileId, project_ids: projectIds, group_ids: groupIds },
    required: ['security_scan_profile_id'],
    oneOf: [['project_ids', 'group_ids']],
    request: {
      graphql: {
        document: `mutation ${mutation}($profileId: SecurityScanProfileID!, $projectIds: [ProjectID!], $groupIds: [GroupID!]) {
  ${mutation}(input: { securityScanProfileId: $profileId, projectIds: $projectIds, groupIds: $groupIds }) {
    errors
  }
}`,
        variables: {
          profileId: 'security_scan_profile_id',
          projectIds: 'project_ids',
          groupIds: 'group_ids',
        },
        mutation,
      },
    },
    example: {
      security_scan_profile_id: 'gid://gitlab/Security::ScanProfile/secret_detection',
      project_ids: ['gid://gitlab/Project/1'],
    },
  };
}

export const domain: DomainSpec = {
  domain: 'security_scan_profile',
  metaTool: 'forge_security_scan_profile',
  summary:
    'Security configuration (scan) profiles: apply or remove a scanner profile on projects or whole groups, and see which profiles a project has and their status.',
  actions: [
    attachDetach('attach'),
    attachDetach('detach'),
    {
      id: 'security_scan_profile.list_project_statuses',
      title: 'List scan profiles of a project',
      description:
        'List the security scan profiles applied to a project, each with its scan type and status.',
      tool: 'forge_security_scan_profile_list_project_statuses',
      write: false,
      destructive: false,
      idempotent: true,
      tier: 'ultimate',
      scope: 'read_api',
      params: {
        full_path: { type: 'string', description: 'Full path of the project, e.g. "acme/widgets".' },
      },
      required: ['full_path'],
      request: {
        graphql: {
          document: `query project($fullPath: ID!) {
  project(fullPath: $fullPath) {
    scanProfileStatuses {
      status
      scanProfile { id name scanType }
    }
  }
}`,
          variables: { fullPath: 'full_path' },
          resultPath: 'project.scanProfileStatuses',
        },
      },
      example: { full_path: 'acme/widgets' },
    },
  ],
};
