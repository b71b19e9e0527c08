// Screenshots of every screen at desktop (1280×800) and phone (390×844)
// size, dark and light, for looking at the layout by eye:
//   AGENTDESK_BIN=/abs/agentdesk [FAKECLAUDE_BIN=/abs/fakeclaude] node scripts/screenshots.mjs [outdir]
// (default outdir /tmp/shots). The server runs the fake CLI with a scripted
// turn (e2e/ux.mjs). Nothing is checked here: the ux-*.test.mjs tests do that.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { desktop, launchBrowser, newPage, phone } from '../e2e/browser.mjs';
import { api, chatTurnLines, makeRepo, signIn, startWithFakeClaude } from '../e2e/ux.mjs';

const out = process.argv[2] ?? '/tmp/shots';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitResult(server, sid, wid) {
  for (let i = 0; i < 200; i++) {
    const r = await api(server, 'GET', `/api/sessions/${sid}/workers/${wid}/messages?limit=100`);
    if (r.messages.some((m) => m.message.type === 'result')) return;
    await sleep(100);
  }
  throw new Error('no result');
}

async function main() {
  await mkdir(out, { recursive: true });
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-shots-'));
  const server = await startWithFakeClaude(tmp, chatTurnLines());
  const browser = await launchBrowser();
  try {
    // The empty start page first.
    for (const [size, opts] of [['desktop', desktop], ['phone', phone]]) {
      for (const scheme of ['dark', 'light']) {
        const p = await newPage(browser, { ...opts, colorScheme: scheme });
        await signIn(p, server);
        await p.screenshot({ path: `${out}/${size}-${scheme}-01-empty.png` });
        await p.context().close();
      }
    }
    const repo = await makeRepo(tmp, 'demo-project');
    const s = await api(server, 'POST', '/api/sessions', { cwd: repo, title: 'Fix the login flow in the demo project with a long title' });
    const chat = s.workers.find((w) => w.kind === 'sdk');
    await api(server, 'POST', `/api/sessions/${s.id}/workers/${chat.id}/input`, { content: 'Please **fix** the `login` flow:\n\n```sh\nnpm test\n```' });
    await waitResult(server, s.id, chat.id);
    await writeFile(path.join(repo, 'main.go'), 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n');
    const term = await api(server, 'POST', `/api/sessions/${s.id}/workers`, { kind: 'terminal' });
    await api(server, 'POST', '/api/sessions', { repo, branch: 'feature/phone-ui', worktree: true, title: 'worktree session', agent: 'none' });
    const diff = s.workers.find((w) => w.kind === 'git-diff');

    for (const [size, opts] of [['desktop', desktop], ['phone', phone]]) {
      for (const scheme of ['dark', 'light']) {
        const p = await newPage(browser, { ...opts, colorScheme: scheme });
        const shot = (name) => p.screenshot({ path: `${out}/${size}-${scheme}-${name}.png` });
        await signIn(p, server);
        await shot('02-start');
        if (size === 'phone') {
          await p.getByRole('button', { name: 'Sessions', exact: true }).click();
          await sleep(300);
          await shot('03-drawer');
          await p.keyboard.press('Escape');
        }
        await p.goto(`${server.url}/s/${s.id}/w/${chat.id}`);
        await p.locator('.pane-chat:not([hidden]) .chat-result').waitFor();
        await sleep(300);
        await shot('04-chat');
        await p.locator('.pane-chat:not([hidden]) .chat-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight / 3));
        await sleep(200);
        await shot('05-chat-middle');
        await p.goto(`${server.url}/s/${s.id}/w/${term.id}`);
        await p.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
        await p.locator('.pane-terminal:not([hidden]) .xterm').click();
        await p.keyboard.type('ls -la /\n');
        await sleep(500);
        await shot('06-terminal');
        await p.goto(`${server.url}/s/${s.id}/w/${diff.id}`);
        await p.locator('.pane-diff:not([hidden]) .df-section').first().waitFor();
        await sleep(300);
        await shot('07-diff');
        if (size === 'phone') await p.getByRole('button', { name: 'Sessions', exact: true }).click();
        await p.getByRole('button', { name: '+ New session' }).first().click();
        await p.locator('#ns-cwd').fill(repo);
        await p.locator('.ns-worktree:not([hidden])').waitFor();
        await p.locator('#ns-worktree').check();
        await shot('08-new-session');
        await p.getByRole('button', { name: 'Cancel' }).click();
        await p.getByRole('button', { name: /^Delete session worktree session/ }).click();
        await p.locator('dialog[open]').waitFor();
        await sleep(200);
        await shot('09-delete-dialog');
        await p.keyboard.press('Escape');
        await p.context().close();
      }
    }
    console.log(`screenshots in ${out}`);
    console.log(`requests Chromium tried to send off the machine (refused by the proxy): ${browser.refused.length}`);
  } finally {
    await browser.close();
    await server.dispose();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
