/**
 * Resources under forge://: the tools manifest, three static resources, the workflow guides and the
 * resource templates. Every data read is a catalog action run through the session's view and guards.
 * FORGE_MCP_CAPABILITY_SURFACE=minimal keeps only the tools manifest.
 */
import {
  inputRequired,
  inputResponse,
  ProtocolError,
  ResourceNotFoundError,
  UriTemplate,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ActionSpec } from '../catalog/types.js';
import { clip } from '../executor/suggest.js';
import type { Session } from '../session/index.js';
import { priorities } from './compat.js';
import { GUIDES } from './guides.js';
import { callsNamedIn, manifest, manifestEntry } from './manifest.js';
import { readAction, type Conditional, type ReadOutcome } from './read.js';
import { COLLECTION_CAP, TEMPLATES, type TemplateSpec } from './templates.js';

export { readAction, type Conditional, type ReadOutcome } from './read.js';
export { TEMPLATES } from './templates.js';

const INVALID_PARAMS = -32602;
/** The _meta key marking a template whose resources may be subscribed to. */
export const SUBSCRIBABLE_KEY = 'io.github.forge-mcp-server/subscribable';
/** The _meta key carrying a collection's paging facts. */
export const PAGE_INFO_KEY = 'io.github.forge-mcp-server/pageInfo';
/** Text files larger than this are answered with their first MiB, marked truncated. */
const FILE_CAP = 1024 * 1024;
/** The _meta key carrying a file's metadata (size, ref, blob and commit IDs, binary, truncated). */
const FILE_KEY = 'io.github.forge-mcp-server/file';

interface StaticResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** Kept under the minimal capability surface. */
  minimal?: boolean;
  /** The action a data resource reads (hidden when that action is excluded). */
  action?: string;
  /** A collection: one page a read, its URI's query naming the page (as templates' collections). */
  collection?: boolean;
  annotations: { audience: Array<'user' | 'assistant'>; priority: number };
}

/** How much a model should want each kind of resource in its context (0 to 1). */
const PRIORITY = {
  manifest: 0.9,
  user: 0.6,
  object: 0.7,
  collection: 0.5,
  groups: 0.4,
  roots: 0.3,
  guide: 0.2,
};
const forModel = (priority: number) => ({ audience: ['assistant' as const], priority });

const MANIFEST_URI = 'forge://tools';

function staticResources(): StaticResource[] {
  return [
    {
      uri: MANIFEST_URI,
      name: 'tool_manifest',
      title: 'Tools manifest',
      description:
        'What this session can call on its tool surface; forge://tools/<canonical id> gives one entry with its call shape and input schema.',
      mimeType: 'application/json',
      minimal: true,
      annotations: forModel(PRIORITY.manifest),
    },
    {
      uri: 'forge://user/current',
      name: 'current_user',
      title: 'Current user',
      description: 'The user the token belongs to.',
      mimeType: 'application/json',
      action: 'user.current',
      annotations: forModel(PRIORITY.user),
    },
    {
      uri: 'forge://groups',
      name: 'groups',
      title: 'Groups',
      description: `Groups the user can see (one page, at most ${COLLECTION_CAP}).`,
      mimeType: 'application/json',
      action: 'group.list',
      collection: true,
      annotations: forModel(PRIORITY.groups),
    },
    {
      uri: 'forge://workspace/roots',
      name: 'workspace_roots',
      title: 'Workspace roots',
      description: 'The folders the client declared as its roots (for discover_project.resolve).',
      mimeType: 'application/json',
      annotations: forModel(PRIORITY.roots),
    },
    ...GUIDES.map((g) => ({
      uri: `forge://guides/${g.name}`,
      name: g.name,
      title: g.title,
      description: g.description,
      mimeType: 'text/markdown',
      annotations: { audience: ['user' as const, 'assistant' as const], priority: PRIORITY.guide },
    })),
  ];
}

const offered = (session: Session, id: string | undefined) => {
  if (!id) return true;
  const a = session.view.catalog.get(id);
  return !!a && session.view.availability(a).state !== 'absent';
};

/**
 * Listed by resources/list and resources/templates/list: what the session's surfaces list (a fine-grained grant
 * lists only what it reaches), so a listed resource can be read. One not listed is still answered when read, with
 * the refusal a call would get.
 */
const listed = (session: Session, id: string | undefined) => {
  if (!id) return true;
  const a = session.view.catalog.get(id);
  return !!a && session.view.isListed(a);
};

