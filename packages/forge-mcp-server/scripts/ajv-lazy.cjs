// The argument validator's ajv, loaded on first use, for the bundle only: scripts/bundle-options.mjs resolves
// src/executor/schema.ts's two imports here (ajv/dist/2020.js and ajv-formats). Importing them evaluates
// about a hundred of ajv's modules, which a server not yet called never uses; schema.ts only constructs the
// class and calls the plugin, once, on the first validation (a constructor returning an object yields it).
'use strict';

exports.Ajv2020 = function Ajv2020(options) {
  return new (require('ajv/dist/2020.js').Ajv2020)(options);
};

exports.addFormats = function addFormats(ajv, options) {
  return require('ajv-formats')(ajv, options);
};
