/**
 * completion/complete for prompt arguments and resource-template variables. Each completable name reads
 * one or two catalog list actions through the session's view and guards; at most ten values, with total
 * and hasMore from the instance's paging headers. A failing instance answers an empty completion.
 */
import { ProtocolError, UriTemplate, type Server } from '@modelcontextprotocol/server';
import { offeredPrompts } from '../prompts/index.js';
import { readAction, TEMPLATES } from '../resources/index.js';
import type { Session } from '../session/index.js';

const MAX_VALUES = 10;

type Rec = Record<string, unknown>;

interface Source {
  action: string;
  /** Arguments from the typed prefix and the other arguments already given; undefined when it cannot run. */
  args: (prefix: string, ctx: Record<string, string>) => Rec | undefined;
  value: (item: Rec) => unknown;
}

const inProject =
  (extra: (prefix: string) => Rec = () => ({})) =>
  (prefix: string, ctx: Record<string, string>) =>
    ctx.project_id ? { project_id: ctx.project_id, ...extra(prefix) } : undefined;

const branches: Source = {
  action: 'branch.list',
  args: inProject((p) => (p ? { search: p } : {})),
  value: (i) => i.name,
};
const tags: Source = {
  action: 'tag.list',
  args: inProject((p) => (p ? { search: p } : {})),
  value: (i) => i.name,
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
  group_id: [{ action: 'group.list', args: (p) => (p ? { search: p } : {}), value: (i) => i.full_path }],
  username: [
    {
      action: 'user.list',
      args: (p) => ({ active: true, ...(p ? { search: p } : {}) }),
      value: (i) => i.username,
    },
  ],
  branch: [branches],
  source_branch: [branches],
  target_branch: [branches],
  tag: [tags],
  tag_name: [tags],
  from: [branches, tags],
  to: [branches, tags],
  ref: [branches, tags],
  merge_request_iid: [
    { action: 'merge_request.list', args: inProject(() => ({ state: 'opened' })), value: (i) => i.iid },
  ],
  issue_iid: [{ action: 'issue.list', args: inProject(() => ({ state: 'opened' })), value: (i) => i.iid }],
  pipeline_id: [{ action: 'pipeline.list', args: inProject(), value: (i) => i.id }],
  job_id: [{ action: 'job.list_project', args: inProject(), value: (i) => i.id }],
  sha: [{ action: 'repository.commit_list', args: inProject(), value: (i) => i.short_id }],
  label: [
    { action: 'project.label_list', args: inProject((p) => (p ? { search: p } : {})), value: (i) => i.name },
  ],
  label_id: [
    { action: 'project.label_list', args: inProject((p) => (p ? { search: p } : {})), value: (i) => i.name },
  ],
  milestone: [
    {
      action: 'project.milestone_list',
      args: inProject((p) => ({ state: 'active', ...(p ? { search: p } : {}) })),
      value: (i) => i.title,
    },
  ],
  milestone_iid: [
    { action: 'project.milestone_list', args: inProject(() => ({ state: 'active' })), value: (i) => i.iid },
  ],
};

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

async function complete(
  session: Session,
  name: string,
  prefix: string,
  ctx: Record<string, string>,
  signal?: AbortSignal,
) {
  const values: string[] = [];
  let total = 0;
  let more = false;
  for (const s of SOURCES[name] ?? []) {
    const action = session.view.catalog.get(s.action);
    if (!action || session.view.availability(action).state === 'absent') continue;
    const args = s.args(prefix, ctx);
    if (!args) continue;
    const r = await readAction(session, s.action, { ...args, per_page: MAX_VALUES }, signal);
    // The instance failing, or a guard refusing, completes nothing: completion is a convenience.
    if (!r.ok || !Array.isArray(r.data)) continue;
    const found = (r.data as Rec[])
      .map((i) => s.value(i))
      .filter((v) => v !== undefined && v !== null)
      .map(String)
      .filter((v) => v.toLowerCase().startsWith(prefix.toLowerCase()) || /search/.test(JSON.stringify(args)));
    values.push(...found);
    total += r.total ?? found.length;
    if (r.next) more = true;
  }
  const unique = [...new Set(values)].slice(0, MAX_VALUES);
  total = Math.max(total, unique.length);
  return { values: unique, total, hasMore: more || total > unique.length };
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
    const completion = await complete(
      session,
      argument.name,
      argument.value ?? '',
      context?.arguments ?? {},
      ctx.mcpReq.signal,
    );
    return { completion } as never;
  });
}
