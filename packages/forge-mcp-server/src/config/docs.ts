// --help and the README's settings table, both written from the settings table.
import { invalidPolicy, SETTING_IDS, settingDef, type SettingDef } from './settings.js';

const SCOPE_TEXT = { stdio: 'stdio', http: 'HTTP', both: 'both' } as const;
const HELP_SCOPE = { stdio: 'stdio only', http: 'HTTP only', both: 'stdio and HTTP' } as const;

function defaultText(def: SettingDef<unknown>): string {
  if (def.defaultText !== undefined) return def.defaultText;
  if (def.default === undefined) return 'empty';
  return def.grammar.format(def.default as never);
}

function invalidText(def: SettingDef<unknown>): string {
  const stdio = invalidPolicy(def, 'stdio');
  const http = invalidPolicy(def, 'http');
  const say = {
    refuse: 'refuses the start',
    'warn-default': 'warns and keeps the default',
    'error-default': 'logs an ERROR and keeps the default',
  };
  if (def.grammar.kind === 'boolean-yolo' || def.grammar.kind === 'boolean-lenient' || def.command) return '';
  if (stdio === http) return stdio === 'refuse' ? '' : `Invalid ${say[stdio]}.`;
  return `Invalid ${say[stdio]} on stdio, ${say[http]} in HTTP.`;
}

const LEGEND =
  'Settings are read from the environment and ~/.forge-mcp-server.env (the environment wins); flags are read in HTTP mode, and on stdio too where marked (both); another flag on stdio is ignored with a WARN (naming its variable, where it has one), except that --read-only, --safe-mode, --exclude-tools and a --forge-url other than FORGE_URL refuse the start. An empty variable counts as unset; an invalid value refuses the start unless stated.';

export function helpText(): string {
  const lines = [
    'Usage: forge-mcp-server [flags]',
    '',
    'MCP server for a GitLab-style code-hosting instance, on stdio (default) or HTTP (--http).',
    LEGEND,
    'Booleans are true, false, 1, 0, t or f, in lower, upper or title case (TRUE, True); a bare boolean flag means true (--read-only), other values follow "=" (--stateless=false).',
    'Durations: 90s, 15m, 1h30m. Sizes: bytes or a number with KB, MB, GB (powers of 1024).',
  ];
  const commands = SETTING_IDS.map(settingDef).filter((d) => d.command);
  const settings = SETTING_IDS.map(settingDef).filter((d) => !d.command);
  lines.push('', 'Commands:');
  for (const def of commands) lines.push(`  ${def.flag!.padEnd(22)} ${def.description}`);
  lines.push('', 'Settings:');
  for (const def of settings) {
    const names = [def.flag, def.variable].filter(Boolean).join(', ');
    const flagNote = def.flag && def.flagInStdio && def.scope === 'both' ? '; flag read on stdio too' : '';
    lines.push(`  ${names}  (${HELP_SCOPE[def.scope]}${flagNote})`);
    lines.push(`      ${def.description}`);
    const invalid = invalidText(def);
    lines.push(
      `      Default: ${defaultText(def)}. Accepts ${def.grammar.accepts}.${invalid ? ` ${invalid}` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\*/g, '\\*');
}

function code(text: string | undefined, suffix = ''): string {
  return text ? `\`${text}\`${suffix}` : '—';
}

export function settingsMarkdownTable(): string {
  const rows = [
    LEGEND,
    '',
    '| Variable | Flag | Applies to | Default | Accepts | Description |',
    '|---|---|---|---|---|---|',
  ];
  for (const id of SETTING_IDS) {
    const def = settingDef(id);
    const invalid = invalidText(def);
    rows.push(
      `| ${[
        code(def.variable),
        code(def.flag, def.flagInStdio ? ' (both)' : ''),
        SCOPE_TEXT[def.scope],
        cell(defaultText(def)),
        cell(def.grammar.accepts + (invalid ? `. ${invalid}` : '')),
        cell(def.description),
      ].join(' | ')} |`,
    );
  }
  return `${rows.join('\n')}\n`;
}
