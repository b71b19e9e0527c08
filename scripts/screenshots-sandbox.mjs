// Screenshots of a sandboxed session's form, badge and panel at desktop
// (1280×800) and phone (390×844) size, dark and light, for looking at by
// eye (needs bwrap and socat):
//   AGENTDESK_BIN=/abs/agentdesk node scripts/screenshots-sandbox.mjs [outdir]
// Nothing is checked here: e2e/sandbox.test.mjs does that.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { desktop, launchBrowser, newPage, phone } from '../e2e/browser.mjs';
import { AgentdeskServer } from '../e2e/server.mjs';

const out = process.argv[2] ?? '/tmp/shots';

async function main() {
  await mkdir(out, { recursive: true });
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'agentdesk-sandbox-shots-'));
  const server = await AgentdeskServer.start();
  const browser = await launchBrowser();
  try {
    const cwd = await mkdtemp(path.join(tmp, 'project-'));
    const res = await fetch(`${server.url}/api/sessions`, {
      method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cwd, agent: 'none', title: 'Boxed project', sandbox: 'workspace' }),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
    const s = await res.json();
    const w = await fetch(`${server.url}/api/sessions/${s.id}/workers`, {
      method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'terminal' }),
    });
    if (w.status !== 201) throw new Error(`shell: ${w.status} ${await w.text()}`);
    for (const [size, opts] of [['desktop', desktop], ['phone', phone]]) {
      for (const scheme of ['dark', 'light']) {
        const p = await newPage(browser, { ...opts, colorScheme: scheme });
        const shot = (name) => p.screenshot({ path: `${out}/${size}-${scheme}-sandbox-${name}.png` });
        await p.goto(`${server.url}/?token=${server.token}`);
        await p.locator('.conn[data-state="open"]').waitFor();
        await p.keyboard.press('Alt+N');
        await p.locator('#ns-cwd').fill(cwd);
        await p.waitForFunction(() => !document.querySelector('#ns-sandbox option[value="workspace"]')?.disabled);
        await p.locator('#ns-sandbox').selectOption('workspace');
        await p.locator('#ns-bypass').check();
        await p.locator('#ns-sandbox').scrollIntoViewIfNeeded();
        await shot('1-form');
        await p.goto(`${server.url}/s/${s.id}`);
        await p.locator('.sandbox-badge').waitFor();
        await p.locator('.pane-terminal:not([hidden]) .term-status[data-state="open"]').waitFor();
        await shot('2-badge');
        await p.locator('.sandbox-badge').click();
        await p.locator('.sandbox-panel').waitFor();
        await shot('3-panel');
        await p.locator('.sandbox-panel details summary').click();
        await p.locator('.sandbox-panel').evaluate((el) => { el.scrollTop = el.scrollHeight; });
        await shot('4-panel-end');
        await p.context().close();
      }
    }
  } finally {
    await browser.close();
    await server.dispose();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
