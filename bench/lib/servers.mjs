// The servers under test, how each is started (per its README), and the three everyday calls mapped onto
// each server's own tool and argument names (read from its tools/list); last, the SDK floor, a reference row.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** Version of the package `name` as `require` resolves it from the file `from`. */
function resolvedVersion(from, name) {
  try {
    let dir = dirname(createRequire(from).resolve(name));
    for (;;) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        if (pkg.name === name) return pkg.version;
      } catch {
        /* not this folder */
      }
      if (dirname(dir) === dir) return 'not installed';
      dir = dirname(dir);
    }
  } catch {
    return 'not installed';
  }
}

/** The node flags on the first line of our bin (`#!/usr/bin/env -S node <flags>`), so the floor runs with them too. */
export function binNodeFlags(cli) {
  try {
    const first = readFileSync(cli, 'utf8').slice(0, 300).split('\n')[0];
    // The flags after node, up to the `--` that ends them (the bin's own arguments follow it), when there is one.
    const m = /\bnode((?:\s+--\S+)*?)(?:\s+--)?\s*$/.exec(first);
    return m ? m[1].trim().split(/\s+/).filter(Boolean) : [];
  } catch {
    return [];
  }
}

/**
 * @returns the server list; sim is the running forge-sim; floorAnswers is the JSON file of our individual
 * surface's answers to the mapped calls that the reference rows replay (written by bench/run.mjs);
 * floorBundle and floorUndiciBundle are their launchers from bundleFloor() ('' to run them unbundled).
 */
