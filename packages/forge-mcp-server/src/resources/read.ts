/**
 * One read of the catalog on behalf of a resource, prompt or completion: the action goes through the
 * session's view and the same guards as a tool call (withheld, tier, read-only, safe mode), then the
 * executor. Nothing reaches the instance that the matching action could not reach.
 */
import type { ActionSpec } from '../catalog/types.js';
import { isProjectUrl, projectOnInstance } from '../catalog/project-ref.js';
import { checkTypes, emptyRequired, runAction, type Pagination } from '../executor/index.js';
import { decide } from '../policy/index.js';
import type { Session } from '../session/index.js';

export type ReadOutcome =
  | {
      ok: true;
      action: ActionSpec;
      data: unknown;
      total?: number;
      /** The page number this read was of, and how many pages the instance counts, when a list pages by number. */
      page?: number;
      pages?: number;
      /**
       * The arguments that read the next page of a list, when there is one: its number ({ page: '2' }), or the
       * continuation a keyset answer names ({ cursor: '...' }, page_token, last, id_after or id_before).
       */
      next?: Record<string, string>;
    }
  /**
   * `invalid`: an argument the action cannot take, in the words a tool call would get; `refused`: a guard said no
   * (nothing was sent in either case); `failed`: the instance answered with an error.
   */
  | { ok: false; action?: ActionSpec; kind: 'unknown' | 'invalid' | 'refused' | 'failed'; text: string };

/**
 * A conditional read (a subscription's poll): the validator to send as If-None-Match, and what the instance
 * answered — its ETag, and whether it said 304 Not Modified. Only plain REST reads are sent conditionally.
 */
export interface Conditional {
  ifNoneMatch?: string;
  etag?: string;
  notModified?: boolean;
}

/**
 * A project named as a person writes it (a prompt's project_id), read as a tool call reads it: its path when it is
 * a web or clone URL of this session's instance (refused when another host's), the path it encodes when
 * percent-encoded.
 */
export function projectArgument(session: Session, value: string): { path: string } | { refused: string } {
  if (isProjectUrl(value)) return projectOnInstance(value, session.client.base);
  if (!value.includes('%')) return { path: value };
  try {
    return { path: decodeURIComponent(value) };
  } catch {
    return { path: value };
  }
}

export async function readAction(
  session: Session,
  id: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
  conditional?: Conditional,
  /** The deadline of the request this read is part of (RunOptions.due); by default the read's own. */
  due?: number,
): Promise<ReadOutcome> {
  const entry = session.view.catalog.get(id);
  if (!entry || session.view.availability(entry).state === 'absent')
    return { ok: false, kind: 'unknown', text: `${id} is not offered by this server` };
  const action = await session.view.catalog.spec(entry);
  // The arguments are read as a tool call reads them (types coerced, 'acme%2Fwidgets' and '!4' understood), so a
  // prompt's or a template's value means what it means to a tool.
  const problem = emptyRequired(action, args) ?? checkTypes(action, args);
  if (problem) return { ok: false, action, kind: 'invalid', text: problem };
  const decision = decide(action, args, {
    view: session.view,
    safeMode: session.config.safeMode,
    yolo: false,
    surface: session.surfaceName,
    tool: action.tool,
    canElicit: false,
  });
  if (decision.kind !== 'proceed')
    return {
      ok: false,
      action,
      kind: 'refused',
      text: 'text' in decision ? decision.text : `${id} needs confirmation`,
    };
  const r = await runAction(action, args, session.client, {
    embeddedResources: false,
    signal,
    due,
    ...(conditional
      ? {
          requestHeaders: conditional.ifNoneMatch ? { 'if-none-match': conditional.ifNoneMatch } : undefined,
          onResponse: (status, headers) => {
            conditional.etag = headers.etag;
            conditional.notModified = status === 304;
          },
        }
      : {}),
  });
  if (conditional?.notModified) return { ok: true, action, data: undefined };
  const text = r.content
    .filter((c) => c.type === 'text')
    .map((c) => String(c.text))
    .join('\n');
  if (r.isError) return { ok: false, action, kind: 'failed', text };
  const sc = r.structuredContent as { items?: unknown[]; pagination?: Pagination } | undefined;
  if (sc && Array.isArray(sc.items)) {
    const p = sc.pagination;
    const next = p?.next_page ? { page: String(p.next_page) } : p?.next_page_params;
    const page = p?.page ?? (typeof args.page === 'number' ? args.page : undefined);
    return {
      ok: true,
      action,
      data: sc.items,
      total: p?.total,
      ...(page !== undefined ? { page } : {}),
      ...(p?.total_pages !== undefined ? { pages: p.total_pages } : {}),
      ...(next ? { next } : {}),
    };
  }
  return { ok: true, action, data: sc ?? text };
}
