// How the server is bundled (esbuild options, without the entry and the output), shared by scripts/bundle.mjs
// and by the benchmark, which bundles its SDK floor server the same way.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {import('esbuild').BuildOptions} */
export function bundleOptions() {
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS dependencies inside an ES module still need a require.
    banner: {
      js: "import { createRequire as __forgeRequire } from 'node:module';\nconst require = __forgeRequire(import.meta.url);",
    },
    // The bare 'undici' import resolves to the lean entry (what the server uses of it); deep imports of
    // undici's own files, which that entry makes, resolve as usual.
    plugins: [
      {
        name: 'undici-lean',
        setup(b) {
          b.onResolve({ filter: /^undici$/ }, () => ({ path: join(root, 'scripts/undici-lean.cjs') }));
        },
      },
      {
        // ajv-formats carries its own copy of ajv (the workspace root hoists another major); the server's
        // copy serves both, so one ajv is loaded, not two of the same version.
        name: 'one-ajv',
        setup(b) {
          b.onResolve({ filter: /^ajv(\/|$)/ }, async (args) => {
            if (args.pluginData === 'one-ajv') return undefined;
            return b.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: 'one-ajv' });
          });
        },
      },
    ],
    logLevel: 'warning',
    legalComments: 'none',
    // Whitespace and comments out, names kept: a third less to parse, and no non-ASCII comment that would
    // make V8 hold the whole source as a two-byte string (8 MiB of heap instead of 3).
    minifyWhitespace: true,
    minifySyntax: true,
  };
}
