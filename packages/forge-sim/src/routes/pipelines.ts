/** Pipelines and jobs: list, get, create, retry, cancel, delete, play, erase, logs and artifacts. */
import { list, pageReq, project, required, requireProjectAccess, str } from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json, noContent, notFound, paginate } from '../http.js';
import { jobJson, pipelineJson } from '../serialize.js';
import type { Job, Pipeline, PipelineStatus, Project } from '../state.js';
import { ACCESS, nextId } from '../state.js';
import { resolveRef } from './repository.js';
import type { RouteTable } from './table.js';

const FINISHED: PipelineStatus[] = ['success', 'failed', 'canceled', 'skipped'];
const ACTIVE: PipelineStatus[] = ['created', 'pending', 'running'];

function findPipeline(ctx: Ctx, p: Project): Pipeline {
  const pl = p.pipelines.find((x) => String(x.id) === ctx.params.pipeline_id);
  if (!pl) throw notFound('Pipeline');
  return pl;
}

function findJob(ctx: Ctx, p: Project): Job {
  const j = p.jobs.find((x) => String(x.id) === ctx.params.job_id);
  if (!j) throw notFound('Job');
  return j;
}

/** A pipeline's status follows its jobs, as on the instance. */
function recompute(p: Project, pl: Pipeline): void {
  const jobs = p.jobs.filter((j) => j.pipelineId === pl.id);
  const has = (s: PipelineStatus) => jobs.some((j) => j.status === s);
  pl.status = has('running')
    ? 'running'
    : has('pending')
      ? 'pending'
      : has('failed')
        ? 'failed'
        : has('canceled')
          ? 'canceled'
          : has('manual')
            ? 'manual'
            : jobs.length
              ? 'success'
              : 'created';
  pl.updatedAt = new Date().toISOString();
}

function scopeFilter(ctx: Ctx, jobs: Job[]): Job[] {
  const scope = list(ctx, 'scope');
  return scope?.length ? jobs.filter((j) => scope.includes(j.status)) : jobs;
}

function newJob(p: Project, from: Job, id: number): Job {
  return {
    ...from,
    id,
    status: 'pending',
    createdAt: new Date().toISOString(),
    startedAt: null,
    finishedAt: null,
    duration: null,
    log: '',
    artifacts: null,
    erased: false,
  };
}

