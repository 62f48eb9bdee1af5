import type { RouteTable } from './table.js';

export function registerRepository(_r: RouteTable): void {}
