// The chat pane's "(?) " title prefix while its worker asks: the page title
// has one owner (src/title.ts), shared with the app's own watch of every
// agent worker, so both use the same "sid/wid" keys and never fight.
export { setAsking } from '../../title';
