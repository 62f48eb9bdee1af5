import type { RouteTable } from './table.js';

export function registerPipelines(_r: RouteTable): void {}
