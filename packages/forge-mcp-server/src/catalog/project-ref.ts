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
