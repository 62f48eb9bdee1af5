// bench/latency.svg: tools/call latency over stdio by server and call (bar = p50, whisker = p99, darker part
// of the bar = forge-sim's own median time for the same upstream requests). No dependency.
const COLORS = ['#1f77b4', '#4a98c9', '#86bde0', '#d62728', '#2ca02c'];
const FLOOR_COLOR = '#9a9a9a';
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function latencySvg(results, calls) {
  const rows = [];
  for (const c of calls)
    for (const [si, r] of results.entries()) {
      const cr = r.calls?.[c.key];
      rows.push({
        call: c,
        server: r.name,
        si,
        floor: r.floor || r.reference,
        cr: cr && Number.isFinite(cr.latP50) ? cr : null,
        why: cr,
      });
    }
  const left = 275;
  const barH = 14;
  const gap = 4;
  const groupGap = 26;
  const top = 50;
  const width = 900;
  const plotW = width - left - 130;
  const vmax = Math.max(1, ...rows.filter((x) => x.cr).map((x) => x.cr.latP99));
  const steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];
  const step = steps.find((s) => s * 8 >= vmax) ?? 10000;
  const scaleMax = Math.ceil(vmax / step) * step;
  const x = (v) => left + (v / scaleMax) * plotW;
  let y = top;
  const parts = [];
  for (const c of calls) {
    parts.push(`<text x="10" y="${y + 10}" font-weight="bold">${esc(c.label)}</text>`);
    y += 18;
    for (const row of rows.filter((q) => q.call === c)) {
      parts.push(`<text x="20" y="${y + barH - 3}">${esc(row.server)}</text>`);
      if (row.cr) {
        const { latP50, latP99, simMs } = row.cr;
        parts.push(
          `<rect x="${left}" y="${y}" width="${(x(latP50) - left).toFixed(1)}" height="${barH}" fill="${row.floor ? FLOOR_COLOR : COLORS[row.si % COLORS.length]}"><title>p50 ${latP50.toFixed(2)} ms, p99 ${latP99.toFixed(2)} ms</title></rect>`,
        );
        if (Number.isFinite(simMs) && simMs > 0)
          parts.push(
            `<rect x="${left}" y="${y + barH / 2 - 2}" width="${(x(Math.min(simMs, latP50)) - left).toFixed(1)}" height="4" fill="#333" opacity="0.6"><title>forge-sim ${simMs.toFixed(2)} ms</title></rect>`,
          );
        parts.push(
          `<line x1="${x(latP50).toFixed(1)}" x2="${x(latP99).toFixed(1)}" y1="${y + barH / 2}" y2="${y + barH / 2}" stroke="#333"/>`,
          `<line x1="${x(latP99).toFixed(1)}" x2="${x(latP99).toFixed(1)}" y1="${y + 2}" y2="${y + barH - 2}" stroke="#333"/>`,
          `<text x="${(x(latP99) + 6).toFixed(1)}" y="${y + barH - 3}">${latP50.toFixed(2)} / ${latP99.toFixed(2)} ms</text>`,
        );
      } else {
        const why = row.why?.offered === false ? 'not offered by this server' : 'failed (see report)';
        parts.push(`<text x="${left + 4}" y="${y + barH - 3}" fill="#888">${esc(why)}</text>`);
      }
      y += barH + gap;
    }
    y += groupGap - gap;
  }
  const axisY = y;
  const ticks = [];
  for (let v = 0; v <= scaleMax + 1e-9; v += step) {
    ticks.push(
      `<line x1="${x(v).toFixed(1)}" x2="${x(v).toFixed(1)}" y1="${top - 6}" y2="${axisY}" stroke="#ddd"/>`,
      `<text x="${x(v).toFixed(1)}" y="${axisY + 14}" text-anchor="middle">${+v.toFixed(3)}</text>`,
    );
  }
  const height = axisY + 40;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="20" font-size="15" font-weight="bold">tools/call latency over stdio (ms): bar p50, whisker p99, dark strip forge-sim's own time</text>
${ticks.join('\n')}
${parts.join('\n')}
<text x="${left + plotW / 2}" y="${axisY + 30}" text-anchor="middle">milliseconds, end to end at the client</text>
</svg>
`;
}
