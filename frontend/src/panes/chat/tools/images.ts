// Images in tool results (a Read of a picture, a screenshot tool): shown as
// thumbnails that open full size. Only base64 data of a raster type becomes
// a data: URL; anything else stays "[image]" text.
import { h } from '../../../dom';
import { isObject, str } from '../protocol';

const rasterTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The data: URL of an image block, or null when it is not a base64 raster image. */
export function imageUrl(block: unknown): string | null {
  if (!isObject(block) || block.type !== 'image' || !isObject(block.source)) return null;
  const src = block.source;
  const type = str(src, 'media_type');
  const data = str(src, 'data');
  if (str(src, 'type') !== 'base64' || !rasterTypes.has(type) || !/^[A-Za-z0-9+/]+=*$/.test(data)) return null;
  return `data:${type};base64,${data}`;
}

/** Thumbnails of the images of a tool_result content; null when there are none. */
export function resultImages(content: unknown): HTMLElement | null {
  if (!Array.isArray(content)) return null;
  const urls = content.map(imageUrl).filter((u): u is string => u !== null);
  if (urls.length === 0) return null;
  return h('div', { class: 'tool-images' }, ...urls.map((url, i) => {
    const img = h('img', { class: 'tool-image', src: url, alt: `Image ${i + 1} of the result`, loading: 'lazy' });
    // A click shows it full size (the browser's own view of the data URL would lose the page).
    const btn = h('button', { class: 'tool-image-btn', type: 'button', 'aria-label': 'Show the image full size', 'aria-pressed': 'false' }, img);
    btn.addEventListener('click', () => {
      const full = btn.classList.toggle('full');
      btn.setAttribute('aria-pressed', String(full));
    });
    return btn;
  }));
}
