import { describe, expect, it } from 'vitest';
import { isProjectUrl, projectOnInstance, projectPath } from './project-ref.js';

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
  it('is a URL when it is a web or clone URL; a path, an ID or a global ID is read as a path', () => {
    const base = new URL('https://forge.example/');
    for (const value of [
      'https://forge.example/acme/widgets/-/issues/3',
      'git@forge.example:acme/widgets.git',
      ' git@forge.example:acme/widgets.git ',
    ]) {
      expect(isProjectUrl(value), value).toBe(true);
      expect(projectOnInstance(value, base), value).toEqual({ path: 'acme/widgets' });
    }
    for (const [value, path] of [
      ['acme/widgets.git', 'acme/widgets'],
      ['acme/widgets/-/merge_requests/4', 'acme/widgets'],
      ['42', '42'],
      ['gid://gitlab/Project/1', 'gid://gitlab/Project/1'],
    ]) {
      expect(isProjectUrl(value), value).toBe(false);
      expect(projectPath(value), value).toBe(path);
    }
    // Looks like a URL but none can be read from it: refused, naming the argument it was given as.
    for (const value of ['git@forge.example:', 'acme/x://y']) {
      expect(isProjectUrl(value), value).toBe(true);
      expect(projectOnInstance(value, base, 'project')).toEqual({
        refused: `project ${JSON.stringify(value)} is not a URL that can be read; give the project's numeric ID or its path (group/project).`,
      });
    }
  });
});
