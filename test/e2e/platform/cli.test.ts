import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { scratchServerDatabase } from '../../support/harness.ts'

const run = promisify(execFile)

/** The operator's commands of `opentill`, run as processes on a database nothing has touched yet. */
describe('the opentill command', () => {
  let env: NodeJS.ProcessEnv
  let cleanUp: () => Promise<void>

  before(async () => {
    const scratch = await scratchServerDatabase({ empty: true })
    const dataDir = mkdtempSync(join(tmpdir(), 'opentill-cli-'))
    env = {
      ...process.env,
      // A fresh data directory for the embedded database, or a fresh database on the server.
      DATABASE_URL: scratch?.url ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    }
    cleanUp = async () => {
      await scratch?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
  after(() => cleanUp())

  const opentill = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env })
    return JSON.parse(stdout)
  }

  it('migrates a fresh database, then finds nothing left to apply', async () => {
    const first = await opentill('migrate')
    assert.ok(first.applied.includes('0001_platform'))
    assert.deepEqual(await opentill('migrate'), { applied: [] })
  })

  it('creates an org with its owner, then an app for it', async () => {
    const org = await opentill(
      'create-org',
      '--name',
      'Corner Cafe',
      '--email',
      'owner@cafe.test',
      '--password',
      'pw-1234567890',
    )
    assert.match(org.orgId, /^org_/)
    assert.match(org.userId, /^usr_/)
    const confidential = await opentill(
      'create-app',
      '--org',
      org.orgId,
      '--name',
      'Till',
      '--redirect-uri',
      'https://till.test/cb',
    )
    assert.match(confidential.clientId, /\S/)
    assert.match(confidential.clientSecret, /\S/)
    const pub = await opentill(
      'create-app',
      '--org',
      org.orgId,
      '--name',
      'Phone',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--public',
    )
    assert.equal(pub.clientSecret, undefined)
    assert.deepEqual(await opentill('set-org-limits', '--org', org.orgId, '--per-minute', '900', '--burst', '1200'), {
      orgId: org.orgId,
      perMinute: 900,
      burst: 1200,
    })
    const rebuilt = await opentill('rebuild-reports', '--org', org.orgId)
    assert.equal(rebuilt.rebuilt, true)
    await assert.rejects(
      opentill('set-org-limits', '--org', org.orgId, '--per-minute', '0', '--burst', '5'),
      /--per-minute/,
    )
  })

  it('answers a usage error with exit code 2 and an unknown org id with exit code 1', async () => {
    await assert.rejects(opentill('no-such-command'), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 2)
      assert.match(error.stderr, /usage: opentill/)
      return true
    })
    await assert.rejects(
      opentill('create-app', '--org', 'not-an-org', '--name', 'X', '--redirect-uri', 'https://x.test/cb'),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1)
        assert.match(error.stderr, /--org must be an org id/)
        return true
      },
    )
  })
})
