import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, readToken, readTokens, validateConfig } from '../src/index.js';
import { tempDir } from './helpers.js';

const base = { targets: { repos: ['octo/own'] }, stores: { sqlite: 'x.db' } };

describe('configuration', () => {
  const dir = tempDir();

  it('reads YAML and JSON with the documented defaults', async () => {
    writeFileSync(
      join(dir, 'c.yaml'),
      'targets:\n  repos: [octo/own]\n  orgs: [acme]\nstores:\n  sqlite: ./a.db\n  postgres: postgres://u@h/db\n  prometheus: { port: 9464 }\nschedule: 15m\n',
    );
    const y = await loadConfig(join(dir, 'c.yaml'));
    expect(y).toMatchObject({
      apiUrl: 'https://api.github.com',
      tokenEnv: 'GITHUB_TOKEN',
      targets: { repos: ['octo/own'], orgs: ['acme'] },
      stores: {
        sqlite: './a.db',
        postgres: { url: 'postgres://u@h/db', schema: 'public' },
        prometheus: { port: 9464 },
      },
      scheduleSeconds: 900,
    });
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({ ...base, api_url: 'http://127.0.0.1:1/', token_env: 'MY_TOKEN' }),
    );
    const j = await loadConfig(join(dir, 'c.json'));
    expect([j.apiUrl, j.tokenEnv, j.scheduleSeconds]).toEqual(['http://127.0.0.1:1', 'MY_TOKEN', 21600]);
  });

  it.each([
    [{ ...base, targets: { repos: ['not-a-repo'] } }, 'targets.repos[0]', '"owner/name"'],
    [{ ...base, targets: {} }, 'targets', 'at least one entry'],
    [{ stores: base.stores }, 'targets', 'a mapping with repos'],
    [{ ...base, stores: {} }, 'stores', 'at least one of sqlite, postgres, prometheus'],
    [{ ...base, stores: { mysql: 'x' } }, 'stores.mysql', 'one of sqlite, postgres, prometheus'],
    [{ ...base, stores: { postgres: 'mysql://h/db' } }, 'stores.postgres', 'postgres:// connection URL'],
    [
      { ...base, stores: { prometheus: { port: 99999 } } },
      'stores.prometheus.port',
      'an integer from 0 to 65535',
    ],
    [{ ...base, schedule: 'hourly' }, 'schedule', 'a duration like'],
    [{ ...base, api_url: 'ftp://x' }, 'api_url', 'an http(s) URL'],
    [{ ...base, token_env: 'has space' }, 'token_env', 'the name of an environment variable'],
    [{ ...base, token: 'ghp_x' }, 'token', 'environment variable named by token_env'],
    [{ ...base, colour: 'red' }, 'colour', 'one of api_url, token_env'],
    [{ ...base, packages: { types: ['pip'] } }, 'packages.types[0]', 'npm, maven'],
    [{ ...base, token_env: ['A', 'b c'] }, 'token_env[1]', 'or a list of them'],
    [{ ...base, token_type: 'oauth' }, 'token_type', 'personal or installation'],
    [{ ...base, targets: { installation: true } }, 'targets.installation', 'token_type: installation'],
    [
      { ...base, targets: { orgs: [{ name: 'acme', forks: 'no' }] } },
      'targets.orgs[0].forks',
      'true (take them)',
    ],
    [
      { ...base, targets: { orgs: [{ name: 'acme', include: ['a/b'] }] } },
      'targets.orgs[0].include[0]',
      'name pattern',
    ],
    [{ ...base, targets: { orgs: [{ forks: false }] } }, 'targets.orgs[0].name', 'an organisation login'],
    [
      { ...base, targets: { orgs: [{ name: 'acme', colour: 1 }] } },
      'targets.orgs[0].colour',
      'one of name, forks',
    ],
    [{ ...base, state: '' }, 'state', 'a file path'],
  ])('refuses %j naming %s and what is accepted', (doc, key, accepted) => {
    let err: Error | undefined;
    try {
      validateConfig(doc);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toContain(`invalid configuration: ${key}:`);
    expect(err?.message).toContain(`accepted: `);
    expect(err?.message).toContain(accepted);
  });

  it('a repository given by its web or clone address is refused with the owner/name to write instead', () => {
    const refusal = (repo: string) => {
      try {
        validateConfig({ ...base, targets: { repos: [repo] } });
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    for (const address of [
      'https://github.com/octo/hello-world',
      'https://github.com/octo/hello-world.git',
      'git@github.com:octo/hello-world.git',
      '/octo/hello-world/',
    ])
      expect(refusal(address)).toBe(
        `invalid configuration: targets.repos[0]: got ${JSON.stringify(address)}; write "octo/hello-world"; accepted: "owner/name"`,
      );
    // Nothing to suggest: the name alone, or an address deeper than a repository.
    expect(refusal('octo')).toBe(
      'invalid configuration: targets.repos[0]: got "octo"; accepted: "owner/name"',
    );
    expect(refusal('https://github.com/octo/hello-world/tree/main')).toBe(
      'invalid configuration: targets.repos[0]: got "https://github.com/octo/hello-world/tree/main"; accepted: "owner/name"',
    );
  });

  it('reads several tokens, the token type, organisation filters and the state file', () => {
    const c = validateConfig({
      ...base,
      token_env: ['TOKEN_A', 'TOKEN_B'],
      token_type: 'installation',
      targets: { installation: true, orgs: ['plain', { name: 'acme', archived: false, exclude: ['*-old'] }] },
      state: '/var/lib/ac/state.db',
    });
    expect(c.tokenEnvs).toEqual(['TOKEN_A', 'TOKEN_B']);
    expect(c.tokenType).toBe('installation');
    expect(c.targets.orgs).toEqual(['plain', 'acme']);
    expect(c.targets.orgFilters.plain).toEqual({
      forks: true,
      archived: true,
      disabled: false,
      include: [],
      exclude: [],
    });
    expect(c.targets.orgFilters.acme).toMatchObject({ archived: false, exclude: ['*-old'] });
    expect(c.stateFile).toBe('/var/lib/ac/state.db');
    expect(readTokens(c, { TOKEN_A: 'a', TOKEN_B: 'b' })).toEqual([
      { name: 'TOKEN_A', token: 'a' },
      { name: 'TOKEN_B', token: 'b' },
    ]);
    expect(() => readTokens(c, { TOKEN_A: 'a' })).toThrow(/environment variable TOKEN_B is not set/);
    // Without `state`, the SQLite store's file holds the state; with no SQLite store, a file of its own.
    expect(validateConfig({ ...base, stores: { sqlite: 'x.db' } }).stateFile).toBe('x.db');
    expect(validateConfig({ ...base, stores: { prometheus: { port: 1 } } }).stateFile).toBe(
      'activity-collector-state.db',
    );
  });

  it('never echoes a token written into the file', () => {
    expect(() => validateConfig({ ...base, token: 'ghp_secret123' })).toThrow(
      /never read from the configuration/,
    );
    try {
      validateConfig({ ...base, token: 'ghp_secret123' });
    } catch (e) {
      expect((e as Error).message).not.toContain('ghp_secret123');
    }
  });

  it('reads the token from the named environment variable only', () => {
    const c = validateConfig({ ...base, token_env: 'MY_TOKEN' });
    expect(readToken(c, { MY_TOKEN: ' abc ' })).toBe('abc');
    expect(() => readToken(c, { GITHUB_TOKEN: 'x' })).toThrow(/environment variable MY_TOKEN is not set/);
  });

  it('names unreadable and malformed files', async () => {
    await expect(loadConfig(join(dir, 'missing.yaml'))).rejects.toThrow(
      /cannot read configuration file .*missing\.yaml/,
    );
    writeFileSync(join(dir, 'bad.json'), '{ nope');
    await expect(loadConfig(join(dir, 'bad.json'))).rejects.toThrow(/is not valid JSON/);
  });
});
