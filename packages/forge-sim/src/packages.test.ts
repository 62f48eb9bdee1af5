import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startForgeSim } from './index.js';
import type { ForgeSim } from './index.js';

let sim: ForgeSim;
beforeAll(async () => {
  sim = await startForgeSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const base = () => `${sim.url}/api/v4/projects/1/packages/generic`;
const put = (path: string, body: Uint8Array, token = sim.tokens.api, type = 'application/octet-stream') =>
  fetch(`${base()}/${path}`, {
    method: 'PUT',
    headers: { 'PRIVATE-TOKEN': token, 'content-type': type },
    body,
  });
const get = (path: string, token = sim.tokens.readApi) =>
  fetch(`${base()}/${path}`, { headers: { 'PRIVATE-TOKEN': token } });

/** Every byte value, so nothing survives a text round trip by accident. */
const BYTES = new Uint8Array(Array.from({ length: 512 }, (_, i) => i % 256));

describe('generic package registry', () => {
  it('stores the raw body of an upload and downloads the same bytes', async () => {
    const up = await put('tool/1.2.3/tool.bin?select=package_file', BYTES);
    expect(up.status).toBe(201);
    const file = (await up.json()) as Record<string, unknown>;
    const sha256 = createHash('sha256').update(BYTES).digest('hex');
    expect(file).toMatchObject({ file_name: 'tool.bin', size: 512, file_sha256: sha256, file_store: 1 });
    expect(typeof file.id).toBe('number');
    expect(typeof file.package_id).toBe('number');

    const rec = sim.requests.find((r) => r.method === 'PUT')!;
    expect(rec.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.isBuffer(rec.body) && Buffer.compare(rec.body, Buffer.from(BYTES))).toBe(0);

    const down = await get('tool/1.2.3/tool.bin');
    expect(down.status).toBe(200);
    expect(down.headers.get('content-type')).toBe('application/octet-stream');
    expect(down.headers.get('x-checksum-sha256')).toBe(sha256);
    expect(down.headers.get('content-disposition')).toMatch(/^attachment; filename="tool\.bin"/);
    expect(Buffer.from(await down.arrayBuffer()).equals(Buffer.from(BYTES))).toBe(true);
  });

  it('answers 201 Created without select, keeps paths, and serves the newest duplicate', async () => {
    const first = await put('tool/1.0.0/linux/amd64/tool', new TextEncoder().encode('one'));
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ message: '201 Created' });
    const second = await put(
      'tool/1.0.0/linux/amd64/tool?select=package_file',
      new TextEncoder().encode('two'),
    );
    expect(((await second.json()) as { file_name: string }).file_name).toBe('linux%2Famd64%2Ftool');
    expect(await (await get('tool/1.0.0/linux/amd64/tool')).text()).toBe('two');
    expect((await get('tool/1.0.0/tool')).status).toBe(404);
  });

  it('serves the seeded archive, and 404s a package or file never uploaded', async () => {
    const seeded = await get('widgets-cli/1.0.0/widgets.tar.gz');
    expect(seeded.status).toBe(200);
    expect(Buffer.from(await seeded.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect((await get('widgets-cli/9.9.9/widgets.tar.gz')).status).toBe(404);
    expect(await (await get('widgets-cli/1.0.0/other.zip')).json()).toEqual({ message: '404 Not found' });
  });

  it('refuses bad names, versions and statuses, and read-only tokens', async () => {
    expect(await (await put('tool/1.0.0/~bad', BYTES)).json()).toEqual({ error: 'file_name is invalid' });
    expect((await put('tool/1 0/tool.bin', BYTES)).status).toBe(400);
    expect(await (await put('tool/1.0.0/tool.bin?status=gone', BYTES)).json()).toEqual({
      error: 'status does not have a valid value',
    });
    expect((await put('tool/1.0.0/tool.bin', BYTES, sim.tokens.readApi)).status).toBe(403);
  });
});
