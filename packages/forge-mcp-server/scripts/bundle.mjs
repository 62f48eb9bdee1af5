#!/usr/bin/env node
// Bundles the built server (dist/cli.js and everything it imports) into one CommonJS file,
// dist/forge-mcp-server.bundle.cjs: one file to read and compile instead of a few hundred. Then writes the
// bin, dist/forge-mcp-server.cjs, the launcher that compiles the bundle with a code cache
// (scripts/launcher.cjs). Runs after `tsc -b`.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';
import { SHEBANG, bundleOptions, writeLauncher } from './bundle-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist/forge-mcp-server.bundle.cjs');
/** The telemetry room is a bundle of its own, read only when telemetry is on (the OpenTelemetry SDK with it). */
const TELEMETRY_BUNDLE = './forge-mcp-telemetry.bundle.cjs';
/** So is the Redis state adapter, read only with FORGE_MCP_REDIS_URL (ioredis with it). */
const REDIS_BUNDLE = './forge-mcp-redis.bundle.cjs';
/**
 * And each of the catalog's domain files, dist/domains/<domain>.cjs, read when one of its actions' full specs is
 * first needed (src/catalog/lazy.ts): a start reads the catalog's index alone, a call the file of its domain.
 */
const DOMAINS = 'dist/catalog/domains';
/** forge_find_action's search corpus (src/catalog/find-corpus.generated.ts), read with the first search. */
const FIND_CORPUS = './find-corpus.cjs';
/** And its ranking with its vocabulary and phrasings (src/surfaces/find*.ts), read with the first search too. */
const FINDER_BUNDLE = './forge-mcp-find.bundle.cjs';
const domainNames = readdirSync(join(root, DOMAINS))
  .filter((f) => f.endsWith('.js') && f !== 'index.js')
  .map((f) => f.slice(0, -3));
const options = bundleOptions();

/**
 * import(`specifier`) becomes a require of `bundle` when first called (the launcher runs the main bundle as a
 * vm.Script, where a dynamic import() has no loader).
 */
function apart(name, specifier, bundle) {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return {
    name: `${name}-apart`,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${escape(specifier)}$`) }, () => ({
        path: name,
        namespace: 'apart',
      }));
      b.onLoad({ filter: new RegExp(`^${name}$`), namespace: 'apart' }, () => ({
        contents: `module.exports = require(${JSON.stringify(bundle)});`,
        loader: 'js',
      }));
      b.onResolve({ filter: new RegExp(`^${escape(bundle)}$`) }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}
await build({
  entryPoints: [join(root, 'dist/cli.js')],
  outfile: bundle,
  ...options,
  plugins: [
    ...options.plugins,
    apart('telemetry', './telemetry/index.js', TELEMETRY_BUNDLE),
    apart('redis', './redis/index.js', REDIS_BUNDLE),
    ...domainNames.map((d) => apart(`domain-${d}`, `./domains/${d}.js`, `./domains/${d}.cjs`)),
    apart('find-corpus', './find-corpus.generated.js', FIND_CORPUS),
    apart('finder', './find.js', FINDER_BUNDLE),
  ],
  // forge-sim is only the demo's; the server never loads it.
  external: ['forge-sim'],
});
await build({
  entryPoints: [join(root, 'dist/telemetry/index.js')],
  outfile: join(root, 'dist', TELEMETRY_BUNDLE),
  ...options,
});
await build({
  entryPoints: [join(root, 'dist/state/redis/index.js')],
  outfile: join(root, 'dist', REDIS_BUNDLE),
  ...options,
});
await build({
  entryPoints: domainNames.map((d) => join(root, DOMAINS, `${d}.js`)),
  outdir: join(root, 'dist/domains'),
  outExtension: { '.js': '.cjs' },
  ...options,
});
await build({
  entryPoints: [join(root, 'dist/catalog/find-corpus.generated.js')],
  outfile: join(root, 'dist', FIND_CORPUS),
  ...options,
});
await build({
  entryPoints: [join(root, 'dist/surfaces/find.js')],
  outfile: join(root, 'dist', FINDER_BUNDLE),
  ...options,
});
writeLauncher(bundle, join(root, 'dist/forge-mcp-server.cjs'));
// The installed command (bin/, committed) starts node itself, so its shebang must carry the same flags as the
// launcher's: a build with a stale one fails here rather than shipping a bin that runs without them.
const installed = join(root, 'bin/forge-mcp-server.cjs');
if (readFileSync(installed, 'utf8').split('\n')[0] !== SHEBANG)
  throw new Error(`${installed}: its first line must be ${SHEBANG}`);
