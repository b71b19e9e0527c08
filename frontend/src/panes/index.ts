// Loads every pane module so each registers itself with registerPane():
// the built-in terminal pane, and any `panes/<name>/index.ts` (chat, diff, ...).
import './terminal';

import.meta.glob('./*/index.ts', { eager: true });
