// agentdesk tools client: give the agents of agentdesk tools they can call.
//
// Served by agentdesk at /tools-client.js (an ES module, no dependencies).
// A provider connects to /ws/tools, registers tools for one session or for
// every session ("*"), and answers the calls the agent makes. The protocol
// is in docs/api-extensions.md, "Tools from the browser".
//
//   import { connectTools, text, image, json } from '/tools-client.js';
//   const tools = connectTools({ provider: 'My page' });
//   tools.register('*', [{
//     name: 'page_title',
//     description: 'The title of the page the person has open.',
//     inputSchema: { type: 'object', properties: {} },
//     handler: async (input, call) => text(document.title),
//   }]);
//
// In a page of agentdesk's own origin the login cookie authenticates the
// socket. A program passes url and token (sent as Authorization: Bearer);
// Node.js 22+ has WebSocket built in (Node 20: run with
// --experimental-websocket), or pass another constructor as WebSocket.
//
// A handler gets the tool's input and a call {callId, sessionId, tool,
// toolUseId, signal}; signal aborts when agentdesk cancels the call (the
// turn was interrupted, or it timed out). It returns a string (text), a
// {content, isError} result, or one of text(), image(), json(); a thrown
// error becomes an error result with its message. The client reconnects
// after a dropped connection and registers its tools again.

/** A text item of a result. */
export function text(s) {
  return { type: 'text', text: String(s) };
}

/** An image item of a result: base64 data (no data: prefix) and its type. */
export function image(data, mimeType = 'image/png') {
  return { type: 'image', data, mimeType };
}

/** A JSON item of a result: any value, given to the agent as JSON text. */
export function json(value) {
  return { type: 'json', json: value };
}

/** The result of a handler's return value. */
function toResult(v) {
  if (typeof v === 'string') return { content: [text(v)], isError: false };
  if (v && Array.isArray(v.content)) return { content: v.content, isError: v.isError === true };
  if (v && typeof v.type === 'string') return { content: [v], isError: false };
  if (v === undefined || v === null) return { content: [], isError: false };
  return { content: [json(v)], isError: false };
}

function defaultURL() {
  const loc = globalThis.location;
  if (!loc) throw new Error('connectTools: pass url (e.g. ws://127.0.0.1:7878/ws/tools) outside a browser');
  return (loc.protocol === 'https:' ? 'wss://' : 'ws://') + loc.host + '/ws/tools';
}

/**
 * Connects a provider. Options: provider (your name, shown to the person
 * on the agent's tool cards), url, token, WebSocket, onError(message),
 * onStatus('open' | 'closed'). Returns {register, unregister, close, ready}.
 */
export function connectTools(options = {}) {
  const url = options.url || defaultURL();
  const WS = options.WebSocket || globalThis.WebSocket;
  const onError = options.onError || ((m) => console.warn('agentdesk tools:', m));
  const onStatus = options.onStatus || (() => {});
  const regs = new Map(); // sessionId → tools with handlers
  const running = new Map(); // callId → AbortController
  let ws = null;
  let closed = false;
  let delay = 500;
  let timer = null;
  let markReady;
  const ready = new Promise((resolve) => { markReady = resolve; });

  function send(frame) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame));
  }

  function sendRegister(sessionId, tools) {
    send({
      type: 'register', provider: options.provider || '', sessionId,
      tools: tools.map((t) => ({ name: t.name, description: t.description || '', inputSchema: t.inputSchema || { type: 'object' } })),
    });
  }

  async function onCall(f) {
    const tools = regs.get(f.sessionId) || regs.get('*') || [];
    const tool = tools.find((t) => t.name === f.tool) || (regs.get('*') || []).find((t) => t.name === f.tool);
    const ctl = new AbortController();
    running.set(f.callId, ctl);
    let result;
    try {
      if (!tool) throw new Error(`this provider has no tool ${f.tool}`);
      result = toResult(await tool.handler(f.input || {}, {
        callId: f.callId, sessionId: f.sessionId, tool: f.tool, toolUseId: f.toolUseId || '', signal: ctl.signal,
      }));
    } catch (err) {
      result = { content: [text(err && err.message ? err.message : String(err))], isError: true };
    }
    running.delete(f.callId);
    if (!ctl.signal.aborted) send({ type: 'tool-result', callId: f.callId, ...result });
  }

  function onFrame(data) {
    let f;
    try { f = JSON.parse(data); } catch { return; }
    if (f.type === 'call') void onCall(f);
    else if (f.type === 'cancel') running.get(f.callId)?.abort(f.reason || 'cancelled');
    else if (f.type === 'registered') markReady();
    else if (f.type === 'error') onError(f.message);
  }

  function open() {
    timer = null;
    const init = options.token ? { headers: { Authorization: 'Bearer ' + options.token } } : undefined;
    ws = init ? new WS(url, init) : new WS(url);
    ws.onopen = () => {
      delay = 500;
      onStatus('open');
      for (const [sid, tools] of regs) sendRegister(sid, tools);
      if (regs.size === 0) markReady();
    };
    ws.onmessage = (ev) => onFrame(typeof ev.data === 'string' ? ev.data : String(ev.data));
    ws.onclose = () => {
      onStatus('closed');
      for (const ctl of running.values()) ctl.abort('disconnected');
      running.clear();
      if (!closed) {
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, 15000);
      }
    };
    ws.onerror = () => {};
  }

  open();
  return {
    ready,
    /** Sets the tools served in sessionId ("*": every session), replacing earlier ones there. */
    register(sessionId, tools) {
      regs.set(sessionId, tools);
      sendRegister(sessionId, tools);
    },
    /** Removes the tools served in sessionId. */
    unregister(sessionId) {
      if (!regs.delete(sessionId)) return;
      send({ type: 'register', provider: options.provider || '', sessionId, tools: [] });
    },
    /** Disconnects: the tools go, calls in flight end with an error at the agent. */
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      ws?.close();
    },
  };
}
