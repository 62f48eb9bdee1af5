/**
 * Generic package uploads through a real MCP client over stdio, against forge-sim: the file travels as
 * the raw request body (application/octet-stream, as `curl --upload-file` sends it), not as a multipart
 * form, and downloading it gives back the same bytes.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sim, stdioClient, textOf, type Connected, type ForgeSim } from './harness.js';

/** Every byte value and a CRLF, so nothing survives a text or multipart round trip by accident. */
const BYTES = Buffer.concat([
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.from('\r\n--x\r\n'),
]);

let s: ForgeSim;
let c: Connected;
let work: string;
beforeAll(async () => {
  s = await sim();
  work = mkdtempSync(join(tmpdir(), 'forge-generic-'));
  c = await stdioClient(s, {
    env: { FORGE_MCP_ALLOWED_UPLOAD_DIRS: work, FORGE_MCP_ALLOWED_DOWNLOAD_DIRS: work },
  });
});
afterAll(async () => {
  await c.close();
  await s.close();
});

const exec = (action: string, params: Record<string, unknown>) =>
  c.client.callTool({ name: 'forge_execute_action', arguments: { action, params } });

/** The uploads forge-sim received since `since`. */
const uploads = (since: number) =>
  s.requests.slice(since).filter((r) => r.method === 'PUT' && r.path.includes('/packages/generic/'));

function expectRawBody(rec: ReturnType<typeof uploads>[number], bytes: Buffer): void {
  expect(rec.headers['content-type']).toBe('application/octet-stream');
  expect(rec.headers['content-length']).toBe(String(bytes.length));
  expect(Buffer.isBuffer(rec.body), 'the body reached forge-sim as bytes').toBe(true);
  expect((rec.body as Buffer).equals(bytes)).toBe(true);
}

/** Downloads a package file through the tool into the work folder and checks it holds `bytes`. */
async function expectDownload(params: Record<string, unknown>, name: string, bytes: Buffer): Promise<void> {
  const target = join(work, name);
  const r = await exec('package.download', { project_id: '1', ...params, output_path: target });
  expect(r.isError, textOf(r)).toBeFalsy();
  expect(readFileSync(target).equals(bytes)).toBe(true);
}

