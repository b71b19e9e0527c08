// Registers the diff view (kinds.ts: the git diff's view; loaded by panes/index.ts).
import { registerPane } from '../registry';
import './diff.css';
import { DiffPane } from './pane';

registerPane('diff', (ctx) => new DiffPane(ctx));
