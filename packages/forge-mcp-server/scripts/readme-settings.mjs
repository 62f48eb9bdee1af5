#!/usr/bin/env node
// Writes the settings table into the repository README between its markers, from the built
// package (run `npx tsc -b packages/forge-mcp-server` first). Only the marked block changes.
// --check exits 1 instead of writing when the README is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const START = '<!-- settings:start -->';
const END = '<!-- settings:end -->';
// Prettier would realign the table and break the comparison with the generated text.
const block = (table) => `\n<!-- prettier-ignore-start -->\n${table}<!-- prettier-ignore-end -->\n`;
const readmePath = fileURLToPath(new URL('../../../README.md', import.meta.url));
const { settingsMarkdownTable } = await import(new URL('../dist/config/index.js', import.meta.url).href);

const readme = readFileSync(readmePath, 'utf8');
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) {
  console.error(`${readmePath}: the markers ${START} and ${END} are missing or out of order`);
  process.exit(2);
}
const updated = `${readme.slice(0, start + START.length)}${block(settingsMarkdownTable())}${readme.slice(end)}`;
if (updated === readme) {
  console.log('README settings table is up to date');
} else if (process.argv.includes('--check')) {
  console.error(
    'README settings table is out of date: run node packages/forge-mcp-server/scripts/readme-settings.mjs',
  );
  process.exit(1);
} else {
  writeFileSync(readmePath, updated);
  console.log(`README settings table written (${readmePath})`);
}
