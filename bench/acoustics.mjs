// Benchmark: read and validate a generated 50,000-row catalogue document with acoustics-catalogue,
// next to plain ajv validation of the same document against the published schema (the floor).
// Run after building: `npx tsc -b packages/acoustics-catalogue && node bench/acoustics.mjs`.
// Prints a markdown section and writes it to bench/results/acoustics.md. No assertions: numbers only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROWS = 50_000;
const RUNS = 5;
/** Processes per side, started alternately (reader, floor, reader, …) so load on a shared machine falls on both. */
const ROUNDS = 3;
const packageDir = new URL('../packages/acoustics-catalogue/', import.meta.url);
const dist = new URL('dist/index.js', packageDir);

function generate() {
  const rows = [];
  for (let i = 0; i < ROWS; i++) {
    const row = {
      key: `foam-${i}`,
      name: `Foam sample ${i}`,
      group: `batch ${i % 40}`,
      flow_resistivity_pa_s_m2: 5000 + (i % 997) * 11,
      porosity: 0.9 + (i % 9) / 100,
      tortuosity: 1 + (i % 30) / 100,
      viscous_length_um: 40 + (i % 120),
      thermal_length_um: 120 + (i % 200),
      frame_density_kg_m3: 10 + (i % 60),
      thickness_mm: 25 + (i % 8) * 5,
    };
    if (i % 3 === 0) row.approximate = ['tortuosity'];
    if (i % 5 === 0) row.ranges = { shot_content_percent: [5, 12] };
    if (i % 7 === 0) row.uncertainty = { porosity: 0.01 };
    if (i % 11 === 0) row.provenance = { page: String(1 + (i % 300)) };
    rows.push(row);
  }
  return JSON.stringify({
    schema: 'acoustics-catalogue',
    schema_version: 1,
    catalogue: 'bench',
    row_type: 'PorousMaterial',
    about: 'Generated rows for the benchmark.',
    basis: 'measured',
    provenance: {
      kind: 'measurement',
      document: 'Generated',
      version: null,
      consulted: '2025-01-01',
      laboratory: 'Bench lab',
    },
    rows,
  });
}

async function child(mode) {
  const text = generate();
  let run;
  if (mode === 'reader') {
    const { readCatalogue } = await import(dist.href);
    run = () => {
      const { document } = readCatalogue(text);
      if (document.rows.length !== ROWS) throw new Error('rows lost');
    };
  } else {
    const require = createRequire(new URL('package.json', packageDir));
    const { Ajv2020 } = await import(pathToFileURL(require.resolve('ajv/dist/2020.js')).href);
    const formats = await import(pathToFileURL(require.resolve('ajv-formats')).href);
    const schema = JSON.parse(
      readFileSync(new URL('schema/acoustics-catalogue.schema.json', packageDir), 'utf8'),
    );
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    (formats.default.default ?? formats.default)(ajv, ['date']);
    const validate = ajv.compile(schema);
    run = () => {
      if (!validate(JSON.parse(text))) throw new Error('the generated document is invalid');
    };
  }
  run(); // warm-up (includes schema compilation for the reader)
  const ms = [];
  const cpuMs = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    run();
    const used = process.cpuUsage(c);
    ms.push(performance.now() - t);
    cpuMs.push((used.user + used.system) / 1000);
  }
  process.stdout.write(
    JSON.stringify({ ms, cpuMs, maxRssKiB: process.resourceUsage().maxRSS, bytes: text.length }),
  );
}

function measure(mode) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`${mode} run failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A markdown table laid out as prettier lays it out (first column left, the rest right-aligned). */
function table(head, body) {
  const widths = head.map((h, i) => Math.max(3, h.length, ...body.map((r) => r[i].length)));
  const cells = (r) =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [cells(head), rule, ...body.map(cells)];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!existsSync(dist)) {
    console.error('acoustics bench: build first (npx tsc -b packages/acoustics-catalogue)');
    process.exit(2);
  }
  const runs = { reader: [], ajv: [] };
  for (let i = 0; i < ROUNDS; i++) for (const mode of ['reader', 'ajv']) runs[mode].push(measure(mode));
  // Each side: the median of every timed run of its processes; peak memory, the median process's.
  const pool = (list) => ({
    ms: list.flatMap((r) => r.ms),
    cpuMs: list.flatMap((r) => r.cpuMs),
    maxRssKiB: median(list.map((r) => r.maxRssKiB)),
    bytes: list[0].bytes,
  });
  const reader = pool(runs.reader);
  const floor = pool(runs.ajv);
  const rowsPerSecond = (r) => ROWS / (median(r.ms) / 1000);
  const mib = (kib) => (kib / 1024).toFixed(0);
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const cpus = os.cpus();
  const lines = [
    '## acoustics-catalogue',
    '',
    `Reading and validating one generated ${fmt(ROWS)}-row PorousMaterial document ` +
      `(${(reader.bytes / 1024 / 1024).toFixed(1)} MiB of JSON): ${ROUNDS} processes per side, started alternately, ` +
      `each timing ${RUNS} runs after a warm-up; the medians of all runs. CPU time is the process's user and system ` +
      'time during a run (steadier than wall time on a shared machine); peak memory is the median process’s ' +
      'maximum resident set size.',
    '',
    ...table(
      ['', 'median time (ms)', 'median CPU time (ms)', 'rows per second', 'peak memory (MiB)'],
      [
        [
          'acoustics-catalogue `readCatalogue` (parse, duplicate members, schema, cross-cell rules, notes)',
          median(reader.ms).toFixed(0),
          median(reader.cpuMs).toFixed(0),
          fmt(rowsPerSecond(reader)),
          mib(reader.maxRssKiB),
        ],
        [
          'floor: `JSON.parse` + plain ajv (Ajv2020, published schema)',
          median(floor.ms).toFixed(0),
          median(floor.cpuMs).toFixed(0),
          fmt(rowsPerSecond(floor)),
          mib(floor.maxRssKiB),
        ],
        [
          'ratio (reader / floor)',
          `${(median(reader.ms) / median(floor.ms)).toFixed(2)}× time`,
          `${(median(reader.cpuMs) / median(floor.cpuMs)).toFixed(2)}× CPU`,
          `${(rowsPerSecond(reader) / rowsPerSecond(floor)).toFixed(2)}× rows/s`,
          `${(reader.maxRssKiB / floor.maxRssKiB).toFixed(2)}× memory`,
        ],
      ],
    ),
    '',
    `Machine: ${cpus.length} cores (${cpus[0]?.model?.trim() ?? 'unknown CPU'}), Node ${process.version}, ${os.platform()} ${os.arch()}.`,
    '',
  ];
  const section = lines.join('\n');
  process.stdout.write(section);
  const results = new URL('results/', import.meta.url);
  mkdirSync(results, { recursive: true });
  writeFileSync(new URL('acoustics.md', results), section);
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else await main();
