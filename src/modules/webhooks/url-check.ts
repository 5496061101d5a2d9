import { invalid } from '../../platform/errors/app-error.ts'
import type { AddressPolicy } from './address-policy.ts'

/**
 * Registration-time check of a webhook URL (docs/decisions.md "Webhooks"): HTTPS only, no credentials, and a host
 * with at least one address outside the reserved ranges. WHATWG parsing first turns decimal, hex and octal IPv4
 * forms (`https://2130706433/`, `https://0x7f.1/`) and IPv6 forms into canonical addresses, so they are judged
 * as the addresses they are. Delivery checks the connected address again (DNS rebinding).
 */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy): Promise<string> {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw invalid('url', 'is not a valid absolute URL', 'invalid_url')
  }
  if (url.protocol !== 'https:') throw invalid('url', 'must use https', 'https_required')
  if (url.username || url.password) throw invalid('url', 'must not contain credentials', 'credentials_not_allowed')
  if (url.hash) throw invalid('url', 'must not contain a fragment', 'invalid_url')
  let usable: { address: string }[]
  try {
    usable = await policy.usableAddresses(url.hostname)
  } catch {
    throw invalid('url', 'has a host name that does not resolve', 'unresolvable_host')
  }
  if (usable.length === 0) {
    throw invalid('url', 'resolves to a private, loopback, link-local or reserved address', 'forbidden_address')
  }
  return url.href
}
