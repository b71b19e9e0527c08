// Entry point: sign in if needed, then start the app.
import { Api, ApiError, errorMessage, isUnauthorized } from './api';
import { App } from './app';
import { renderLogin } from './components/login';
import { h } from './dom';
import './panes/index';
import { registerServiceWorker } from './pwa';
import './styles/app.css';
import './styles/phone.css';
import { initTheme } from './theme';
import { followVisualViewport } from './viewport';

const api = new Api();
const root = document.getElementById('root') ?? document.body;
let app: App | null = null;

/** Takes ?token= out of the address bar; returns it (the server usually did this already). */
function takeUrlToken(): string | null {
  const url = new URL(location.href);
  const token = url.searchParams.get('token');
  if (token === null) return null;
  url.searchParams.delete('token');
  history.replaceState(null, '', url.pathname + url.search + url.hash);
  return token;
}

function showLogin(error = ''): void {
  app?.dispose();
  app = null;
  renderLogin(root, api, () => void start(), error);
}

function showFatal(err: unknown): void {
  const retry = h('button', { class: 'btn btn-primary', type: 'button', onClick: () => void start() }, 'Retry');
  root.replaceChildren(h('main', { class: 'login-page' }, h('div', { class: 'login-form' },
    h('h1', null, 'agentdesk'), h('p', { class: 'form-error', role: 'alert' }, `Cannot load sessions: ${errorMessage(err)}`), retry)));
  retry.focus();
}

async function start(): Promise<void> {
  try {
    const sessions = await api.listSessions();
    app?.dispose();
    app = new App(root, api, sessions, () => showLogin('Your sign-in expired. Enter the token again.'));
  } catch (err) {
    if (isUnauthorized(err)) showLogin();
    else showFatal(err);
  }
}

/** The server marks a failed /?token= login with a meta tag carrying its message. */
function serverLoginError(): string | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="agentdesk-login-error"]');
  return meta === null ? null : meta.content || 'Wrong token.';
}

async function boot(): Promise<void> {
  const token = takeUrlToken();
  const loginError = serverLoginError();
  if (loginError !== null) {
    showLogin(loginError);
    return;
  }
  // A token still in the URL without the server's verdict (e.g. the Vite dev
  // server in front): try it once through /api/login.
  if (token !== null) {
    try {
      await api.login(token);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        showLogin('Wrong token.');
        return;
      }
    }
  }
  await start();
}

initTheme();
followVisualViewport();
void boot();
registerServiceWorker();
