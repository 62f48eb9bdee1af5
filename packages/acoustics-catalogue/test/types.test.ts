import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('the library from TypeScript', () => {
  it('a read with rowType gives a document of that class (CatalogueDocumentOf), without it the union', () => {
    expect(existsSync(here('../dist/index.d.ts')), 'build the package first (npm run build)').toBe(true);
    const r = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        // The package's own declarations are what the fixture uses; checking every library's is only slower.
        '--skipLibCheck',
        here('./types/typed-read.ts'),
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    // tsc takes seconds on a quiet machine and much longer on a loaded one.
  }, 180_000);
});
