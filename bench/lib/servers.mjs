// The servers under test, how each is started (per its README), and the three everyday calls mapped onto
// each server's own tool and argument names (read from its tools/list).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CALLS = [
  { key: 'issues', label: 'list open issues of acme/widgets' },
  { key: 'mr', label: 'get merge request !1' },
  { key: 'file', label: 'read README.md at main' },
];

const version = (pkgJson) => {
  try {
    return JSON.parse(readFileSync(pkgJson, 'utf8')).version;
  } catch {
    return 'not installed';
  }
};

/** @returns the server list; sim is the running forge-sim. */
export function servers(root, sim) {
  const benchModules = join(root, 'bench', 'node_modules');
  const cli = join(root, 'packages', 'forge-mcp-server', 'dist', 'forge-mcp-server.mjs');
  const ourVersion = version(join(root, 'packages', 'forge-mcp-server', 'package.json'));
  const ours = (surface, calls) => ({
    id: `ours-${surface}`,
    name: `forge-mcp-server (${surface})`,
    ours: true,
    surface,
    version: ourVersion,
    started: `packages/forge-mcp-server/dist/forge-mcp-server.mjs run as its bin (its shebang's node flags apply), FORGE_URL=<sim>, FORGE_TOKEN=<api token>, FORGE_MCP_TOOL_SURFACE=${surface}, FORGE_MCP_TIER=ultimate`,
    spec: {
      // Started the way npx starts it: the bin itself, so the node flags on its first line apply.
      command: cli,
      args: [],
      cwd: root,
      env: {
        FORGE_URL: sim.url,
        FORGE_TOKEN: sim.tokens.api,
        FORGE_MCP_TOOL_SURFACE: surface,
        FORGE_MCP_TIER: 'ultimate',
      },
    },
    calls,
  });
  const peerEnv = {
    GITLAB_PERSONAL_ACCESS_TOKEN: sim.tokens.api,
    GITLAB_API_URL: `${sim.url}/api/v4`,
  };
  return [
    ours('dynamic', {
      issues: [
        'forge_execute_action',
        { action: 'issue.list', params: { project_id: '1', state: 'opened' } },
      ],
      mr: [
        'forge_execute_action',
        { action: 'merge_request.get', params: { project_id: '1', merge_request_iid: 1 } },
      ],
      file: [
        'forge_execute_action',
        { action: 'repository.file_get', params: { project_id: '1', file_path: 'README.md', ref: 'main' } },
      ],
    }),
    ours('meta', {
      issues: ['forge_issue', { action: 'list', params: { project_id: '1', state: 'opened' } }],
      mr: ['forge_merge_request', { action: 'get', params: { project_id: '1', merge_request_iid: 1 } }],
      file: [
        'forge_repository',
        { action: 'file_get', params: { project_id: '1', file_path: 'README.md', ref: 'main' } },
      ],
    }),
    ours('individual', {
      issues: ['forge_issue_list', { project_id: '1', state: 'opened' }],
      mr: ['forge_mr_get', { project_id: '1', merge_request_iid: 1 }],
      file: ['forge_file_get', { project_id: '1', file_path: 'README.md', ref: 'main' }],
    }),
    {
      id: 'zereight',
      name: '@zereight/mcp-gitlab',
      ours: false,
      version: version(join(benchModules, '@zereight', 'mcp-gitlab', 'package.json')),
      started:
        'its bin (build/index.js) with GITLAB_PERSONAL_ACCESS_TOKEN, GITLAB_API_URL=<sim>/api/v4, default toolsets; GITLAB_DISABLE_VERSION_CHECK=true (its README: skips the startup call to the npm registry)',
      spec: {
        command: process.execPath,
        args: [join(benchModules, '@zereight', 'mcp-gitlab', 'build', 'index.js')],
        cwd: root,
        env: { ...peerEnv, GITLAB_DISABLE_VERSION_CHECK: 'true' },
      },
      calls: {
        issues: ['list_issues', { project_id: '1', state: 'opened' }],
        mr: ['get_merge_request', { project_id: '1', merge_request_iid: '1' }],
        file: ['get_file_contents', { project_id: '1', file_path: 'README.md', ref: 'main' }],
      },
    },
    {
      id: 'reference',
      name: '@modelcontextprotocol/server-gitlab',
      ours: false,
      version: version(join(benchModules, '@modelcontextprotocol', 'server-gitlab', 'package.json')),
      started: 'its bin (dist/index.js) with GITLAB_PERSONAL_ACCESS_TOKEN, GITLAB_API_URL=<sim>/api/v4',
      spec: {
        command: process.execPath,
        args: [join(benchModules, '@modelcontextprotocol', 'server-gitlab', 'dist', 'index.js')],
        cwd: root,
        env: { ...peerEnv },
      },
      calls: {
        // Its nine tools (README and tools/list) have no issue listing and no merge-request read.
        issues: null,
        mr: null,
        file: ['get_file_contents', { project_id: '1', file_path: 'README.md', ref: 'main' }],
      },
    },
  ];
}
