/** Turns one validated action call into the instance request(s) and the result a client sees. */
import { FormData } from 'undici';
import type {
  ActionContext,
  ActionSpec,
  GraphqlRequest,
  HttpMethod,
  ParamSpec,
  RestRequest,
} from '../catalog/types.js';
import { toGlobalId } from '../catalog/gid.js';
import {
  InstanceError,
  type InstanceClient,
  type InstanceResponse,
  type RestInit,
} from '../instance/index.js';
import {
  binaryResult,
  errorResult,
  connectionLine,
  jsonResult,
  notFoundResult,
  textResult,
  type PageInfo,
  type ToolResult,
} from './format.js';
import {
  fineGrainedFailure,
  isEmptyAnswer,
  OBJECT_UNREADABLE,
  probablyCommitted,
  readsGraphql,
  withVisibilityNote,
} from './fine-grained.js';
import { fromBase64 } from '../base64.js';
import { preserializeJson } from '../mcp/preserialized.js';
import { defaultScopeNote, existsHint, projectNamedHint, routeHint } from './hints.js';
import { paramsOf } from './schema.js';

export interface RunOptions {
  embeddedResources: boolean;
  signal?: AbortSignal;
  /**
   * When the action must end (a Date.now() time, InstanceClient.deadlineFromNow; 0: never), for an action that is
   * part of a larger one (a prompt's reads). By default the action's deadline starts when it starts.
   */
  due?: number;
  /** Writes a downloaded body to a local path (stdio only); answers the final path. */
  saveDownload?: (outputPath: string, bytes: Buffer) => Promise<string>;
  /** Reads a local file for upload (stdio only); refuses paths outside the allowed directories. */
  readUpload?: (localPath: string, kind: 'upload' | 'import') => Promise<Buffer>;
  /** Checks a caller-supplied local path for a handler (stdio only). */
  localPath?: (localPath: string, kind: 'upload' | 'directory') => Promise<string>;
  /** Extra headers for a plain REST request (a subscription poll's If-None-Match). */
  requestHeaders?: Record<string, string>;
  /** Sees the status and headers of a plain REST answer (a poll reads its ETag, or a 304). */
  onResponse?: (status: number, headers: Record<string, string>) => void;
  /**
   * A REST JSON answer's parsed body is marked with the instance's own text (mcp/preserialized.ts), for a
   * transport that writes that text instead of serializing the body again (stdio). The result must then
   * reach the transport with its structuredContent unchanged.
   */
  instanceText?: boolean;
  /**
   * How this surface runs a canonical action ID, when not by the ID itself (meta and individual surfaces): a
   * not-found card's next steps say it beside each ID.
   */
  runsAs?: (id: string) => string | undefined;
  /** Whether the session lists an action, so a suggestion names only one it can run. */
  lists?: (id: string) => boolean;
}

const HTTP_PATHS = 'local paths are refused over HTTP; send the content as content_base64 instead';

export interface BuiltRequest {
  method: HttpMethod;
  /** The path template chosen (`/projects/:id/issues`). */
  template: string;
  path: string;
  query: Record<string, unknown>;
  body?: Record<string, unknown>;
  form?: FormData;
}

/** Placeholders of a path template: `:name` is one segment, `*name` keeps its slashes. */
const PLACEHOLDER = /([:*])([a-z_][a-z0-9_]*)/g;

/** A path template read once: its placeholders in order, the text around them, and its observers' form. */
interface Template {
  /** Placeholder names, in order (`names[i]` sits between `texts[i]` and `texts[i + 1]`). */
  names: string[];
  /** Whether placeholder `i` keeps its slashes (`*name`). */
  keepsSlashes: boolean[];
  /** The literal text around the placeholders (one more than there are placeholders). */
  texts: string[];
  /** The form observers see (`/projects/{id}`). */
  shown: string;
  /**
   * The resource URI's start (the first literal text without its leading slashes), when the URI can be built
   * from the raw values: no percent sign in the literal text to decode, and no leading slashes of a value
   * that the URI would drop.
   */
  uriHead?: string;
}

const templates = new Map<string, Template>();
const LEADING_SLASHES = /^\/+/;