describe('generic package registry over stdio', () => {
  it('uploads a local file as the raw body and downloads the same bytes', async () => {
    const file = join(work, 'tool.bin');
    writeFileSync(file, BYTES);
    const since = s.requests.length;
    const r = await exec('package.publish', {
      project_id: '1',
      package_name: 'widgets-cli',
      package_version: '2.0.0',
      file_name: 'tool.bin',
      file_path: file,
      status: 'hidden',
      select: 'package_file',
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain('"file_name":"tool.bin"');

    const sent = uploads(since);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/api/v4/projects/1/packages/generic/widgets-cli/2.0.0/tool.bin');
    expect(sent[0].query).toEqual({ status: 'hidden', select: 'package_file' });
    expectRawBody(sent[0], BYTES);

    await expectDownload(
      { package_name: 'widgets-cli', package_version: '2.0.0', file_name: 'tool.bin' },
      'tool.bin.downloaded',
      BYTES,
    );
  });

  it('sends select only when asked, and keeps a folder path in the URL', async () => {
    const since = s.requests.length;
    const r = await exec('package.publish', {
      project_id: '1',
      package_name: 'widgets-cli',
      package_version: '2.0.0',
      path: 'linux-amd64',
      file_name: 'widgets',
      content_base64: BYTES.toString('base64'),
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const [rec] = uploads(since);
    expect(rec.path).toBe('/api/v4/projects/1/packages/generic/widgets-cli/2.0.0/linux-amd64/widgets');
    expect(rec.query).toEqual({});
    expectRawBody(rec, BYTES);
    await expectDownload(
      { package_name: 'widgets-cli', package_version: '2.0.0', path: 'linux-amd64', file_name: 'widgets' },
      'widgets.downloaded',
      BYTES,
    );
  });

  it('publishes a directory one raw upload per file', async () => {
    const dir = join(work, 'site');
    mkdirSync(join(dir, 'css'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<h1>Hi</h1>\n');
    writeFileSync(join(dir, 'css', 'site.bin'), BYTES);
    const since = s.requests.length;
    const r = await exec('package.publish_directory', {
      project_id: '1',
      package_name: 'widgets-docs',
      package_version: '1.0.0',
      directory_path: dir,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const sent = uploads(since);
    expect(sent.map((q) => q.path.split('/1.0.0/')[1])).toEqual(['css/site.bin', 'index.html']);
    expectRawBody(sent[0], BYTES);
    expectRawBody(sent[1], Buffer.from('<h1>Hi</h1>\n'));
    await expectDownload(
      { package_name: 'widgets-docs', package_version: '1.0.0', path: 'css', file_name: 'site.bin' },
      'site.bin.downloaded',
      BYTES,
    );
  });

  it('uploads the raw file before linking it from a release', async () => {
    const since = s.requests.length;
    const r = await exec('package.publish_and_link', {
      project_id: '1',
      package_name: 'widgets-cli',
      package_version: '3.0.0',
      file_name: 'tool.bin',
      content_base64: BYTES.toString('base64'),
      tag_name: 'v1.0.0',
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const [rec] = uploads(since);
    expect(rec.query).toEqual({ select: 'package_file' });
    expectRawBody(rec, BYTES);
    // Without link_url the release link points at the file's download URL on the instance.
    const link = s.requests
      .slice(since)
      .find((q) => q.method === 'POST' && q.path.endsWith('/releases/v1.0.0/assets/links'));
    expect((link?.body as { url?: string } | undefined)?.url).toBe(
      `${s.url}/api/v4/projects/1/packages/generic/widgets-cli/3.0.0/tool.bin`,
    );
    await expectDownload(
      { package_name: 'widgets-cli', package_version: '3.0.0', file_name: 'tool.bin' },
      'linked.downloaded',
      BYTES,
    );
  });
});

describe('a folder path with a long run of slashes', () => {
  it('is answered at once: its ends are trimmed in time in proportion to its length', async () => {
    // 1,000,000 slashes inside the folder: trimming its ends once read the run again from each slash (hours).
    const r = await exec('package.publish', {
      project_id: '1',
      package_name: 'slashes',
      package_version: '1.0.0',
      path: `a${'/'.repeat(1_000_000)}b`,
      file_name: 'x.txt',
      content_base64: Buffer.from('x').toString('base64'),
    });
    // An empty part in the path is refused before anything is sent.
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('an empty part in the request path');
  });
});

describe('a download without output_path', () => {
  it('answers the bytes as base64 in structuredContent, whole up to 1 MiB and the first 1 MiB of a larger file', async () => {
    const MIB = 1024 * 1024;
    const publish = async (file_name: string, bytes: Buffer) => {
      const r = await exec('package.publish', {
        project_id: '1',
        package_name: 'inline',
        package_version: '1.0.0',
        file_name,
        content_base64: bytes.toString('base64'),
      });
      expect(r.isError, textOf(r)).toBeFalsy();
    };
    const download = (file_name: string) =>
      exec('package.download', {
        project_id: '1',
        package_name: 'inline',
        package_version: '1.0.0',
        file_name,
      });
    // Exactly 1 MiB, then one byte more: every byte value repeated.
    const exact = Buffer.alloc(MIB, BYTES);
    const over = Buffer.concat([exact, Buffer.from([7])]);
    await publish('exact.bin', exact);
    await publish('over.bin', over);

    const whole = await download('exact.bin');
    expect(whole.isError, textOf(whole)).toBeFalsy();
    expect(textOf(whole)).toBe(
      `${MIB} bytes (application/octet-stream); base64 in structuredContent.content_base64.`,
    );
    const w = whole.structuredContent as { content_base64: string; bytes: number; truncated: boolean };
    expect(w.bytes).toBe(MIB);
    expect(w.truncated).toBe(false);
    expect(Buffer.from(w.content_base64, 'base64').equals(exact)).toBe(true);

    const cut = await download('over.bin');
    expect(textOf(cut)).toBe(
      `${MIB + 1} bytes (application/octet-stream); the first ${MIB} bytes are in structuredContent.content_base64 (pass output_path to save the whole file).`,
    );
    const o = cut.structuredContent as { content_base64: string; bytes: number; truncated: boolean };
    expect(o.bytes).toBe(MIB + 1);
    expect(o.truncated).toBe(true);
    expect(Buffer.from(o.content_base64, 'base64').equals(exact)).toBe(true);
  });
});