export function servers(
  root,
  sim,
  { floorAnswers = '', floorBundle = '', floorUndiciBundle = '', compileCache = '', nodeLines = {} } = {},
) {
  // Our bin's and the floor's launcher keep their compile cache in this folder (fresh for each run, so the
  // first of the cold starts compiles and writes it, as a user's first start after an install does); each
  // other Node line gets a folder of its own, so no line's caches push another's out.
  const cacheEnv = compileCache ? { NODE_COMPILE_CACHE: compileCache } : {};
  const cacheEnvFor = (line) => (compileCache ? { NODE_COMPILE_CACHE: `${compileCache}-node${line}` } : {});
  const machineLine = process.versions.node.split('.')[0];
  const benchModules = join(root, 'bench', 'node_modules');
  const cli = join(root, 'packages', 'forge-mcp-server', 'dist', 'forge-mcp-server.cjs');
  const ourVersion = version(join(root, 'packages', 'forge-mcp-server', 'package.json'));
  const floorFlags = binNodeFlags(cli);
  /** `node`: another Node line's binary; our bin then runs under it with the flags on its first line. */
  const ours = (surface, calls, node) => {
    const line = node ? node.line : machineLine;
    return {
      id: `ours-${surface}${node ? `@${line}` : ''}`,
      name: `forge-mcp-server (${surface}${node ? `, Node ${line}` : ''})`,
      ours: true,
      surface,
      line,
      version: ourVersion,
      started: node
        ? `Node ${node.version}: ${node.bin} ${floorFlags.join(' ')} packages/forge-mcp-server/dist/forge-mcp-server.cjs (the bin's node flags, under this Node), same environment`
        : `packages/forge-mcp-server/dist/forge-mcp-server.cjs run as its bin (its shebang's node flags apply), FORGE_URL=<sim>, FORGE_TOKEN=<api token>, FORGE_MCP_TOOL_SURFACE=${surface}, FORGE_MCP_TIER=ultimate`,
      spec: {
        // Started the way npx starts it: the bin itself, so the node flags on its first line apply.
        command: node ? node.bin : cli,
        args: node ? [...floorFlags, cli] : [],
        cwd: root,
        env: {
          FORGE_URL: sim.url,
          FORGE_TOKEN: sim.tokens.api,
          FORGE_MCP_TOOL_SURFACE: surface,
          FORGE_MCP_TIER: 'ultimate',
          ...(node ? cacheEnvFor(line) : cacheEnv),
        },
      },
      calls,
    };
  };
  const sdkFloor = join(root, 'bench', 'lib', 'sdk-floor-server.mjs');
  const sdkVersion = resolvedVersion(sdkFloor, '@modelcontextprotocol/server');
  const ourSdkVersion = resolvedVersion(
    join(root, 'packages', 'forge-mcp-server', 'package.json'),
    '@modelcontextprotocol/server',
  );
  const peerEnv = {
    GITLAB_PERSONAL_ACCESS_TOKEN: sim.tokens.api,
    GITLAB_API_URL: `${sim.url}/api/v4`,
  };
  const dynamicCalls = {
    issues: ['forge_execute_action', { action: 'issue.list', params: { project_id: '1', state: 'opened' } }],
    mr: [
      'forge_execute_action',
      { action: 'merge_request.get', params: { project_id: '1', merge_request_iid: 1 } },
    ],
    file: [
      'forge_execute_action',
      { action: 'repository.file_get', params: { project_id: '1', file_path: 'README.md', ref: 'main' } },
    ],
  };
  const individualCalls = {
    issues: ['forge_issue_list', { project_id: '1', state: 'opened' }],
    mr: ['forge_mr_get', { project_id: '1', merge_request_iid: 1 }],
    file: ['forge_file_get', { project_id: '1', file_path: 'README.md', ref: 'main' }],
  };
  const floorCalls = {
    issues: ['floor_answer', { call: 'issues' }],
    mr: ['floor_answer', { call: 'mr' }],
    file: ['floor_answer', { call: 'file' }],
  };
  const undiciVersion = resolvedVersion(join(root, 'packages', 'forge-mcp-server', 'package.json'), 'undici');
  /** The two reference rows: what each adds to the SDK's no-op server, and its entry file and bundle. */
  const KINDS = {
    floor: {
      name: 'SDK v2 floor (no-op server',
      entry: sdkFloor,
      bundle: floorBundle,
      does: 'no upstream request',
      version: '',
      env: {},
    },
    'floor-undici': {
      name: 'SDK floor + one undici request (reference',
      entry: join(root, 'bench', 'lib', 'sdk-floor-undici-server.mjs'),
      bundle: floorUndiciBundle,
      does: "before each answer, the upstream GET our server makes for that call (our token header, accept: application/json) through undici from forge-mcp-server's package, a Pool for the instance's origin dispatched to with a handler that gathers the body, and JSON.parse of the body",
      version: `, undici ${undiciVersion}`,
      env: { FORGE_URL: sim.url, FORGE_TOKEN: sim.tokens.api },
    },
  };
  /** A reference row under the machine's Node, or under another line's binary. */
  const floor = (kind, node) => {
    const k = KINDS[kind];
    return {
      id: `${kind}${node ? `@${node.line}` : ''}`,
      name: `${k.name}${node ? `, Node ${node.line}` : ''})`,
      ours: false,
      // Not a peer: a reference row with no ratios, in no target. `floor` is the SDK floor the targets are
      // ratios to; `reference` is what the floor plus the HTTP client costs, read beside ours and the floor.
      floor: kind === 'floor',
      reference: kind !== 'floor',
      line: node ? node.line : machineLine,
      bundled: !!k.bundle,
      version: `@modelcontextprotocol/server ${sdkVersion}${sdkVersion === ourSdkVersion ? '' : ` (our server resolves ${ourSdkVersion})`}${k.version}`,
      started:
        `${node ? `Node ${node.version}: ` : ''}bench/lib/${basename(k.entry)}${k.bundle ? ', packaged at the start of the run as our bin is (bundled by esbuild with our options, started through our launcher with its compile cache)' : ''}, run with node ${floorFlags.join(' ')} (our bin's node flags): \`Server\` + \`serveStdio\` of @modelcontextprotocol/server, one tool, ` +
        `each call answered with a canned copy of forge-mcp-server (individual)'s answer to it (captured at the start of the run); ${k.does}`,
      spec: {
        command: node ? node.bin : k.bundle || process.execPath,
        args: node ? [...floorFlags, k.bundle || k.entry] : k.bundle ? [] : [...floorFlags, k.entry],
        cwd: root,
        env: {
          FLOOR_ANSWERS: floorAnswers,
          ...k.env,
          ...(node ? cacheEnvFor(node.line) : cacheEnv),
        },
      },
      calls: floorCalls,
      // The server whose answers the floor replays, and its id.
      answersFrom: 'ours-individual',
    };
  };
  // Bundled only: the bundle takes undici from forge-mcp-server's package (our bundle options' lean entry), where
  // the entry file run as it is would find bench/'s own older undici first.
  const undiciRef = (node) => (floorUndiciBundle ? [floor('floor-undici', node)] : []);
  const lines = Object.entries(nodeLines).map(([line, n]) => ({ line, ...n }));
  return [
    ours('dynamic', dynamicCalls),
    ours('meta', {
      issues: ['forge_issue', { action: 'list', params: { project_id: '1', state: 'opened' } }],
      mr: ['forge_merge_request', { action: 'get', params: { project_id: '1', merge_request_iid: 1 } }],
      file: [
        'forge_repository',
        { action: 'file_get', params: { project_id: '1', file_path: 'README.md', ref: 'main' } },
      ],
    }),
    ours('individual', individualCalls),
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
    floor('floor'),
    ...undiciRef(),
    // The other Node lines: our dynamic and individual surfaces and the reference rows under each (the peers run
    // under the machine's Node only).
    ...lines.flatMap((n) => [
      ours('dynamic', dynamicCalls, n),
      ours('individual', individualCalls, n),
      floor('floor', n),
      ...undiciRef(n),
    ]),
  ];
}

/**
 * Packages a reference row's server (bench/lib/<entry>.mjs: the floor, or the floor with one undici request) as
 * our bin is packaged, with forge-mcp-server's scripts/bundle-options.mjs: one bundle with our esbuild options
 * (so undici is the copy and the lean entry our bundle has), and our launcher (compile cache, node flags) in
 * front of it. So the row shows what it costs packaged as our server is. Resolves with the launcher's path (in
 * `dir`), or '' when esbuild is not installed (the row then runs unbundled, and says so).
 */
export async function bundleFloor(dir, entry = 'sdk-floor-server') {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const server = join(root, 'packages', 'forge-mcp-server');
  let esbuild;
  try {
    esbuild = createRequire(join(server, 'package.json'))('esbuild');
  } catch {
    return '';
  }
  const { bundleOptions, writeLauncher } = await import(
    pathToFileURL(join(server, 'scripts', 'bundle-options.mjs')).href
  );
  const bundle = join(dir, `${entry}.bundle.cjs`);
  await esbuild.build({
    ...bundleOptions(),
    entryPoints: [join(root, 'bench', 'lib', `${entry}.mjs`)],
    outfile: bundle,
    // Resolve the SDK and undici from our server's package, as our bin does.
    nodePaths: [join(server, 'node_modules'), join(root, 'node_modules')],
  });
  const launcher = join(dir, `${entry}.cjs`);
  writeLauncher(bundle, launcher);
  return launcher;
}
