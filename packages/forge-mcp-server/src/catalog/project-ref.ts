/** A project as users paste it, reduced to what the instance's project routes take. */

/** A pasted web or clone URL, read once: the host it names and the path after it. */
export interface PastedUrl {
  /** The host's name (a web URL's lower-cased, as URL reads it). */
  host: string;
  /**
   * A web URL's port ('' for its scheme's default), as the instance's own URL names it; a clone URL over SSH
   * (git@host:path, ssh://git@host:2222/path) names none (the SSH port is not the web one), so it matches the
   * instance's host on any port.
   */
  port?: string;
  /** The path after the host: a web URL's still percent-encoded, a clone URL's as given. */
  path: string;
}

/**
 * A value read as a web or clone URL (https://host/group/project, git@host:group/project.git): its host and
 * path; null when it is neither (a path, a numeric ID, or a global ID such as gid://gitlab/Project/1, which a
 * GraphQL action's project_id takes); 'unreadable' when it looks like one but no URL can be read from it.
 */
export function pastedUrl(value: string): PastedUrl | 'unreadable' | null {
  const s = value.trim();
  const ssh = /^[\w.-]+@([^:/]+):(.*)$/.exec(s);
  if (ssh) return ssh[2] ? { host: ssh[1], path: ssh[2] } : 'unreadable';
  if (!s.includes('://') || /^gid:\/\//i.test(s)) return null;
  try {
    const url = new URL(s);
    // A clone URL over SSH written as a URL (ssh://git@host:2222/group/project.git) names the SSH port, as
    // git@host:path names none: it matches the instance's host on any port, its path as given.
    if (/^(?:git\+)?ssh:$|^ssh\+git:$/.test(url.protocol))
      return { host: url.hostname, path: decoded(url.pathname) };
    return { host: url.hostname, port: url.port, path: url.pathname };
  } catch {
    return 'unreadable';
  }
}

/** A URL's path with its percent-encoding read, or as given where it is not valid. */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Whether a value is a web or clone URL rather than a project's path or ID (see pastedUrl). */
export const isProjectUrl = (value: string): boolean => pastedUrl(value) !== null;

/**
 * A project's path as pasted, reduced to the project's: without a deep link's /-/ part
 * (group/project/-/issues/3), a clone's .git, or slashes at its ends. A URL is read first (projectOnInstance).
 */
export const projectPath = (path: string): string =>
  withoutEndSlashes(path.trim().split(/\/-\//)[0]!).replace(/\.git$/, '');

/**
 * `path` without slashes at its ends. Not a /\/+$/ replacement: that reads a run of slashes inside the path again
 * from each of its slashes, in time growing with the square of the run's length.
 */
export function withoutEndSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start++;
  while (end > start && path[end - 1] === '/') end--;
  return path.slice(start, end);
}

/**
 * A project as a person gives it (a tool's project_id, a prompt's, discover_project.resolve's project; `name`
 * names the argument), read against the session's instance (`base`, its URL). A value that is no URL is kept as
 * given. A web or clone URL is the project's path when it is on that instance (its sub-path, such as /gitlab,
 * left out), or refused saying why: another host's is not read as a path, since the same path on this instance
 * is another project, and a write would change it.
 */
export function projectOnInstance(
  value: string,
  base: URL,
  name = 'project_id',
): { path: string } | { refused: string } {
  const url = pastedUrl(value);
  if (!url) return { path: value };
  if (url === 'unreadable')
    return {
      refused: `${name} ${JSON.stringify(value)} is not a URL that can be read; give the project's numeric ID or its path (group/project).`,
    };
  let path = url.path;
  let outside = false;
  if (url.port !== undefined) {
    const under = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
    if (under !== '/') {
      // An instance served under a sub-path: a page of the host outside it is not the instance's.
      if ((path + '/').startsWith(under)) path = path.slice(under.length - 1);
      else outside = true;
    }
    path = decoded(path);
  }
  if (
    url.host.toLowerCase() !== base.hostname.toLowerCase() ||
    (url.port !== undefined && url.port !== base.port)
  ) {
    const named = url.port ? `${url.host}:${url.port}` : url.host;
    return {
      refused: `${name} ${JSON.stringify(value)} names a project on ${named}, not on this server's instance (${base.host}); give the project's numeric ID or its path (group/project) on ${base.host}.`,
    };
  }
  if (outside) {
    const at = `${base.host}${base.pathname.replace(/\/$/, '')}`;
    return {
      refused: `${name} ${JSON.stringify(value)} names a page outside this server's instance (${at}); give the project's numeric ID or its path (group/project) on ${at}.`,
    };
  }
  const project = projectPath(path);
  if (!project)
    return {
      refused: `${name} ${JSON.stringify(value)} names no project, only the instance; give the project's numeric ID or its path (group/project), or its URL.`,
    };
  return { path: project };
}
