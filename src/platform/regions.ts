// Datacenters. Each account lives in one region, served on that region's public host; its
// access_url is that host. A request is in the region whose host it was addressed to; a host that
// matches no region (a bare IP, a private name) counts as the default region.
import { type Config, REGIONS, type Region } from '../config.js';
import { isOneOf } from './lists.js';

/** The regional hosts of the config, but the default region's (http/auth.ts keeps them in deps.caches.regionHosts). */
export function regionHosts(config: Config): Map<string, Region> {
  const hosts = new Map<string, Region>();
  for (const region of REGIONS)
    if (region !== 'us') hosts.set(new URL(config.regionUrls[region]).host, region);
  return hosts;
}

/** The account's regional API root without /v3 (the token exchange's access_url). */
export function accessUrl(config: Config, region: string): string {
  return config.regionUrls[isOneOf(REGIONS, region) ? region : 'us'];
}
