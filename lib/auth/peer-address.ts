// The TCP connection's address, for route handlers and server actions, which Next.js never shows
// it to. Next's server writes the socket's address into X-Forwarded-For only when the request has
// none (`??=` in next/dist/server/base-server.js), so a client that sends its own header chooses
// the value; X-Real-IP and the rest are the client's words too, and neither proxy.ts nor a
// NextRequest carries the socket. So, as the server starts (instrumentation.ts), every HTTP
// server of this process stamps each request with its socket's address in a header of ours,
// replacing whatever a client sent under that name, before Next reads the headers.
//
// A request that arrives before the stamp is installed (in the second the server takes to
// start) carries no stamp, and reads as "address unknown": the sign-in throttle then counts it
// with every other such request, it does not trust a header instead.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

export const PEER_ADDRESS_HEADER = 'x-crosscheck-peer-address';

const INSTALLED = Symbol.for('crosscheck.peer-address-header');

/** Replaces any client-sent value of the header with the address of the request's socket. */
export function stampPeerAddress(req: IncomingMessage) {
  const address = req.socket?.remoteAddress;
  if (address) req.headers[PEER_ADDRESS_HEADER] = address;
  else delete req.headers[PEER_ADDRESS_HEADER];
}

/** Makes every HTTP(S) server in this process stamp its requests; once, however often called. */
export function installPeerAddressHeader() {
  for (const proto of [http.Server.prototype, https.Server.prototype] as Array<{
    emit: (event: string | symbol, ...args: unknown[]) => boolean;
    [INSTALLED]?: true;
  }>) {
    if (proto[INSTALLED]) continue;
    const emit = proto.emit;
    proto.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
      if (event === 'request' || event === 'upgrade') stampPeerAddress(args[0] as IncomingMessage);
      return emit.call(this, event, ...args);
    };
    proto[INSTALLED] = true;
  }
}
