// Preloaded into @modelcontextprotocol/server-everything by test/real-audit64/record.mjs (`node --import`): its Express app listens on every interface, this makes a port-only listen() bind 127.0.0.1.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    const cb = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
    return listen.call(this, Number(args[0]), '127.0.0.1', cb);
  }
  return listen.apply(this, args);
};
