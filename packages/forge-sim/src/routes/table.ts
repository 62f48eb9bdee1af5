import type { RouteAuth } from '../auth.js';
import type { Handler } from '../context.js';

export interface RouteDef {
  handler: Handler;
  /** Overrides what the inventory (or the method) says about the route's auth. */
  auth?: Partial<RouteAuth>;
}

export interface RouteTable {
  add(method: string, pattern: string, handler: Handler, auth?: Partial<RouteAuth>): void;
}
