import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestPki {
  /** PEM of the test CA, to trust in the webhook sender (as NODE_EXTRA_CA_CERTS would). */
  ca: string
  key: string
  cert: string
}

let pki: TestPki | undefined

/** A throw-away CA and a certificate for localhost/127.0.0.1 signed by it, made with the openssl CLI. */
export function testPki(): TestPki {
  if (pki) return pki
  const dir = mkdtempSync(join(tmpdir(), 'opentill-pki-'))
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  try {
    run(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=OpenTill Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    )
    run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost')
    writeFileSync(
      join(dir, 'leaf.ext'),
      'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
    )
    run(
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'leaf.pem',
      '-days',
      '2',
      '-extfile',
      'leaf.ext',
    )
    pki = {
      ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
      key: readFileSync(join(dir, 'leaf.key'), 'utf8'),
      cert: readFileSync(join(dir, 'leaf.pem'), 'utf8'),
    }
    return pki
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
  at: number
}

/** What a path answers: a status (with an optional Location), or `hang` to never answer. */
export type Behaviour = { status: number; location?: string } | 'hang'

/**
 * A webhook receiver on 127.0.0.1 over HTTPS (certificate for `localhost`). Each path is scripted: a queue of
 * behaviours consumed one per request, then a default; every request is recorded with its raw body.
 */
export class HttpsReceiver {
  readonly received: Received[] = []
  private server: Server | undefined
  private readonly scripts = new Map<string, Behaviour[]>()
  private readonly defaults = new Map<string, Behaviour>()
  private readonly hanging = new Set<ServerResponse>()
  private waiters: (() => void)[] = []

  /** Listens on `port`, or on a free one. */
  async start(port = 0): Promise<this> {
    const { key, cert } = testPki()
    this.server = createServer({ key, cert }, (req, res) => this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve))
    return this
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port
  }

  /** `https://localhost:<port><path>`. */
  url(path: string): string {
    return `https://localhost:${this.port}${path}`
  }

  /** Answers the next requests on `path` with `queue` in order, then with `fallback` (200 unless set). */
  script(path: string, queue: Behaviour[], fallback: Behaviour = { status: 200 }): void {
    this.scripts.set(path, [...queue])
    this.defaults.set(path, fallback)
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path)
  }

  /** Waits until `predicate` holds over what was received, or fails after `timeoutMs`. */
  async waitFor(predicate: (received: Received[]) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!predicate(this.received)) {
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(`receiver: condition not met within ${timeoutMs} ms (${this.received.length} requests)`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200))
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? '/'
      this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      const queue = this.scripts.get(path)
      const behaviour = queue?.shift() ?? this.defaults.get(path) ?? { status: 200 }
      const waiters = this.waiters
      this.waiters = []
      for (const wake of waiters) wake()
      if (behaviour === 'hang') {
        this.hanging.add(res)
        return
      }
      res.writeHead(behaviour.status, behaviour.location ? { location: behaviour.location } : {})
      res.end('ok')
    })
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy()
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve())
  }
}
