export * from './arguments.js';
export * from './format.js';
export * from './run.js';
export * from './schema.js';
