import { Injectable } from '@nestjs/common';
import IP2Region from 'ip2region';

export const UNKNOWN_LOCATION = '未知';

/**
 * IP属地 from the client address, with an offline region database shipped in an npm package (no call to any
 * outside service): the province for Chinese addresses, the country otherwise, 未知 for private or unknown ones.
 */
@Injectable()
export class IpLocation {
  private readonly database = new IP2Region();

  locate(ip: string | undefined): string {
    if (!ip) return UNKNOWN_LOCATION;
    const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    try {
      const found = this.database.search(address);
      if (!found || found.isp === '内网IP') return UNKNOWN_LOCATION;
      if (found.country === '中国') return found.province || UNKNOWN_LOCATION;
      return found.country || UNKNOWN_LOCATION;
    } catch {
      return UNKNOWN_LOCATION;
    }
  }
}