function templateOf(t: string): Template {
  let known = templates.get(t);
  if (!known) {
    const names: string[] = [];
    const keepsSlashes: boolean[] = [];
    const texts: string[] = [];
    let last = 0;
    for (const m of t.matchAll(PLACEHOLDER)) {
      texts.push(t.slice(last, m.index));
      keepsSlashes.push(m[1] === '*');
      names.push(m[2]!);
      last = m.index! + m[0].length;
    }
    texts.push(t.slice(last));
    const head = texts[0]!.replace(LEADING_SLASHES, '');
    known = {
      names,
      keepsSlashes,
      texts,
      shown: t.replace(PLACEHOLDER, '{$2}'),
      uriHead: t.includes('%') || (head === '' && keepsSlashes[0]) ? undefined : 'forge://' + head,
    };
    templates.set(t, known);
  }
  return known;
}

/** Picks the first path template whose placeholders are all given. */
export function choosePath(paths: string | string[], args: Record<string, unknown>): string | undefined {
  if (typeof paths === 'string') return allGiven(templateOf(paths).names, args) ? paths : undefined;
  for (const t of paths) if (allGiven(templateOf(t).names, args)) return t;
  return undefined;
}

function allGiven(names: string[], args: Record<string, unknown>): boolean {
  for (const n of names) {
    const v = args[n];
    if (v === undefined || v === null || v === '') return false;
  }
  return true;
}

/**
 * A part `.` or `..`, which encoding leaves as it is (and `%2E` would not help: URLs and the instance's
 * front end read it as the same step), so the URL would resolve it to another endpoint.
 */
const DOT_PART = /^\.\.?$/;

/**
 * A path segment's value: `*name` keeps its slashes, each part between them encoded. A value of `.` or
 * `..` (for `*name`, such a part or an empty one between slashes) is refused: it would call another endpoint.
 */
function encodeValue(id: string, name: string, value: string, keepsSlashes: boolean): string {
  const parts = keepsSlashes ? value.split('/') : [value];
  const bad = parts.find((p) => p === '' || DOT_PART.test(p));
  if (bad !== undefined)
    throw new ArgumentProblem(
      `${id}: ${name} ${JSON.stringify(value)} is refused: ${bad ? `"${bad}"` : 'an empty part'} in the request path would make the URL call another endpoint. Give the ${name} as it is on the instance, without "." or ".." or empty parts.`,
    );
  return parts.length > 1 ? parts.map(encodeURIComponent).join('/') : encodeURIComponent(value);
}

