// WebFetch and WebSearch: the URL (a link only for http and https) and the
// prompt or query.
import { h } from '../../../dom';
import { isObject, str } from '../protocol';
import { registerTool } from './registry';

function urlLink(url: string): HTMLElement {
  let safe = false;
  try {
    const u = new URL(url);
    safe = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    safe = false;
  }
  if (!safe) return h('code', null, url);
  return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer nofollow' }, url);
}

function facts(items: [string, string | HTMLElement][]): HTMLElement {
  const shown = items.filter(([, v]) => v !== '');
  return h('dl', { class: 'tool-facts' }, ...shown.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}

registerTool(['WebFetch'], {
  body: (input) => facts([['URL', str(input, 'url') === '' ? '' : urlLink(str(input, 'url'))], ['Prompt', str(input, 'prompt')]]),
});

registerTool(['WebSearch'], {
  body: (input) => {
    const allowed = isObject(input) ? input.allowed_domains : undefined;
    return facts([['Query', str(input, 'query')],
      ['Sites', Array.isArray(allowed) ? allowed.filter((d) => typeof d === 'string').join(', ') : '']]);
  },
});
