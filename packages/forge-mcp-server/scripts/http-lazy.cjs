// What undici reads of node:http, without loading node:http (its client and server, about 6 ms of a stdio
// start under the bin's V8 flags, which keep Node's own code cache from being used), for the bundle only:
// scripts/bundle-options.mjs rewrites undici's two reads of it to these.
'use strict';

/** Node's own default for --max-http-header-size (16 KiB on every supported line). */
const NODE_DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

/**
 * http.maxHeaderSize: Node's default unless the option may have been given (on the command line, in
 * NODE_OPTIONS, or through a config file), in which case node:http itself is asked.
 */
exports.maxHeaderSize = function maxHeaderSize() {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
    /max[-_]http[-_]header[-_]size|config[-_]file/.test(arg),
  );
  return given ? require('node:http').maxHeaderSize : NODE_DEFAULT_MAX_HEADER_SIZE;
};

/** Whether the stream is an http.IncomingMessage (node:http is only asked about one named so). */
exports.isIncomingMessage = function isIncomingMessage(stream) {
  const made = Object.getPrototypeOf(stream)?.constructor;
  return made?.name === 'IncomingMessage' && made === require('node:http').IncomingMessage;
};
