// undici's HTTP/2 client, loaded on first use, for the bundle only: scripts/bundle-options.mjs resolves
// undici's own require('./client-h2.js') here. Its module loads node:http2 at once (about 12 ms of start-up
// on a slow machine), but it is only ever called for a connection that negotiated h2, which the server's
// dispatchers never offer (undici's allowH2 is off by default).
'use strict';

let connectH2;
module.exports = function lazyConnectH2(client, socket) {
  connectH2 ??= require('undici/lib/dispatcher/client-h2.js');
  return connectH2(client, socket);
};
