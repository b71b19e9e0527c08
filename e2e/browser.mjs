// Headless Chromium for the e2e tests (Debian's /usr/bin/chromium through
// playwright-core), and helpers that read the page with bounded waits.
import { chromium } from 'playwright-core';

// A failure guard, not a timing: every wait ends as soon as its event
// happens. It is generous because a 2-core machine with other jobs beside
// the suite can take half a minute to start the real claude CLI.
export const waitMs = 60_000;

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
    headless: true,
    timeout: waitMs,
    // Playwright gives every launch a fresh temporary user-data-dir.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Phone and desktop sizes of the UX tests (contextOptions for newPage). */
export const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
export const desktop = { viewport: { width: 1280, height: 800 } };

/**
 * A new page (in a new context made with contextOptions) whose console errors
 * and uncaught exceptions are collected in page.errors.
 */
export async function newPage(browser, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  page.setDefaultTimeout(waitMs);
  page.setDefaultNavigationTimeout(waitMs);
  page.errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => page.errors.push(`pageerror: ${e.message}`));
  return page;
}

/** Lines shown by the visible terminal pane (xterm's DOM renderer rows). */
export function terminalLines(page) {
  return page.evaluate(() => {
    const rows = document.querySelector('.pane-terminal:not([hidden]) .xterm-rows');
    return rows ? [...rows.children].map((r) => r.textContent.replace(/\u00a0/g, ' ').trimEnd()) : [];
  });
}

/** Waits until the visible terminal shows a line that is exactly `line` (trimmed). */
export async function waitForTerminalLine(page, line) {
  try {
    await page.waitForFunction((want) => {
      const rows = document.querySelector('.pane-terminal:not([hidden]) .xterm-rows');
      return !!rows && [...rows.children].some((r) => r.textContent.replace(/\u00a0/g, ' ').trim() === want);
    }, line, { timeout: waitMs });
  } catch (err) {
    throw new Error(`terminal never showed the line ${JSON.stringify(line)}; it shows:\n${(await terminalLines(page)).join('\n')}\n(${err.message})`);
  }
}

/** How many lines of the visible terminal are exactly `line` (trimmed). */
export async function countTerminalLines(page, line) {
  return (await terminalLines(page)).filter((l) => l.trim() === line).length;
}
