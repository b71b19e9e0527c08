// Helpers of the UX browser tests (ux-*.test.mjs) and scripts/screenshots.mjs:
// agentdesk with the fake CLI (internal/testkit/fakeclaude) playing a scripted turn,
// REST calls with the token, git repositories, and the page checks the issue
// asks for at every size: no horizontal overflow, every control clickable
// at its centre, touch targets of at least 44 px.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AgentdeskServer } from './server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

/** The fake CLI: FAKECLAUDE_BIN, else built into dir. */
export async function fakeClaude(dir) {
  if (process.env.FAKECLAUDE_BIN) return process.env.FAKECLAUDE_BIN;
  const bin = path.join(dir, 'fakeclaude');
  await run('go', ['build', '-o', bin, './internal/testkit/fakeclaude'], { cwd: repoRoot, timeout: 180_000 });
  return bin;
}

/** One scripted turn: markdown with code, a tool call with wide output, a table. */
export function chatTurnLines() {
  const sid = '{{SESSION_ID}}';
  const wide = Array.from({ length: 60 }, (_, i) => `line ${i}: ${'x'.repeat(180)}`).join('\n');
  const text1 = 'Here is the plan:\n\n```go\nfunc main() {\n\tfmt.Println("a very long line of Go code that must scroll inside its own block, not the page: ' + 'y'.repeat(120) + '")\n}\n```\n\nI will list the files.';
  const text2 = 'Done. Summary:\n\n| file | lines |\n| --- | --- |\n| main.go | 12 |\n| ' + 'very_long_file_name_'.repeat(8) + '.go | 3 |\n\nA long word: ' + 'z'.repeat(200);
  const msg = (id, content) => ({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-fake', content, stop_reason: null, usage: { input_tokens: 10, output_tokens: 20 } }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' });
  return [
    { type: 'system', subtype: 'init', cwd: '{{CWD}}', session_id: sid, tools: ['Bash'], model: 'claude-fake', permissionMode: 'default', uuid: '{{UUID}}' },
    msg('msg_1', [{ type: 'text', text: text1 }]),
    msg('msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls -la ' + 'some/deep/path/'.repeat(10), description: 'List files' } }]),
    { type: 'user', message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: wide, is_error: false }] }, parent_tool_use_id: null, session_id: sid, uuid: '{{UUID}}' },
    msg('msg_2', [{ type: 'text', text: text2 }]),
    { type: 'result', subtype: 'success', is_error: false, duration_ms: 1200, num_turns: 1, result: 'Done.', session_id: sid, total_cost_usd: 0.01, usage: { input_tokens: 100, output_tokens: 200 }, uuid: '{{UUID}}' },
  ];
}

