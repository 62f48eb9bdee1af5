/** A tiny router: patterns use `:param`, `*splat` and optional `( ... )` pieces, as the inventory does. */

export interface CompiledRoute<T> {
  method: string;
  pattern: string;
  regex: RegExp;
  names: string[];
  /** Higher wins when several patterns match one path. */
  specificity: number;
  data: T;
}

export interface RouteMatch<T> {
  route: CompiledRoute<T>;
  params: Record<string, string>;
}

function compile(pattern: string): { regex: RegExp; names: string[]; specificity: number } {
  const names: string[] = [];
  let src = '';
  let specificity = 0;
  for (let i = 0; i < pattern.length;) {
    const ch = pattern[i];
    if (ch === ':' || ch === '*') {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(pattern.slice(i + 1));
      const name = m ? m[0] : 'splat';
      names.push(name);
      src += ch === ':' ? '([^/]+?)' : '(.+?)';
      specificity -= ch === ':' ? 1 : 5;
      i += 1 + (m ? m[0].length : 0);
    } else if (ch === '(') {
      src += '(?:';
      i++;
    } else if (ch === ')') {
      src += ')?';
      i++;
    } else {
      src += ch.replace(/[.+?^${}|[\]\\]/g, '\\$&');
      if (ch === '/') specificity += 10;
      else specificity += 0.01;
      i++;
    }
  }
  return { regex: new RegExp(`^${src}$`), names, specificity };
}

export class Router<T> {
  private readonly routes: CompiledRoute<T>[] = [];

  add(method: string, pattern: string, data: T): void {
    const { regex, names, specificity } = compile(pattern);
    this.routes.push({ method: method.toUpperCase(), pattern, regex, names, specificity, data });
    // Stable sort: the most specific pattern first, then insertion order.
    this.routes.sort((a, b) => b.specificity - a.specificity);
  }

  /** The best match for method + path; `pathMatched` tells whether another method would have matched. */
  match(method: string, path: string): { hit?: RouteMatch<T>; pathMatched: boolean } {
    let pathMatched = false;
    const wanted = method.toUpperCase() === 'HEAD' ? ['HEAD', 'GET'] : [method.toUpperCase()];
    for (const want of wanted) {
      for (const route of this.routes) {
        const m = route.regex.exec(path);
        if (!m) continue;
        pathMatched = true;
        if (route.method !== want) continue;
        const params: Record<string, string> = {};
        route.names.forEach((name, idx) => {
          const raw = m[idx + 1];
          if (raw === undefined) return;
          try {
            params[name] = decodeURIComponent(raw);
          } catch {
            params[name] = raw;
          }
        });
        return { hit: { route, params }, pathMatched };
      }
    }
    return { pathMatched };
  }

  all(): readonly CompiledRoute<T>[] {
    return this.routes;
  }
}
