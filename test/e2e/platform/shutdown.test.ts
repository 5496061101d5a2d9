import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { after, describe, it } from 'node:test'
import { freeLoopbackPort } from '../../../src/platform/net/free-port.ts'
import { scratchServerDatabase } from '../../support/harness.ts'

/** `opentill serve` as its own process, on a scratch database; resolves with its ports and demo login. */
async function serve(env: Record<string, string>) {
  const scratch = await scratchServerDatabase()
  const [port, appPort] = [await freeLoopbackPort(), await freeLoopbackPort()]
  const child = spawn(process.execPath, ['bin/opentill.js', 'serve'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: scratch?.url ?? 'memory://',
      REDIS_URL: '',
      PORT: String(port),
      APP_PORT: String(appPort),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (chunk) => {
    out += chunk
  })
  child.stderr!.on('data', (chunk) => {
    err += chunk
  })
  const deadline = Date.now() + 60_000
  while (!/Demo org created|listening/.test(out) || !/Log in/.test(out)) {
    if (child.exitCode !== null) throw new Error(`serve exited: ${err}`)
    if (Date.now() > deadline) throw new Error(`serve did not start: ${out} ${err}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const login = /POST (\S+) (\{.*\})/.exec(out)!
  const token = (
    (await (
      await fetch(login[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: login[2] })
    ).json()) as { data: { accessToken: string } }
  ).data.accessToken
  return { child, base: `http://127.0.0.1:${port}`, token, stderr: () => err, drop: () => scratch?.drop() }
}

describe('graceful shutdown of opentill serve', () => {
  const children: ChildProcess[] = []
  const drops: (() => Promise<void> | undefined)[] = []
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    for (const d of drops) await d()
  })

  it('on SIGTERM ends the kitchen streams, finishes, and exits 0 well before the deadline', async () => {
    const s = await serve({ SHUTDOWN_TIMEOUT_MS: '20000' })
    children.push(s.child)
    drops.push(s.drop)
    const headers = { authorization: `Bearer ${s.token}` }
    assert.equal((await fetch(`${s.base}/readyz`)).status, 200)
    // An open kitchen stream: a request that never ends by itself.
    const stream = await fetch(`${s.base}/api/v1/kds/stream`, { headers })
    assert.equal(stream.status, 200)
    const reader = stream.body!.getReader()
    const started = Date.now()
    s.child.kill('SIGTERM')
    // The stream is ended by the server (its client reconnects elsewhere with Last-Event-ID).
    for (;;) {
      const { done } = await reader.read()
      if (done) break
    }
    const [code] = await once(s.child, 'exit')
    assert.equal(code, 0, s.stderr())
    assert.ok(Date.now() - started < 15_000)
    // The listener is gone.
    await assert.rejects(fetch(`${s.base}/healthz`))
  })

  it('ends the process at SHUTDOWN_TIMEOUT_MS when something holds it, saying so', async () => {
    const s = await serve({ SHUTDOWN_TIMEOUT_MS: '1500', WORKERS: 'true' })
    children.push(s.child)
    drops.push(s.drop)
    // A request that stays in flight: its body is never finished, so the server waits for it. Its 100 Continue says
    // the server has taken it in before the signal.
    const url = new URL(`${s.base}/api/v1/products`)
    const { request } = await import('node:http')
    const pending = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${s.token}`,
        'content-type': 'application/json',
        'content-length': '1000',
        expect: '100-continue',
      },
    })
    pending.on('error', () => {})
    pending.flushHeaders()
    await once(pending, 'continue')
    pending.write('{"name":')
    const started = Date.now()
    s.child.kill('SIGTERM')
    const [code] = await once(s.child, 'exit')
    assert.equal(code, 1)
    assert.match(s.stderr(), /shutdown took longer than SHUTDOWN_TIMEOUT_MS=1500/)
    assert.ok(Date.now() - started >= 1400)
    pending.destroy()
  })
})
