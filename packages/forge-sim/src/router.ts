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

/** Patterns without optional pieces or splats are bucketed by first segment and depth; the rest are always tried. */
function bucketKey(path: string): string {
  const segs = path.split('/');
  return `${segs[1] ?? ''}#${segs.length}`;
}

export class Router<T> {
  private readonly routes: CompiledRoute<T>[] = [];
  private buckets = new Map<string, CompiledRoute<T>[]>();
  private wild: CompiledRoute<T>[] = [];
  private dirty = false;

  add(method: string, pattern: string, data: T): void {
    const { regex, names, specificity } = compile(pattern);
    this.routes.push({ method: method.toUpperCase(), pattern, regex, names, specificity, data });
    this.dirty = true;
  }

  private index(): void {
    if (!this.dirty) return;
    // Stable sort: the most specific pattern first, then insertion order.
    this.routes.sort((a, b) => b.specificity - a.specificity);
    this.buckets = new Map();
    this.wild = [];
    for (const r of this.routes) {
      if (/[(*]/.test(r.pattern) || r.pattern.split('/')[1]?.startsWith(':')) {
        this.wild.push(r);
        continue;
      }
      const key = bucketKey(r.pattern);
      const list = this.buckets.get(key) ?? [];
      list.push(r);
      this.buckets.set(key, list);
    }
    this.dirty = false;
  }

  /** The best match for method + path; `pathMatched` tells whether another method would have matched. */
  match(method: string, path: string): { hit?: RouteMatch<T>; pathMatched: boolean } {
    this.index();
    let pathMatched = false;
    const wanted = method.toUpperCase() === 'HEAD' ? ['HEAD', 'GET'] : [method.toUpperCase()];
    const candidates = [this.buckets.get(bucketKey(path)) ?? [], this.wild];
    for (const want of wanted) {
      let best: { route: CompiledRoute<T>; m: RegExpExecArray } | undefined;
      for (const list of candidates) {
        for (const route of list) {
          if (best && route.specificity <= best.route.specificity) break;
          const m = route.regex.exec(path);
          if (!m) continue;
          pathMatched = true;
          if (route.method !== want) continue;
          best = { route, m };
          break;
        }
      }
      if (best) {
        const params: Record<string, string> = {};
        best.route.names.forEach((name, idx) => {
          const raw = best.m[idx + 1];
          if (raw === undefined) return;
          try {
            params[name] = decodeURIComponent(raw);
          } catch {
            params[name] = raw;
          }
        });
        return { hit: { route: best.route, params }, pathMatched };
      }
    }
    return { pathMatched };
  }

  all(): readonly CompiledRoute<T>[] {
    return this.routes;
  }
}
