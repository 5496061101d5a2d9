import assert from 'node:assert/strict'
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { type EmbeddedServer, openEmbeddedServer } from '../../../src/platform/db/embedded.ts'
import { freeLoopbackPort } from '../../../src/platform/net/free-port.ts'
import { eventually } from '../../support/eventually.ts'
import { scratchServerDatabase } from '../../support/harness.ts'
import { HttpsReceiver, testPki } from '../../support/https-receiver.ts'
import { OpentillProcesses, prepareOrg } from '../../support/processes.ts'

/**
 * Processes and the servers they depend on fail in production: a worker is killed mid-delivery, Redis restarts
 * empty, the database restarts. Each case runs real processes (`opentill serve`, `opentill worker`) and real
 * faults (kill -9, a stopped server) on loopback, and checks that nothing acknowledged is lost.
 */

const baseEnv = (databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_ENV: 'development',
  DATABASE_URL: databaseUrl,
  REDIS_URL: '',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'fatal',
  BASE_URL: 'https://api.faults.example',
  APP_URL: 'https://app.faults.example',
  ...extra,
})

function client(base: string) {
  const call = (method: string, path: string, token?: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    call,
    async login(credentials: { email: string; password: string }): Promise<string> {
      const res = await call('POST', '/api/v1/auth/login', undefined, {
        email: credentials.email,
        password: credentials.password,
      })
      assert.equal(res.status, 200)
      return ((await res.json()) as { data: { accessToken: string } }).data.accessToken
    },
  }
}

