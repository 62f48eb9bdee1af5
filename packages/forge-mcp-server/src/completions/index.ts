/**
 * completion/complete for prompt arguments and resource-template variables. Each completable name reads
 * one or two catalog list actions through the session's view and guards; at most ten values, with total
 * and hasMore from the instance's paging headers. A failing instance answers an empty completion.
 */
import { ProtocolError, UriTemplate, type Server } from '@modelcontextprotocol/server';
import { offeredPrompts, withoutMention } from '../prompts/index.js';
import { readAction, TEMPLATES } from '../resources/index.js';
import { projectArgument } from '../resources/read.js';
import type { Session } from '../session/index.js';

const MAX_VALUES = 10;
/** Where the instance cannot filter by the typed text, this many items are read and filtered here. */
const SCAN = 100;

type Rec = Record<string, unknown>;
type Ctx = Record<string, string>;

interface Source {
  action: string;
  /** Arguments from the typed prefix and the other arguments already given; undefined when it cannot run. */
  args: (prefix: string, ctx: Ctx) => Rec | undefined;
  value: (item: Rec) => unknown;
  /** An IID list: a whole number typed is also looked up exactly (its iids filter), older than any page read. */
  byIid?: boolean;
  /**
   * Values read off the items of another kind (the target branches of a group's merge requests): the same value
   * comes from several items, so they are filtered and counted here, never by the instance's total.
   */
  derived?: boolean;
}

const inProject =
  (extra: (prefix: string) => Rec = () => ({})) =>
  (prefix: string, ctx: Ctx) =>
    ctx.project_id ? { project_id: ctx.project_id, ...extra(prefix) } : undefined;

/** Only where the reference names a group and no project (a group's template). */
const inGroup =
  (extra: (prefix: string) => Rec = () => ({})) =>
  (prefix: string, ctx: Ctx) =>
    ctx.group_id && !ctx.project_id ? { group_id: ctx.group_id, ...extra(prefix) } : undefined;

const search = (p: string) => (p ? { search: p } : {});

const branches: Source = { action: 'branch.list', args: inProject(search), value: (i) => i.name };
const tags: Source = { action: 'tag.list', args: inProject(search), value: (i) => i.name };

/** The folder a typed path is in (its text up to the last '/'), listed at the ref given, if any. */
const paths: Source = {
  action: 'repository.tree',
  args: (prefix, ctx) => {
    if (!ctx.project_id) return undefined;
    const folder = prefix.slice(0, Math.max(0, prefix.lastIndexOf('/')));
    return {
      project_id: ctx.project_id,
      ...(ctx.ref ? { ref: ctx.ref } : {}),
      ...(folder ? { path: folder } : {}),
    };
  },
  // A folder ends in '/', so the next completion lists what it holds.
  value: (i) => (i.type === 'tree' ? `${String(i.path)}/` : i.path),
};

const SOURCES: Record<string, Source[]> = {
  project_id: [
    {
      action: 'project.list',
      args: (p) => ({
        membership: true,
        simple: true,
        order_by: 'last_activity_at',
        ...(p ? { search: p, search_namespaces: true } : {}),
      }),
      value: (i) => i.path_with_namespace,
    },
  ],
  group_id: [{ action: 'group.list', args: search, value: (i) => i.full_path }],
  username: [
    // Within a project, its members: they are whom a workload or a standup is about.
    {
      action: 'project.members',
      args: inProject((p) => (p ? { query: p } : {})),
      value: (i) => i.username,
    },
    // Within a group, its members (those of its parent groups included).
    {
      action: 'group.members',
      args: inGroup((p) => (p ? { query: p } : {})),
      value: (i) => i.username,
    },
    {
      action: 'user.list',
      args: (p, ctx) => (ctx.project_id || ctx.group_id ? undefined : { active: true, ...search(p) }),
      value: (i) => i.username,
    },
  ],
  branch: [branches],
  source_branch: [branches],
  target_branch: [
    branches,
    // In a group (no one project's branches to list), the branches its open merge requests target.
    {
      action: 'merge_request.list_group',
      args: inGroup(() => ({ state: 'opened' })),
      value: (i) => i.target_branch,
      derived: true,
    },
  ],
  tag: [tags],
  tag_name: [tags],
  from: [branches, tags],
  to: [branches, tags],
  ref: [branches, tags],
  path: [paths],
  merge_request_iid: [
    {
      action: 'merge_request.list',
      args: inProject(() => ({ state: 'opened' })),
      value: (i) => i.iid,
      byIid: true,
    },
  ],
  issue_iid: [
    { action: 'issue.list', args: inProject(() => ({ state: 'opened' })), value: (i) => i.iid, byIid: true },
  ],
  pipeline_id: [{ action: 'pipeline.list', args: inProject(), value: (i) => i.id }],
  job_id: [{ action: 'job.list_project', args: inProject(), value: (i) => i.id }],
  sha: [{ action: 'repository.commit_list', args: inProject(), value: (i) => i.short_id }],
  label: [{ action: 'project.label_list', args: inProject(search), value: (i) => i.name }],
  label_id: [
    { action: 'project.label_list', args: inProject(search), value: (i) => i.name },
    { action: 'group.group_label_list', args: inGroup(search), value: (i) => i.name },
  ],
  milestone: [
    {
      action: 'project.milestone_list',
      args: inProject((p) => ({ state: 'active', ...search(p) })),
      value: (i) => i.title,
    },
  ],
  // The other template variables: each its project's list (a personal snippet's without a project).
  slug: [{ action: 'wiki.list', args: inProject(), value: (i) => i.slug }],
  board_id: [{ action: 'project.board_list', args: inProject(), value: (i) => i.id }],
  environment_id: [{ action: 'environment.list', args: inProject(), value: (i) => i.id }],
  deployment_id: [
    {
      action: 'environment.deployment_list',
      args: inProject(() => ({ order_by: 'id', sort: 'desc' })),
      value: (i) => i.id,
    },
  ],
  deploy_key_id: [{ action: 'access.deploy_key_list_project', args: inProject(), value: (i) => i.id }],
  name: [{ action: 'feature_flags.feature_flag_list', args: inProject(), value: (i) => i.name }],
  snippet_id: [
    { action: 'snippet.project_list', args: inProject(), value: (i) => i.id },
    { action: 'snippet.list', args: (_p, ctx) => (ctx.project_id ? undefined : {}), value: (i) => i.id },
  ],
  milestone_iid: [
    { action: 'project.milestone_list', args: inProject(() => ({ state: 'active' })), value: (i) => i.iid },
    { action: 'group.group_milestone_list', args: inGroup(() => ({ state: 'active' })), value: (i) => i.iid },
  ],
};

