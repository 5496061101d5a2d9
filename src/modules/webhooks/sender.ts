import { Agent, request } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { rootCertificates } from 'node:tls'
import type { AddressPolicy } from './address-policy.ts'
import { bareHost } from './address-policy.ts'

export interface SendResult {
  succeeded: boolean
  statusCode: number | null
  latencyMs: number
  error: string | null
}

interface SenderOptions {
  policy: AddressPolicy
  timeoutMs: number
  /** Extra trusted CA certificates (PEM) beside Node's store and NODE_EXTRA_CA_CERTS: tests use a private CA. */
  ca?: string
}

/** What is read of a response body: enough to free the socket, nothing is kept. */
const MAX_RESPONSE_BYTES = 64 * 1024

/**
 * Posts webhook bodies over HTTPS with the TLS certificate verified, no redirects followed (a 3xx is a failure)
 * and the address policy applied to the address actually connected to: the agent's own DNS look-up drops
 * reserved answers, so a name re-pointed at a private address after registration (DNS rebinding) is refused.
 */
export class WebhookSender {
  private readonly agent: Agent
  private readonly policy: AddressPolicy
  private readonly timeoutMs: number

  constructor(options: SenderOptions) {
    this.policy = options.policy
    this.timeoutMs = options.timeoutMs
    const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
      this.policy.usableAddresses(hostname).then(
        (usable) => {
          if (usable.length === 0) {
            const error = Object.assign(new Error(`${hostname} resolves to no permitted address`), {
              code: 'EADDRNOTPERMITTED',
            })
            callback(error, '', 4)
          } else if (lookupOptions.all) {
            ;(callback as unknown as (e: null, all: { address: string; family: number }[]) => void)(null, usable)
          } else {
            callback(null, usable[0].address, usable[0].family)
          }
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 4),
      )
    }
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: 16,
      lookup: guardedLookup,
      ca: options.ca ? [...rootCertificates, options.ca] : undefined,
    })
  }

  /** One attempt: resolves (never rejects) with what happened. */
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    const target = new URL(url)
    // Node connects to an IP literal without calling the agent's lookup, so literals are judged here.
    const host = bareHost(target.hostname)
    if (isIP(host) && !this.policy.permits(host)) {
      return Promise.resolve({
        succeeded: false,
        statusCode: null,
        latencyMs: 0,
        error: `${host} is not a permitted address`,
      })
    }
    return new Promise((resolve) => {
      let settled = false
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve({ ...result, latencyMs: elapsed() })
      }
      const req = request(target, {
        method: 'POST',
        agent: this.agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'OpenTill-Webhooks/1.0',
          ...headers,
        },
      })
      // One deadline for the whole exchange: connect, TLS, headers and body.
      const timer = setTimeout(() => {
        finish({ succeeded: false, statusCode: null, error: `no answer within ${this.timeoutMs} ms` })
        req.destroy()
      }, this.timeoutMs)
      req.on('error', (error: NodeJS.ErrnoException) => {
        finish({
          succeeded: false,
          statusCode: null,
          error: error.code ? `${error.code}: ${error.message}` : error.message,
        })
      })
      req.on('response', (res) => {
        const status = res.statusCode ?? 0
        let received = 0
        res.on('data', (chunk: Buffer) => {
          received += chunk.length
          if (received > MAX_RESPONSE_BYTES) res.destroy()
        })
        const done = () => {
          if (status >= 200 && status < 300) finish({ succeeded: true, statusCode: status, error: null })
          else if (status >= 300 && status < 400) {
            finish({
              succeeded: false,
              statusCode: status,
              error: `redirect to ${res.headers.location ?? '(none)'} not followed`,
            })
          } else finish({ succeeded: false, statusCode: status, error: `endpoint answered HTTP ${status}` })
        }
        res.on('end', done)
        res.on('close', done)
        res.on('error', done)
      })
      req.end(body)
    })
  }

  close(): void {
    this.agent.destroy()
  }
}
