import assert from 'node:assert/strict'
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { embeddedPaths, runningServer } from '../../src/platform/db/embedded.ts'
import { freeLoopbackPort } from '../../src/platform/net/free-port.ts'
import { eventually } from '../support/eventually.ts'

const run = promisify(execFile)

interface Served {
  process: ChildProcess
  exited: Promise<{ code: number | null; stderr: string }>
  /** Waits for the start banner and answers it; throws the server's error output if it ends before. */
  banner(): Promise<string>
}

/**
 * `npm start` as a user runs it, on the embedded PostgreSQL of `dataDir`: through the package's bin (which must
 * pass signals on), or straight through tsx when the test needs the app's own pid for a kill -9.
 */
function serve(env: NodeJS.ProcessEnv, how: 'bin' | 'direct'): Served {
  const args = how === 'bin' ? ['bin/opentill.js', 'serve'] : ['--import', 'tsx', 'src/cli.ts', 'serve']
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  return {
    process: child,
    exited: new Promise((done) => child.on('exit', (code) => done({ code, stderr }))),
    async banner() {
      await eventually(async () => {
        if (child.exitCode !== null || child.signalCode !== null) return
        assert.match(stdout, /Database: [^\n]*\n/, stderr)
      }, 60_000)
      if (!/Database: [^\n]*\n/.test(stdout)) throw new Error(`opentill serve ended before serving: ${stderr}`)
      return stdout
    },
  }
}

describe('the embedded PostgreSQL under npm start and the opentill command', () => {
  let dataDir: string
  let env: NodeJS.ProcessEnv
  let base: string
  let cluster: string

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'opentill-embedded-'))
    cluster = embeddedPaths(dataDir).cluster
    env = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    }
  })

  /**
   * Ports picked just before a server starts (the cluster's start takes seconds, and another process of the run
   * may take a port picked earlier); every server of one test shares them.
   */
  async function freshPorts() {
    const port = await freeLoopbackPort()
    base = `http://127.0.0.1:${port}`
    env.PORT = String(port)
    env.APP_PORT = String(await freeLoopbackPort())
  }
  /** A server on fresh ports, started again on others if a port picked free was taken meanwhile. */
  async function serveOnFreshPorts(how: 'bin' | 'direct'): Promise<{ served: Served; banner: string }> {
    for (let attempt = 1; ; attempt++) {
      await freshPorts()
      const served = serve(env, how)
      try {
        return { served, banner: await served.banner() }
      } catch (error) {
        if (attempt === 3 || !/EADDRINUSE/.test(String(error))) throw error
      }
    }
  }
  after(async () => {
    const left = runningServer(cluster)
    if (left) process.kill(left.pid, 'SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  const opentill = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env })
    return JSON.parse(stdout)
  }

  it('initialises the cluster for a command on a stopped directory, keeps its password private, and stops it after', async () => {
    const migrated = await opentill('migrate')
    assert.ok(migrated.applied.includes('0001_platform'))
    assert.equal(runningServer(cluster), undefined, 'the command stops the server it started')
    assert.equal(statSync(embeddedPaths(dataDir).password).mode & 0o777, 0o600)
    assert.deepEqual(await opentill('migrate'), { applied: [] })
  })

  it('keeps a sale committed just before a kill -9 of the app and of its database server', async () => {
    const { served: first, banner } = await serveOnFreshPorts('direct')
    const password = /"password":"([^"]+)"/.exec(banner)?.[1]
    assert.ok(password, banner)
    assert.ok(banner.includes(`embedded PostgreSQL in ${dataDir}`), banner)
    const login = await post('/api/v1/auth/login', { email: 'owner@demo.opentill.dev', password })
    const token = login.body.data.accessToken
    const products = await get('/api/v1/products', token)
    const locations = await get('/api/v1/locations', token)
    const sale = await post(
      '/api/v1/orders',
      { location_id: locations.body.data[0].id, lines: [{ product_id: products.body.data[0].id, quantity: 2 }] },
      token,
    )
    assert.equal(sale.status, 201)

    const postmaster = runningServer(cluster)
    assert.ok(postmaster)
    first.process.kill('SIGKILL')
    process.kill(postmaster.pid, 'SIGKILL')
    await first.exited

    const second = serve(env, 'bin')
    await second.banner()
    try {
      const again = await post('/api/v1/auth/login', { email: 'owner@demo.opentill.dev', password })
      const found = await get(`/api/v1/orders/${sale.body.data.id}`, again.body.data.accessToken)
      assert.equal(found.status, 200)
      assert.equal(found.body.data.total, sale.body.data.total)
    } finally {
      second.process.kill('SIGTERM')
      assert.equal((await second.exited).code, 0)
    }
  })

  it('serves beside the command line, refuses a second server, answers an idempotent logout, and stops both on SIGTERM', async () => {
    const { served } = await serveOnFreshPorts('bin')
    const postmaster = runningServer(cluster)
    assert.ok(postmaster)
    try {
      const org = await opentill(
        'create-org',
        '--name',
        'Beside',
        '--email',
        'o@beside.test',
        '--password',
        'pw-0123456789',
      )
      assert.match(org.orgId, /^org_/)
      assert.deepEqual(runningServer(cluster), postmaster, 'a command leaves the running server as it found it')

      const twin = serve(env, 'direct')
      const refused = await twin.exited
      assert.notEqual(refused.code, 0)
      assert.match(refused.stderr, /another OpenTill server \(pid \d+\) is serving/)

      const login = await post('/api/v1/auth/login', { email: 'o@beside.test', password: 'pw-0123456789' })
      const logout = await fetch(`${base}/api/v1/auth/logout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${login.body.data.accessToken}`, 'idempotency-key': 'logout-1' },
        signal: AbortSignal.timeout(10_000),
      })
      assert.equal(logout.status, 204)
    } finally {
      served.process.kill('SIGTERM')
    }
    assert.equal((await served.exited).code, 0)
    assert.equal(runningServer(cluster), undefined, 'the embedded server stops with the app')
    assert.equal(existsSync(join(dataDir, 'opentill.pid')), false)
  })

  async function get(path: string, token: string) {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
    return { status: res.status, body: await res.json() }
  }
  async function post(path: string, body: unknown, token?: string) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: await res.json() }
  }
})
