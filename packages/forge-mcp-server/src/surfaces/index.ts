/**
 * The three tool surfaces, projections of one catalog view: dynamic (find + execute), meta (one tool
 * per domain) and individual (one tool per action). None holds its own copy of an action.
 */
import type { ActionEntry, ActionSpec, DomainEntry, JsonSchema } from '../catalog/types.js';
import {
  checkTypes,
  decode,
  dynamicSurfaceCheck,
  emptyRequired,
  INVALID_PARAMS,
  metaSurfaceCheck,
  missingOneOf,
  translateAliases,
} from '../executor/arguments.js';
import { describeErrors, inputSchema, paramsOf, typeProblem, validatorFor } from '../executor/schema.js';
import {
  clip,
  didYouMean,
  holdingWords,
  levenshtein,
  LONGEST_MEANT,
  nearest,
  titledWith,
} from '../executor/suggest.js';
import {
  CONFIRM_BESIDE_ACTION,
  CONFIRM_INSIDE_PARAMS,
  confirmationReason,
  confirmProblem,
} from '../policy/index.js';
import type { ActionFinder } from './find.js';
import type { CatalogView } from './view.js';

export { CatalogView } from './view.js';
export type { Availability, ViewOptions } from './view.js';

export type SurfaceName = 'dynamic' | 'meta' | 'individual';
export type MetaParamSchema = 'opaque' | 'compact' | 'full';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDef {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

/** What a tool call resolved to: an action to run, or a text to answer with. */
export type Resolution =
  | { kind: 'action'; action: ActionSpec; params: Record<string, unknown>; confirm?: boolean }
  | {
      kind: 'answer';
      text: string;
      isError: boolean;
      structured?: Record<string, unknown>;
      refusal?: string;
      /** The canonical action a refused call named, when the surface knew it. */
      action?: string;
      /** A forge_find_action query nothing matched (the client's model may be asked to restate it). */
      unmatched?: { query: string; limit: number };
    }
  | { kind: 'unknown_tool' };

export type AnswerResolution = Extract<Resolution, { kind: 'answer' }>;

export const FIND_TOOL = 'forge_find_action';
export const EXECUTE_TOOL = 'forge_execute_action';

const FIND_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      description:
        "What you want to do, in plain words (e.g. 'close an issue', 'retry failed job') or a canonical ID.",
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 20,
      description: 'How many matches to return (default 5).',
    },
  },
  required: ['query'],
  additionalProperties: false,
};

const EXECUTE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    action: {
      type: 'string',
      minLength: 1,
      description: 'Canonical action ID from forge_find_action, e.g. issue.list.',
      // 2026-07-28 clients copy it into the Mcp-Param-Action header; the SDK checks header against body.
      'x-mcp-header': 'Action',
    },
    params: {
      type: 'object',
      description: "The action's parameters, exactly as its schema (from forge_find_action) names them.",
    },
    confirm: {
      type: 'boolean',
      description: 'Set true only after the user explicitly approved a destructive action.',
    },
  },
  required: ['action'],
  additionalProperties: false,
};

/** Said after an envelope error when parameters were given beside action (dynamic and meta surfaces). */
const PARAMS_INSIDE = "Pass the action's parameters inside params, not beside action.";
/** Said after an individual tool's error when its parameters were wrapped in params. */
const PARAMS_TOP_LEVEL = "This tool takes the action's parameters at the top level, not inside params.";

/** The envelope's error, with the way out when parameters sit beside action. */
function envelopeError(args: Record<string, unknown>, problem: string, more?: string): Resolution {
  const beside =
    typeof args.action === 'string' &&
    Object.keys(args).some((k) => k !== 'action' && k !== 'params' && k !== 'confirm');
  return refuse(
    `validating "arguments": ${problem}${beside ? `. ${PARAMS_INSIDE}` : ''}${more ? `${beside ? ' ' : '. '}${more}` : ''}`,
  );
}

/** Annotations of one action as a tool. */
export function actionAnnotations(a: ActionSpec): ToolAnnotations {
  return {
    title: a.title,
    readOnlyHint: !a.write,
    destructiveHint: a.destructive,
    idempotentHint: a.idempotent,
    openWorldHint: true,
  };
}

const individualSchemas = new WeakMap<ActionSpec, JsonSchema>();

/**
 * An action's schema on the individual surface, built once per action: its validator is compiled and kept
 * per schema object, so a schema built anew per call would be compiled (and kept) anew per call.
 */
