import type { Channel } from '../domain/channel.ts';
import type { NetworkRoute } from '../domain/network-route.ts';

/**
 * Network routes (docs/routing.md): platform configuration, one per (channel, country, network).
 * `save` inserts or replaces the route of its key (the id of an existing one is kept); at most
 * MAX_NETWORK_ROUTES exist (`list` returns them all, in key order).
 */
export interface NetworkRouteRepository {
  list(): Promise<NetworkRoute[]>;
  findById(id: string): Promise<NetworkRoute | null>;
  save(route: NetworkRoute): Promise<NetworkRoute>;
  remove(id: string): Promise<boolean>;
  count(): Promise<number>;
  /** The route of a key, or null. */
  find(channel: Channel, country: string, network: string): Promise<NetworkRoute | null>;
}

/** A bound on the routes table: every process holds them all in memory. */
export const MAX_NETWORK_ROUTES = 1_000;
