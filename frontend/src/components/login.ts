// Login page: shown when the server answers 401. The token is posted once to
// /api/login, which sets the HttpOnly cookie; it is never stored by the page.
import { ApiError, errorMessage, type Api } from '../api';
import { h } from '../dom';

export function renderLogin(root: HTMLElement, api: Api, onSuccess: () => void, initialError = ''): void {
  const input = h('input', {
    id: 'login-token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'login-error',
  });
  const error = h('p', { id: 'login-error', class: 'form-error login-error', role: 'alert' }, initialError);
  const button = h('button', { class: 'btn btn-primary', type: 'submit' }, 'Sign in');
  const form = h(
    'form',
    { class: 'login-form' },
    h('h1', null, 'agentdesk'),
    h('p', { class: 'muted' }, 'Paste the access token printed by the server at start-up (or in <data-dir>/token).'),
    h('label', { for: 'login-token' }, 'Access token'),
    input,
    error,
    button,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const token = input.value.trim();
    if (token === '') {
      error.textContent = 'Enter the token.';
      input.focus();
      return;
    }
    button.disabled = true;
    error.textContent = '';
    api.login(token).then(
      () => onSuccess(),
      (err: unknown) => {
        button.disabled = false;
        error.textContent = err instanceof ApiError && err.status === 401 ? 'Wrong token.' : errorMessage(err);
        input.select();
        input.focus();
      },
    );
  });
  root.replaceChildren(h('main', { class: 'login-page' }, form));
  input.focus();
}
