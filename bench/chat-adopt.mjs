// Adopting an existing claude conversation (issue 28): the time from the
// adopt (POST /api/sessions with its claudeSessionId) to the conversation's
// newest message on screen in a tab opened right after it, and to the end of
// the import, for generated conversations of MESSAGES messages
// (bench/conversation.mjs), each on a fresh copy, ROUNDS times.
//
//   visible   ms from the POST to the frame in which the last message's
//             closing word (lastMarker) is on screen (bench/chat-open.mjs's probe);
//   done      ms from the POST to the end of the import as the server says it:
//             the "agentdesk_imported" marker is the newest stored message
//             (polled over REST every 50 ms);
//   nodes     Chromium's DOM node count once the page is settled;
//   cpu       the server's CPU seconds from the POST to the import's end.
// TAB=0 measures the import with no tab open (done and cpu only).
//
//   npm run build && go build -o /tmp/b/agentdesk .
//   AGENTDESK_BIN=/tmp/b/agentdesk node bench/chat-adopt.mjs
// MESSAGES (default 1000,5000), ROUNDS (default 3), TAB=0|1 (default 1),
// VIEWPORT=1280x800, TIMEOUT_MS (default 5 min), NAV=load|spa.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, newPage } from '../e2e/browser.mjs';
import { AgentdeskServer } from '../e2e/server.mjs';
import { lastMarker, writeConversation } from './conversation.mjs';

const sizes = (process.env.MESSAGES ?? '1000,5000').split(',').map(Number).filter((n) => n > 0);
const rounds = Number(process.env.ROUNDS ?? 3);
const withTab = (process.env.TAB ?? '1') !== '0';
// NAV=spa: the app is loaded before the POST and goes to the chat in the
// page (as the app's own adopt does); NAV=load (default): a page load of the
// chat's URL right after the POST, so its start-up is counted too.
const spa = process.env.NAV === 'spa';
const [vw, vh] = (process.env.VIEWPORT ?? '1280x800').split('x').map(Number);
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 300_000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () => os.loadavg()[0].toFixed(1);

