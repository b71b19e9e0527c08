// Loads every tool renderer (each registers itself); tool-card.ts imports this.
import './bash';
import './edit-diff';
import './search';
import './subagent';
import './task-list';
import './todo';
import './web';
import './tools.css';
