/** The server's release, reported in serverInfo and --version. */
export const VERSION = '3.1.0';
