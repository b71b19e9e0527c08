// Opening a long conversation in Chromium, agentdesk side by side with a
// peer web UI (CloudCLI 1.12.0, bench/peer-cloudcli.mjs) on the same
// generated conversations (bench/conversation.mjs: claude CLI session files
// of MESSAGES messages each, default 1000,5000,50000), in interleaved rounds.
//
// agentdesk adopts each conversation (POST /api/sessions with its
// claudeSessionId: the chat imports the session file); the peer reads the
// same file from its HOME. Per open, in a fresh browser context:
//   visible   ms from navigation start to the frame in which the last
//             message's closing word (lastMarker) is inside the viewport and
//             every scrolling box around it; an init script finds the word
//             with a MutationObserver and checks its box every animation
//             frame, then waits two more frames;
//   nodes     Chromium's DOM node count (CDP Memory.getDOMCounters, after a
//             garbage collection) once the page is settled (no byte for 1 s);
//   renderer  the RSS of the page's renderer process (the largest renderer
//             of the browser: one page is open at a time), and its JS heap;
//   bytes     what the server sent to the browser for the open, counted on
//             the wire by a TCP proxy between them (HTTP answers, the app's
//             files, WebSocket frames), until settled;
//   cpu       the server's CPU seconds over the open.
// With ADOPT=1 (default) agentdesk's adoption is measured too, once per size
// on a fresh copy of the conversation: from the POST to the newest message
// visible in a page opened right after it, and to the end of the import
// (the chat's "earlier messages" divider on screen).
//
//   npm run build && go build -o /tmp/b/agentdesk .
//   AGENTDESK_BIN=/tmp/b/agentdesk PEER_DIR=/path/to/claudecodeui-1.12.0 node bench/chat-open.mjs
// PEER_DIR is optional (without it only agentdesk runs); ROUNDS (default 3),
// MESSAGES, ADOPT=0|1, VIEWPORT=1280x800, IMPORT_TIMEOUT_MS (default 15 min).
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, newPage } from '../e2e/browser.mjs';
import { AgentdeskServer } from '../e2e/server.mjs';
import { lastMarker, writeConversation } from './conversation.mjs';
import { CloudCLI } from './peer-cloudcli.mjs';

