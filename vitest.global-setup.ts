/**
 * Suite-wide: every process the tests spawn keeps its output under one folder (test-logs.ts), and when the whole
 * suite is done every log there is searched for secrets: any token forge-sim issues (`forgesim-` is in each, the
 * seeded ones and those minted by tests, so one pattern finds them all), and every value the tests registered as
 * a secret they handed a product (test-logs.ts: passwords in Redis/PostgreSQL/proxy URLs, OTLP header values,
 * the collector's tokens, keys, cookies, credentials sent in request headers), raw or URL-encoded.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRETS_FILE } from './test-logs.js';

const TOKEN = /(?:glpat-)?forgesim-[A-Za-z0-9_-]{4,}/;
/**
 * A token in GitLab's or GitHub's own formats, whoever made it up (a test's refused or unknown tokens, sent in
 * headers the harness does not see): a prefix, then at least eight more characters of a token.
 */
const TOKEN_FORMAT =
  /\b(?:gl(?:pat|oas|ptt|dt|rt|cbt|imt|agent|soat|ffct|ft|wt)-|gh[pousr]_|github_pat_)[A-Za-z0-9_-]{8,}/;

/** Where in `line` a forge-sim token, a token in a known format or one of `secrets` starts (-1: nowhere). */
function hitIn(line: string, secrets: string[]): number {
  const found = [TOKEN.exec(line)?.index ?? -1, TOKEN_FORMAT.exec(line)?.index ?? -1]
    .concat(secrets.map((s) => line.indexOf(s)))
    .filter((i) => i >= 0);
  return found.length ? Math.min(...found) : -1;
}

/** A log excerpt fit to print: a store file's binary bytes shown as dots. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\ufffd]/g, '.');
}

/** The registered secrets, each raw and URL-encoded. */
function registeredSecrets(dir: string): string[] {
  const file = join(dir, SECRETS_FILE);
  if (!existsSync(file)) return [];
  const values = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const value = JSON.parse(line) as string;
    values.add(value);
    values.add(encodeURIComponent(value));
  }
  return [...values];
}

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'forge-test-logs-'));
  process.env.FORGE_TEST_LOG_DIR = dir;
  return () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.log'));
    const secrets = registeredSecrets(dir);
    const leaks: string[] = [];
    const byProduct = new Map<string, number>();
    let bytes = 0;
    for (const f of files) {
      const product = f.replace(/-\d+-\d+\.log$/, '');
      byProduct.set(product, (byProduct.get(product) ?? 0) + 1);
      const raw = readFileSync(join(dir, f));
      bytes += raw.length;
      const text = raw.toString('utf8');
      const held = secrets.filter((s) => text.includes(s));
      if (!held.length && !TOKEN.test(text) && !TOKEN_FORMAT.test(text)) continue;
      for (const line of text.split('\n')) {
        const at = hitIn(line, held);
        if (at >= 0) leaks.push(`${f}: ${printable(line.slice(Math.max(0, at - 150), at + 150))}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    const counts = [...byProduct].map(([p, n]) => `${n} ${p}`).join(', ');
    console.log(
      `secret grep: ${files.length} logs (${counts || 'none'}), ${bytes} bytes, ${secrets.length} registered ` +
        `secret forms; ${leaks.length} lines holding a token or secret`,
    );
    if (leaks.length) {
      // Thrown errors in a teardown are only reported; the exit code is what CI reads.
      console.error(
        `FAIL secret grep: a token or secret appeared in logs:\n${leaks.slice(0, 20).join('\n')}`,
      );
      process.exitCode = 1;
    }
  };
}
