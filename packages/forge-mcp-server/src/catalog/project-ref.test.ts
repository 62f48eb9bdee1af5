import { describe, expect, it } from 'vitest';
import { isProjectUrl, projectOnInstance, projectRef } from './project-ref.js';

describe('projectOnInstance', () => {
  it('leaves out the sub-path an instance is served under, and refuses another host', () => {
    const base = new URL('https://forge.example/gitlab/');
    expect(projectOnInstance('https://forge.example/gitlab/acme/widgets/-/merge_requests/4', base)).toEqual({
      path: 'acme/widgets',
    });
    expect(projectOnInstance('git@forge.example:acme/widgets.git', base)).toEqual({ path: 'acme/widgets' });
    expect(projectOnInstance('https://FORGE.example/gitlab/acme/widgets', base)).toEqual({
      path: 'acme/widgets',
    });
    expect(projectOnInstance('https://other.example/gitlab/acme/widgets', base)).toHaveProperty('refused');
    // Another port of the same host is another server.
    expect(projectOnInstance('https://forge.example:8443/gitlab/acme/widgets', base)).toHaveProperty(
      'refused',
    );
    expect(projectOnInstance('https://forge.example:443/gitlab/acme/widgets', base)).toEqual({
      path: 'acme/widgets',
    });
  });
});

describe('a pasted project reference', () => {
  it('is read the same way by every caller: web and clone URLs are URLs, a path, an ID or a global ID is not', () => {
    for (const [value, url, ref] of [
      ['https://forge.example/acme/widgets/-/issues/3', true, 'acme/widgets'],
      ['git@forge.example:acme/widgets.git', true, 'acme/widgets'],
      [' git@forge.example:acme/widgets.git ', true, 'acme/widgets'],
      ['acme/widgets.git', false, 'acme/widgets'],
      ['42', false, '42'],
      ['gid://gitlab/Project/1', false, 'gid://gitlab/Project/1'],
      // Looks like a URL but none can be read: a URL (refused as one), and kept as given by projectRef.
      ['git@forge.example:', true, 'git@forge.example:'],
      ['acme/x://y', true, 'acme/x://y'],
    ] as const) {
      expect(isProjectUrl(value), value).toBe(url);
      expect(projectRef(value), value).toBe(ref);
    }
    const base = new URL('https://forge.example/');
    for (const value of ['git@forge.example:', 'acme/x://y'])
      expect(projectOnInstance(value, base)).toEqual({
        refused: `project_id ${JSON.stringify(value)} is not a URL that can be read; give the project's numeric ID or its path (group/project).`,
      });
  });
});
