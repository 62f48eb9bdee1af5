// Regenerates schema/acoustics-catalogue.schema.json from the row-class definition.
// Run after building: `node packages/acoustics-catalogue/scripts/generate-schema.mjs`.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { buildSchema } from '../dist/schema.js';

const target = fileURLToPath(new URL('../schema/acoustics-catalogue.schema.json', import.meta.url));
const options = (await prettier.resolveConfig(target)) ?? {};
const text = await prettier.format(JSON.stringify(buildSchema()), { ...options, filepath: target });
await writeFile(target, text);
console.log(`wrote ${target}`);
