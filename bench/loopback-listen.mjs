// Preloaded into a peer's node server (`node --import …/loopback-listen.mjs`)
// by bench/peer-cloudcli.mjs: every listen() on a TCP port binds 127.0.0.1,
// whatever host the program asks for, so a benchmarked peer that listens on
// 0.0.0.0 is reachable from this machine only. Nothing of the peer changes.
import http from 'node:http';
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function loopbackListen(...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    const cb = args.find((a) => typeof a === 'function');
    return listen.call(this, Number(args[0]), '127.0.0.1', ...(cb ? [cb] : []));
  }
  if (args[0] !== null && typeof args[0] === 'object' && args[0].port !== undefined) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  }
  return listen.apply(this, args);
};
// http.Server inherits net.Server's listen; touch it so the import is not elided.
void http.Server;
