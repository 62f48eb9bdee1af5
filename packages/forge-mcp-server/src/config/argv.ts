// Command-line flags: --name=value, --name value, and bare --name for booleans (true).
import { ConfigError } from './errors.js';
import { nearestWithin } from './nearest.js';
import { SETTING_IDS, settingDef, type SettingId } from './settings.js';

export interface FlagValue {
  id: SettingId;
  /** The flag as written, for messages: --tool-surface. */
  name: string;
  raw: string;
}

const FLAG_IDS = new Map<string, SettingId>();
for (const id of SETTING_IDS) {
  const flag = settingDef(id).flag;
  if (flag) FLAG_IDS.set(flag, id);
}
const SHORT: Record<string, string> = { '-h': '--help' };

function isBooleanFlag(id: SettingId): boolean {
  return settingDef(id).grammar.kind.startsWith('boolean');
}

/**
 * Booleans take a value only after "=" (--stateless=false), so a bare boolean never swallows the
 * next argument. A repeated flag: the last one wins.
 */
export function parseArgv(argv: readonly string[]): Map<SettingId, FlagValue> {
  const out = new Map<SettingId, FlagValue>();
  let previousBoolean: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') {
      if (i + 1 < argv.length) throw positional(argv[i + 1], undefined);
      break;
    }
    if (!token.startsWith('-') || token === '-') throw positional(token, previousBoolean);
    const eq = token.indexOf('=');
    const written = eq < 0 ? token : token.slice(0, eq);
    const name = SHORT[written] ?? written;
    const id = FLAG_IDS.get(name);
    if (!id) {
      const near = nearestWithin(written, FLAG_IDS.keys(), 2);
      const hint = near ? ` (did you mean ${near}?)` : variableOnly(written);
      throw new ConfigError(
        `unknown flag ${written}${hint}; run forge-mcp-server --help for the accepted flags`,
      );
    }
    let raw: string;
    previousBoolean = undefined;
    if (eq >= 0) raw = token.slice(eq + 1);
    else if (isBooleanFlag(id)) {
      raw = 'true';
      previousBoolean = name;
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw new ConfigError(`flag ${name} needs a value`, settingDef(id).grammar.accepts);
      raw = next;
      i++;
    }
    out.set(id, { id, name, raw });
  }
  return out;
}

/**
 * A setting read only from the environment, asked for as a flag (--auth-failure-limit for
 * FORGE_MCP_AUTH_FAILURE_LIMIT): the hint names the variable to set instead.
 */
function variableOnly(written: string): string {
  const stem = written.replace(/^-+/, '').toUpperCase().replace(/-/g, '_');
  for (const id of SETTING_IDS) {
    const { flag, variable } = settingDef(id);
    if (
      !flag &&
      variable &&
      (variable === `FORGE_MCP_${stem}` || variable === `FORGE_${stem}` || variable === stem)
    )
      return ` (${variable} has no flag: set it in the environment or a dotenv file)`;
  }
  return '';
}

function positional(token: string, previousBoolean: string | undefined): ConfigError {
  const hint = previousBoolean
    ? `; a boolean flag takes its value after "=" (${previousBoolean}=${token})`
    : '; the server takes flags only (run forge-mcp-server --help)';
  return new ConfigError(`unexpected argument ${JSON.stringify(token)}${hint}`);
}

/** --help and --version answer even when other arguments or settings are wrong. */
export function earlyCommand(argv: readonly string[]): 'help' | 'version' | undefined {
  const flags = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  if (flags.some((a) => a === '--help' || a === '-h' || a === '--help=true')) return 'help';
  if (flags.some((a) => a === '--version' || a === '--version=true')) return 'version';
  return undefined;
}
