// Task / Agent: the subagent's own messages nest in the card (tool-card.ts,
// SubagentBox); the call's own result is the CLI's launch notice or the
// subagent's final report, kept collapsed under them.
import { registerTool } from './registry';

registerTool(['Task', 'Agent'], { quietResult: true });
