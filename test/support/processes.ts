import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
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

  /** kill -9, waiting until it is gone. */
  async crash(child: ChildProcess): Promise<void> {
    const exited = once(child, 'exit')
    child.kill('SIGKILL')
    await exited
  }

  async stopAll(): Promise<void> {
    const running = this.children.filter((c) => c.exitCode === null && c.signalCode === null)
    for (const c of running) c.kill('SIGTERM')
    await Promise.all(running.map((c) => once(c, 'exit')))
  }
}
