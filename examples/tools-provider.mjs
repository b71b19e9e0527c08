// A program that gives agentdesk's agents a tool: roll_dice, for every
// session. It uses agentdesk's tools client (frontend/src/tools/client.js,
// served by agentdesk as /tools-client.js).
//
//   AGENTDESK_URL=http://127.0.0.1:7878 AGENTDESK_TOKEN=<token> node examples/tools-provider.mjs
//
// Node.js 22 or later has WebSocket built in; on Node 20 add
// --experimental-websocket. The agent sees the tool as
// mcp__agentdesk__roll_dice; its tool card says "from dice roller".
import { connectTools, json, text } from '../frontend/src/tools/client.js';

const base = process.env.AGENTDESK_URL ?? 'http://127.0.0.1:7878';
const token = process.env.AGENTDESK_TOKEN;
if (!token) {
  console.error('Set AGENTDESK_TOKEN to agentdesk\'s token (the ?token= of the URL it prints at start).');
  process.exit(2);
}

const tools = connectTools({
  url: base.replace(/^http/, 'ws') + '/ws/tools',
  token,
  provider: 'dice roller',
  onStatus: (s) => console.log('agentdesk:', s),
  onError: (m) => console.error('agentdesk refused:', m),
});

tools.register('*', [{
  name: 'roll_dice',
  description: 'Roll dice. Returns each die and the sum.',
  inputSchema: {
    type: 'object',
    properties: {
      dice: { type: 'integer', minimum: 1, maximum: 100, description: 'How many dice.' },
      sides: { type: 'integer', minimum: 2, maximum: 1000, description: 'Sides of each die (default 6).' },
    },
    required: ['dice'],
  },
  handler: async (input, call) => {
    const dice = Number(input.dice);
    const sides = Number(input.sides ?? 6);
    if (!Number.isInteger(dice) || dice < 1 || dice > 100) throw new Error('dice must be a whole number from 1 to 100');
    if (call.signal.aborted) return text('cancelled');
    const rolls = Array.from({ length: dice }, () => 1 + Math.floor(Math.random() * sides));
    console.log(`session ${call.sessionId}: rolled ${rolls.join(' ')}`);
    return { content: [text(`Rolled ${rolls.join(', ')}.`), json({ rolls, sum: rolls.reduce((a, b) => a + b, 0) })] };
  },
}]);

await tools.ready;
console.log('roll_dice is registered for every session; Ctrl+C to stop.');
process.on('SIGINT', () => {
  tools.close();
  process.exit(0);
});