function individualSchema(a: ActionSpec): JsonSchema {
  let schema = individualSchemas.get(a);
  if (!schema) {
    const base = inputSchema(a);
    schema =
      !a.destructive || 'confirm' in (base.properties as object)
        ? base
        : {
            ...base,
            properties: {
              ...(base.properties as object),
              confirm: {
                type: 'boolean',
                description: 'Set true only after the user explicitly approved this irreversible action.',
              },
            },
          };
    individualSchemas.set(a, schema);
  }
  return schema;
}

/**
 * An input schema in one line: each parameter's name (* when required) and its type or fixed values, e.g.
 * `project_id* string, state opened|closed|all, labels string, assignee_ids integer[]`.
 */
function paramSummary(schema: JsonSchema): string {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(props);
  if (!names.length) return '(none)';
  return names.map((k) => `${k}${required.has(k) ? '*' : ''} ${typeSummary(props[k]!)}`).join(', ');
}

function typeSummary(p: JsonSchema): string {
  if (Array.isArray(p.enum)) return p.enum.map(String).join('|');
  if (Array.isArray(p.anyOf)) return (p.anyOf as JsonSchema[]).map(typeSummary).join(' or ');
  const type = Array.isArray(p.type) ? (p.type as string[]).join('|') : String(p.type ?? 'any');
  if (type === 'array' && p.items) return `${typeSummary(p.items as JsonSchema)}[]`;
  return type;
}

function shortName(a: ActionEntry): string {
  return a.id.slice(a.id.indexOf('.') + 1);
}

export interface SurfaceOptions {
  surface: SurfaceName;
  metaParamSchema: MetaParamSchema;
  readOnly: boolean;
  /** Rewrites descriptions and titles (FORGE_MCP_DESCRIPTION_SUBSTITUTIONS). */
  rewrite?: (text: string) => string;
}

/**
 * A surface bound to a session's view. Tool lists are computed once per view. The view holds the catalog's
 * index entries; an action's full spec (schema, description, request) is loaded when an answer needs it.
 */
export class Surface {
  private tools?: Promise<ToolDef[]>;
  private finder?: Promise<ActionFinder>;
  private domainsByMetaTool?: Map<string, DomainEntry>;

  constructor(
    readonly view: CatalogView,
    readonly opts: SurfaceOptions,
  ) {}

  /** The catalog's domains by meta tool name (made when first asked for: a dynamic start reads no entry). */
  private get domainsByTool(): Map<string, DomainEntry> {
    this.domainsByMetaTool ??= new Map(this.view.catalog.domains.map((d) => [d.metaTool, d]));
    return this.domainsByMetaTool;
  }

  private rw(text: string): string {
    return this.opts.rewrite ? this.opts.rewrite(text) : text;
  }

  /** The same array every time (the answer is encoded once: mcp/preserialized.ts). */
  list(): Promise<ToolDef[]> {
    if (!this.tools) {
      this.tools = this.build();
      // A domain file that could not be read is asked for again by the next list, not remembered as failed.
      this.tools.catch(() => (this.tools = undefined));
    }
    return this.tools;
  }

  private spec(a: ActionEntry): Promise<ActionSpec> {
    return this.view.catalog.spec(a);
  }

  /** The action's spec when its domain is loaded already (a call's usual case: nothing to wait for). */
  private loadedSpec(a: ActionEntry): ActionSpec | undefined {
    return this.view.catalog.loadedSpec?.(a);
  }

