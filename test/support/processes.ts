import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { loadConfig } from '../../src/config.ts'
import { MERCHANT_SCOPES } from '../../src/modules/auth/index.ts'
import type { Plan } from '../../src/modules/orgs/index.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { freeLoopbackPort } from '../../src/platform/net/free-port.ts'
import { openRuntime } from '../../src/platform/runtime.ts'
import { createServices } from '../../src/services.ts'
import { eventually } from './eventually.ts'

/** `opentill serve` or `opentill worker` as its own process, as production runs them; started when it says so. */
export class OpentillProcesses {
  private readonly children: ChildProcess[] = []

  async start(command: 'serve' | 'worker', env: NodeJS.ProcessEnv): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['bin/opentill.js', command], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    this.children.push(child)
    let out = ''
    child.stdout!.on('data', (c) => {
      out += c
    })
    child.stderr!.on('data', (c) => {
      out += c
    })
    await eventually(async () => {
      assert.equal(child.exitCode, null, out)
      assert.match(out, command === 'serve' ? /listening/ : /worker running/)
    }, 60_000)
    return child
  }

  /** `opentill serve` on free loopback ports (API and web app); its base URL and the pid that serves it. */
  async serve(env: NodeJS.ProcessEnv): Promise<{ url: string; pid: number }> {
    const [port, appPort] = [await freeLoopbackPort(), await freeLoopbackPort()]
    const child = await this.start('serve', { ...env, PORT: String(port), APP_PORT: String(appPort) })
    return { url: `http://127.0.0.1:${port}`, pid: child.pid! }
  }

  /** kill -9, waiting until it is gone. */
  async crash(child: ChildProcess): Promise<void> {
    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited
  }

  /** kill -9 of a process `serve` started, by the pid it answered. */
  async crashServer(pid: number): Promise<void> {
    const child = this.children.find((c) => c.pid === pid)
    assert.ok(child, `process ${pid} was not started here`)
    await this.crash(child)
  }

  async stopAll(): Promise<void> {
    const running = this.children.filter((c) => c.exitCode === null && c.signalCode === null)
    for (const c of running) c.kill('SIGTERM')
    await Promise.all(running.map((c) => once(c, 'exit')))
  }
}

/**
 * Migrates the database `env` names and makes an org with its owner, as a deploy step would before the processes
 * start. `unlimited` raises the org's rate limit out of the way (as `opentill set-org-limits` would), for loads.
 */
export async function prepareOrg(
  env: NodeJS.ProcessEnv,
  options: { name: string; plan?: Plan; unlimited?: boolean },
): Promise<{ orgId: string; email: string; password: string }> {
  const runtime = await openRuntime(loadConfig({ ...env, PORT: '0' }), { migrate: true })
  try {
    const credentials = { email: `owner-${randomBytes(5).toString('hex')}@example.test`, password: 'owner-password-1' }
    const services = createServices(runtime)
    const { org } = await services.orgs.createOrg({
      name: options.name,
      ...credentials,
      currency: 'USD',
      plan: options.unlimited ? 'enterprise' : (options.plan ?? 'pro'),
    })
    if (options.unlimited)
      await services.orgs.setCustomLimits(systemContext(runtime.database, org.id, MERCHANT_SCOPES), 1e6, 1e6)
    return { orgId: org.id, ...credentials }
  } finally {
    await runtime.close()
  }
}
