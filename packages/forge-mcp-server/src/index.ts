export { catalog, Catalog } from './catalog/index.js';
export type * from './catalog/types.js';
export { loadConfig, ConfigError } from './config/index.js';
export { buildServer } from './mcp/server.js';
export { openSession, Session } from './session/index.js';
export { runHttp } from './http/index.js';
export { VERSION } from './version.js';
