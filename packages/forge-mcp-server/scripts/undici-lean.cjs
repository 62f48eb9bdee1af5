// What the server uses of undici, for the bundle only: scripts/bundle.mjs resolves the bare 'undici'
// import here. undici's index also loads fetch, WebSocket, EventSource, caches and mocks, which the
// server never calls; evaluating them at start-up costs time and heap. The sources keep importing
// 'undici' (typed; unbundled runs and the tests use the whole package), so every name those imports use
// is exported here, and nothing else.
'use strict';

const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
const api = require('undici/lib/api/index.js');

// As the package's index does: request(), connect() and the rest as dispatcher methods (the proxy agent
// opens its tunnel with connect()).
Object.assign(Dispatcher.prototype, api);

exports.Pool = require('undici/lib/dispatcher/pool.js');
exports.EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js');
exports.buildConnector = require('undici/lib/core/connect.js');

// Multipart uploads only: loaded on first use, with the part of the fetch implementation it needs.
Object.defineProperty(exports, 'FormData', {
  enumerable: true,
  get: () => require('undici/lib/web/fetch/formdata.js').FormData,
});