  private async build(): Promise<ToolDef[]> {
    if (this.opts.surface === 'dynamic') {
      const listed = this.view.listedSummary();
      const { writes } = listed;
      return [
        {
          name: FIND_TOOL,
          title: this.rw('Find an action'),
          description: this.rw(
            `Find the canonical action for a task among ${listed.count} actions on this code-hosting instance (issues, merge requests, pipelines, repositories, projects, groups, users and more). Returns the best matches, the first with its exact parameter schema and the others with their parameters in one line (query an ID for its exact schema); then run one with ${EXECUTE_TOOL}.`,
          ),
          inputSchema: FIND_SCHEMA,
          annotations: {
            title: this.rw('Find an action'),
            readOnlyHint: true,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: false,
          },
        },
        {
          name: EXECUTE_TOOL,
          title: this.rw('Execute an action'),
          description: this.rw(
            `Run a canonical action found with ${FIND_TOOL}: pass its ID as action and its parameters inside params (never beside action).${writes ? ' Destructive actions need confirm=true after the user explicitly approves.' : ' This server is read-only: only read actions run.'}`,
          ),
          inputSchema: EXECUTE_SCHEMA,
          annotations: {
            title: this.rw('Execute an action'),
            readOnlyHint: !writes,
            destructiveHint: listed.destructive,
            idempotentHint: false,
            openWorldHint: true,
          },
        },
      ];
    }
    if (this.opts.surface === 'individual') {
      return (await this.view.catalog.specs(this.view.listed)).map((a) => ({
        name: a.tool,
        title: this.rw(a.title),
        description: this.rw(a.description),
        inputSchema: individualSchema(a),
        annotations: { ...actionAnnotations(a), title: this.rw(a.title) },
      }));
    }
    const out: ToolDef[] = [];
    for (const d of this.view.catalog.domains) {
      const actions = d.actions.filter((a) => this.view.isListed(a));
      if (!actions.length) continue;
      // The opaque schema (the default) lists names and titles, which the index holds.
      const specs =
        this.opts.metaParamSchema === 'opaque' ? undefined : await this.view.catalog.specs(actions);
      out.push({
        name: d.metaTool,
        title: this.rw(`${d.domain.replace(/_/g, ' ')} actions`),
        description: this.rw(this.metaDescription(d, actions, specs)),
        inputSchema: this.metaSchema(actions, specs),
        annotations: {
          title: this.rw(`${d.domain.replace(/_/g, ' ')} actions`),
          readOnlyHint: actions.every((a) => !a.write),
          destructiveHint: actions.some((a) => a.destructive),
          idempotentHint: actions.every((a) => a.idempotent),
          openWorldHint: true,
        },
      });
    }
    return out;
  }

  /** `specs`: the actions' full specs, loaded for the compact and full schemas. */
  private metaDescription(d: DomainEntry, actions: ActionEntry[], specs?: ActionSpec[]): string {
    const lines = [d.summary, 'Actions:'];
    for (const [i, a] of actions.entries()) {
      if (this.opts.metaParamSchema === 'compact' && specs) {
        const req = new Set(specs[i].required ?? []);
        const ps = Object.keys(paramsOf(specs[i])).map((p) => (req.has(p) ? `${p}*` : p));
        lines.push(`- ${shortName(a)}(${ps.join(', ')}): ${a.title}`);
      } else lines.push(`- ${shortName(a)}: ${a.title}`);
    }
    lines.push(
      'Pass the action name as action and its parameters inside params. Destructive actions need params.confirm=true after the user approves.',
    );
    // The opaque schema shows no parameters: say where the names come from.
    if (this.opts.metaParamSchema === 'opaque')
      lines.push('A missing or unknown parameter is answered with the parameters the action takes.');
    return lines.join('\n');
  }

  private metaSchema(actions: ActionEntry[], specs?: ActionSpec[]): JsonSchema {
    const names = actions.map(shortName);
    const params: JsonSchema =
      this.opts.metaParamSchema === 'full' && specs
        ? {
            type: 'object',
            description: "The action's parameters.",
            anyOf: specs.map((a) => ({
              ...inputSchema(a),
              title: shortName(a),
              additionalProperties: true,
            })),
          }
        : {
            type: 'object',
            description: "The action's parameters (see the action list in the description).",
          };
    return {
      type: 'object',
      properties: { action: { type: 'string', enum: names, description: 'The action to run.' }, params },
      required: ['action'],
      additionalProperties: false,
    };
  }

  /** The search index over the listed actions, shared by every surface that lists the same ones. */
  private finderOf(): Promise<ActionFinder> {
    // Actions of a higher tier are found too, and shown as existing but unavailable.
    // The ranking, its vocabulary and the catalog's search corpus load with the first search; the domain files
    // load only for the actions a search answers with.
    if (!this.finder) {
      this.finder = Promise.all([
        import('./find.js'),
        this.view.catalog.findable([...this.view.listed, ...this.view.unavailable]),
      ]).then(([{ ActionFinder }, docs]) => ActionFinder.over(docs));
      this.finder.catch(() => (this.finder = undefined));
    }
    return this.finder;
  }

  /**
   * Said after every search of a read-only server: it finds no write action, so a request to change something
   * is answered with reads, and the model should know why rather than run the nearest read.
   */
  private readOnlyNote(): string {
    return this.opts.readOnly
      ? '\nThis server is read-only: write actions are neither found nor run, so nothing here changes anything.'
      : '';
  }

  /** Schema and description of one action, as forge_find_action shows it. */
  describe(a: ActionSpec): Record<string, unknown> {
    const avail = this.view.availability(a);
    return {
      id: a.id,
      title: this.rw(a.title),
      description: this.rw(a.description),
      write: a.write,
      destructive: a.destructive,
      tier: a.tier,
      ...(avail.state === 'tier' ? { unavailable: avail.text } : {}),
      schema: inputSchema(a),
    };
  }

