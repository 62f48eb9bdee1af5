/** A project's CI/CD variables: created, read, listed, changed and deleted, keyed by name and environment scope. */
import { bool, pageReq, project, requireProjectAccess, str } from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json, noContent, paginate } from '../http.js';
import type { CiVariable, Project } from '../state.js';
import { ACCESS } from '../state.js';
import type { RouteTable } from './table.js';

function variableJson(v: CiVariable): Record<string, unknown> {
  return {
    variable_type: v.variableType,
    key: v.key,
    value: v.value,
    hidden: false,
    protected: v.protected,
    masked: v.masked,
    raw: v.raw,
    environment_scope: v.environmentScope,
    description: v.description,
  };
}

/** The variable a route's :key names, in the scope filter[environment_scope] picks (any scope when not given). */
function findVariable(ctx: Ctx, p: Project): CiVariable {
  const scope = str(ctx, 'filter[environment_scope]') ?? str(ctx, 'filter.environment_scope');
  const v = p.variables.find(
    (x) => x.key === ctx.params.key && (scope === undefined || x.environmentScope === scope),
  );
  if (!v) throw new HttpError(404, { message: '404 Variable Not Found' });
  return v;
}

function variableType(ctx: Ctx): CiVariable['variableType'] | undefined {
  const t = str(ctx, 'variable_type');
  if (t === undefined) return undefined;
  if (t !== 'env_var' && t !== 'file')
    throw new HttpError(400, { error: 'variable_type does not have a valid value' });
  return t;
}

export function registerVariables(r: RouteTable): void {
  r.add('GET', '/projects/:id/variables', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    return paginate(pageReq(ctx), p.variables.map(variableJson));
  });
  r.add('GET', '/projects/:id/variables/:key', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    return json(200, variableJson(findVariable(ctx, p)));
  });
  r.add('POST', '/projects/:id/variables', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const key = str(ctx, 'key');
    if (!key) throw new HttpError(400, { error: 'key is missing' });
    const value = str(ctx, 'value');
    if (value === undefined) throw new HttpError(400, { error: 'value is missing' });
    const environmentScope = str(ctx, 'environment_scope') ?? '*';
    // The instance keeps one variable per key and environment scope.
    if (p.variables.some((x) => x.key === key && x.environmentScope === environmentScope))
      throw new HttpError(400, { message: { key: [`(${key}) has already been taken`] } });
    const v: CiVariable = {
      key,
      value,
      variableType: variableType(ctx) ?? 'env_var',
      protected: bool(ctx, 'protected') ?? false,
      masked: bool(ctx, 'masked') ?? false,
      raw: bool(ctx, 'raw') ?? false,
      environmentScope,
      description: str(ctx, 'description') ?? null,
    };
    p.variables.push(v);
    return json(201, variableJson(v));
  });
  r.add('PUT', '/projects/:id/variables/:key', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const v = findVariable(ctx, p);
    v.value = str(ctx, 'value') ?? v.value;
    v.variableType = variableType(ctx) ?? v.variableType;
    v.protected = bool(ctx, 'protected') ?? v.protected;
    v.masked = bool(ctx, 'masked') ?? v.masked;
    v.raw = bool(ctx, 'raw') ?? v.raw;
    v.environmentScope = str(ctx, 'environment_scope') ?? v.environmentScope;
    v.description = str(ctx, 'description') ?? v.description;
    return json(200, variableJson(v));
  });
  r.add('DELETE', '/projects/:id/variables/:key', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    p.variables.splice(p.variables.indexOf(findVariable(ctx, p)), 1);
    return noContent();
  });
}