const compiled = TEMPLATES.map((spec) => ({ spec, template: new UriTemplate(spec.uriTemplate) }));

function fail(code: number, message: string): never {
  throw new ProtocolError(code, message);
}

/** A resource that does not exist: -32602 with data.uri, as the 2026-07-28 revision asks of every era. */
function notFound(uri: string, message: string): never {
  throw new ResourceNotFoundError(uri, message);
}

/** How deep groups nest on the instance (subgroups up to 20 levels). */
const MAX_NESTING = 20;
/** The most segments a name holding '/' (a branch such as feature/login) is tried as, past the path. */
const MAX_NAME_SEGMENTS = 16;

/**
 * The URI meant where a project's or group's path, or a name in the URI after it (a branch, a tag, a label), was
 * written with bare slashes: forge://project/acme/widgets is forge://project/acme%2Fwidgets, and
 * forge://project/acme%2Fwidgets/branch/feature/login is …/branch/feature%2Flogin. The shortest run of leading
 * segments encoded as one, then the fewest trailing segments encoded as one, that makes a URI a template matches;
 * `name` says whether a trailing name was encoded. Undefined when none does.
 */
function encodedPathMeant(uri: string): { uri: string; path: boolean; name: boolean } | undefined {
  const m = /^(forge:\/\/(?:project|group)\/)([^?]*)$/.exec(uri);
  if (!m) return undefined;
  const segments = m[2].split('/');
  // A path has at most MAX_NESTING groups above its project, and a name at most MAX_NAME_SEGMENTS parts: no longer
  // run is tried (a long URI stays cheap).
  const names = segments.length <= MAX_NESTING + 1 + MAX_NAME_SEGMENTS;
  for (let k = 1; k <= Math.min(segments.length, MAX_NESTING + 1); k++) {
    if (segments.slice(0, k).some((x) => !x)) return undefined;
    const rest = segments.slice(k);
    // j: how many of the rest stay as they are; the others are one name.
    const fewest = rest.length === 0 ? 0 : names ? 1 : rest.length;
    for (let j = rest.length; j >= fewest; j--) {
      // The URI as written matched nothing.
      if (k === 1 && j === rest.length) continue;
      const tail = rest.slice(Math.max(0, j - 1));
      if (j < rest.length && tail.some((x) => !x)) continue;
      const kept = rest.slice(0, Math.max(0, j - 1));
      const parts = [segments.slice(0, k).join('%2F'), ...kept, ...(tail.length ? [tail.join('%2F')] : [])];
      const candidate = `${m[1]}${parts.join('/')}`;
      if (compiled.some(({ template }) => template.match(candidate)))
        return { uri: candidate, path: k > 1, name: j < rest.length };
    }
  }
  return undefined;
}

function unknownUri(uri: string): never {
  const meant = encodedPathMeant(uri);
  if (meant) {
    const what = meant.path
      ? meant.name
        ? "A project's or group's path, and a name holding '/' (a branch, a tag), go"
        : "A project's or group's path goes"
      : "A name holding '/' (a branch, a tag) goes";
    notFound(
      uri,
      `Unknown resource ${uri}. ${what} into the URI encoded, each '/' as %2F: read ${meant.uri}.`,
    );
  }
  notFound(
    uri,
    `Unknown resource ${uri}. Send a URI from resources/list (for example ${MANIFEST_URI}) or one built from a template in resources/templates/list (for example forge://project/{project_id}/issue/{issue_iid}).`,
  );
}

/** The parameters a collection URI's query may name: the page, or the continuation a keyset page names. */
const CONTINUATIONS = ['page', 'cursor', 'page_token', 'last', 'id_after', 'id_before'];
const NUMBERED = new Set(['page', 'id_after', 'id_before']);

/** A URI's path and its query, split at the first '?' (undefined when there is none). */
function splitQuery(uri: string): [string, string | undefined] {
  const i = uri.indexOf('?');
  return i < 0 ? [uri, undefined] : [uri.slice(0, i), uri.slice(i + 1)];
}

/**
 * The arguments reading the page a collection URI's query names (as its previous page's pageInfo.next wrote
 * it): the page number, or a keyset continuation, which reads by keyset. Anything else is refused, before
 * anything is sent.
 */
