// First render in Chromium, through playwright-core: a 5,000-message sdk
// conversation and a 1,000-file diff. agentdesk runs with the fake CLI
// (FAKECLAUDE_FLOOD=5000) through e2e/server.mjs; the conversation is made
// by one flood turn and checked over REST before the page opens. Each figure
// is performance.now() in the page (ms since navigation start) when the
// last element is present, median of RUNS (default 5) fresh pages.
//   go build -o /tmp/b/agentdesk . && go build -o /tmp/b/fakeclaude ./internal/fakeclaude
//   AGENTDESK_BIN=/tmp/b/agentdesk FAKECLAUDE_BIN=/tmp/b/fakeclaude node bench/render.mjs
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser, newPage } from '../e2e/browser.mjs';
import { AgentdeskServer } from '../e2e/server.mjs';

const messages = Number(process.env.MESSAGES ?? 5000);
const files = Number(process.env.FILES ?? 1000);
const runs = Number(process.env.RUNS ?? 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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
async function startServer() {
  const dir = path.join(process.env.TMPDIR ?? '/tmp', `agentdesk-render-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const wrapper = path.join(dir, 'agentdesk-wrapper.sh');
  const bin = process.env.AGENTDESK_BIN;
  const fake = process.env.FAKECLAUDE_BIN;
  if (!bin || !fake) throw new Error('set AGENTDESK_BIN and FAKECLAUDE_BIN (absolute paths)');
  await writeFile(wrapper, `#!/bin/sh\nFAKECLAUDE_FLOOD=${messages} exec ${bin} --claude ${fake} "$@"\n`);
  await chmod(wrapper, 0o755);
  return AgentdeskServer.start({ bin: wrapper });
}

async function floodConversation(server) {
  const s = await api(server, 'POST', '/api/sessions', { cwd: await server.tempDir(), title: 'render' });
  const wid = s.workers[0].id;
  await api(server, 'POST', `/api/sessions/${s.id}/workers/${wid}/input`, { content: 'flood' });
  const deadline = Date.now() + 60_000;
  for (let after = ''; Date.now() < deadline; await sleep(200)) {
    const r = await api(server, 'GET', `/api/sessions/${s.id}/workers/${wid}/messages?limit=5000&after=${after}`);
    if (r.messages.length > 0) after = r.messages.at(-1).message.uuid;
    if (r.messages.some((m) => m.message.type === 'result')) return `/s/${s.id}/w/${wid}`;
  }
  throw new Error('flood turn did not finish within 60 s');
}

async function modifiedRepo(server) {
  const repo = await server.tempDir('repo-');
  const git = (...a) => execFileSync('git', ['-C', repo, ...a], { stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  for (let i = 0; i < files; i++) await writeFile(path.join(repo, `f${i}.txt`), 'a\nb\nc\n');
  git('add', '.');
  git('-c', 'user.email=b@e', '-c', 'user.name=b', 'commit', '-q', '-m', 'base');
  for (let i = 0; i < files; i++) await writeFile(path.join(repo, `f${i}.txt`), 'a\nB\nc\n');
  const s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'diff', agent: 'none' });
  const w = s.workers.find((x) => x.kind === 'git-diff');
  return `/s/${s.id}/w/${w.id}`;
}

/** Opens route in a fresh logged-in page; ms from navigation start until done() holds. */
async function firstRender(browser, server, route, done, arg) {
  const page = await newPage(browser);
  await page.goto(`${server.url}/?token=${server.token}`);
  await page.goto(server.url + route);
  await page.waitForFunction(done, arg, { timeout: 60_000, polling: 'raf' });
  const ms = await page.evaluate(() => performance.now());
  await page.context().close();
  return ms;
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const chat = await floodConversation(server);
  const diff = await modifiedRepo(server);
  const chatMs = [];
  const diffMs = [];
  for (let i = 0; i < runs; i++) {
    chatMs.push(await firstRender(browser, server, chat, () => document.querySelector('.chat-result') !== null));
    diffMs.push(await firstRender(browser, server, diff, (n) => document.querySelectorAll('.fl-row').length >= n, files));
  }
  const f = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
  console.log(`chat messages=${messages} first-render median=${median(chatMs).toFixed(0)}ms runs=[${f(chatMs)}]`);
  console.log(`diff files=${files} first-render median=${median(diffMs).toFixed(0)}ms runs=[${f(diffMs)}]`);
} finally {
  await browser.close();
  await server.dispose();
}
