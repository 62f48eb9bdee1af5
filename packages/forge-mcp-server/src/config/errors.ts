/** A setting that refuses the start. The message is one line naming the setting, its value and what is accepted. */
export class ConfigError extends Error {
  constructor(message: string) {
    // One line whatever a value held: logs and terminals read it as one event.
    super(message.replace(/[\r\n]+/g, ' '));
    this.name = 'ConfigError';
  }
}
