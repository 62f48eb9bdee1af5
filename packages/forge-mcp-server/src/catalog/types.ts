/**
 * The catalog's data model. Every capability of the server is one ActionSpec, declared as data in
 * `catalog/domains/<domain>.ts`. Surfaces, policy and the executor only ever read these records.
 */

export type Tier = 'free' | 'premium' | 'ultimate';
export type ClassicScope = 'read_api' | 'api' | 'other-credential' | 'no-request';
export type AdminGroup =
  'forge_admin' | 'forge_enterprise_user' | 'forge_project_alias' | 'forge_geo' | 'forge_storage_move';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** A JSON Schema fragment (draft 2020-12 vocabulary). */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * Where a parameter travels. Defaults: `path` when the path template names it, otherwise `query` for
 * GET/DELETE/HEAD and `body` (JSON) for the other methods. `form` puts it in a multipart body; `file`
 * is a multipart file part, fed from `content_base64` or (stdio only) a local `file_path`. `none`
 * keeps the parameter for the action's own logic (for example `output_path`, paging hints).
 */
export type ParamLocation = 'path' | 'query' | 'body' | 'form' | 'file' | 'none';

export interface ParamSpec extends JsonSchema {
  /** What a model needs to know to fill the parameter correctly. */
  description: string;
  in?: ParamLocation;
  /** The instance's own name for the parameter when it differs from ours. */
  wire?: string;
  /**
   * A GraphQL global ID parameter (or list of them) that also takes the bare number a user sees in a URL or a
   * REST answer: the type named here, whose global ID `gid://gitlab/<type>/<number>` the number is sent as.
   */
  gid?: string;
}

export interface RestRequest {
  method: HttpMethod;
  /**
   * Path template relative to /api/v4, placeholders named after our parameters (`:project_id`).
   * Several templates: the first whose placeholders are all given is used (project, group, global).
   */
  path: string | string[];
  /** What the answer holds: JSON (default), plain text (logs, raw files) or bytes (archives). */
  response?: 'json' | 'text' | 'binary';
  /** Fixed query parameters always sent (for example `scope=all`). */
  fixedQuery?: Record<string, string>;
  /** Fixed body fields always sent (for example `state_event=close`). */
  fixedBody?: Record<string, unknown>;
}

export interface GraphqlRequest {
  /** The GraphQL document, exactly as sent to /api/graphql. */
  document: string;
  /** GraphQL variable name -> our parameter name (values converted as declared in the schema). */
  variables?: Record<string, string>;
  /** Dotted path inside `data` to the part of the answer that is the action's result. */
  resultPath?: string;
  /** For mutations: the mutation field, whose `errors` list is read as the instance's refusal. */
  mutation?: string;
}

export interface NotFoundSpec {
  /** The object a missing answer names, e.g. 'Issue'. */
  object: string;
  /** The parameter naming the object, shown in the heading (e.g. 'issue_iid'). */
  key: string;
  /** Canonical action IDs to suggest under 'Next steps'. */
  next: string[];
}

/**
 * What one value of a parameter needs (ActionSpec.valueRequires): each parameter named here, given (true) or with
 * one of the values listed. A list of them: any one of them will do.
 */
export type ValueNeed = Record<string, true | readonly (string | number | boolean)[]>;

export interface ActionSpec {
  /** Canonical ID `<domain>.<action>`. */
  id: string;
  title: string;
  description: string;
  /** Parameters, each a JSON Schema property plus where it travels. */
  params: Record<string, ParamSpec>;
  required?: string[];
  /** Groups of which at least one must be given, e.g. [['project_id', 'group_id']]. */
  oneOf?: string[][];
  /**
   * Groups of which at most one may be given (the instance's mutually exclusive parameters); with the same
   * group in oneOf, exactly one. A call naming two of a group is refused before anything is sent.
   */
  exclusive?: string[][];
  /**
   * Parameters the instance reads only together with others (its `given a do requires b` declarations):
   * parameter -> the parameters it needs. A call giving the parameter without them is refused before
   * anything is sent.
   */
  needs?: Record<string, string[]>;
  /**
   * Parameters the instance reads only when another has one of some values (the projects list's updated_at
   * filters, paired with order_by updated_at; a keyset continuation, read only with pagination keyset):
   * parameter -> { the other parameter: the values it must have }. A call giving the parameter while the other
   * is left out or has another value is refused before anything is sent.
   */
  needsValue?: Record<string, Record<string, readonly (string | number | boolean)[]>>;
  /**
   * Values of a parameter the instance takes only beside another parameter, or another's value (its
   * `given a: ->(v) { v == 'x' } do requires :b`; a runner of runner_type group_type needs group_id): parameter ->
   * its value -> what the value needs. A call giving the value without it is refused before anything is sent.
   */
  valueRequires?: Record<string, Record<string, ValueNeed | readonly ValueNeed[]>>;
  write: boolean;
  destructive: boolean;
  idempotent: boolean;
  tier: Tier;
  /** The classic scope that suffices for the action's least demanding way of running. */
  scope: ClassicScope;
  /** Set for the actions gated by the admin_mode scope. */
  adminGroup?: AdminGroup;
  /** The individual surface's tool name, declared (never derived). */
  tool: string;
  /** Other IDs this action answers to. */
  aliases?: string[];
  request?: { rest: RestRequest } | { graphql: GraphqlRequest };
  /** Set on get actions whose missing object is answered with the Not Found result. */
  notFound?: NotFoundSpec;
  /** A valid call, used by the catalog test against forge-sim and shown to models. */
  example: Record<string, unknown>;
  /** Declares an argument-dependent confirmation (the action's own `confirm` field). */
  confirmWhen?: (args: Record<string, unknown>) => string | undefined;
  /** Only for actions that cannot be described as one request. */
  handler?: ActionHandler;
}