async function cpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function api(server, method, p, body) {
  const res = await fetch(server.url + p, {
    method, headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** Records when the element holding marker is first on screen (two frames later: painted). */
function installProbe({ marker }) {
  let el = null;
  const rec = { visible: null, painted: null };
  window.__open = rec;
  const onScreen = (e) => {
    if (e === null || !e.isConnected) return false;
    const r = e.getBoundingClientRect();
    if (r.height === 0 || r.bottom <= 0 || r.top >= innerHeight) return false;
    for (let p = e.parentElement; p !== null; p = p.parentElement) {
      if (!/(auto|scroll|hidden|clip)/.test(getComputedStyle(p).overflowY)) continue;
      const q = p.getBoundingClientRect();
      if (r.bottom <= q.top || r.top >= q.bottom) return false;
    }
    return true;
  };
  const find = () => {
    const w = document.createTreeWalker(document.body ?? document, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n !== null; n = w.nextNode()) if (n.data.includes(marker)) return n.parentElement;
    return null;
  };
  const tick = () => {
    if (el === null || !el.isConnected) el = find();
    if (rec.visible === null && onScreen(el)) {
      rec.visible = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { rec.painted = performance.now(); }));
    }
    if (rec.painted === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Polls until the newest stored message is the import's marker; returns Date.now() then. */
async function importEnd(server, sid, wid) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const r = await api(server, 'GET', `/api/sessions/${sid}/workers/${wid}/messages?before=&limit=1`);
    if (r.messages.some((m) => m.message?.subtype === 'agentdesk_imported')) return Date.now();
    await sleep(50);
  }
  throw new Error(`the import did not end within ${timeoutMs} ms`);
}

const results = new Map();
const note = (n, metric, v) => {
  const k = `${n}\t${metric}`;
  if (!results.has(k)) results.set(k, []);
  results.get(k).push(v);
};

const browser = withTab ? await launchBrowser() : null;
let server = null;
try {
  console.log(`# ${os.cpus().length} cores, ${os.cpus()[0]?.model}, tab=${withTab}, nav=${spa ? 'spa' : 'load'}, viewport ${vw}x${vh}, rounds=${rounds}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  server = await AgentdeskServer.start();
  const work = await server.tempDir('project-');
  for (const n of sizes) {
    for (let i = 0; i < rounds; i++) {
      const conv = randomUUID();
      await writeConversation(path.join(server.home, '.claude'), { n, sid: conv, cwd: work });
      const page = browser ? await newPage(browser, { viewport: { width: vw, height: vh } }) : null;
      try {
        if (page) {
          await page.goto(`${server.url}/?token=${server.token}`);
          await page.addInitScript(installProbe, { marker: lastMarker(n) });
          if (spa) {
            await page.reload();
            await page.locator('body').waitFor();
            await page.waitForLoadState('networkidle');
          }
        }
        // Phases, ms after the POST as the bench's process sees the page's
        // traffic: its first notice, the marker's frame, the last newest-page
        // read (sent, answered), and how many sdk-message frames it got.
        const ph = { socket: null, notice: null, marker: null, readSent: null, readDone: null, sdk: 0 };
        if (page) {
          page.on('websocket', (ws) => { if (ws.url().includes('/workers/')) ph.socket ??= Date.now(); ws.on('framereceived', ({ payload }) => {
            if (typeof payload !== 'string') return;
            if (payload.includes('"history-appended"')) ph.notice ??= Date.now();
            else if (payload.includes('"type":"sdk-message"')) {
              ph.sdk++;
              if (payload.includes('agentdesk_imported')) ph.marker ??= Date.now();
            }
          }); });
          const isRead = (r) => r.url().includes('/messages?before=&');
          page.on('request', (r) => { if (isRead(r)) { ph.firstRead ??= Date.now(); ph.readSent = Date.now(); } });
          page.on('requestfinished', (r) => { if (isRead(r)) ph.readDone = Date.now(); });
        }
        const cpu0 = await cpuSeconds(server.child.pid);
        const t0 = Date.now();
        const s = await api(server, 'POST', '/api/sessions', { cwd: work, claudeSessionId: conv, title: `adopt ${i}` });
        const w = s.workers.find((x) => x.kind === 'sdk') ?? s.workers[0];
        if (page && spa) {
          // As the app's own adopt does: the page is open, the route changes in it.
          await page.evaluate((p) => { history.pushState(null, '', p); dispatchEvent(new PopStateEvent('popstate')); }, `/s/${s.id}/w/${w.id}`);
        } else if (page) await page.goto(`${server.url}/s/${s.id}/w/${w.id}`, { waitUntil: 'commit' });
        const end = await importEnd(server, s.id, w.id);
        const cpu = (await cpuSeconds(server.child.pid)) - cpu0;
        note(n, 'done', end - t0);
        note(n, 'cpu', cpu);
        let line = `n=${n} done=${end - t0}ms cpu=${cpu.toFixed(2)}s`;
        if (page) {
          await page.waitForFunction(() => window.__open?.painted != null, null, { timeout: timeoutMs, polling: 100 });
          const r = await page.evaluate(() => ({ ...window.__open, origin: performance.timeOrigin }));
          const vis = r.origin + r.painted - t0;
          await sleep(1000);
          const cdp = await page.context().newCDPSession(page);
          await cdp.send('HeapProfiler.collectGarbage');
          const { nodes } = await cdp.send('Memory.getDOMCounters');
          note(n, 'visible', vis);
          note(n, 'nodes', nodes);
          line += ` visible=${vis.toFixed(0)}ms nodes=${nodes}`;
          const at = (x) => (x === null ? '-' : String(x - t0));
          line += ` [firstRead=${at(ph.firstRead ?? null)} socket=${at(ph.socket)} notice=${at(ph.notice)} marker=${at(ph.marker)} read=${at(ph.readSent)}–${at(ph.readDone)} sdk=${ph.sdk}]`;
          for (const [k, v] of [['firstRead', ph.firstRead ?? null], ['socket', ph.socket], ['notice', ph.notice], ['marker', ph.marker], ['read', ph.readDone]]) if (v !== null) note(n, k, v - t0);
          if (page.errors.length > 0) console.error(`# page errors: ${page.errors.slice(0, 3).join('; ')}`);
        }
        console.log(`${line} load=${load()}`);
        await api(server, 'DELETE', `/api/sessions/${s.id}`).catch(() => undefined);
      } finally {
        await page?.context().close();
      }
    }
  }
  const ms = (x) => `${x.toFixed(0)} ms`;
  const fmt = { firstRead: ms, socket: ms, notice: ms, marker: ms, read: ms, visible: (x) => `${x.toFixed(0)} ms`, done: (x) => `${x.toFixed(0)} ms`, cpu: (x) => `${x.toFixed(2)} s`, nodes: String };
  console.log(`\n# medians (min–max), load after ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (const [k, xs] of results) {
    const [n, metric] = k.split('\t');
    const s = [...xs].sort((a, b) => a - b);
    console.log(`${n.padStart(6)} ${metric.padEnd(8)} ${fmt[metric](s[Math.floor(s.length / 2)])} (${fmt[metric](s[0])}–${fmt[metric](s.at(-1))})`);
  }
} finally {
  await browser?.close();
  await server?.dispose();
}