function pageArgs(uri: string, query: string, action: ActionSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const taken = CONTINUATIONS.filter((k) => Object.hasOwn(action.params, k));
  for (const [key, value] of new URLSearchParams(query)) {
    if (!taken.includes(key) || Object.keys(out).length)
      fail(
        INVALID_PARAMS,
        `${uri}: a collection's URI takes in its query only the page its pageInfo.next names (one of ${taken.join(', ')}); got ${JSON.stringify(clip(key))}. Read the URI without a query for the first page.`,
      );
    if (NUMBERED.has(key) && !/^[1-9]\d{0,15}$/.test(value))
      fail(
        INVALID_PARAMS,
        `${uri}: ${key} must be a whole number (for example 2); got ${JSON.stringify(clip(value))}.`,
      );
    if (!value) fail(INVALID_PARAMS, `${uri}: ${key} is empty; send the URI pageInfo.next names.`);
    out[key] = NUMBERED.has(key) ? Number(value) : value;
  }
  if (Object.keys(out).some((k) => k !== 'page')) out.pagination = 'keyset';
  return out;
}

/** Decodes the template's variables and refuses any that would leave their place in the path. */
async function argumentsOf(
  uri: string,
  spec: TemplateSpec,
  vars: Record<string, string | string[]>,
  session: Session,
  query?: string,
) {
  const action = await session.view.catalog.spec(session.view.catalog.get(spec.action)!);
  const args: Record<string, unknown> = { ...spec.fixed };
  for (const [name, raw] of Object.entries(vars)) {
    const text = Array.isArray(raw) ? raw.join(',') : raw;
    let value: string;
    try {
      value = decodeURIComponent(text);
    } catch {
      fail(
        INVALID_PARAMS,
        `${uri}: the variable ${name} is not valid percent-encoding; encode reserved characters as %XX.`,
      );
    }
    if (!value || /[\0-\x1f]/.test(value))
      fail(
        INVALID_PARAMS,
        `${uri}: the variable ${name} is empty or holds control characters; send a value like those in ${spec.uriTemplate}.`,
      );
    if (value.split('/').some((s) => s === '..' || s === '.') || value.startsWith('/'))
      fail(
        INVALID_PARAMS,
        `${uri}: the variable ${name} leaves its place in the path ('..', '.' or a leading '/'); send a path inside it, for example docs/README.md.`,
      );
    const param = spec.byIid === name ? 'iids' : (spec.rename?.[name] ?? name);
    const schema = action.params[param] as { type?: string | string[] } | undefined;
    const integer = schema?.type === 'integer' || spec.byIid === name;
    if (integer && !/^\d+$/.test(value))
      fail(
        INVALID_PARAMS,
        `${uri}: ${name} must be a whole number (for example 12); got ${JSON.stringify(value)}.`,
      );
    // Unlike a tool's or prompt's project, no pasted URL is read: a client builds the URI from its template.
    args[param] = spec.byIid === name ? [Number(value)] : integer ? Number(value) : value;
  }
  if (spec.collection && action.params.per_page) args.per_page = COLLECTION_CAP;
  const page = query !== undefined ? pageArgs(uri, query, action) : {};
  // A keyset collection's first page asks for keyset paging; a page given by number reads by number.
  if (spec.keyset && page.page === undefined) args.pagination = 'keyset';
  return Object.assign(args, page);
}

function refusal(uri: string, r: Extract<ReadOutcome, { ok: false }>): never {
  if (r.kind === 'unknown') unknownUri(uri);
  if (r.kind === 'invalid') fail(INVALID_PARAMS, `${uri}: ${r.text}`);
  // A guard's refusal or the instance's own answer, in the same words a tool call would get.
  if (r.kind === 'failed' && /not found/i.test(r.text)) notFound(uri, `${uri}: ${r.text}`);
  // -40300 is the server's code for a refusal a call of the same action would get, as on tools.
  fail(r.kind === 'refused' ? -40300 : -32603, `${uri}: ${r.text}`);
}

/**
 * A file the instance does not have at the ref named. When its path starts with a folder, that folder may be the rest
 * of a ref holding '/' written bare (…/file/feature/login/src/a.js for the branch feature/login): the error then
 * names the URI that reads the file at that ref.
 */
function fileNotFound(uri: string, vars: Record<string, string | string[]>, text: string): never {
  const [ref, path] = [String(vars.ref), String(vars.path)];
  const cut = path.indexOf('/');
  const at = uri.lastIndexOf(`/file/${ref}/${path}`);
  if (cut > 0 && at >= 0) {
    const meant = `${uri.slice(0, at)}/file/${ref}%2F${path.slice(0, cut)}/${path.slice(cut + 1)}`;
    notFound(
      uri,
      `${uri}: ${text}\n\nA ref holding '/' (a branch such as feature/login) goes into the URI encoded, each '/' as %2F: if the ref is ${JSON.stringify(`${ref}/${path.slice(0, cut)}`)}, read ${meant}.`,
    );
  }
  notFound(uri, `${uri}: ${text}`);
}

