import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fromRoot } from '../../src/platform/paths.ts'
import { startTestApp, type TestApp } from '../support/harness.ts'

const client = fromRoot('packages', 'client')

/**
 * @opentill/client's types are generated from the document the server serves (npm run client:generate): this
 * regenerates them from this server's document and fails on any difference, so the two cannot drift.
 */
describe('the typed client and the OpenAPI document', () => {
  let app: TestApp
  let scratch: string

  before(async () => {
    app = await startTestApp()
    scratch = mkdtempSync(join(tmpdir(), 'opentill-client-types-'))
  })
  after(async () => {
    await app?.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('are generated from the document this server serves (run npm run client:generate after an API change)', async () => {
    const document = (await app.api.inject({ method: 'GET', url: '/openapi.json' })).json()
    writeFileSync(join(scratch, 'openapi.json'), JSON.stringify(document))
    const generated = spawnSync(
      join(client, 'node_modules/.bin/openapi-typescript'),
      [join(scratch, 'openapi.json'), '--output', join(scratch, 'schema.ts')],
      { cwd: client, encoding: 'utf8' },
    )
    assert.equal(generated.status, 0, generated.stderr)
    const fresh = readFileSync(join(scratch, 'schema.ts'), 'utf8')
    const committed = readFileSync(join(client, 'src/schema.ts'), 'utf8')
    assert.ok(fresh === committed, 'packages/client/src/schema.ts is out of date: run npm run client:generate')
  })
})