  async find(query: string, limit: number): Promise<Resolution> {
    return (
      (await this.matches(query, limit)) ?? {
        kind: 'answer',
        isError: false,
        text: `No action matches "${quoted(query)}". Try other words (for example the object: issue, merge request, pipeline, branch) or a canonical ID.${this.readOnlyNote()}`,
        structured: { matches: [] },
        unmatched: { query, limit },
      }
    );
  }

  /**
   * The answer to a query nothing matched, found with the client's restatement of it; undefined when the
   * restatement matches nothing either (the no-match answer stands).
   */
  async findRestated(query: string, restated: string, limit: number): Promise<AnswerResolution | undefined> {
    const found = await this.matches(restated, limit);
    if (!found) return undefined;
    return {
      ...found,
      text: `No action matches "${quoted(query)}"; matched the client's restatement "${quoted(restated)}":\n${found.text}`,
      structured: { ...found.structured, restatedAs: restated },
    };
  }

  /** The matches of a query as forge_find_action answers them, or undefined when nothing matches. */
  private async matches(query: string, limit: number): Promise<AnswerResolution | undefined> {
    const hits = (await this.finderOf()).search(query, limit);
    if (!hits.length) return undefined;
    const specs = await Promise.all(hits.map((h) => this.spec(this.view.catalog.get(h.action.id)!)));
    const matches = specs.map((a) => this.describe(a));
    // The best match with its exact schema; the others by their parameters' names, types and fixed values (their
    // descriptions are most of a schema: five list actions were 30,000 characters), each exact schema one query
    // away and in structuredContent.
    const text = matches
      .map(
        (m, i) =>
          `${i + 1}. ${m.id}: ${m.title}${m.destructive ? ' (destructive)' : m.write ? ' (write)' : ''}\n   ${m.description}${m.unavailable ? `\n   ${String(m.unavailable)}` : ''}\n   ${i === 0 ? `schema: ${JSON.stringify(m.schema)}` : `params: ${paramSummary(m.schema as JsonSchema)} (exact schema: ${FIND_TOOL} with query "${m.id}")`}`,
      )
      .join('\n');
    return {
      kind: 'answer',
      isError: false,
      text: `${text}\nRun one with ${EXECUTE_TOOL} {action, params}.${this.readOnlyNote()}`,
      structured: { matches },
    };
  }

  /**
   * Whether `tool` is one of this surface's tool names (listed or not for this session): telemetry records
   * any other name as _OTHER.
   */
  knows(tool: string): boolean {
    if (this.opts.surface === 'dynamic') return tool === FIND_TOOL || tool === EXECUTE_TOOL;
    if (this.opts.surface === 'individual') return !!this.view.catalog.byToolName(tool);
    return this.domainsByTool.has(tool);
  }

  /** Whether this session lists the action `id` (a suggestion names only an action the session can run). */
  lists(id: string): boolean {
    const a = this.view.catalog.get(id);
    return !!a && this.view.isListed(a);
  }

  /**
   * How a model on this surface runs an action the session lists, when a canonical ID alone does not say it:
   * its tool (individual), or its domain tool and action name (meta). Nothing on the dynamic surface, whose
   * forge_execute_action takes the canonical ID.
   */
  runsAs(id: string): string | undefined {
    if (this.opts.surface === 'dynamic') return undefined;
    const a = this.view.catalog.get(id);
    if (!a || !this.view.isListed(a)) return undefined;
    return this.opts.surface === 'individual'
      ? a.tool
      : `${this.view.catalog.domain(a.id)!.metaTool} {"action": "${shortName(a)}"}`;
  }