/** The mark the instance writes before an IID in a reference, as typed before the number (or alone). */
const MARK: Record<string, RegExp> = { merge_request_iid: /^!/, issue_iid: /^#/ };

/** What a prompt's number of days completes with. */
const DAY_SPANS = ['1', '7', '14', '30', '90', '180', '365'];

/** The manifest entry's template: completed with the canonical IDs this session offers. */
const MANIFEST_TEMPLATE = 'forge://tools/{id}';

const fail = (message: string): never => {
  throw new ProtocolError(-32602, message);
};

const templates = TEMPLATES.map((t) => ({ spec: t, template: new UriTemplate(t.uriTemplate) }));

/**
 * The names the reference may complete; undefined for a prompt this server does not offer (completed with
 * nothing, as clients and the official conformance suite expect of an advisory method); a JSON-RPC error
 * naming what to send instead for a reference that cannot be read at all.
 */
function namesOf(session: Session, ref: { type: string; name?: string; uri?: string }): string[] | undefined {
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string' || ref.name === '')
      fail('ref/prompt needs a name; send a name from prompts/list (for example review_mr).');
    return offeredPrompts(session)
      .find((x) => x.name === ref.name)
      ?.args.map((a) => a.name);
  }
  if (ref.type !== 'ref/resource')
    fail(
      `Unknown reference type ${JSON.stringify(ref.type)}; send ref/prompt with a name or ref/resource with a uri.`,
    );
  if (ref.uri === MANIFEST_TEMPLATE) return ['id'];
  const t = templates.find((x) => x.spec.uriTemplate === ref.uri);
  const a = t && session.view.catalog.get(t.spec.action);
  if (
    !t ||
    !a ||
    session.view.availability(a).state === 'absent' ||
    session.config.capabilitySurface === 'minimal'
  )
    fail(
      `Unknown resource template ${JSON.stringify(ref.uri)} in ref/resource; send a uriTemplate from resources/templates/list (for example forge://project/{project_id}).`,
    );
  return t!.template.variableNames;
}

interface Completion {
  values: string[];
  total?: number;
  hasMore: boolean;
}

/** At most MAX_VALUES of `values` (duplicates dropped), those starting with the typed text first. */
function shortlist(values: string[], prefix: string, total: number | undefined, more: boolean): Completion {
  const p = prefix.toLowerCase();
  const unique = [...new Set(values)];
  const ordered = [
    ...unique.filter((v) => v.toLowerCase().startsWith(p)),
    ...unique.filter((v) => !v.toLowerCase().startsWith(p)),
  ];
  const shown = ordered.slice(0, MAX_VALUES);
  const all = total === undefined ? undefined : Math.max(total, unique.length);
  return {
    values: shown,
    ...(all !== undefined ? { total: all } : {}),
    hasMore: more || (all ?? unique.length) > shown.length,
  };
}

