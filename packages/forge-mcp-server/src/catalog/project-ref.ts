/** A project as users paste it, reduced to what the instance's project routes take. */

/**
 * Reduces what a user pastes to a project ID or full path: a web or clone URL
 * (https://host/group/project/-/issues/3, git@host:group/project.git), a path, or a numeric ID.
 */
export function projectRef(input: string): string {
  let s = input.trim();
  const ssh = /^[\w.-]+@[^:/]+:(.+)$/.exec(s);
  if (ssh) s = ssh[1];
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    try {
      s = new URL(s).pathname;
    } catch {
      /* keep as given */
    }
  }
  s = s
    .split(/\/-\//)[0]
    .replace(/\.git$/, '')
    .replace(/^\/+|\/+$/g, '');
  return s;
}

/**
 * Whether a value is a web or clone URL (https://host/group/project, git@host:group/project.git); a global ID
 * (gid://gitlab/Project/1, which a GraphQL action's project_id takes) is not one.
 */
export const isProjectUrl = (value: string): boolean =>
  (value.includes('://') && !/^gid:\/\//i.test(value)) || /^[\w.-]+@[^:/]+:/.test(value);

/**
 * A web or clone URL given as project_id, read against the session's instance (`base`, its URL): the project's
 * path when the URL is on that instance (its sub-path, such as /gitlab, left out), or why it cannot be used. A
 * URL of another host is refused rather than read as a path: the same path on this instance is another project,
 * and a write would change it.
 */
export function projectOnInstance(value: string, base: URL): { path: string } | { refused: string } {
  const ssh = /^[\w.-]+@([^:/]+):(.+)$/.exec(value.trim());
  let host: string;
  let path: string;
  if (ssh) [, host, path] = ssh;
  else {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      return {
        refused: `project_id ${JSON.stringify(value)} is not a URL that can be read; give the project's numeric ID or its path (group/project).`,
      };
    }
    // A web URL names its port (none for the scheme's default), as the instance's own URL does.
    host = url.host;
    path = url.pathname;
    if (base.pathname !== '/' && (path + '/').startsWith(base.pathname))
      path = path.slice(base.pathname.length - 1);
    try {
      path = decodeURIComponent(path);
    } catch {
      /* keep as given */
    }
  }
  if (host.toLowerCase() !== (ssh ? base.hostname : base.host).toLowerCase())
    return {
      refused: `project_id ${JSON.stringify(value)} names a project on ${host}, not on this server's instance (${base.host}); give the project's numeric ID or its path (group/project) on ${base.host}.`,
    };
  return { path: projectRef(path) };
}
