/**
 * Tells the bin's launcher (scripts/launcher.cjs) that this process got as far as serving, so the code it
 * compiled is worth keeping in the compile cache at exit. A no-op when not started through the launcher.
 */
export function markServing(): void {
  const hook = (globalThis as Record<symbol, unknown>)[Symbol.for('forge-mcp-server.serving')];
  if (typeof hook === 'function') (hook as () => void)();
}

/**
 * Tells the launcher that the start is over (stdio: the first tools/list answered), so the code compiled
 * so far is what the compile cache keeps. A no-op when not started through the launcher or already said.
 */
export function markStarted(): void {
  const hook = (globalThis as Record<symbol, unknown>)[Symbol.for('forge-mcp-server.started')];
  if (typeof hook === 'function') (hook as () => void)();
}
