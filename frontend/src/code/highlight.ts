// Syntax highlighting of the code blocks in the server's markdown (chat
// messages, plans, markdown files). The server sends <pre><code
// class="language-X"> plain; a block is coloured when it comes near the
// view, by lezer in a chunk imported on first need (lezer.ts, which also
// queues the blocks, one per task). Only this observer is in the first
// bundle. Blocks far from view cost nothing; a language without a parser
// stays plain.

let io: IntersectionObserver | undefined;

/** Watches the code blocks under root and colours each when it nears the view. */
export function highlightBlocks(root: ParentNode): void {
  io ??= new IntersectionObserver((entries) => {
    const near = entries.filter((e) => e.isIntersecting).map((e) => e.target as HTMLElement);
    for (const el of near) io?.unobserve(el);
    if (near.length > 0) void import('./lezer').then((m) => m.enqueue(near));
  }, { rootMargin: '400px 0px' });
  for (const code of root.querySelectorAll('pre>code[class*=language-]:not([data-hl])')) io.observe(code);
}
