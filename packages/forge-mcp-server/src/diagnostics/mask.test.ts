/**
 * The heap snapshot's masking on its own: secrets cut across chunks, escaped as V8 writes them, cut short by
 * V8's string limit, and credential shapes, all masked with as many `*`, the JSON still valid and as long.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { testSecret } from '../../../../test-logs.js';
import { maskingSnapshot } from './mask.js';

const TOKEN = testSecret('forgesim-pooled-0f3a9c81d2e4b765');
/** A key with what V8 escapes in it: a quote, a backslash, a line break and characters outside ASCII. */
const KEY = testSecret('st"ate\\key\nwith-é-and-€-inside');
const SHAPED = testSecret('glpat-Xq7mZ2pL9wK4vB1nR8tY');
const JWT = testSecret('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkaWFnIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ');
const BASIC = testSecret('ZGlhZzpzM2NyZXQtcGFzc3dvcmQ=');

/** A string as V8 writes it into a snapshot's string table. */
function v8String(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (c > 31 && c < 128) out += ch;
    else out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
  }
  return out + '"';
}

/** A small snapshot-shaped document whose string table holds `strings`, one a line as V8 writes them. */
function snapshotOf(strings: string[]): string {
  return `{"snapshot":{"meta":{}},\n"nodes":[0,1,2\n,3,4,5],\n"strings":[${strings.map(v8String).join(',\n')}]}`;
}

/** `text` through the masking, cut into chunks of `size` bytes, or at the offsets `size` lists. */
async function masked(text: string, secrets: string[], size: number | number[]): Promise<string> {
  const bytes = Buffer.from(text, 'latin1');
  const cuts =
    typeof size === 'number'
      ? Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => i * size).slice(1)
      : size;
  const bounds = [0, ...cuts, bytes.length];
  const chunks = bounds.slice(1).map((end, i) => bytes.subarray(bounds[i], end));
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    maskingSnapshot(secrets),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(out).toString('latin1');
}