export function buildRest(
  a: ActionSpec,
  rest: RestRequest,
  args: Record<string, unknown>,
  files?: Record<string, Buffer>,
): BuiltRequest {
  const template = choosePath(rest.path, args);
  if (!template) {
    const all = (Array.isArray(rest.path) ? rest.path : [rest.path]).flatMap((t) => templateOf(t).names);
    throw new ArgumentProblem(`${a.id}: missing required params: ${[...new Set(all)].join(' or ')}`);
  }
  const t = templateOf(template);
  const { names, texts } = t;
  let path = texts[0]!;
  for (let i = 0; i < names.length; i++)
    path += encodeValue(a.id, names[i]!, String(args[names[i]!]), t.keepsSlashes[i]!) + texts[i + 1]!;
  const params = paramsOf(a);
  const query: Record<string, unknown> = rest.fixedQuery ? { ...rest.fixedQuery } : {};
  const body: Record<string, unknown> = rest.fixedBody ? { ...rest.fixedBody } : {};
  let hasBody = rest.fixedBody !== undefined && Object.keys(body).length > 0;
  let form: FormData | undefined;
  const bodyDefault =
    rest.method === 'GET' || rest.method === 'DELETE' || rest.method === 'HEAD' ? 'query' : 'body';
  for (const name of Object.keys(args)) {
    const value = args[name];
    if (value === undefined || names.includes(name)) continue;
    const spec = params[name];
    const where = spec?.in ?? bodyDefault;
    const wire = spec?.wire ?? name;
    if (where === 'none' || where === 'path') continue;
    if (where === 'query') query[wire] = value;
    else if (where === 'body') {
      body[wire] = value;
      hasBody = true;
    } else {
      form ??= new FormData();
      if (where === 'file') {
        const bytes = files?.[name] ?? decoded(a.id, name, String(value));
        const local = name === 'file_path' ? String(value).split(/[\\/]/).pop() : undefined;
        form.append(wire, new Blob([bytes]), uploadName(a.id, args, local));
      } else form.append(wire, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
  }
  const built: BuiltRequest = { method: rest.method, template, path, query };
  if (form) {
    for (const [k, v] of Object.entries(body))
      form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    built.form = form;
  } else if (hasBody) built.body = body;
  return built;
}

function decoded(id: string, name: string, text: string): Buffer {
  try {
    return fromBase64(text, name);
  } catch (err) {
    throw new ArgumentProblem(`${id}: ${(err as Error).message}`);
  }
}

/** A name part that is a directory step, or nothing. */
const NO_FILE_NAME = /^\.{0,2}$/;

/**
 * The file name an upload's multipart header carries: the caller's filename (or file_name), else the local
 * file's own name. A given name holding a directory part, or none at all, is refused rather than sent.
 */
function uploadName(id: string, args: Record<string, unknown>, local: string | undefined): string {
  const key =
    args.filename !== undefined ? 'filename' : args.file_name !== undefined ? 'file_name' : undefined;
  if (key === undefined) return local || 'upload';
  const given = String(args[key]);
  if (/[\\/]/.test(given) || NO_FILE_NAME.test(given))
    throw new ArgumentProblem(
      `${id}: ${key} ${JSON.stringify(given)} is refused: an uploaded file's name cannot be empty, "." or "..", or hold "/" or "\\". Give the name alone, such as "notes.txt".`,
    );
  return given;
}

/**
 * The canonical forge:// URI of the object a built request reads: its path with the values as given, the
 * same as resourceUri(built.path) without decoding what was just encoded.
 */
function builtUri(built: BuiltRequest, args: Record<string, unknown>): string {
  const t = templateOf(built.template);
  if (t.uriHead === undefined) return resourceUri(built.path);
  let uri = t.uriHead;
  for (let i = 0; i < t.names.length; i++) uri += String(args[t.names[i]!]) + t.texts[i + 1]!;
  return uri;
}

export class ArgumentProblem extends Error {}

/**
 * The part of an answer a dotted path names. Through a list (a work item's widgets, a connection's nodes) the
 * path goes on in the first element that has the next key.
 */
function dig(data: unknown, path: string | undefined): unknown {
  if (!path) return data;
  let cur = data;
  for (const key of path.split('.')) {
    if (cur == null || typeof cur !== 'object') return null;
    cur = Array.isArray(cur)
      ? cur.find((x) => x !== null && typeof x === 'object' && key in x)?.[key]
      : (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * A parameter's value as the operation takes it: a bare number given for a global ID is sent as that ID, and an
 * input object's fields under their GraphQL names (their `wire`).
 */
function graphqlValue(spec: ParamSpec | undefined, value: unknown): unknown {
  if (spec?.gid) return toGlobalId(spec.gid, value);
  const fields = spec?.properties as Record<string, ParamSpec> | undefined;
  if (!fields || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [fields[k]?.wire ?? k, graphqlValue(fields[k], v)]),
  );
}

/** The operation's variables from our parameters. */
export function graphqlVariables(
  g: GraphqlRequest,
  args: Record<string, unknown>,
  params: Record<string, ParamSpec> = {},
): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const [v, p] of Object.entries(g.variables ?? {}))
    if (args[p] !== undefined) vars[v] = graphqlValue(params[p], args[p]);
  return vars;
}

/** The canonical forge:// URI of a REST object. */
export function resourceUri(path: string): string {
  return 'forge://' + path.replace(/^\/+/, '').split('/').map(decodeURIComponent).join('/');
}

export async function runAction(
  a: ActionSpec,
  args: Record<string, unknown>,
  client: InstanceClient,
  opts: RunOptions,
): Promise<ToolResult> {
  // One deadline for the whole action: every request it makes, and every wait between them, gets the time left.
  const due = opts.due ?? client.deadlineFromNow();
  const signal = opts.signal;
  // A request the deadline stopped, even one a handler went on without: the action is reported past its deadline.
  let cut: InstanceError | undefined;
  try {
    // Over HTTP every caller-supplied local path is refused, before anything is sent.
    if (typeof args.output_path === 'string' && !opts.saveDownload)
      return errorResult(`${a.id}: ${HTTP_PATHS}`);
    if (a.handler) {
      const stopped = (err: unknown): never => {
        if (err instanceof InstanceError && err.kind === 'deadline') cut ??= err;
        throw err;
      };
      const ctx: ActionContext = {
        rest: async (method, path, init) =>
          (await client.rest(method, path, { ...init, signal, due }).catch(stopped)).body,
        graphql: (document, variables, o) =>
          client.graphql(document, variables, { mutation: o?.mutation, signal, due }).catch(stopped),
        localPath: async (path, kind) => {
          if (!opts.localPath) throw new Error(HTTP_PATHS);
          return opts.localPath(path, kind);
        },
        wait: (ms) => client.wait(ms, signal, due).catch(stopped),
        instanceUrl: client.base.href.replace(/\/+$/, ''),
      };
      const out = await a.handler(args, ctx);
      if (cut) throw cut;
      const r = jsonResult(a, out, {}, opts.runsAs);
      return client.fineGrained && readsGraphql(a) && isEmptyAnswer(out) ? withVisibilityNote(r) : r;
    }
    if (!a.request) return errorResult(`${a.id}: this action sends nothing to the instance.`);
    if ('graphql' in a.request) {
      const g = a.request.graphql;
      const data = await client.graphql(g.document, graphqlVariables(g, args, a.params), {
        mutation: g.mutation,
        signal,
        due,
      });
      const result = dig(data, g.resultPath ?? g.mutation);
      const fg = client.fineGrained;
      if (fg && OBJECT_UNREADABLE.has(a.id) && (result === null || result === undefined))
        return errorResult(probablyCommitted(a));
      const note = !!fg && readsGraphql(a) && isEmptyAnswer(result);
      if ((result === null || result === undefined) && a.notFound) {
        const nf = notFoundResult(a, args, opts.runsAs);
        return note ? withVisibilityNote(nf) : nf;
      }
      const r = graphqlResult(a, result, opts.runsAs);
      return note ? withVisibilityNote(r) : r;
    }
    const rest = a.request.rest;
    let files: Record<string, Buffer> | undefined;
    // The one parameter read from a local file: file_path, where the action takes it as a file.
    if (
      typeof args.file_path === 'string' &&
      Object.hasOwn(a.params, 'file_path') &&
      a.params.file_path!.in === 'file'
    ) {
      if (!opts.readUpload) return errorResult(`${a.id}: ${HTTP_PATHS}`);
      // Import actions take an export archive, which meets the archive rules as well.
      files = { file_path: await opts.readUpload(args.file_path, /import/.test(a.id) ? 'import' : 'upload') };
    }
    const built = buildRest(a, rest, args, files);
    const init: RestInit = {
      template: templateOf(built.template).shown,
      query: built.query,
      body: built.body,
      form: built.form,
      response: rest.response,
      signal,
      due,
    };
    if (opts.requestHeaders) init.headers = opts.requestHeaders;
    const res: InstanceResponse = await client.rest(built.method, built.path, init);
    opts.onResponse?.(res.status, res.headers);
    if (rest.response === 'text')
      return textResult(
        typeof res.body === 'string' ? res.body : JSON.stringify(res.body),
        args,
        a.id === 'job.trace',
      );
    if (rest.response === 'binary' && Buffer.isBuffer(res.body)) {
      const out =
        typeof args.output_path === 'string' && opts.saveDownload
          ? await opts.saveDownload(args.output_path, res.body)
          : undefined;
      return binaryResult(res.body, res.headers, out);
    }
    const result = jsonResult(a, res.body, res.headers, opts.runsAs, args);
    if (Array.isArray(res.body)) {
      const note = defaultScopeNote(a.id, args, res.body.length);
      if (note) (result.content[0] as { text: string }).text += '\n' + note;
    }
    // An object or array body is JSON.parse(res.text) itself, the text decoded from res.bytes.
    if (opts.instanceText) preserializeJson(result, res.body, res.bytes);
    if (
      opts.embeddedResources &&
      built.method === 'GET' &&
      res.body &&
      typeof res.body === 'object' &&
      !Array.isArray(res.body) &&
      isGetAction(a)
    ) {
      result.content.push({
        type: 'resource',
        resource: {
          uri: builtUri(built, args),
          mimeType: 'application/json',
          // The instance's own JSON text: the same JSON as the parsed body, without serialising it again.
          text: res.text ?? JSON.stringify(res.body),
        },
      });
    }
    return result;
  } catch (thrown) {
    const err = cut ?? thrown;
    if (err instanceof ArgumentProblem) return errorResult(err.message);
    if (err instanceof InstanceError) {
      const fg = client.fineGrained;
      const named = projectNamedHint(args, err, opts.runsAs);
      if (err.status === 404 && a.notFound) {
        const nf = notFoundResult(a, args, opts.runsAs, named && `404 Project Not Found: ${named}`);
        return fg && readsGraphql(a) ? withVisibilityNote(nf) : nf;
      }
      // The instance's fine-grained answers: their own texts, and no route hint after them.
      const refused = fineGrainedFailure(a, err, fg);
      if (refused) {
        const r = errorResult(refused.render(a.id));
        return fg && refused.status === 404 && readsGraphql(a) ? withVisibilityNote(r) : r;
      }
      if (fg && OBJECT_UNREADABLE.has(a.id) && err.kind === 'graphql')
        return errorResult(probablyCommitted(a, err.classification));
      if (err.kind === 'graphql') return errorResult(`${a.id} ${err.classification}`);
      const hint = routeHint(a.id, err) ?? named ?? existsHint(a.id, err, opts);
      return errorResult((hint ? err.withHint(hint) : err).render(a.id));
    }
    // Handlers say what went wrong with a plain Error; anything else is a defect and says nothing inside.
    if (err instanceof Error && err.constructor === Error && a.handler)
      return errorResult(`${a.id}: ${err.message}`);
    if (err instanceof Error && err.name === 'PathRefused') return errorResult(`${a.id}: ${err.message}`);
    return errorResult(`${a.id}: unexpected error`);
  }
}

/** A GraphQL connection reads as its nodes, keeping the cursor to the next page. */
function graphqlResult(
  a: ActionSpec,
  result: unknown,
  runsAs?: (id: string) => string | undefined,
): ToolResult {
  const conn = result as { nodes?: unknown; pageInfo?: PageInfo; count?: unknown } | null;
  if (!conn || typeof conn !== 'object' || !Array.isArray(conn.nodes))
    return jsonResult(a, result, {}, runsAs);
  const r = jsonResult(a, conn.nodes, {}, runsAs);
  // The connection's count is every matching item, not just this page's: kept beside the page.
  const total = typeof conn.count === 'number' ? conn.count : undefined;
  if (total !== undefined) r.structuredContent = { ...r.structuredContent, count: total };
  if (conn.pageInfo) {
    r.structuredContent = { ...r.structuredContent, pageInfo: conn.pageInfo };
    // The first line says how to page, as a REST list's does from its headers (REST lists pay nothing for it).
    const block = r.content[0] as { text: string };
    const eol = block.text.indexOf('\n');
    block.text =
      connectionLine(a, conn.nodes.length, conn.pageInfo, total) + (eol < 0 ? '' : block.text.slice(eol));
  }
  return r;
}

const getActions = new WeakMap<ActionSpec, boolean>();

export function isGetAction(a: ActionSpec): boolean {
  let known = getActions.get(a);
  if (known === undefined) {
    const verb = a.id.split('.')[1] ?? '';
    known = verb === 'get' || verb.startsWith('get_') || verb.endsWith('_get') || !!a.notFound;
    getActions.set(a, known);
  }
  return known;
}
