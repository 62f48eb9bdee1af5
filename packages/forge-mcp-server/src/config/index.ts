// The settings room's one door: the rest of the server reads its settings through here.
export { ConfigError } from './errors.js';
export { configSecrets, loadConfig } from './load.js';
export { helpText, settingsMarkdownTable } from './docs.js';
export type {
  Command,
  Config,
  LoadInput,
  LoadResult,
  LogLevel,
  Tier,
  ToolSurface,
  Transport,
} from './types.js';
