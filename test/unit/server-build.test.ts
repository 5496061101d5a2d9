import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { serverBuild } from '../../scripts/server-build.mjs'
import { fromRoot } from '../../src/platform/paths.ts'

describe('the server bundle npm start runs', () => {
  it("maps back to the project's own sources, so that stack traces name real files", async () => {
    const bundle = await serverBuild()
    const map = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as { sources: string[] }
    const ours = map.sources.map((source) => resolve(dirname(bundle), source)).filter((f) => f.endsWith('.ts'))
    assert.ok(ours.includes(fromRoot('src', 'cli.ts')), 'the entry point is among the sources')
    assert.deepEqual(
      ours.filter((file) => !existsSync(file)),
      [],
    )
  })
})
