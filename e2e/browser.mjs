// Headless Chromium for the e2e tests (Debian's /usr/bin/chromium through
// playwright-core), and helpers that read the page with bounded waits.
//
// Nothing but loopback traffic leaves a test. Debian's Chromium makes
// requests of its own (sign-in, Google APIs: about 70 in one run) even with
// --disable-background-networking, so every browser goes through a proxy
// that this process runs on 127.0.0.1 and that refuses everything: 403 to
// CONNECT (https, wss) and to plain requests, each one counted in
// browser.refused. Chromium sends loopback addresses direct, never to a
// proxy (its implicit bypass rules: 127.0.0.1/8, localhost, [::1]), so the
// app under test is reached as before. DNS for anything but loopback fails
// too (--host-resolver-rules), for whatever a proxy does not carry (WebRTC).
import http from 'node:http';
import { chromium } from 'playwright-core';

// A failure guard, not a timing: every wait ends as soon as its event
// happens. It is generous because a 2-core machine with other jobs beside
// the suite can take half a minute to start the real claude CLI.
export const waitMs = 60_000;

/**
 * An HTTP proxy on a free loopback port that refuses every request. Its
 * refused array lists them ({ method, target }); close() stops it.
 */
export async function refusingProxy() {
  const refused = [];
  const server = http.createServer((req, res) => {
    refused.push({ method: req.method, target: req.url });
    res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' });
    res.end('refused: the e2e tests send nothing off the machine\n');
  });
  const refuseSocket = (req, socket) => {
    refused.push({ method: req.method, target: req.url });
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  };
  server.on('connect', refuseSocket);
  server.on('upgrade', refuseSocket);
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref(); // never what keeps a test process alive
  return {
    port: server.address().port,
    refused,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Chromium behind a refusing proxy; browser.refused lists what it tried to send off the machine. */
export async function launchBrowser() {
  const proxy = await refusingProxy();
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium',
      headless: true,
      timeout: waitMs,
      // Playwright gives every launch a fresh temporary user-data-dir. Not
      // its proxy option: that adds --proxy-bypass-list=<-loopback>, which
      // would send the app's own loopback traffic to the proxy.
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        `--proxy-server=http://127.0.0.1:${proxy.port}`,
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'],
    });
  } catch (err) {
    await proxy.close();
    throw err;
  }
  browser.refused = proxy.refused;
  browser.on('disconnected', () => void proxy.close());
  return browser;
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