export interface ActionContext {
  /** Sends one REST request through the session's instance client. */
  rest(
    method: HttpMethod,
    path: string,
    init?: {
      query?: Record<string, unknown>;
      body?: unknown;
      /** Bytes sent as the request body unchanged (uploads the instance reads raw, not as a form). */
      raw?: { bytes: Buffer; contentType: string };
    },
  ): Promise<unknown>;
  /**
   * Sends one GraphQL request through the session's instance client. With `mutation` (the mutation field),
   * a non-empty `errors` list on its payload is the instance's refusal, reported as the action's failure.
   */
  graphql(
    document: string,
    variables?: Record<string, unknown>,
    opts?: { mutation?: string },
  ): Promise<unknown>;
  /**
   * A caller-supplied local path, checked by the path policy (confined to the allowed directories; a
   * regular file within the upload limit, or a directory). Refused over HTTP. Answers the real path.
   */
  localPath(path: string, kind: 'upload' | 'directory'): Promise<string>;
  /**
   * Waits `ms` between requests (a poll's interval). The action's deadline and the caller's cancel end the wait
   * early, with the same error a request they stop gets.
   */
  wait(ms: number): Promise<void>;
  /** The instance's base URL (no trailing slash), for links to what an action publishes. */
  instanceUrl: string;
}

export type ActionHandler = (args: Record<string, unknown>, ctx: ActionContext) => Promise<unknown>;

/**
 * What start-up reads of an action: the generated index (catalog-index.generated.ts) holds these fields for
 * every action, so a session's view, its filtering and the dynamic and meta tool lists are built without
 * loading a domain file. A full ActionSpec is one too.
 */
export type ActionEntry = Pick<
  ActionSpec,
  | 'id'
  | 'title'
  | 'tool'
  | 'aliases'
  | 'write'
  | 'destructive'
  | 'idempotent'
  | 'tier'
  | 'scope'
  | 'adminGroup'
>;

/**
 * What a session's view judges an action by, apart from its names (its tier, scope, admin group and whether it
 * writes) and what a tool list says of the listed ones (whether any writes or destroys).
 */
export type ActionTraits = Pick<ActionEntry, 'write' | 'destructive' | 'tier' | 'scope' | 'adminGroup'>;

/**
 * What forge_find_action ranks an action by: its names, its description and its parameters' names (the values
 * of `params` are not read). A full ActionSpec is one; the lazy catalog reads them from a generated corpus,
 * so a search loads no domain file.
 */
export type FindDoc = Pick<ActionSpec, 'id' | 'title' | 'tool' | 'description'> & {
  params: Record<string, unknown>;
};

/** A domain as the index holds it: its meta tool, its summary and its actions' entries. */
export interface DomainEntry {
  domain: string;
  metaTool: string;
  summary: string;
  actions: readonly ActionEntry[];
}

/**
 * The catalog as sessions read it: every action's entry at once, its full spec when asked for (a domain's
 * specs load on first use). Both the eager catalog (every domain loaded) and the lazy one answer it.
 */
export interface CatalogSource {
  readonly actions: readonly ActionEntry[];
  readonly domains: readonly DomainEntry[];
  /** By canonical ID or alias. */
  get(id: string): ActionEntry | undefined;
  byToolName(tool: string): ActionEntry | undefined;
  domain(id: string): DomainEntry | undefined;
  /** The action's full spec, its domain loaded first if it is not yet. */
  spec(a: ActionEntry): Promise<ActionSpec>;
  /** The action's full spec if its domain is loaded already (a call then waits for nothing). */
  loadedSpec?(a: ActionEntry): ActionSpec | undefined;
  /** The full specs of these actions, in the same order. */
  specs(as: readonly ActionEntry[]): Promise<ActionSpec[]>;
  /**
   * Every distinct combination of traits among the actions, with how many actions have it: what a view counts
   * its listed actions by without reading each entry (the lazy catalog has it from the build, before its
   * index is parsed).
   */
  traitCounts(): ReadonlyArray<readonly [ActionTraits, number]>;
  /** What forge_find_action ranks these actions by, in the same order. */
  findable(as: readonly ActionEntry[]): Promise<FindDoc[]>;
}

/** A domain file's export. */
export interface DomainSpec {
  domain: string;
  /** The meta surface's tool, `forge_<domain>`. */
  metaTool: string;
  /** One sentence a model reads on the meta tool. */
  summary: string;
  actions: ActionSpec[];
}