function json(uri: string, data: unknown, meta?: Record<string, unknown>) {
  return {
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }],
    ...(meta ? { _meta: meta } : {}),
  };
}

function fileContents(uri: string, data: unknown) {
  const f = (data ?? {}) as Record<string, unknown>;
  const { content, ...meta } = f;
  const bytes = Buffer.from(
    typeof content === 'string' ? content : '',
    f.encoding === 'base64' ? 'base64' : 'utf8',
  );
  const whole = bytes.toString('utf8');
  const binary = bytes.includes(0) || whole.includes('\uFFFD');
  if (binary)
    return {
      contents: [{ uri, mimeType: 'application/octet-stream', text: '' }],
      _meta: { [FILE_KEY]: { ...meta, binary } },
    };
  if (bytes.length <= FILE_CAP)
    return {
      contents: [{ uri, mimeType: 'text/plain', text: whole }],
      _meta: { [FILE_KEY]: { ...meta, binary } },
    };
  // Text over the cap: its first MiB, cut after the last whole line within it, and what was left out.
  const head = bytes.subarray(0, FILE_CAP);
  const end = head.lastIndexOf(0x0a);
  const text = head
    .subarray(0, end > 0 ? end + 1 : FILE_CAP)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return {
    contents: [{ uri, mimeType: 'text/plain', text }],
    _meta: {
      [FILE_KEY]: {
        ...meta,
        binary,
        truncated: true,
        returned_bytes: Buffer.byteLength(text),
        note: `The first ${Buffer.byteLength(text)} of ${bytes.length} bytes, ${end > 0 ? "cut at a line's end" : 'cut after a whole character (no line ends within the first MiB)'}; the whole file is too large for one read.`,
      },
    },
  };
}

/** The contents resources/read answers. */
export type ReadResult = { contents: Array<Record<string, unknown>>; _meta?: Record<string, unknown> };

/**
 * A resource a URI names, ready to read: every check that needs no instance (scheme, template, variables,
 * exclusions, surface) is done when it is resolved, so a bad URI is refused before anything is sent. `read`
 * then runs the matching action through the session's guards; given a Conditional it sends the instance
 * If-None-Match and answers undefined when the instance says 304. `source` says where the contents come from:
 * the instance, the session itself (the manifest), or nowhere that changes (guides, the client's roots).
 */
export interface ResolvedResource {
  source: 'instance' | 'session' | 'fixed';
  read(signal: AbortSignal | undefined, conditional?: Conditional): Promise<ReadResult | undefined>;
}

/**
 * A collection page's paging facts: how many items it holds, the total where known, whether this one read holds
 * the whole collection, and `next`, the URI of the next page (the collection's URI with the page or keyset
 * continuation in its query), when there is one. `base`: the collection's URI without a query; `continued`:
 * whether this read is of a later page.
 */
function collectionMeta(
  r: Extract<ReadOutcome, { ok: true }>,
  data: unknown[],
  template: boolean,
  base: string,
  continued: boolean,
) {
  const returned = data.length;
  const total = template ? (r.total ?? (r.next || continued ? undefined : returned)) : r.total;
  const whole = template ? !r.next && (total ?? returned) <= returned : !r.next;
  return {
    [PAGE_INFO_KEY]: {
      returned,
      ...(total !== undefined ? { total } : {}),
      complete: whole && !continued,
      ...(r.next ? { next: `${base}?${new URLSearchParams(r.next).toString()}` } : {}),
      ...(continued && returned === 0 && !r.next ? pastTheEnd(r, base) : {}),
    },
  };
}

/**
 * A page asked for by number that holds nothing because the collection ends before it: its empty list is not "no
 * items", so the page info says where the collection ends (its page count and last page, when the instance counts
 * them) and what to read instead.
 */