const sizes = (process.env.MESSAGES ?? '1000,5000,50000').split(',').map(Number).filter((n) => n > 0);
const rounds = Number(process.env.ROUNDS ?? 3);
const adopt = (process.env.ADOPT ?? '1') !== '0';
const [vw, vh] = (process.env.VIEWPORT ?? '1280x800').split('x').map(Number);
const openTimeoutMs = 120_000;
/** Adopting 50,000 messages on a loaded machine takes minutes (IMPORT_TIMEOUT_MS). */
const importTimeoutMs = Number(process.env.IMPORT_TIMEOUT_MS ?? 900_000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () => os.loadavg()[0].toFixed(1);

/** A TCP proxy on loopback to port; bytes counts what the server sent. */
async function countingProxy(port) {
  const counter = { bytes: 0, last: Date.now() };
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    upstream.on('data', (b) => { counter.bytes += b.length; counter.last = Date.now(); });
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counter,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

/** utime+stime of pid in seconds. */
async function cpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** RSS in MiB of the largest renderer process of the browser. */
async function rendererRSS(browser) {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    let max = 0;
    for (const p of processInfo) {
      if (p.type !== 'renderer') continue;
      try {
        const st = await readFile(`/proc/${p.id}/status`, 'utf8');
        max = Math.max(max, Number(/VmRSS:\s+(\d+)/.exec(st)?.[1] ?? 0) / 1024);
      } catch { /* gone */ }
    }
    return max;
  } finally {
    await cdp.detach();
  }
}

/**
 * Init script: finds the element that shows `marker` and records when it is
 * first on screen; with `doneSel`, also when an element matching it first is.
 */
function installProbe({ marker, doneSel }) {
  let el = null;
  let done = null;
  const rec = { visible: null, painted: null, done: null };
  window.__open = rec;
  const deepest = (n) => {
    let e = n.nodeType === 3 ? n.parentElement : n;
    for (;;) {
      const c = e && [...e.children].find((x) => (x.textContent ?? '').includes(marker));
      if (!c) return e;
      e = c;
    }
  };
  const onScreen = (e) => {
    if (e === null || !e.isConnected) return false;
    const r = e.getBoundingClientRect();
    if (r.height === 0 || r.width === 0 || r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) return false;
    for (let p = e.parentElement; p !== null; p = p.parentElement) {
      if (!/(auto|scroll|hidden|clip)/.test(getComputedStyle(p).overflowY)) continue;
      const q = p.getBoundingClientRect();
      if (r.bottom <= q.top || r.top >= q.bottom) return false;
    }
    return true;
  };
  new MutationObserver((records) => {
    if (el !== null && el.isConnected) return;
    el = null;
    for (const r of records) {
      if (r.type === 'characterData' && r.target.data.includes(marker)) el = r.target.parentElement;
      for (const n of r.addedNodes) {
        if (el === null && (n.nodeType === 1 || n.nodeType === 3) && (n.textContent ?? '').includes(marker)) el = deepest(n);
      }
      if (el !== null) break;
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
  const tick = () => {
    if (doneSel && rec.done === null) {
      done = done?.isConnected ? done : document.querySelector(doneSel);
      if (onScreen(done)) rec.done = performance.now();
    }
    if (rec.visible === null && onScreen(el)) {
      rec.visible = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { rec.painted = performance.now(); }));
    }
    if (rec.painted === null || (doneSel && rec.done === null)) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Waits until nothing was sent for quietMs (at most maxMs). */
async function settle(counter, quietMs = 1000, maxMs = 15_000) {
  const until = Date.now() + maxMs;
  while (Date.now() < until && Date.now() - counter.last < quietMs) await sleep(100);
}

/**
 * Opens route through the proxy in a fresh context and measures it. app:
 * { name, pid, signIn(page, origin) }. doneSel: see installProbe.
 */
async function openOnce(browser, proxy, app, route, marker, doneSel) {
  const page = await newPage(browser, { viewport: { width: vw, height: vh } });
  try {
    await app.signIn(page, proxy.url);
    await page.addInitScript(installProbe, { marker, doneSel });
    const cpu0 = await cpuSeconds(app.pid);
    proxy.counter.bytes = 0;
    await page.goto(proxy.url + route, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__open?.painted !== null && window.__open?.painted !== undefined,
      null, { timeout: openTimeoutMs, polling: 200 });
    const r = await page.evaluate(() => ({ ...window.__open, origin: performance.timeOrigin }));
    await sleep(1000);
    await settle(proxy.counter);
    const bytes = proxy.counter.bytes;
    const cpu = (await cpuSeconds(app.pid)) - cpu0;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const { nodes } = await cdp.send('Memory.getDOMCounters');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20;
    const rss = await rendererRSS(browser);
    if (page.errors.length > 0) console.error(`# ${app.name}: page errors: ${page.errors.slice(0, 3).join('; ')}`);
    return { ...r, nodes, heap, rss, bytes, cpu };
  } finally {
    await page.context().close();
  }
}

async function api(server, method, p, body) {
  const res = await fetch(server.url + p, {
    method, headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** agentdesk as an app of openOnce. */
function agentdeskApp(server) {
  return {
    name: 'agentdesk',
    pid: server.child.pid,
    async signIn(page, origin) {
      await page.goto(`${origin}/?token=${server.token}`); // sets the session cookie
    },
  };
}

/** Adopts the conversation sid (its file is under the server's config); the chat's route. */
async function adoptConversation(server, cwd, sid) {
  const s = await api(server, 'POST', '/api/sessions', { cwd, claudeSessionId: sid, title: `bench ${sid.slice(0, 8)}` });
  const w = s.workers.find((x) => x.kind === 'sdk') ?? s.workers[0];
  return `/s/${s.id}/w/${w.id}`;
}

/** Polls the chat's newest messages until the last one of the conversation (marker) is stored. */
async function importDone(server, route, marker) {
  const [, sid, , wid] = route.split('/').filter(Boolean);
  const until = Date.now() + importTimeoutMs;
  while (Date.now() < until) {
    const r = await api(server, 'GET', `/api/sessions/${sid}/workers/${wid}/messages?before=&limit=5`);
    if (JSON.stringify(r.messages).includes(marker)) return;
    await sleep(500);
  }
  throw new Error(`the import of ${route} did not end within ${importTimeoutMs} ms`);
}

const results = new Map(); // "app size metric" -> values
const note = (app, n, metric, v) => {
  const k = `${app}\t${n}\t${metric}`;
  if (!results.has(k)) results.set(k, []);
  results.get(k).push(v);
};

function report(app, n, r) {
  for (const m of ['painted', 'nodes', 'rss', 'heap', 'bytes', 'cpu']) note(app, n, m, r[m]);
  console.log(`${app.padEnd(9)} n=${n} visible=${r.painted.toFixed(0)}ms nodes=${r.nodes} renderer=${r.rss.toFixed(0)}MiB`
    + ` heap=${r.heap.toFixed(0)}MiB bytes=${(r.bytes / 1024).toFixed(0)}KiB server-cpu=${r.cpu.toFixed(2)}s load=${load()}`);
}

const tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-chat-open-'));
const browser = await launchBrowser();
let server = null;
let peer = null;
const proxies = [];
try {
  console.log(`# ${os.cpus().length} cores, ${os.cpus()[0]?.model}, chromium ${browser.version()}, viewport ${vw}x${vh}, rounds=${rounds}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  server = await AgentdeskServer.start();
  const work = await server.tempDir('project-');
  const peerHome = path.join(tmp, 'peer-home');
  if (process.env.PEER_DIR) {
    await mkdir(peerHome, { recursive: true });
    peer = await CloudCLI.start({ dir: process.env.PEER_DIR, home: peerHome, tmp: path.join(tmp, 'peer') });
  }
  const ad = agentdeskApp(server);
  const adProxy = await countingProxy(server.port);
  proxies.push(adProxy);
  const peerProxy = peer ? await countingProxy(peer.port) : null;
  if (peerProxy) proxies.push(peerProxy);
  const peerApp = peer ? { name: 'cloudcli', pid: peer.pid, signIn: (page, origin) => peer.signIn(page, origin) } : null;

  for (const n of sizes) {
    const sid = randomUUID();
    const file = await writeConversation(path.join(server.home, '.claude'), { n, sid, cwd: work });
    if (peer) await writeConversation(path.join(peerHome, '.claude'), { n, sid, cwd: work });
    console.log(`# conversation of ${n} messages: ${((await readFile(file)).length / 2 ** 20).toFixed(1)} MiB session file`);
    const marker = lastMarker(n);
    if (adopt) {
      // A fresh copy for the adoption: the page opens right after the POST.
      const asid = randomUUID();
      await writeConversation(path.join(server.home, '.claude'), { n, sid: asid, cwd: work });
      const page = await newPage(browser, { viewport: { width: vw, height: vh } });
      await ad.signIn(page, adProxy.url);
      await page.addInitScript(installProbe, { marker, doneSel: '.chat-imported' });
      const t0 = Date.now();
      const route = await adoptConversation(server, work, asid);
      await page.goto(adProxy.url + route, { waitUntil: 'commit' });
      await page.waitForFunction(() => window.__open?.painted != null && window.__open?.done != null, null, { timeout: importTimeoutMs, polling: 200 });
      const r = await page.evaluate(() => ({ ...window.__open, origin: performance.timeOrigin }));
      await page.context().close();
      const vis = r.origin + r.visible - t0;
      const all = r.origin + r.done - t0;
      note('agentdesk', n, 'adopt-visible', vis);
      note('agentdesk', n, 'adopt-done', all);
      console.log(`agentdesk n=${n} adopt: newest visible ${vis.toFixed(0)}ms after the POST, import done ${all.toFixed(0)}ms load=${load()}`);
    }
    const route = await adoptConversation(server, work, sid);
    // Wait for the import to end before the open rounds: they measure opening, not importing.
    // Over REST, not in a page: a page open during the import renders every message the socket brings.
    await importDone(server, route, marker);
    for (let i = 0; i < rounds; i++) {
      const order = peer && i % 2 === 1 ? ['peer', 'ad'] : ['ad', 'peer'];
      for (const who of order) {
        if (who === 'ad') report('agentdesk', n, await openOnce(browser, adProxy, ad, route, marker));
        else if (peer) report('cloudcli', n, await openOnce(browser, peerProxy, peerApp, peer.route(sid), marker));
      }
    }
  }

  const range = (xs, f) => {
    const s = [...xs].sort((a, b) => a - b);
    const med = s[Math.floor(s.length / 2)];
    return `${f(med)} (${f(s[0])}–${f(s.at(-1))})`;
  };
  const fmt = { painted: (x) => `${x.toFixed(0)} ms`, nodes: (x) => String(x), rss: (x) => `${x.toFixed(0)} MiB`, heap: (x) => `${x.toFixed(0)} MiB`,
    bytes: (x) => `${(x / 1024).toFixed(0)} KiB`, cpu: (x) => `${x.toFixed(2)} s`, 'adopt-visible': (x) => `${x.toFixed(0)} ms`, 'adopt-done': (x) => `${x.toFixed(0)} ms` };
  console.log(`\n# medians (min–max), load after ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (const [k, xs] of results) {
    const [app, n, metric] = k.split('\t');
    console.log(`${app.padEnd(9)} ${n.padStart(6)} ${metric.padEnd(13)} ${range(xs, fmt[metric])}`);
  }
  for (const n of sizes) {
    const a = results.get(`agentdesk\t${n}\tpainted`);
    const b = results.get(`cloudcli\t${n}\tpainted`);
    if (a && b) {
      const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      console.log(`# ${n} messages: agentdesk ${(med(b) / med(a)).toFixed(1)}x faster to the last message than cloudcli (medians)`);
    }
  }
} finally {
  await browser.close();
  for (const p of proxies) await p.close();
  await peer?.dispose();
  await server?.dispose();
  await rm(tmp, { recursive: true, force: true });
}
