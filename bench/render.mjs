// First render in Chromium, through playwright-core: sdk conversations of
// MESSAGES assistant messages (default 1000,5000,10000) and a git-diff pane
// of FILES modified files (default 1000). For each message count agentdesk
// runs with the fake CLI and FAKECLAUDE_FLOOD=<n> through e2e/server.mjs;
// one REST message makes the conversation (init, n assistant lines,
// result), and REST history is checked to hold it before a page opens.
//
// The figure is taken inside the page: an init script polls every animation
// frame from the start of navigation and records performance.now() (ms since
// performance.timeOrigin, the navigation start) when the done condition
// first holds, then once more after two further animation frames, so the
// frame that shows the last element has been produced. Chat: the result
// line (the last message) and n `.chat-text` elements are in the DOM.
// Diff: FILES `.fl-row` entries and the first section's changed line.
// Median of RUNS (default 3) fresh browser contexts.
//
// Chat also reports first-visible, an extra figure that does not change the
// one above: the first poll at which the newest `.chat-text` in the DOM lies
// inside the chat scroller's viewport (what a reader first sees of the
// conversation). It is checked until it first holds, so it costs at most
// one layout.
//   go build -o /tmp/b/agentdesk . && go build -o /tmp/b/fakeclaude ./internal/testkit/fakeclaude
//   AGENTDESK_BIN=/tmp/b/agentdesk FAKECLAUDE_BIN=/tmp/b/fakeclaude node bench/render.mjs
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, newPage } from '../e2e/browser.mjs';
import { AgentdeskServer } from '../e2e/server.mjs';

const list = (s) => s.split(',').map(Number).filter((n) => n > 0);
const messageSizes = list(process.env.MESSAGES ?? '1000,5000,10000');
const fileSizes = list(process.env.FILES ?? '1000');
const runs = Number(process.env.RUNS ?? 3);
const renderTimeoutMs = 120_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(' ');

async function api(server, method, p, body) {
  const res = await fetch(server.url + p, {
    method,
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.status === 204 || res.status === 202 ? null : res.json();
}

/** Starts agentdesk through a wrapper that adds the fake CLI and the flood size. */
async function startServer(flood) {
  const bin = process.env.AGENTDESK_BIN;
  const fake = process.env.FAKECLAUDE_BIN;
  if (!bin || !fake) throw new Error('set AGENTDESK_BIN and FAKECLAUDE_BIN (absolute paths)');
  const dir = path.join(os.tmpdir(), `agentdesk-render-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const wrapper = path.join(dir, `agentdesk-${flood}.sh`);
  await writeFile(wrapper, `#!/bin/sh\nFAKECLAUDE_FLOOD=${flood} exec ${bin} --claude ${fake} "$@"\n`);
  await chmod(wrapper, 0o755);
  return AgentdeskServer.start({ bin: wrapper });
}

/** Makes a conversation of one flood turn; returns its route once REST holds it all. */
async function floodConversation(server, n) {
  const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'render' });
  const wid = s.workers[0].id;
  await api(server, 'POST', `/api/sessions/${s.id}/workers/${wid}/input`, { content: 'flood' });
  const deadline = Date.now() + 120_000;
  let stored = 0;
  let done = false;
  for (let after = ''; Date.now() < deadline; await sleep(200)) {
    for (let more = true; more;) {
      const r = await api(server, 'GET', `/api/sessions/${s.id}/workers/${wid}/messages?limit=5000&after=${after}`);
      stored += r.messages.length;
      if (r.messages.length > 0) after = r.messages.at(-1).message.uuid;
      done ||= r.messages.some((m) => m.message.type === 'result');
      more = r.hasMore && r.messages.length > 0;
    }
    if (done && stored >= n) return { route: `/s/${s.id}/w/${wid}`, stored };
  }
  throw new Error(`flood turn of ${n} not stored within 120 s (${stored} so far)`);
}

/** A git repo whose n files each have one changed line, in a git-diff session. */
async function modifiedRepo(server, n) {
  const repo = await server.tempDir('repo-');
  const git = (...a) => execFileSync('git', ['-C', repo, ...a], { stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  for (let i = 0; i < n; i++) await writeFile(path.join(repo, `f${String(i).padStart(5, '0')}.txt`), 'a\nb\nc\n');
  git('add', '.');
  git('-c', 'user.email=b@e', '-c', 'user.name=b', 'commit', '-q', '-m', 'base');
  for (let i = 0; i < n; i++) await writeFile(path.join(repo, `f${String(i).padStart(5, '0')}.txt`), 'a\nB\nc\n');
  const s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'diff', agent: 'none' });
  const w = s.workers.find((x) => x.kind === 'git-diff');
  if (!w) throw new Error('session has no git-diff worker');
  return `/s/${s.id}/w/${w.id}`;
}

/**
 * Runs in the page before its scripts: polls `cond` (source of a function of
 * `arg`) every animation frame, and `firstCond` (optional, no argument)
 * until it first holds; window.__render gets {seen, painted, first} in ms
 * since navigation start (first is seen when there is no firstCond).
 */
function installProbe({ cond, arg, firstCond }) {
  const done = new Function('arg', `return (${cond})(arg);`);
  const first = firstCond ? new Function(`return (${firstCond})();`) : null;
  let firstAt = null;
  const tick = () => {
    if (first !== null && firstAt === null) {
      try { if (first()) firstAt = performance.now(); } catch { /* not yet */ }
    }
    let ok = false;
    try { ok = done(arg); } catch { ok = false; }
    if (!ok) { requestAnimationFrame(tick); return; }
    const seen = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => {
      window.__render = { seen, painted: performance.now(), first: firstAt ?? seen };
    }));
  };
  requestAnimationFrame(tick);
}