  /**
   * The answer to a tool name this session does not list, naming the listed tool probably meant: only a near
   * spelling (two edits at most) of a name no tool has, and never a tool the session does not list.
   */
  unknownTool(tool: string): string {
    const text = `unknown tool: ${clip(tool)}`;
    // Another surface's tool for an action this session runs: the way this surface runs it.
    const action = this.view.catalog.byToolName(tool);
    // Or a name written the canonical way (forge_<domain>_<action>) for an action whose tool is named otherwise
    // (forge_merge_request_merge for forge_mr_merge): the tool that runs it.
    const patterned = action
      ? undefined
      : (this.actionNamedCanonically(tool) ?? this.actionNamedByWords(tool));
    // A catalog action the session does not list: no other name is suggested for it (see below).
    if (patterned && !this.view.isListed(patterned)) return text;
    if (patterned) {
      if (this.opts.surface === 'individual')
        return `${text}. Did you mean: ${patterned.tool} (${patterned.id})?`;
      if (this.opts.surface === 'dynamic')
        return `${text}. Run it with ${EXECUTE_TOOL} (action ${patterned.id}).`;
      return `${text}. Run it with ${this.view.catalog.domain(patterned.id)!.metaTool} (action ${shortName(patterned)}).`;
    }
    if (action && this.view.isListed(action)) {
      if (this.opts.surface === 'dynamic')
        return `${text}. Run it with ${EXECUTE_TOOL} (action ${action.id}).`;
      if (this.opts.surface === 'meta')
        return `${text}. Run it with ${this.view.catalog.domain(action.id)!.metaTool} (action ${shortName(action)}).`;
    }
    // A tool of the catalog this session does not list is no misspelling: nothing is suggested for it (a near
    // name may be its opposite: forge_group_archive and forge_group_unarchive).
    if (action || this.domainsByTool.has(tool) || tool === FIND_TOOL || tool === EXECUTE_TOOL) return text;
    // The names as tools/list gives them, read from the index (no domain file is loaded for an unknown name).
    const names =
      this.opts.surface === 'dynamic'
        ? [FIND_TOOL, EXECUTE_TOOL]
        : this.opts.surface === 'individual'
          ? this.view.listed.map((a) => a.tool)
          : this.view.catalog.domains
              .filter((d) => d.actions.some((a) => this.view.isListed(a)))
              .map((d) => d.metaTool);
    let meant: string | undefined;
    let best = 3;
    for (const name of names) {
      if (Math.abs(name.length - tool.length) >= best) continue;
      const d = levenshtein(tool.toLowerCase(), name.toLowerCase());
      if (d < best) [best, meant] = [d, name];
    }
    return meant ? `${text}. Did you mean: ${meant}?` : text;
  }

  /**
   * The listed actions of a domain tool probably meant by `name`: a near spelling; else those holding its words in
   * their names (member_add: group_member_add) or titles (close: update, 'Update, close or reopen issue'); at most
   * three.
   */
  private meantInDomain(d: DomainEntry, name: string, valid: readonly string[]): string | undefined {
    const near = nearest(name, valid);
    if (near) return near;
    // Read among all the domain's actions: words naming one the session does not list (close under read-only)
    // suggest nothing, not a listed one holding the same word ('List MRs that close issue').
    const meant = namedByWords(name, d.actions);
    if (!meant.length || !valid.includes(meant[0])) return undefined;
    return meant
      .filter((x) => valid.includes(x))
      .slice(0, 3)
      .join(', ');
  }

  /**
   * The listed action a forge_<domain>_<words> name asks for by words of its name or title (forge_issue_close:
   * issue.update, 'Update, close or reopen issue'; forge_job_log: job.trace), if one does.
   */
  private actionNamedByWords(tool: string): ActionEntry | undefined {
    if (!tool.startsWith('forge_')) return undefined;
    const rest = tool.slice('forge_'.length);
    for (const d of this.view.catalog.domains) {
      if (!rest.startsWith(d.domain + '_')) continue;
      const words = rest.slice(d.domain.length + 1);
      // Among all the domain's actions: one the session does not list is returned as such (and nothing is
      // suggested), not replaced by a listed one holding the same word (close: not 'List MRs that close issue').
      const [meant] = namedByWords(words, d.actions);
      if (meant) return d.actions.find((a) => shortName(a) === meant);
    }
    return undefined;
  }

  /** The listed action of another domain a name writes as <domain>_<action> (tag_list: tag.list), if one is. */
  private nestedAction(name: string): ActionEntry | undefined {
    for (const id of nestedIds(name, this.view.catalog.domains)) {
      const a = this.view.catalog.get(id);
      if (a && this.view.isListed(a)) return a;
    }
    return undefined;
  }

  /** The action whose canonical ID `tool` spells as forge_<domain>_<action>, if one does. */
  private actionNamedCanonically(tool: string): ActionEntry | undefined {
    if (!tool.startsWith('forge_')) return undefined;
    const rest = tool.slice('forge_'.length);
    for (const d of this.view.catalog.domains) {
      if (!rest.startsWith(d.domain + '_')) continue;
      const a = this.view.catalog.get(`${d.domain}.${rest.slice(d.domain.length + 1)}`);
      if (a) return a;
    }
    return undefined;
  }

  /**
   * Resolves a tools/call into an action and its parameters, with the surface's argument checks. A call of
   * forge_execute_action whose action's domain is loaded is resolved at once (no promise to wait for).
   */
  resolve(tool: string, rawArgs: Record<string, unknown> | undefined): Resolution | Promise<Resolution> {
    if (this.opts.surface === 'dynamic' && tool === EXECUTE_TOOL) return this.resolveExecute(rawArgs ?? {});
    return this.resolveOther(tool, rawArgs ?? {});
  }