function pastTheEnd(r: Extract<ReadOutcome, { ok: true }>, base: string) {
  const { page, pages, total } = r;
  if (page === undefined || page <= 1) return {};
  if (total === 0)
    return {
      last_page: base,
      note: `Page ${page} is past the end: this collection is empty (the instance counts 0 items).`,
    };
  if (pages === undefined || pages < 1 || pages >= page)
    return {
      note: `Page ${page} is past the end: the collection ends before it${pages === undefined ? ' (the instance does not say how many pages it has)' : ''}. Read ${base} and follow pageInfo.next to the last page.`,
    };
  const last = pages === 1 ? base : `${base}?page=${pages}`;
  const items = total === undefined ? '' : `${total} item${total === 1 ? '' : 's'} on `;
  return {
    pages,
    last_page: last,
    note: `Page ${page} is past the end: this collection has ${items}${pages} page${pages === 1 ? '' : 's'}; its last page is ${last}.`,
  };
}

/** The item of a list read for one IID that carries it (a template's `byIid`), or a not-found error. */
function byIid(uri: string, spec: TemplateSpec, args: Record<string, unknown>, data: unknown) {
  const iid = (args.iids as number[])[0];
  const item = (Array.isArray(data) ? (data as Array<Record<string, unknown>>) : []).find(
    (i) => Number(i.iid) === iid,
  );
  if (!item)
    notFound(
      uri,
      `${uri}: no ${spec.title.toLowerCase()} has IID ${iid}, or this token cannot see it. Its list (the ${spec.action} action) names the IIDs there are.`,
    );
  return item;
}

/**
 * The templates whose resources a client may subscribe to: every one listed (each is polled for changes), none on
 * the minimal surface, which offers no subscriptions.
 */
function subscribable(session: Session): string[] {
  if (session.config.capabilitySurface === 'minimal') return [];
  return TEMPLATES.filter((t) => listed(session, t.action)).map((t) => t.uriTemplate);
}

async function resolveTemplate(uri: string, session: Session): Promise<ResolvedResource> {
  // A collection's URI may name a page in its query; other templates match the URI whole.
  const [base, query] = splitQuery(uri);
  for (const { spec, template } of compiled) {
    const paged = spec.collection === true && query !== undefined;
    const vars = template.match(paged ? base : uri);
    if (!vars) continue;
    if (!offered(session, spec.action)) unknownUri(uri);
    const args = await argumentsOf(uri, spec, vars, session, paged ? query : undefined);
    return {
      source: 'instance',
      read: async (signal, conditional) => {
        const r = await readAction(session, spec.action, args, signal, conditional);
        if (!r.ok && spec.file && r.kind === 'failed' && /not found/i.test(r.text))
          fileNotFound(uri, vars, r.text);
        if (!r.ok) refusal(uri, r);
        if (conditional?.notModified) return undefined;
        if (spec.file) return fileContents(uri, r.data);
        if (spec.byIid) return json(uri, byIid(uri, spec, args, r.data));
        if (spec.collection && Array.isArray(r.data))
          return json(uri, r.data, collectionMeta(r, r.data, true, base, paged));
        return json(uri, r.data);
      },
    };
  }
  unknownUri(uri);
}

/** Resolves a forge:// URI for resources/read and resources/subscribe; throws what a bad URI is answered. */
export async function resolveResource(
  uri: string,
  session: Session,
  server?: Server,
): Promise<ResolvedResource> {
  const minimal = session.config.capabilitySurface === 'minimal';
  if (!uri.startsWith('forge://')) unknownUri(uri);
  if (uri === MANIFEST_URI)
    return { source: 'session', read: async () => json(uri, manifest(session, subscribable(session))) };
  if (uri.startsWith(`${MANIFEST_URI}/`)) {
    const id = uri.slice(MANIFEST_URI.length + 1);
    if (!(await manifestEntry(session, id)))
      notFound(
        uri,
        `No action ${JSON.stringify(id)} on this server. Read ${MANIFEST_URI} for the canonical IDs offered (for example forge://tools/issue.list).`,
      );
    return { source: 'session', read: async () => json(uri, await manifestEntry(session, id)) };
  }
  if (minimal)
    notFound(
      uri,
      `${uri} is not offered: this server runs with FORGE_MCP_CAPABILITY_SURFACE=minimal, which keeps only ${MANIFEST_URI}. Use the tools instead.`,
    );
  const guide = GUIDES.find((g) => uri === `forge://guides/${g.name}`);
  if (guide)
    return {
      source: 'fixed',
      read: async () => {
        // The actions the guide names, as this session's tool surface calls them.
        const calls = callsNamedIn(session, guide.text);
        const text = calls ? `${guide.text}\n${calls}\n` : guide.text;
        return { contents: [{ uri, mimeType: 'text/markdown', text }] };
      },
    };
  if (uri === ROOTS_URI)
    return { source: 'fixed', read: async () => json(uri, await workspaceRoots(server)) };
  const [base, query] = splitQuery(uri);
  const fixed = staticResources().find(
    (r) => r.action && (r.uri === uri || (r.collection && query !== undefined && r.uri === base)),
  );
  if (fixed) {
    if (!offered(session, fixed.action)) unknownUri(uri);
    const args: Record<string, unknown> = fixed.collection ? { per_page: COLLECTION_CAP } : {};
    const paged = fixed.collection === true && query !== undefined;
    if (paged) {
      const action = await session.view.catalog.spec(session.view.catalog.get(fixed.action!)!);
      Object.assign(args, pageArgs(uri, query, action));
    }
    return {
      source: 'instance',
      read: async (signal, conditional) => {
        const r = await readAction(session, fixed.action!, args, signal, conditional);
        if (!r.ok) refusal(uri, r);
        if (conditional?.notModified) return undefined;
        if (Array.isArray(r.data)) return json(uri, r.data, collectionMeta(r, r.data, false, base, paged));
        return json(uri, r.data);
      },
    };
  }
  return resolveTemplate(uri, session);
}

