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
await build({
  entryPoints: [join(root, 'dist/cli.js')],
  outfile: bundle,
  ...bundleOptions(),
  // forge-sim is only the demo's; the server never loads it.
  external: ['forge-sim'],
});
writeLauncher(bundle, join(root, 'dist/forge-mcp-server.cjs'));
