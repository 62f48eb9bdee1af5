/** The HTML pages of the authorization server: sign-in, consent and a refused request. */

const escape = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** What each scope grants, as the instance words it on its consent page. */
const SCOPE_TEXT: Record<string, string> = {
  api: 'Grants complete read/write access to the API, including all groups and projects.',
  read_api: 'Grants read access to the API, including all groups and projects.',
};

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)} · forge-sim</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
form{display:grid;gap:.6rem}input{padding:.4rem}button{padding:.5rem 1rem;margin-right:.5rem}
.error{color:#a00}code{background:#eee;padding:0 .2rem}</style></head>
<body><h1>${escape(title)}</h1>
${body}
</body></html>`;
}

const hidden = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join('\n');

export function signInPage(appName: string, returnTo: string, error?: string): string {
  return page(
    'Sign in',
    `<p><strong>${escape(appName)}</strong> is asking to use your account. Sign in to continue.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/users/sign_in">
${hidden({ return_to: returnTo })}
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`,
  );
}

export function consentPage(
  appName: string,
  username: string,
  scopes: string[],
  fields: Record<string, string>,
): string {
  const items = scopes
    .map((s) => `<li><code>${escape(s)}</code>: ${escape(SCOPE_TEXT[s] ?? s)}</li>`)
    .join('\n');
  return page(
    `Authorize ${appName} to use your account?`,
    `<p>Signed in as <strong>${escape(username)}</strong>.</p>
<p>An application called <strong>${escape(appName)}</strong> is requesting access to your account. This application will be able to:</p>
<ul>${items}</ul>
<form method="post" action="/oauth/authorize">
${hidden(fields)}
<div><button type="submit" name="decision" value="allow">Authorize ${escape(appName)}</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
  );
}

/** A request the server will not redirect back (unknown application or redirect URI), per RFC 6749 §4.1.2.1. */
export function errorPage(error: string, description: string): string {
  return page(
    'An error has occurred',
    `<p class="error" role="alert"><code>${escape(error)}</code>: ${escape(description)}</p>`,
  );
}
