// Registers the view of files workers (loaded by panes/index.ts).
import { registerPane } from '../registry';
import './files.css';
import { FilesPane } from './pane';

registerPane('files', (ctx) => new FilesPane(ctx));
