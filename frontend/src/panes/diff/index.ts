// Registers the view of git-diff workers (loaded by panes/index.ts).
import { registerPane } from '../registry';
import './diff.css';
import { DiffPane } from './pane';

registerPane('git-diff', (ctx) => new DiffPane(ctx));
