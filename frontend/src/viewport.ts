// Keeps the app inside the visible part of the screen. On phones the
// on-screen keyboard shrinks the visual viewport; where the browser does not
// resize the layout for it (iOS Safari, or Chrome without
// interactive-widget=resizes-content), the composer would end up under the
// keyboard. --app-height and --app-top follow window.visualViewport, and
// .app is sized by them (styles/app.css).

export function followVisualViewport(): () => void {
  const vv = window.visualViewport;
  if (!vv) return () => undefined;
  const root = document.documentElement;
  let frame = 0;
  const apply = (): void => {
    frame = 0;
    root.style.setProperty('--app-height', `${Math.round(vv.height)}px`);
    root.style.setProperty('--app-top', `${Math.round(vv.offsetTop)}px`);
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
