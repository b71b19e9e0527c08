// Keeps the app inside the visible part of the screen. On phones the
// on-screen keyboard shrinks the visual viewport; where the browser does not
// resize the layout for it (iOS Safari, or Chrome without
// interactive-widget=resizes-content), the composer would end up under the
// keyboard. --app-height and --app-top follow window.visualViewport, and
// .app is sized by them (styles/app.css); data-short on <html> says the
// visible part is short, so the session header makes room (phone.css).

/** Below this visible height (px) the screen counts as short. */
const shortPx = 520;

export function followVisualViewport(): () => void {
  const vv = window.visualViewport;
  if (!vv) return () => undefined;
  const root = document.documentElement;
  let frame = 0;
  const apply = (): void => {
    frame = 0;
    root.style.setProperty('--app-height', `${Math.round(vv.height)}px`);
    root.style.setProperty('--app-top', `${Math.round(vv.offsetTop)}px`);
    // Short (a phone with its keyboard up): phone.css folds the session header away.
    const short = vv.height < shortPx;
    if ((root.dataset.short === 'true') !== short) root.dataset.short = String(short);
  };
  const schedule = (): void => {
    if (frame === 0) frame = requestAnimationFrame(apply);
  };
  vv.addEventListener('resize', schedule);
  vv.addEventListener('scroll', schedule);
  apply();
  return () => {
    cancelAnimationFrame(frame);
    vv.removeEventListener('resize', schedule);
    vv.removeEventListener('scroll', schedule);
  };
}