  private resolveExecute(args: Record<string, unknown>): Resolution | Promise<Resolution> {
    // Before the schema, whose coercion would read "true" or 1 as true.
    const unconfirmed = confirmProblem(args.confirm, 'confirm');
    if (unconfirmed) return refuse(unconfirmed);
    const v = validatorFor(EXECUTE_SCHEMA);
    if (!v(args)) return envelopeError(args, describeErrors(v.errors, args));
    const id = String(args.action);
    const entry = this.view.catalog.get(id);
    const avail = entry ? this.view.availability(entry) : undefined;
    if (!entry || !avail || avail.state === 'absent') return this.unknownAction(id);
    if (avail.state !== 'available')
      return refuse(`${EXECUTE_TOOL}: ${avail.text}`, avail.state === 'tier' ? 'tier' : avail.reason, entry);
    const a = this.loadedSpec(entry);
    return a ? checkExecute(a, args) : this.spec(entry).then((spec) => checkExecute(spec, args));
  }

  private async unknownAction(id: string): Promise<Resolution> {
    const hits = suggestIds(id, this.view.listed, this.view.catalog.domains, await this.finderOf());
    return refuse(
      `${EXECUTE_TOOL}: unknown action "${clip(id)}".${hits.length ? ` Did you mean: ${hits.join(', ')}?` : ''} Use ${FIND_TOOL} to find the canonical ID.`,
      'unknown_action',
    );
  }

