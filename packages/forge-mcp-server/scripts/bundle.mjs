#!/usr/bin/env node
// Bundles the built server (dist/cli.js and everything it imports) into one CommonJS file,
// dist/forge-mcp-server.bundle.cjs: one file to read and compile instead of a few hundred. Then writes the
// bin, dist/forge-mcp-server.cjs, the launcher that compiles the bundle with a code cache
// (scripts/launcher.cjs). Runs after `tsc -b`.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOptions, writeLauncher } from './bundle-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist/forge-mcp-server.bundle.cjs');
/** The telemetry room is a bundle of its own, read only when telemetry is on (the OpenTelemetry SDK with it). */
const TELEMETRY_BUNDLE = './forge-mcp-telemetry.bundle.cjs';
const options = bundleOptions();
await build({
  entryPoints: [join(root, 'dist/cli.js')],
  outfile: bundle,
  ...options,
  plugins: [
    ...options.plugins,
    {
      // import('./telemetry/index.js') becomes a require of the telemetry bundle when first called (the
      // launcher runs this bundle as a vm.Script, where a dynamic import() has no loader).
      name: 'telemetry-apart',
      setup(b) {
        b.onResolve({ filter: /^\.\/telemetry\/index\.js$/ }, () => ({
          path: 'telemetry',
          namespace: 'apart',
        }));
        b.onLoad({ filter: /.*/, namespace: 'apart' }, () => ({
          contents: `module.exports = require(${JSON.stringify(TELEMETRY_BUNDLE)});`,
          loader: 'js',
        }));
        b.onResolve({ filter: /^\.\/forge-mcp-telemetry\.bundle\.cjs$/ }, (args) => ({
          path: args.path,
          external: true,
        }));
      },
    },
  ],
  // forge-sim is only the demo's; the server never loads it.
  external: ['forge-sim'],
});
await build({
  entryPoints: [join(root, 'dist/telemetry/index.js')],
  outfile: join(root, 'dist', TELEMETRY_BUNDLE),
  ...options,
});
writeLauncher(bundle, join(root, 'dist/forge-mcp-server.cjs'));