export function registerPipelines(r: RouteTable): void {
  r.add('GET', '/projects/:id/pipelines', (ctx) => {
    const p = project(ctx);
    let items = [...p.pipelines].reverse();
    const status = str(ctx, 'status');
    if (status) items = items.filter((x) => x.status === status);
    const scope = str(ctx, 'scope');
    if (scope === 'finished') items = items.filter((x) => FINISHED.includes(x.status));
    else if (scope === 'running' || scope === 'pending') items = items.filter((x) => x.status === scope);
    const ref = str(ctx, 'ref');
    if (ref) items = items.filter((x) => x.ref === ref);
    const sha = str(ctx, 'sha');
    if (sha) items = items.filter((x) => x.sha === sha);
    const source = str(ctx, 'source');
    if (source) items = items.filter((x) => x.source === source);
    if (str(ctx, 'sort') === 'asc') items.reverse();
    return paginate(
      pageReq(ctx),
      items.map((x) => pipelineJson(ctx, p, x)),
    );
  });
  r.add('GET', '/projects/:id/pipelines/latest', (ctx) => {
    const p = project(ctx);
    const ref = str(ctx, 'ref') ?? p.defaultBranch;
    const pl = [...p.pipelines].reverse().find((x) => x.ref === ref);
    if (!pl) throw notFound('Pipeline');
    return json(200, pipelineJson(ctx, p, pl, true));
  });
  r.add('GET', '/projects/:id/pipelines/:pipeline_id', (ctx) => {
    const p = project(ctx);
    return json(200, pipelineJson(ctx, p, findPipeline(ctx, p), true));
  });
  r.add('POST', '/projects/:id/pipeline', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const ref = required(ctx, 'ref');
    const c = resolveRef(p, ref);
    if (!c) throw new HttpError(400, { message: { base: ['Reference not found'] } });
    const nowIso = new Date().toISOString();
    const variables = Array.isArray(ctx.input.variables)
      ? (ctx.input.variables as { key: string; value: string; variable_type?: string }[])
      : [];
    const pl: Pipeline = {
      id: nextId(ctx.state, 'pipeline'),
      iid: Math.max(0, ...p.pipelines.map((x) => x.iid)) + 1,
      projectId: p.id,
      ref,
      sha: c.id,
      status: 'pending',
      source: 'api',
      userId: ctx.user!.id,
      createdAt: nowIso,
      updatedAt: nowIso,
      variables: variables.map((v) => ({
        key: v.key,
        value: v.value,
        variable_type: v.variable_type ?? 'env_var',
      })),
    };
    p.pipelines.push(pl);
    for (const [name, stage] of [
      ['build', 'build'],
      ['test', 'test'],
    ]) {
      p.jobs.push({
        id: nextId(ctx.state, 'job'),
        pipelineId: pl.id,
        projectId: p.id,
        name,
        stage,
        status: 'pending',
        ref,
        when: 'on_success',
        allowFailure: false,
        userId: ctx.user!.id,
        createdAt: nowIso,
        startedAt: null,
        finishedAt: null,
        duration: null,
        log: '',
        artifacts: null,
        erased: false,
      });
    }
    return json(201, pipelineJson(ctx, p, pl, true));
  });
  r.add('POST', '/projects/:id/pipelines/:pipeline_id/retry', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const pl = findPipeline(ctx, p);
    for (const j of p.jobs.filter(
      (x) => x.pipelineId === pl.id && (x.status === 'failed' || x.status === 'canceled'),
    )) {
      p.jobs.push(newJob(p, j, nextId(ctx.state, 'job')));
      // The retried job replaces the old one in the pipeline's view.
      j.pipelineId = -pl.id;
    }
    recompute(p, pl);
    return json(201, pipelineJson(ctx, p, pl, true));
  });
  r.add('POST', '/projects/:id/pipelines/:pipeline_id/cancel', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const pl = findPipeline(ctx, p);
    for (const j of p.jobs.filter(
      (x) => x.pipelineId === pl.id && (ACTIVE.includes(x.status) || x.status === 'manual'),
    ))
      j.status = 'canceled';
    recompute(p, pl);
    return json(200, pipelineJson(ctx, p, pl, true));
  });
  r.add('DELETE', '/projects/:id/pipelines/:pipeline_id', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.owner);
    const pl = findPipeline(ctx, p);
    p.pipelines.splice(p.pipelines.indexOf(pl), 1);
    p.jobs = p.jobs.filter((j) => Math.abs(j.pipelineId) !== pl.id);
    return noContent();
  });
  r.add('GET', '/projects/:id/pipelines/:pipeline_id/jobs', (ctx) => {
    const p = project(ctx);
    const pl = findPipeline(ctx, p);
    const includeRetried = str(ctx, 'include_retried') === 'true';
    const jobs = p.jobs.filter((j) => j.pipelineId === pl.id || (includeRetried && j.pipelineId === -pl.id));
    return paginate(
      pageReq(ctx),
      scopeFilter(ctx, jobs).map((j) => jobJson(ctx, p, j)),
    );
  });
  r.add('GET', '/projects/:id/pipelines/:pipeline_id/variables', (ctx) => {
    const p = project(ctx);
    return json(200, findPipeline(ctx, p).variables);
  });

  // --- jobs ---
  r.add('GET', '/projects/:id/jobs', (ctx) => {
    const p = project(ctx);
    const jobs = [...p.jobs].filter((j) => j.pipelineId > 0).reverse();
    return paginate(
      pageReq(ctx),
      scopeFilter(ctx, jobs).map((j) => jobJson(ctx, p, j)),
    );
  });
  r.add('GET', '/projects/:id/jobs/:job_id', (ctx) => {
    const p = project(ctx);
    return json(200, jobJson(ctx, p, findJob(ctx, p)));
  });
  r.add('GET', '/projects/:id/jobs/:job_id/trace', (ctx) => {
    const p = project(ctx);
    const j = findJob(ctx, p);
    return { status: 200, raw: j.log, contentType: 'text/plain; charset=utf-8' };
  });
  r.add('POST', '/projects/:id/jobs/:job_id/retry', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const j = findJob(ctx, p);
    if (!FINISHED.includes(j.status))
      throw new HttpError(403, { message: '403 Forbidden  - Job is not retryable' });
    const fresh = newJob(p, j, nextId(ctx.state, 'job'));
    j.pipelineId = -Math.abs(j.pipelineId);
    p.jobs.push(fresh);
    const pl = p.pipelines.find((x) => x.id === fresh.pipelineId);
    if (pl) recompute(p, pl);
    return json(201, jobJson(ctx, p, fresh));
  });
  r.add('POST', '/projects/:id/jobs/:job_id/cancel', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const j = findJob(ctx, p);
    if (ACTIVE.includes(j.status) || j.status === 'manual') {
      j.status = 'canceled';
      j.finishedAt = new Date().toISOString();
    }
    const pl = p.pipelines.find((x) => x.id === j.pipelineId);
    if (pl) recompute(p, pl);
    return json(201, jobJson(ctx, p, j));
  });
  r.add('POST', '/projects/:id/jobs/:job_id/play', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const j = findJob(ctx, p);
    if (j.status !== 'manual') throw new HttpError(400, { message: 'Unplayable Job' });
    j.status = 'pending';
    const pl = p.pipelines.find((x) => x.id === j.pipelineId);
    if (pl) recompute(p, pl);
    return json(200, jobJson(ctx, p, j));
  });
  r.add('POST', '/projects/:id/jobs/:job_id/erase', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const j = findJob(ctx, p);
    if (!FINISHED.includes(j.status))
      throw new HttpError(403, { message: '403 Forbidden  - Job is not erasable!' });
    j.log = '';
    j.artifacts = null;
    j.erased = true;
    return json(201, jobJson(ctx, p, j));
  });
  const artifacts = (ctx: Ctx) => {
    const p = project(ctx);
    const j = findJob(ctx, p);
    if (!j.artifacts) throw new HttpError(404, { message: '404 Not found' });
    return j;
  };
  r.add('GET', '/projects/:id/jobs/:job_id/artifacts', (ctx) => {
    const j = artifacts(ctx);
    return {
      status: 200,
      raw: j.artifacts!,
      contentType: 'application/octet-stream',
      headers: { 'content-disposition': 'attachment; filename="artifacts.zip"' },
    };
  });
  r.add('GET', '/projects/:id/jobs/:job_id/artifacts/*artifact_path', (ctx) => {
    const j = artifacts(ctx);
    const path = ctx.params.artifact_path;
    return {
      status: 200,
      raw: Buffer.concat([Buffer.from(`${path} from job ${j.id}\n`), j.artifacts!]),
      contentType: 'application/octet-stream',
    };
  });
  r.add('DELETE', '/projects/:id/jobs/:job_id/artifacts', (ctx) => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.maintainer);
    const j = findJob(ctx, p);
    j.artifacts = null;
    return noContent();
  });
}