  private async resolveOther(tool: string, args: Record<string, unknown>): Promise<Resolution> {
    if (this.opts.surface === 'dynamic') {
      if (tool !== FIND_TOOL) return { kind: 'unknown_tool' };
      const v = validatorFor(FIND_SCHEMA);
      if (!v(args)) return refuse(`validating "arguments": ${describeErrors(v.errors, args)}`);
      return this.find(String(args.query), Number(args.limit ?? 5));
    }
    if (this.opts.surface === 'individual') {
      const entry = this.view.catalog.byToolName(tool);
      if (!entry) return { kind: 'unknown_tool' };
      const avail = this.view.availability(entry);
      // A fine-grained refusal names the action and the way out; other removals leave no tool at all.
      if (avail.state === 'withheld' && avail.reason === 'fine_grained')
        return refuse(avail.text, 'fine_grained', entry);
      // A higher tier's action exists: its tool is not listed, but a call is answered as unavailable.
      if (avail.state === 'tier') return refuse(`${tool}: ${avail.text}`, 'tier', entry);
      if (avail.state !== 'available') return { kind: 'unknown_tool' };
      const a = this.loadedSpec(entry) ?? (await this.spec(entry));
      const schema = individualSchema(a);
      const v = validatorFor(schema);
      const params = { ...args };
      // Before the schema, whose coercion would read "true" or 1 as true.
      const unconfirmed =
        a.destructive || a.confirmWhen ? confirmProblem(params.confirm, 'confirm') : undefined;
      if (unconfirmed) return refuse(unconfirmed, 'invalid_params', a);
      const empty = emptyRequired(a, params);
      if (empty) return refuse(empty, 'invalid_params', a);
      if (!v(params)) {
        const valid = Object.keys(schema.properties as object);
        const unknown = Object.keys(args).filter((k) => !valid.includes(k));
        const wrapped = unknown.includes('params') && typeof args.params === 'object';
        const after = wrapped ? PARAMS_TOP_LEVEL : didYouMean(unknown, valid);
        return refuse(
          `validating "arguments": ${describeErrors(v.errors, params, schema)}${after ? `. ${after}` : ''}`,
          'invalid_params',
          a,
        );
      }
      // A one-of group (at least one of these) is not in the closed schema a client sees: checked here, before
      // anything is sent, as the other surfaces check it.
      const group = missingOneOf(a, params)[0];
      if (group)
        return refuse(
          `validating "arguments": missing one of the properties ${group.map((p) => `"${p}"`).join(', ')}`,
          'invalid_params',
          a,
        );
      const confirm = params.confirm === true;
      if (a.destructive && !a.confirmWhen) delete params.confirm;
      return { kind: 'action', action: a, params, confirm };
    }
    // meta
    const d = this.domainsByTool.get(tool);
    if (!d) return { kind: 'unknown_tool' };
    // A domain only a higher tier offers has no tool listed; its actions are still answered as unavailable.
    const toolListed = (await this.list()).some((t) => t.name === tool);
    if (!toolListed && !d.actions.some((x) => this.view.availability(x).state === 'tier'))
      return { kind: 'unknown_tool' };
    // params: null reads as not given, as on forge_execute_action.
    if (args.params === null) {
      args = { ...args };
      delete args.params;
    }
    if (
      typeof args.action !== 'string' ||
      (args.params !== undefined && (typeof args.params !== 'object' || Array.isArray(args.params)))
    )
      return envelopeError(
        args,
        args.action == null
          ? 'missing property "action"'
          : typeof args.action !== 'string'
            ? typeProblem('action', 'string', args.action)
            : typeProblem('params', 'object', args.params),
      );
    const extra = Object.keys(args).filter((k) => k !== 'action' && k !== 'params');
    if (extra.length) {
      // confirm beside action, as forge_execute_action takes it: say where this tool takes it.
      const others = extra.filter((k) => k !== 'confirm');
      const where = others.length < extra.length ? CONFIRM_INSIDE_PARAMS : undefined;
      return envelopeError(args, `unknown property "${others[0] ?? 'confirm'}"`, where);
    }
    const name = args.action.startsWith(d.domain + '.')
      ? args.action.slice(d.domain.length + 1)
      : args.action;
    const entry = d.actions.find(
      (x) => shortName(x) === name || (x.aliases ?? []).includes(args.action as string),
    );
    if (!entry || this.view.availability(entry).state !== 'available') {
      const av = entry ? this.view.availability(entry) : undefined;
      if (av && av.state === 'tier') return refuse(`${tool}: ${av.text}`, 'tier', entry);
      if (!toolListed) return { kind: 'unknown_tool' };
      if (av && av.state === 'withheld' && av.reason === 'fine_grained')
        return refuse(av.text, 'fine_grained', entry);
      const valid = d.actions.filter((x) => this.view.isListed(x)).map(shortName);
      // Another domain's action (merge_request.list on forge_issue): the tool that runs it. Otherwise a misspelt
      // name, a wrong case or another spelling of the domain (issues.list): the name probably meant.
      const other = this.view.catalog.get(args.action) ?? this.nestedAction(args.action);
      const home = other && this.view.isListed(other) ? this.view.catalog.domain(other.id) : undefined;
      const meant =
        home && other && home.domain !== d.domain
          ? `${home.metaTool} with action ${shortName(other)}`
          : this.meantInDomain(d, args.action.slice(args.action.lastIndexOf('.') + 1), valid);
      return refuse(
        `${tool}: unknown action "${clip(args.action)}".${meant ? ` Did you mean: ${meant}?` : ''} Valid actions: ${valid.join(', ')}`,
        'unknown_action',
      );
    }
    const a = this.loadedSpec(entry) ?? (await this.spec(entry));
    let params = args.params as Record<string, unknown> | undefined;
    let confirm: boolean | undefined;
    const unconfirmed =
      params && (a.destructive || a.confirmWhen)
        ? confirmProblem(params.confirm, 'params.confirm')
        : undefined;
    if (unconfirmed) return refuse(unconfirmed, 'invalid_params', a);
    if (params && 'confirm' in params && !('confirm' in paramsOf(a))) {
      params = { ...params };
      confirm = params.confirm === true;
      delete params.confirm;
    } else if (params && 'confirm' in params) confirm = params.confirm === true;
    // Aliases first, so a required parameter given by its alias (mr_iid, commit_id) is not missing.
    if (params) params = translateAliases(a, params);
    const missing = metaSurfaceCheck(a, params);
    if (missing) return refuse(`${tool}/${name}: ${missing}`, 'invalid_params', a);
    params = params ?? {};
    const empty = emptyRequired(a, params);
    if (empty) return refuse(empty, 'invalid_params', a);
    const problem = decode(a, params);
    if (problem) return refuse(`${tool}/${name}: ${problem}`, 'invalid_params', a);
    return { kind: 'action', action: a, params, confirm };
  }
}

function refuse(text: string, refusal = 'invalid_params', action?: ActionEntry): Resolution {
  return { kind: 'answer', text, isError: true, refusal, ...(action ? { action: action.id } : {}) };
}