/** Opens route in a fresh logged-in context; the probe's figures. */
async function firstRender(browser, server, route, cond, arg, firstCond) {
  const page = await newPage(browser);
  await page.goto(`${server.url}/?token=${server.token}`); // sets the session cookie
  await page.addInitScript(installProbe, { cond: cond.toString(), arg, firstCond: firstCond?.toString() });
  await page.goto(server.url + route);
  await page.waitForFunction(() => window.__render !== undefined, null, { timeout: renderTimeoutMs, polling: 500 });
  const r = await page.evaluate(() => window.__render);
  const errs = page.errors;
  await page.context().close();
  if (errs.length > 0) console.error(`page errors: ${errs.join('; ')}`);
  return r;
}

const chatDone = (n) => document.querySelector('.chat-result') !== null
  && document.querySelectorAll('.chat-text').length >= n;
/** The newest message in the DOM is inside the scroller's viewport. */
const chatFirstVisible = () => {
  const texts = document.getElementsByClassName('chat-text');
  const el = texts[texts.length - 1];
  const sc = el?.closest('.chat-scroll');
  if (!el || !sc) return false;
  const a = el.getBoundingClientRect();
  const b = sc.getBoundingClientRect();
  return a.height > 0 && a.bottom > b.top && a.top < b.bottom;
};
const diffDone = (n) => document.querySelectorAll('.fl-row').length >= n
  && document.querySelector('.df-section .dl-add') !== null;

async function measure(label, size, browser, server, route, cond, firstCond) {
  const seen = [];
  const painted = [];
  const first = [];
  for (let i = 0; i < runs; i++) {
    const r = await firstRender(browser, server, route, cond, size, firstCond);
    seen.push(r.seen);
    painted.push(r.painted);
    first.push(r.first);
  }
  console.log(`${label}=${size} first-render median=${median(painted).toFixed(0)}ms (in DOM ${median(seen).toFixed(0)}ms)`
    + ` painted=[${fmt(painted)}] in-dom=[${fmt(seen)}]`
    + (firstCond ? ` first-visible median=${median(first).toFixed(0)}ms [${fmt(first)}]` : ''));
}

console.log(`# ${os.cpus().length} cores, ${os.cpus()[0]?.model}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}, runs=${runs}`);
const browser = await launchBrowser();
try {
  console.log(`# chromium ${browser.version()}`);
  for (const n of messageSizes) {
    const server = await startServer(n);
    try {
      const { route, stored } = await floodConversation(server, n);
      console.log(`# conversation stored: ${stored} messages`);
      await measure('chat messages', n, browser, server, route, chatDone, chatFirstVisible);
    } finally {
      await server.dispose();
    }
  }
  for (const n of fileSizes) {
    const server = await startServer(1);
    try {
      const route = await modifiedRepo(server, n);
      await measure('diff files', n, browser, server, route, diffDone);
    } finally {
      await server.dispose();
    }
  }
  console.log(`# load after ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await browser.close();
  await rm(path.join(os.tmpdir(), `agentdesk-render-${process.pid}`), { recursive: true, force: true });
}
