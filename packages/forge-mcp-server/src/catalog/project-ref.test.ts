import { describe, expect, it } from 'vitest';
import { projectOnInstance } from './project-ref.js';

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
