// Datacenters. Each account lives in one region, served on that region's public host; its
// access_url is that host. A request is in the region whose host it was addressed to; a host that
// matches no region (a bare IP, a private name) counts as the default region.
import { type Config, REGIONS, type Region } from '../config.js';

const hostsByConfig = new WeakMap<Config, Map<string, Region>>();

function regionHosts(config: Config): Map<string, Region> {
  let hosts = hostsByConfig.get(config);
  if (!hosts) {
    hosts = new Map();
    for (const region of REGIONS)
      if (region !== 'us') hosts.set(new URL(config.regionUrls[region]).host, region);
    hostsByConfig.set(config, hosts);
  }
  return hosts;
}

export function regionOfHost(config: Config, host: string | undefined): Region {
  return (host && regionHosts(config).get(host.toLowerCase())) || 'us';
}

/** The account's regional API root without /v3 (the token exchange's access_url). */
export function accessUrl(config: Config, region: string): string {
  return config.regionUrls[(REGIONS as readonly string[]).includes(region) ? (region as Region) : 'us'];
}
