// --help and the README table are generated from the settings table; the README must match it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { helpText, settingsMarkdownTable } from './index.js';
import { defaultFor, SETTING_IDS, settingDef } from './settings.js';

const names = SETTING_IDS.flatMap((id) => [settingDef(id).variable, settingDef(id).flag]).filter(
  (n): n is string => n !== undefined,
);

describe('--help', () => {
  const help = helpText();
  it.each(names)('names %s', (name) => {
    expect(help).toContain(name);
  });
  it('states defaults and what is accepted', () => {
    expect(help).toContain(
      'Default: 65m. Accepts a duration such as 90s, 15m or 1h30m, at most 24h, or 0 to disable.',
    );
    expect(help).toContain('Default: 2GB.');
    expect(help).toContain('Default: 0 on stdio, 10 in HTTP.');
    expect(help).toContain('Invalid refuses the start on stdio, warns and keeps the default in HTTP.');
  });
});

describe('README settings table', () => {
  const table = settingsMarkdownTable();
  const rows = table.split('\n').filter((line) => line.startsWith('| '));

  it('has one row per setting, each with six cells', () => {
    expect(rows).toHaveLength(SETTING_IDS.length + 1);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split(' | ')).toHaveLength(6);
  });
  it.each(names)('names %s', (name) => {
    expect(table).toContain(`\`${name}\``);
  });
  it('marks the flags a stdio server reads', () => {
    expect(table).toContain('| `FORGE_MCP_LOG_LEVEL` | `--log-level` (both) | both | info |');
    expect(table).toContain('| `FORGE_MCP_TOOL_SURFACE` | `--tool-surface` | both | dynamic |');
    expect(table).toContain('| `FORGE_MCP_STDIO_MAX_LINE_BYTES` | — | stdio | 4194304 |');
  });
  it('matches the block between the README markers (run scripts/readme-settings.mjs after a build)', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../../../README.md', import.meta.url)), 'utf8');
    const start = '<!-- settings:start -->';
    const block = readme.slice(readme.indexOf(start) + start.length, readme.indexOf('<!-- settings:end -->'));
    expect(block).toBe(`\n<!-- prettier-ignore-start -->\n${table}<!-- prettier-ignore-end -->\n`);
  });
});

describe('defaults written as text', () => {
  // A default shown as words (defaultText) must still say the value the server uses on each transport.
  const worded = SETTING_IDS.filter((id) => {
    const def = settingDef(id);
    return def.defaultText !== undefined && (def.default !== undefined || def.defaultPer !== undefined);
  });
  it.each(worded)('%s', (id) => {
    const def = settingDef(id);
    for (const transport of ['stdio', 'http'] as const) {
      if (def.scope !== 'both' && def.scope !== transport) continue;
      const value = defaultFor(def, transport);
      const shown = value === undefined ? '' : def.grammar.format(value as never);
      if (shown === '') expect(def.defaultText).toMatch(/^(empty|none\b)|none in HTTP/);
      else expect(def.defaultText).toContain(shown);
    }
  });
});