describe('heap snapshot masking', () => {
  const strings = [
    'group/planted-project',
    `PRIVATE-TOKEN ${TOKEN} sent`,
    TOKEN,
    JSON.stringify({ token: TOKEN, key: KEY }),
    encodeURIComponent(KEY),
    KEY,
    `token ${SHAPED} in a text`,
    `Bearer ${JWT}`,
    `Authorization: Basic ${BASIC}`,
    'ordinary text after the secrets',
  ];
  const document = snapshotOf(strings);

  it('masks every secret and credential shape, wherever the chunks are cut, keeping the JSON and its length', async () => {
    // Every cut through the lines that hold the secrets, and a few chunk sizes besides.
    const sizes = [1, 2, 3, 7, 16, 64, 1000, document.length];
    for (const size of sizes) {
      const out = await masked(document, [TOKEN, KEY], size);
      expect(out.length).toBe(document.length);
      const parsed = JSON.parse(out) as { strings: string[] };
      const all = parsed.strings.join('\n');
      for (const secret of [
        TOKEN,
        KEY,
        JSON.stringify(KEY).slice(1, -1),
        encodeURIComponent(KEY),
        JWT,
        BASIC,
      ])
        expect(all).not.toContain(secret);
      expect(all).not.toContain('Xq7mZ2pL9wK4vB1nR8tY');
      // What is not secret stays: the ordinary strings, the issued prefix, the header and scheme names.
      expect(parsed.strings[0]).toBe('group/planted-project');
      expect(parsed.strings[1]).toBe(`PRIVATE-TOKEN ${'*'.repeat(TOKEN.length)} sent`);
      expect(parsed.strings[2]).toBe('*'.repeat(TOKEN.length));
      expect(parsed.strings[6]).toBe(`token glpat-${'*'.repeat(SHAPED.length - 6)} in a text`);
      expect(parsed.strings[7]).toBe(`Bearer ${'*'.repeat(JWT.length)}`);
      expect(parsed.strings[8]).toBe(`Authorization: Basic ${'*'.repeat(BASIC.length)}`);
      expect(parsed.strings[9]).toBe('ordinary text after the secrets');
    }
  });

  it('masks a secret split across two chunks at every point of it', async () => {
    const at = document.indexOf(TOKEN);
    for (let cut = at; cut <= at + TOKEN.length; cut++)
      expect(await masked(document, [TOKEN], [cut])).not.toContain(TOKEN);
  });

  it('masks the beginning of a secret left at the end of a string V8 cut short, and nothing of a short one', async () => {
    const filler = 'x'.repeat(1024 - 20);
    const cutShort = `${filler}${TOKEN}`.slice(0, 1024);
    const out = await masked(snapshotOf([cutShort, `short ${TOKEN.slice(0, 20)}`]), [TOKEN], 4096);
    const parsed = JSON.parse(out) as { strings: string[] };
    expect(parsed.strings[0]).toBe(filler + '*'.repeat(20));
    // A string not cut short that merely ends like a secret begins is left as it is.
    expect(parsed.strings[1]).toBe(`short ${TOKEN.slice(0, 20)}`);
  });

  it('checks thousands of strings cut short against thousands of secrets in one look-up per length, not per secret', async () => {
    // 2,000 pooled tokens and 3,000 strings V8 cut short (response bodies, sources): 6 million pairs.
    const tokens = Array.from(
      { length: 2000 },
      (_, i) => `pooled-${String(i).padStart(4, '0')}-${'k'.repeat(24)}`,
    );
    const cut = Array.from({ length: 3000 }, (_, i) => `${'y'.repeat(1014)}${String(i).padStart(10, '0')}`);
    cut.push(`${'y'.repeat(1010)}${tokens[1234]!.slice(0, 14)}`);
    const started = Date.now();
    const out = await masked(snapshotOf(cut), tokens, 65536);
    // Each pair looked at on its own took about 20 s here; one look-up per length, well under a second.
    expect(Date.now() - started).toBeLessThan(10_000);
    const parsed = JSON.parse(out) as { strings: string[] };
    expect(parsed.strings[3000]).toBe(`${'y'.repeat(1010)}${'*'.repeat(14)}`);
    expect(parsed.strings[0]).toBe(cut[0]);
  });

  it('never breaks an escape: a secret that would begin at the letter of an escape is not there', async () => {
    const secret = testSecret('nothing-but-a-word');
    const out = await masked(snapshotOf([`line\n${secret.slice(1)}`, secret]), [secret], 7);
    const parsed = JSON.parse(out) as { strings: string[] };
    expect(parsed.strings[0]).toBe(`line\n${secret.slice(1)}`);
    expect(parsed.strings[1]).toBe('*'.repeat(secret.length));
  });

  it('never breaks a \\u escape: a secret that would begin at one of its hex digits is not there', async () => {
    // Too short to be a real secret (none is registered): only its place in the text matters here.
    const out = await masked(snapshotOf(['caf\u00e9 00E9']), ['00E9'], 5);
    expect((JSON.parse(out) as { strings: string[] }).strings[0]).toBe('caf\u00e9 ****');
  });

  it("masks a secret in the string table's first entry, and the longest beginning of a secret a cut string ends in", async () => {
    // A secret whose beginning repeats within it ("…-1f7c…-1f7c"): the string ends in its first 23 characters,
    // and also in a shorter beginning of it; all 23 are masked, not only the shorter.
    const secret = testSecret('mask-1f7c9e2a-mask-1f7c9e2a-b04d');
    const filler = 'z'.repeat(1024 - 23);
    const cut = `${filler}${secret.slice(0, 23)}`;
    // A short secret that the header's field name holds ("strings") leaves the name as it is.
    const out = await masked(snapshotOf([secret, cut, 'after']), [secret, 'trings'], 4096);
    const parsed = JSON.parse(out) as { strings: string[] };
    expect(parsed.strings[0]).toBe('*'.repeat(secret.length));
    expect(parsed.strings[1]).toBe(filler + '*'.repeat(23));
    expect(parsed.strings[2]).toBe('after');
  });

  it('masks a secret of 1 to 3 characters only where a string is exactly it, never inside longer strings', async () => {
    // A one-letter secret, a number and one URL-encoding changes; and a four-character one, masked everywhere.
    const secrets = ['e', '17', 'a b', 'k3y9'];
    const strings = [
      'e',
      '17',
      'a b',
      'a%20b',
      'every string keeps its e, 17 and a b',
      'x-tenant=17',
      'the k3y9 inside',
      '(GC roots)',
    ];
    const out = await masked(snapshotOf(strings), secrets, 16);
    const parsed = JSON.parse(out) as { strings: string[] };
    expect(parsed.strings).toEqual([
      '*',
      '**',
      '***',
      '*****',
      'every string keeps its e, 17 and a b',
      'x-tenant=17',
      'the **** inside',
      '(GC roots)',
    ]);
    // The longest form of such a secret (URL-encoded) as the table's first entry: the longest line looked at.
    const first = await masked(snapshotOf(['a%20b', 'every a b kept']), secrets, 16);
    expect((JSON.parse(first) as { strings: string[] }).strings).toEqual(['*****', 'every a b kept']);
  });

  it('masks every issued token prefix, an opaque bearer token and a private key body, keeping what names them', async () => {
    const prefixes = [
      'glpat',
      'gloas',
      'gldt',
      'glrt',
      'glrtr',
      'glcbt',
      'glptt',
      'glft',
      'glimt',
      'glagent',
    ];
    const body = 'Rk8mZ2pL9wK4vB1nQ7tY';
    const tokens = [...prefixes, 'glsoat', 'glffct', 'glwt'].map((p) => testSecret(`${p}-${body}`));
    const opaque = testSecret('opaque_oauth.0123456789abcdef~x');
    const key = testSecret('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${key}\n-----END RSA PRIVATE KEY-----\n`;
    const out = await masked(snapshotOf([...tokens, `Authorization: Bearer ${opaque}`, pem]), [], 64);
    const parsed = JSON.parse(out) as { strings: string[] };
    tokens.forEach((t, i) =>
      expect(parsed.strings[i], t).toBe(`${t.slice(0, t.indexOf('-') + 1)}${'*'.repeat(body.length)}`),
    );
    expect(parsed.strings[tokens.length]).toBe(`Authorization: Bearer ${'*'.repeat(opaque.length)}`);
    expect(parsed.strings[tokens.length + 1]).toMatch(
      /^-----BEGIN RSA PRIVATE KEY-----\*+-----END RSA PRIVATE KEY-----\n$/,
    );
    expect(out).not.toContain(key);
  });
});