/** Starts agentdesk with the fake CLI; scriptLines (optional) is its turn. */
export async function startWithFakeClaude(tmp, scriptLines) {
  await mkdir(tmp, { recursive: true });
  const env = {};
  if (scriptLines) {
    const file = path.join(tmp, 'turn.jsonl');
    await writeFile(file, scriptLines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    env.FAKECLAUDE_SCRIPT = file;
  }
  return AgentdeskServer.start({ args: ['--claude', await fakeClaude(tmp)], env });
}

/** A REST call with the server's token; the parsed answer (null for no body). */
export async function api(server, method, p, body) {
  const res = await fetch(server.url + p, {
    method,
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

/** Runs git in dir (a private config), returns its trimmed output. */
export async function git(dir, ...args) {
  const { stdout } = await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
    { cwd: dir, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  return stdout.trim();
}

/** A git repository with one commit on main, at <parent>/<name>. */
export async function makeRepo(parent, name = 'repo') {
  const dir = path.join(parent, name);
  await mkdir(dir, { recursive: true });
  await git(dir, 'init', '-q', '-b', 'main');
  await writeFile(path.join(dir, 'README.md'), '# demo\n');
  await writeFile(path.join(dir, 'main.go'), 'package main\n\nfunc main() {}\n');
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-q', '-m', 'init');
  return dir;
}

/** Signs the page in and waits for the live connection. */
export async function signIn(page, server, route = '/') {
  await page.goto(`${server.url}/?token=${server.token}`);
  await page.locator('.conn[data-state="open"]').waitFor();
  if (route !== '/') await page.goto(server.url + route);
}

/**
 * Elements sticking out of the viewport to the right, not clipped by a
 * scrolling or clipping ancestor (those scroll inside themselves), plus the
 * page's own horizontal scroll. Empty when the layout fits.
 */
export function overflow(page) {
  return page.evaluate(() => {
    const out = [];
    const w = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > w + 1) out.push(`page scrollWidth ${document.documentElement.scrollWidth} > ${w}`);
    const clipped = (el) => {
      for (let p = el.parentElement; p !== null && p !== document.body; p = p.parentElement) {
        const ox = getComputedStyle(p).overflowX;
        if (ox !== 'visible') return p.getBoundingClientRect().right <= w + 1;
      }
      return false;
    };
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= w + 1) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.position === 'fixed' && r.left >= w) continue;
      if (el.closest('.xterm') !== null) continue; // xterm measures its own rows
      if (!clipped(el)) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(r.right)} > ${w}`);
    }
    return out.slice(0, 20);
  });
}

/** The visible controls of the page (optionally inside a selector). */
const controlsJs = `(root) => {
  const sel = 'button, a[href], input, select, textarea, [role="tab"], [role="menuitem"]';
  const vis = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    for (let e = el; e !== null; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || e.inert) return null;
    }
    return r;
  };
  return [...(root ?? document).querySelectorAll(sel)].filter((el) =>
    !el.closest('.xterm') && !el.closest('.md') && !el.disabled && vis(el) !== null);
}`;

/**
 * Controls whose centre or either end is covered by something else
 * (elementFromPoint there is neither the control nor inside it). Controls
 * scrolled out of a scrolling ancestor's view, or out of the viewport, are
 * skipped, and so are ends clipped that way.
 */
export function coveredControls(page, within = null) {
  return page.evaluate(({ js, within }) => {
    const controls = (0, eval)(js)(within ? document.querySelector(within) : null);
    const out = [];
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      // Whether the point px,y shows: in the viewport and in every
      // scrolling or clipping ancestor's box.
      const shows = (px) => {
        if (px < 0 || px >= innerWidth) return false;
        for (let p = el.parentElement; p !== null; p = p.parentElement) {
          const cs = getComputedStyle(p);
          if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
          const pr = p.getBoundingClientRect();
          if (px < pr.left || px > pr.right || y < pr.top || y > pr.bottom) return false;
        }
        return true;
      };
      if (!shows(x)) continue;
      const mine = (h) => h !== null && (h === el || el.contains(h) || (el.tagName === 'INPUT' && el.labels && [...el.labels].some((l) => l.contains(h))));
      // An open popup menu covers what is under it on purpose, and so does
      // the chat's floating "jump to the latest" button (the content
      // scrolls under it).
      const meant = (h) => h !== null && h.closest('.menu:not([hidden]), .chat-jump') !== null && !el.closest('.menu, .chat-jump');
      // The centre, then both ends: a neighbour drawn over the end of a
      // label hides it as surely as one over its middle.
      const points = r.width > 16 ? [x, r.left + 4, r.right - 4].filter(shows) : [x];
      const bad = points.map((px) => document.elementFromPoint(px, y)).find((h) => !mine(h) && !meant(h));
      if (bad !== undefined) {
        const name = el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30) || el.className;
        const by = bad === null ? 'nothing' : `${bad.tagName.toLowerCase()}.${[...bad.classList].join('.')}`;
        out.push(`${el.tagName.toLowerCase()} "${name}" covered by ${by}`);
      }
    }
    return { checked: controls.length, covered: out };
  }, { js: controlsJs, within });
}

/** Visible controls smaller than min px in either direction (a checkbox counts its label). */
export function smallTargets(page, min = 44) {
  return page.evaluate(({ js, min }) => {
    const controls = (0, eval)(js)(null);
    const out = [];
    for (const el of controls) {
      let r = el.getBoundingClientRect();
      if ((el.type === 'checkbox' || el.type === 'radio') && el.labels?.[0]) r = el.labels[0].getBoundingClientRect();
      if (r.width + 0.5 < min || r.height + 0.5 < min) {
        const name = el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30) || el.className;
        out.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}x${Math.round(r.height)}`);
      }
    }
    return out;
  }, { js: controlsJs, min });
}