describe('a worker killed (kill -9) in the middle of deliveries', () => {
  const processes = new OpentillProcesses()
  let scratch: Awaited<ReturnType<typeof scratchServerDatabase>>
  let receiver: HttpsReceiver
  let env: NodeJS.ProcessEnv
  let api: ReturnType<typeof client>
  let credentials: { orgId: string; email: string; password: string }
  let workerEnv: NodeJS.ProcessEnv

  before(async () => {
    scratch = await scratchServerDatabase()
    assert.ok(scratch, 'npm test provides a PostgreSQL server (its embedded cluster or DATABASE_URL)')
    // The lease is the attempt's timeout plus 15 s: a dead worker's attempts are taken over after it.
    env = baseEnv(scratch.url, { WORKERS: 'false', WEBHOOK_TIMEOUT_MS: '4000', WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32' })
    credentials = await prepareOrg(env, { name: 'Faults' })
    api = client((await processes.serve(env)).url)
    receiver = await new HttpsReceiver().start()
    const ca = join(tmpdir(), `opentill-faults-ca-${process.pid}.pem`)
    writeFileSync(ca, testPki().ca)
    workerEnv = { ...env, NODE_EXTRA_CA_CERTS: ca }
  })
  /** Read as the database's owner, across orgs: what the workers recorded. */
  async function succeededDeliveries(): Promise<number> {
    const owner = new pg.Client({ connectionString: scratch!.url })
    await owner.connect()
    try {
      const { rows } = await owner.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'succeeded'`)
      return rows[0].n as number
    } finally {
      await owner.end()
    }
  }

  after(async () => {
    await processes.stopAll()
    await receiver?.close()
    await scratch?.drop()
  })

  it('delivers every event once a new worker takes over, sending again only what was in flight', async () => {
    const token = await api.login(credentials)
    const integration = (await (
      await api.call('POST', '/api/v1/integrations', token, { name: 'Books', type: 'accounting' })
    ).json()) as { data: { id: string } }
    const hook = await api.call('POST', `/api/v1/integrations/${integration.data.id}/webhooks`, token, {
      url: receiver.url('/crash'),
      events: ['customer.created'],
    })
    assert.equal(hook.status, 201)
    // The first three requests are never answered: the worker is waiting on them when it is killed.
    receiver.script('/crash', ['hang', 'hang', 'hang'])
    const made: string[] = []
    for (let i = 0; i < 10; i++) {
      const res = await api.call('POST', '/api/v1/customers', token, { first_name: `C${i}`, email: `c${i}@x.example` })
      assert.equal(res.status, 201)
      made.push(((await res.json()) as { data: { id: string } }).data.id)
    }

    const first = await processes.start('worker', workerEnv)
    await receiver.waitFor((all) => all.filter((r) => r.path === '/crash').length >= 10, 30_000)
    const inFlight = receiver.on('/crash').slice(0, 3)
    // The seven answered attempts are recorded before the kill, so that only the three in flight are open.
    await eventually(async () => assert.equal(await succeededDeliveries(), 7))
    await processes.crash(first)

    await processes.start('worker', workerEnv)
    await receiver.waitFor((all) => all.filter((r) => r.path === '/crash').length >= 13, 45_000)
    await new Promise((r) => setTimeout(r, 1_000))
    const received = receiver.on('/crash').map((r) => JSON.parse(r.body).data.id as string)
    assert.deepEqual([...new Set(received)].sort(), [...made].sort(), 'every event reached the receiver')
    const resent = received.slice(10).sort()
    assert.deepEqual(resent, inFlight.map((r) => JSON.parse(r.body).data.id as string).sort())
    assert.equal(received.length, 13, 'only the three attempts in flight were sent twice')
    assert.equal(await succeededDeliveries(), 10)
  })
})

/** A Redis server of the test's own on a free port, keeping nothing on disk, so that it can be killed. */
class OwnRedis {
  private child: ChildProcess | undefined
  constructor(readonly port: number) {}

  static available(): boolean {
    return spawnSync('redis-server', ['--version']).status === 0
  }

  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    )
    await eventually(async () => {
      const ping = spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' })
      assert.equal(ping.stdout.trim(), 'PONG')
    }, 10_000)
  }

  async kill(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return
    const exited = once(this.child, 'exit')
    this.child.kill('SIGKILL')
    await exited
  }
}

describe('Redis restarted empty', { skip: OwnRedis.available() ? false : 'redis-server is not installed' }, () => {
  const processes = new OpentillProcesses()
  let scratch: Awaited<ReturnType<typeof scratchServerDatabase>>
  let redis: OwnRedis
  let api: ReturnType<typeof client>
  let credentials: { email: string; password: string }

  before(async () => {
    scratch = await scratchServerDatabase()
    assert.ok(scratch)
    redis = new OwnRedis(await freeLoopbackPort())
    await redis.start()
    const env = baseEnv(scratch.url, { WORKERS: 'false', REDIS_URL: `redis://127.0.0.1:${redis.port}` })
    credentials = await prepareOrg(env, { name: 'Faults' })
    api = client((await processes.serve(env)).url)
  })
  after(async () => {
    await processes.stopAll()
    await redis?.kill()
    await scratch?.drop()
  })

  it('fails closed while Redis is gone, and restores revocations from the database when it is back', async () => {
    const [revoked, live] = [await api.login(credentials), await api.login(credentials)]
    assert.equal((await api.call('POST', '/api/v1/auth/logout', revoked, {})).status, 204)
    assert.equal((await api.call('GET', '/api/v1/products?limit=1', revoked)).status, 401)
    assert.equal((await api.call('GET', '/api/v1/products?limit=1', live)).status, 200)

    await redis.kill()
    const gone = await api.call('GET', '/api/v1/products?limit=1', live)
    assert.equal(gone.status, 503)
    assert.match(gone.headers.get('content-type') ?? '', /application\/problem\+json/)
    assert.equal(((await gone.json()) as { code: string }).code, 'REDIS_UNAVAILABLE')
    assert.ok(gone.headers.get('retry-after'))

    // Back, with none of its keys: the revocation mark is written again from the database.
    await redis.start()
    await eventually(async () => {
      assert.equal((await api.call('GET', '/api/v1/products?limit=1', live)).status, 200)
    }, 15_000)
    assert.equal((await api.call('GET', '/api/v1/products?limit=1', revoked)).status, 401)
  })
})

describe('the database restarted', () => {
  const processes = new OpentillProcesses()
  let dataDir: string
  let database: EmbeddedServer
  let port: string
  let api: ReturnType<typeof client>
  let credentials: { email: string; password: string }
  // A throw-away cluster: durability is not what this test is about.
  const settings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'opentill-faults-db-'))
    database = await openEmbeddedServer(dataDir, { settings })
    port = new URL(database.url).port
    const env = baseEnv(database.url)
    credentials = await prepareOrg(env, { name: 'Faults' })
    api = client((await processes.serve(env)).url)
  })
  after(async () => {
    await processes.stopAll()
    await database?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('answers 503 while it is gone and recovers without restarting the app', async () => {
    const token = await api.login(credentials)
    assert.equal((await api.call('GET', '/api/v1/customers?limit=1', token)).status, 200)

    await database.stop()
    const gone = await api.call('GET', '/api/v1/customers?limit=1', token)
    assert.equal(gone.status, 503)
    assert.equal(((await gone.json()) as { code: string }).code, 'DATABASE_UNAVAILABLE')
    assert.equal((await api.call('GET', '/readyz')).status, 503)
    assert.equal((await api.call('GET', '/healthz')).status, 200)

    database = await openEmbeddedServer(dataDir, { settings: { ...settings, port } })
    await eventually(async () => {
      assert.equal((await api.call('GET', '/readyz')).status, 200)
    }, 15_000)
    const created = await api.call('POST', '/api/v1/customers', token, { first_name: 'Back', email: 'back@x.example' })
    assert.equal(created.status, 201)
    assert.equal((await api.call('GET', '/api/v1/customers?limit=5', token)).status, 200)
  })
})
