// The chat view (kinds.ts: every kind whose view is 'chat', Claude Code as a structured chat).
import { registerPane } from '../registry';
import './chat.css';
import { ChatPane } from './pane';

registerPane('chat', (ctx) => new ChatPane(ctx));
