// Writes an SVG line chart (no libraries) from a JSON description:
//   node bench/plot.mjs bench/perf-fanout.json docs/perf-fanout.svg
// JSON: {"title", "xlabel", "ylabel", "logx": bool, "logy": bool,
//        "series": [{"name", "points": [[x, y], ...]}]}
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: node bench/plot.mjs DATA.json OUT.svg');
const d = JSON.parse(readFileSync(input, 'utf8'));
const W = 640, H = 400, L = 70, R = 160, T = 40, B = 50;
const colors = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const tf = (log) => (v) => (log ? Math.log10(v) : v);
const tx = tf(d.logx), ty = tf(d.logy);
const pts = d.series.flatMap((s) => s.points);
const span = (vs) => [Math.min(...vs), Math.max(...vs)];
let [x0, x1] = span(pts.map((p) => tx(p[0])));
let [y0, y1] = span(pts.map((p) => ty(p[1])));
if (!d.logy) y0 = Math.min(0, y0);
if (x1 === x0) x1 = x0 + 1;
if (y1 === y0) y1 = y0 + 1;
const px = (x) => L + ((tx(x) - x0) / (x1 - x0)) * (W - L - R);
const py = (y) => H - B - ((ty(y) - y0) / (y1 - y0)) * (H - T - B);
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const fmt = (v) => (Math.abs(v) >= 1000 ? `${+(v / 1000).toFixed(1)}k` : `${+v.toFixed(2)}`);
const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
  `<rect width="${W}" height="${H}" fill="white"/>`,
  `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(d.title)}</text>`,
  `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="black"/>`,
  `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="black"/>`,
  `<text x="${(L + W - R) / 2}" y="${H - 12}" text-anchor="middle">${esc(d.xlabel)}</text>`,
  `<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">${esc(d.ylabel)}</text>`];
for (const x of [...new Set(pts.map((p) => p[0]))]) {
  out.push(`<text x="${px(x)}" y="${H - B + 16}" text-anchor="middle">${fmt(x)}</text>`);
}
for (let i = 0; i <= 4; i++) {
  const v = y0 + ((y1 - y0) * i) / 4;
  const y = d.logy ? 10 ** v : v;
  out.push(`<text x="${L - 6}" y="${py(y) + 4}" text-anchor="end">${fmt(y)}</text>`,
    `<line x1="${L}" y1="${py(y)}" x2="${W - R}" y2="${py(y)}" stroke="#ddd"/>`);
}
d.series.forEach((s, i) => {
  const c = colors[i % colors.length];
  out.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${s.points.map((p) => `${px(p[0])},${py(p[1])}`).join(' ')}"/>`);
  for (const p of s.points) out.push(`<circle cx="${px(p[0])}" cy="${py(p[1])}" r="3" fill="${c}"/>`);
  out.push(`<rect x="${W - R + 12}" y="${T + i * 20}" width="12" height="12" fill="${c}"/>`,
    `<text x="${W - R + 30}" y="${T + i * 20 + 10}">${esc(s.name)}</text>`);
});
out.push('</svg>');
writeFileSync(output, out.join('\n') + '\n');
