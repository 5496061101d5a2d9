import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { promisify } from 'node:util'
import { fromRoot } from '../../src/platform/paths.ts'

const run = promisify(execFile)
const units = fromRoot('deploy', 'systemd')
const analyze = '/usr/bin/systemd-analyze'
const skip = existsSync(analyze) ? false : 'systemd-analyze is not installed'

/** The deploy/systemd units, as systemd itself reads them (templates checked through one instance each). */
describe('the systemd units of the production layout', { skip }, () => {
  it('pass systemd-analyze verify, and a broken unit does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentill-units-'))
    try {
      const instances: string[] = []
      for (const name of readdirSync(units).filter((f) => f.endsWith('@.service'))) {
        const instance = name.replace('@.service', '@1.service')
        copyFileSync(join(units, name), join(dir, instance))
        instances.push(instance)
      }
      assert.deepEqual(instances.sort(), ['opentill-serve@1.service', 'opentill-worker@1.service'])
      const { stderr } = await run(analyze, ['verify', ...instances], { cwd: dir })
      assert.equal(stderr.trim(), '')
      writeFileSync(join(dir, 'broken@1.service'), '[Service]\nExecStart=bin/opentill.js serve\n')
      await assert.rejects(run(analyze, ['verify', 'broken@1.service'], { cwd: dir }))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('give every process the environment it needs, from one file', () => {
    const env = readFileSync(join(units, 'opentill.env.example'), 'utf8')
    for (const name of [
      'NODE_ENV=production',
      'DATABASE_URL=',
      'REDIS_URL=',
      'BASE_URL=https://',
      'APP_URL=https://',
      'SEED_DEMO=false',
      'METRICS_TOKEN=',
    ])
      assert.ok(env.includes(name), name)
    for (const unit of ['opentill-serve@.service', 'opentill-worker@.service']) {
      const text = readFileSync(join(units, unit), 'utf8')
      assert.match(text, /^EnvironmentFile=\/etc\/opentill\/opentill\.env$/m)
      assert.match(text, /^KillSignal=SIGTERM$/m)
    }
    assert.match(readFileSync(join(units, 'opentill-serve@.service'), 'utf8'), /^Environment=WORKERS=false$/m)
  })
})