/** forge_execute_action's checks of the action's parameters. */
function checkExecute(a: ActionSpec, args: Record<string, unknown>): Resolution {
  const params = translateAliases(a, (args.params as Record<string, unknown>) ?? {});
  // An action that declares its own confirm (an argument-dependent guard) takes it inside params too, as its schema
  // shows: only the boolean true approves, before the schema's coercion would read "true" as true.
  const ownConfirm = 'confirm' in paramsOf(a);
  const unconfirmed = ownConfirm ? confirmProblem(params.confirm, 'params.confirm') : undefined;
  if (unconfirmed) return refuse(unconfirmed, 'invalid_params', a);
  // A required value given empty or zero gets its own text before the type checks (a zero ID would
  // otherwise read as an out-of-range number); the surface check's text stands alone.
  const problem = dynamicSurfaceCheck(a, params) ?? emptyRequired(a, params) ?? checkTypes(a, params);
  if (problem) {
    const text =
      problem.startsWith(a.id) || problem.startsWith(INVALID_PARAMS)
        ? problem
        : `${EXECUTE_TOOL}: ${problem}`;
    // confirm inside params, as a domain tool takes it: say where this tool takes it.
    const misplaced = !ownConfirm && Object.hasOwn(params, 'confirm');
    return refuse(misplaced ? `${text} ${CONFIRM_BESIDE_ACTION}` : text, 'invalid_params', a);
  }
  return {
    kind: 'action',
    action: a,
    params,
    confirm: args.confirm === true || (ownConfirm && params.confirm === true),
  };
}

/**
 * Canonical IDs probably meant: those of the domain named holding the action part's words in their names
 * (group.member_add: group.group_member_add) or else titles (issue.close: issue.update), the nearest by spelling,
 * then by meaning, read with the action's words first (issue.close as 'close issue', the way a request says it)
 * and then as written.
 */
function suggestIds(
  id: string,
  listed: readonly ActionEntry[],
  domains: readonly DomainEntry[],
  finder: ActionFinder,
): string[] {
  const dot = id.indexOf('.');
  const [domain, action] = dot < 0 ? ['', id] : [id.slice(0, dot).toLowerCase(), id.slice(dot + 1)];
  const own = domain ? listed.filter((a) => a.id.startsWith(`${domain}.`)) : [];
  // Another domain's action written under this one (repository.tag_list for tag.list): its own ID first.
  const nested = nestedIds(action, domains).filter((x) => listed.some((a) => a.id === x));
  const held = namedByWords(action, own).map((name) => `${domain}.${name}`);
  const within = Math.max(2, Math.floor(id.length / 4));
  const close = listed
    // Names whose lengths differ by more than the distance allowed cannot be close: not measured.
    .filter((a) => Math.abs(a.id.length - id.length) <= within)
    .map((a) => ({ id: a.id, d: levenshtein(id, a.id) }))
    .filter((x) => x.d <= within)
    .sort((x, y) => x.d - y.d)
    .map((x) => x.id);
  // A name without a word in it (5, #12) means nothing to search by.
  const words = (s: string) => s.replace(/[._]/g, ' ');
  const meaning = /[a-z]{2}/i.test(id)
    ? [
        // Read verb-first too, for a name as short as an action's (a long one is searched once, as written).
        ...(domain && action.length <= LONGEST_MEANT
          ? finder.search(`${words(action)} ${words(domain)}`, 3)
          : []),
        ...finder.search(words(id), 3),
      ].map((h) => h.action.id)
    : [];
  return [...new Set([...nested, ...held, ...close, ...meaning])].slice(0, 3);
}

/**
 * The short names of `actions` holding the words of `written` in their names (member_add: group_member_add),
 * shortest first, or else in their titles (close: update, 'Update, close or reopen issue').
 */
function namedByWords(written: string, actions: readonly ActionEntry[]): string[] {
  const named = actions.map((a) => ({ name: shortName(a), title: a.title }));
  const held = holdingWords(
    written,
    named.map((x) => x.name),
  );
  return held.length ? held : titledWith(written, named);
}

/**
 * The canonical IDs a name may mean by writing another domain's action as <domain>_<action> (tag_list: tag.list):
 * one per domain whose name it starts with, so a name of any length costs one pass per domain, not one per word.
 */
function nestedIds(name: string, domains: readonly DomainEntry[]): string[] {
  const lower = name.toLowerCase();
  return domains
    .filter((d) => lower.length > d.domain.length + 1 && lower.startsWith(`${d.domain}_`))
    .map((d) => `${d.domain}.${lower.slice(d.domain.length + 1)}`);
}

export { confirmationReason };

/** The longest part of a request quoted back in an answer (a request may be megabytes long). */
const QUOTED_CHARS = 200;

/** `text` as an answer quotes it: whole, or its first QUOTED_CHARS characters (no half of a pair) and an ellipsis. */
function quoted(text: string): string {
  if (text.length <= QUOTED_CHARS) return text;
  const cut = /[\ud800-\udbff]/.test(text[QUOTED_CHARS - 1]) ? QUOTED_CHARS - 1 : QUOTED_CHARS;
  return `${text.slice(0, cut)}\u2026`;
}
