// node:assert for undici and sonic-boom, for the bundle only: scripts/bundle-options.mjs resolves their
// require('assert') here. They only ever call it as a function, assert(value[, message]), to check their own
// invariants; node:assert itself loads the first time one fails (a passing check needs nothing of it).
'use strict';

module.exports = function assert(...args) {
  if (args.length === 0 || !args[0]) require('node:assert')(...args);
};
