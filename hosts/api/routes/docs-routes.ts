import type { RouteDefinition } from '../route.ts';

/** GET /openapi.json and GET /docs, generated from the route table (being built: see hosts/api/openapi.ts). */
export function docsRoutes(_routes: readonly RouteDefinition[]): RouteDefinition[] {
  return [];
}
