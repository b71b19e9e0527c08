// The chat view of `sdk` workers (Claude Code as a structured chat).
import { registerPane } from '../registry';
import './chat.css';
import { ChatPane } from './pane';

registerPane('sdk', (ctx) => new ChatPane(ctx));
