import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/**
 * Which addresses a webhook may reach (docs/decisions.md "Webhooks"): never private, loopback, link-local, ULA or
 * otherwise reserved ranges, unless an operator allows a network with WEBHOOK_ALLOW_NETWORKS.
 */
const RESERVED_V4 = [
  '0.0.0.0/8', // "this" network
  '10.0.0.0/8', // RFC 1918
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (cloud metadata lives here)
  '172.16.0.0/12', // RFC 1918
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay
  '192.168.0.0/16', // RFC 1918
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
]

// IPv4-mapped addresses (::ffff:a.b.c.d) are judged by the IPv4 address they carry (see mappedV4): a
// ::ffff:0:0/96 entry here would make BlockList refuse every plain IPv4 address too.
const RESERVED_V6 = [
  '::/128', // unspecified
  '::1/128', // loopback
  '64:ff9b::/96', // NAT64, embeds IPv4
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard
  '2001::/23', // IETF protocol assignments (Teredo, ORCHID…)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4, embeds IPv4
  'fc00::/7', // unique local (ULA)
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
]

function subnets(list: BlockList, cidrs: readonly string[]): BlockList {
  for (const cidr of cidrs) {
    const [network, bits] = cidr.split('/')
    const family = isIP(network)
    if (!family || bits === undefined || !/^\d{1,3}$/.test(bits))
      throw new Error(`WEBHOOK_ALLOW_NETWORKS: "${cidr}" is not a CIDR`)
    list.addSubnet(network, Number(bits), family === 6 ? 'ipv6' : 'ipv4')
  }
  return list
}

const reserved = subnets(subnets(new BlockList(), RESERVED_V4), RESERVED_V6)

/** Strips the brackets WHATWG URLs keep around IPv6 hosts. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` or `::ffff:7f00:1`) carries, if it is one. */
function mappedV4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address)
  if (!match) return undefined
  if (match[1]) return match[1]
  const high = Number.parseInt(match[2], 16)
  const low = Number.parseInt(match[3], 16)
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

export class AddressPolicy {
  private readonly allowed: BlockList

  constructor(allowNetworks: readonly string[]) {
    this.allowed = subnets(new BlockList(), allowNetworks)
  }

  /** True when an IP address may be connected to. */
  permits(address: string): boolean {
    const family = isIP(address)
    if (family === 0) return false
    const type = family === 6 ? 'ipv6' : 'ipv4'
    if (this.allowed.check(address, type)) return true
    const v4 = family === 6 ? mappedV4(address) : undefined
    if (v4 && this.allowed.check(v4, 'ipv4')) return true
    return !reserved.check(address, type) && !(v4 && reserved.check(v4, 'ipv4'))
  }

  /**
   * The addresses of `hostname` a delivery may connect to: an IP literal is judged as it is; a name is resolved
   * and its reserved answers are dropped, so a name that also resolves to a private address never reaches it.
   */
  async usableAddresses(hostname: string): Promise<{ address: string; family: number }[]> {
    const host = bareHost(hostname)
    const family = isIP(host)
    if (family) return this.permits(host) ? [{ address: host, family }] : []
    const answers = await lookup(host, { all: true, verbatim: true })
    return answers.filter((a) => this.permits(a.address))
  }
}