const ROOTS_URI = 'forge://workspace/roots';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * forge://workspace/roots from 2026-07-28 on: the server cannot send roots/list of its own, so a client that
 * declared roots on this request is asked within the read (an input request), and its re-sent read carries them.
 */
function modernRoots(ctx: ServerContext) {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
  if (answer.kind === 'roots') return json(ROOTS_URI, { roots: answer.roots });
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const declared = (envelope?.[CAPABILITIES_KEY] ?? meta?.[CAPABILITIES_KEY]) as
    Record<string, unknown> | undefined;
  if (!declared?.roots)
    return json(ROOTS_URI, { roots: [], note: 'the client declared no roots capability' });
  if (answer.kind !== 'missing')
    return json(ROOTS_URI, { roots: [], note: 'the client did not answer roots/list' });
  return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
}

async function workspaceRoots(server: Server | undefined) {
  if (!server?.getClientCapabilities()?.roots)
    return { roots: [], note: 'the client declared no roots capability' };
  try {
    return await server.listRoots();
  } catch {
    return { roots: [], note: 'the client did not answer roots/list' };
  }
}

/** Registers resources/list, resources/templates/list and resources/read on a session's server. */
export function registerResources(server: Server, session: Session, guardSession: () => void): void {
  const minimal = session.config.capabilitySurface === 'minimal';
  const statics = () => staticResources().filter((r) => (minimal ? r.minimal : listed(session, r.action)));

  const compat = session.config.clientCompat;

  server.setRequestHandler('resources/list', async (_request, ctx) => {
    guardSession();
    const resources = statics().map(({ minimal: _m, action: _a, collection: _c, ...r }) => r);
    return { resources: priorities(resources, compat, server, ctx) } as never;
  });

  const manifestTemplate = {
    uriTemplate: `${MANIFEST_URI}/{id}`,
    name: 'tool_manifest_entry',
    title: 'Tools manifest entry',
    description:
      'One action: call shape, input schema, metadata, fine-grained needs, and why it is withheld if it is.',
    mimeType: 'application/json',
    annotations: forModel(PRIORITY.manifest),
  };

  server.setRequestHandler('resources/templates/list', async (_request, ctx) => {
    guardSession();
    const objects = minimal
      ? []
      : TEMPLATES.filter((t) => listed(session, t.action)).map((t) => ({
          uriTemplate: t.uriTemplate,
          name: t.name,
          title: t.title,
          description: t.description,
          mimeType: t.file ? 'text/plain' : 'application/json',
          annotations: forModel(t.collection ? PRIORITY.collection : PRIORITY.object),
          // Its resources may be subscribed to (polled for changes), as the manifest's list says too.
          _meta: { [SUBSCRIBABLE_KEY]: true },
        }));
    return {
      resourceTemplates: priorities([manifestTemplate, ...objects], compat, server, ctx),
    } as never;
  });

  server.setRequestHandler('resources/read', async (request, ctx) => {
    guardSession();
    if (request.params.uri === ROOTS_URI && ctx.mcpReq.envelope !== undefined && !minimal)
      return modernRoots(ctx) as never;
    const resolved = await resolveResource(request.params.uri, session, server);
    return (await resolved.read(ctx.mcpReq.signal)) as never;
  });
}
