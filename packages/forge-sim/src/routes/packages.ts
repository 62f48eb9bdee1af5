/**
 * The generic package registry: upload a file (its bytes are the request body, as `curl --upload-file`
 * sends them) and download it again, byte for byte.
 */
import { project, requireProjectAccess, str } from '../context.js';
import type { Ctx } from '../context.js';
import { HttpError, json } from '../http.js';
import type { Reply } from '../http.js';
import type { GenericPackage, PackageFile, Project } from '../state.js';
import { ACCESS, nextId, packageFile } from '../state.js';
import type { RouteTable } from './table.js';

const ROUTE = '/projects/:id/packages/generic/:package_name/*package_version/(*path/):file_name';

/** The instance's parameter rules (Gitlab::Regex generic_package_*); a mismatch is a 400 naming the parameter. */
const NAME = /^[A-Za-z0-9._+-]+$/;
const VERSION = /^(\.?[\w+-]+\.?)+$/;
const FILE_NAME = /^(?![~@])[A-Za-z0-9._+~@-]+(?<![~@])$/;
const STATUSES = ['default', 'hidden'] as const;

const invalid = (param: string): HttpError => new HttpError(400, { error: `${param} is invalid` });
/** Missing packages and files both end in ActiveRecord::RecordNotFound on the instance. */
const missing = (): HttpError => new HttpError(404, { message: '404 Not found' });

interface Location {
  name: string;
  version: string;
  /** As the instance stores it: the file name, or `path/file_name` URI-encoded when a path is given. */
  fileName: string;
  /** The last segment, for Content-Disposition. */
  baseName: string;
}

function locate(ctx: Ctx): Location {
  const { package_name: name = '', package_version: version = '', path, file_name: file = '' } = ctx.params;
  if (!NAME.test(name)) throw invalid('package_name');
  if (!VERSION.test(version)) throw invalid('package_version');
  if (!FILE_NAME.test(file)) throw invalid('file_name');
  const fileName = path ? encodeURIComponent(`${path}/${file}`) : file;
  return { name, version, fileName, baseName: file };
}

const findPackage = (p: Project, loc: Location): GenericPackage | undefined =>
  p.packages.find((k) => k.name === loc.name && k.version === loc.version);

/** The package file record, as `?select=package_file` presents it. */
function packageFileJson(k: GenericPackage, f: PackageFile): Record<string, unknown> {
  return {
    id: f.id,
    package_id: k.id,
    created_at: f.createdAt,
    updated_at: f.createdAt,
    size: f.bytes.byteLength,
    file_store: 1,
    file_md5: null,
    file_sha1: null,
    file_name: f.fileName,
    file: {
      url: `/${f.sha256.slice(0, 2)}/${f.sha256.slice(2, 4)}/${f.sha256}/packages/${k.id}/files/${f.id}/${f.fileName}`,
    },
    file_sha256: f.sha256,
    verification_retry_at: null,
    verified_at: null,
    verification_failure: null,
    verification_retry_count: null,
    verification_checksum: null,
    verification_state: 0,
    verification_started_at: null,
    new_file_path: null,
  };
}

export function registerPackages(r: RouteTable): void {
  r.add('PUT', ROUTE, (ctx): Reply => {
    const p = project(ctx);
    requireProjectAccess(ctx, p, ACCESS.developer);
    const loc = locate(ctx);
    const status = str(ctx, 'status');
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
      throw new HttpError(400, { error: 'status does not have a valid value' });
    const select = str(ctx, 'select');
    if (select !== undefined && select !== 'package_file')
      throw new HttpError(400, { error: 'select does not have a valid value' });
    const now = new Date().toISOString();
    let k = findPackage(p, loc);
    if (!k) {
      k = {
        id: nextId(ctx.state, 'package'),
        name: loc.name,
        version: loc.version,
        status: 'default',
        createdAt: now,
        files: [],
      };
      p.packages.push(k);
    }
    if (status) k.status = status as GenericPackage['status'];
    // The body is the file: whatever arrived, byte for byte (a multipart envelope would be stored as is).
    const f = packageFile(ctx.state, loc.fileName, new Uint8Array(ctx.raw), now);
    // Duplicates are allowed by default: the newer file is added, and downloads return it.
    k.files.push(f);
    return select === 'package_file'
      ? json(201, packageFileJson(k, f))
      : json(201, { message: '201 Created' });
  });

  r.add('GET', ROUTE, (ctx): Reply => {
    const p = project(ctx);
    const loc = locate(ctx);
    const k = findPackage(p, loc);
    if (!k) throw missing();
    const f = k.files.filter((x) => x.fileName === loc.fileName).pop();
    if (!f) throw missing();
    return {
      status: 200,
      raw: f.bytes,
      contentType: 'application/octet-stream',
      headers: {
        'content-disposition': `attachment; filename="${loc.baseName}"; filename*=UTF-8''${encodeURIComponent(loc.baseName)}`,
        'x-checksum-sha256': f.sha256,
      },
    };
  });
}