/** forge://tools/{id}: the canonical IDs the session offers, in ID order. */
function actionIds(session: Session, prefix: string): Completion {
  const p = prefix.toLowerCase();
  const ids = session.view.catalog.actions
    .filter((a) => a.id.toLowerCase().startsWith(p) && session.view.availability(a).state !== 'absent')
    .map((a) => a.id)
    .sort();
  return shortlist(ids, prefix, ids.length, false);
}

async function complete(session: Session, name: string, prefix: string, ctx: Ctx, signal?: AbortSignal) {
  const values: string[] = [];
  let total: number | undefined = 0;
  let more = false;
  // One completion request, one deadline for all its reads.
  const due = session.client.deadlineFromNow();
  for (const s of SOURCES[name] ?? []) {
    const action = session.view.catalog.get(s.action);
    if (!action || session.view.availability(action).state === 'absent') continue;
    const args = s.args(prefix, ctx);
    if (!args) continue;
    // The instance filters by the typed text where it can search; otherwise a larger page is filtered here.
    const searched = 'search' in args || 'query' in args;
    const paged = 'per_page' in (await session.view.catalog.spec(action)).params;
    // Filtered here when the instance cannot search, or when the list comes whole (unpaged).
    const local = (prefix !== '' && !searched) || !paged || s.derived === true;
    const r = await readAction(
      session,
      s.action,
      paged ? { ...args, per_page: local ? SCAN : MAX_VALUES } : args,
      signal,
      undefined,
      due,
    );
    // The instance failing, or a guard refusing, completes nothing: completion is a convenience.
    if (!r.ok || !Array.isArray(r.data)) continue;
    const found = [
      ...new Set(
        (r.data as Rec[])
          .map((i) => s.value(i))
          .filter((v) => v !== undefined && v !== null)
          .map(String)
          .filter((v) => !local || v.toLowerCase().startsWith(prefix.toLowerCase())),
      ),
    ];
    // The IID typed, when it exists but is older than the page read: asked for by itself, offered first.
    if (s.byIid && local && r.next && /^[1-9]\d{0,15}$/.test(prefix) && !found.includes(prefix)) {
      const exact = await readAction(session, s.action, { ...args, iids: [prefix] }, signal, undefined, due);
      if (
        exact.ok &&
        Array.isArray(exact.data) &&
        exact.data.some((i) => String(s.value(i as Rec)) === prefix)
      )
        values.push(prefix);
    }
    values.push(...found);
    if (local) {
      // Matches beyond the page read are not known: more may exist, their number is not.
      if (r.next) {
        more = true;
        total = undefined;
      } else if (total !== undefined) total += found.length;
    } else {
      if (total !== undefined) total += r.total ?? found.length;
      if (r.next) more = true;
    }
  }
  return shortlist(values, prefix, total, more);
}

/** A URI template's variables come percent-encoded as the URI carries them (acme%2Fwidgets): read them decoded. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function registerCompletions(server: Server, session: Session, guardSession: () => void): void {
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    guardSession();
    const { ref, argument, context } = request.params as {
      ref: { type: string; name?: string; uri?: string };
      argument: { name: string; value: string };
      context?: { arguments?: Record<string, string> };
    };
    const names = namesOf(session, ref);
    if (!names) return { completion: { values: [], total: 0, hasMore: false } } as never;
    if (!names.includes(argument.name))
      fail(
        `${ref.name ?? ref.uri} has no argument ${JSON.stringify(argument.name)}; complete one of ${names.join(', ')}.`,
      );
    const resource = ref.type === 'ref/resource';
    // Typed as the instance writes a reference or a mention (!4, #12, @alice): completed without its mark.
    const typed = resource ? decoded(argument.value ?? '') : (argument.value ?? '');
    const prefix = withoutMention(argument.name, typed.replace(MARK[argument.name] ?? /$^/, ''));
    if (resource && ref.uri === MANIFEST_TEMPLATE) return { completion: actionIds(session, prefix) } as never;
    // A number of days: the spans people ask for, nothing to read.
    const days =
      !resource &&
      offeredPrompts(session)
        .find((p) => p.name === ref.name)
        ?.args.find((a) => a.name === argument.name)?.days;
    if (days) {
      const spans = DAY_SPANS.filter((d) => d.startsWith(prefix));
      return { completion: shortlist(spans, prefix, spans.length, false) } as never;
    }
    const given: Ctx = Object.fromEntries(
      Object.entries(context?.arguments ?? {})
        .filter(([, v]) => typeof v === 'string' && v !== '')
        .map(([k, v]) => [k, resource ? decoded(v) : v]),
    );
    // A project given as a prompt's user writes it (a web URL of the instance) names its project here too.
    if (given.project_id) {
      const on = projectArgument(session, given.project_id);
      if ('path' in on) given.project_id = on.path;
      else delete given.project_id;
    }
    const completion = await complete(session, argument.name, prefix, given, ctx.mcpReq.signal);
    return { completion } as never;
  });
}
