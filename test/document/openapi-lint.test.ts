import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { fromRoot } from '../../src/platform/paths.ts'
import { startTestApp, type TestApp } from '../support/harness.ts'

const root = fromRoot()

interface LintReport {
  totals: { errors: number; warnings: number }
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[]
}

/**
 * The served document passes Redocly's recommended ruleset with no error (redocly.yaml says why each rule it turns
 * down is down). Before: 2 errors and 172 warnings.
 */
describe('the OpenAPI document under Redocly and Spectral (OWASP) lint', () => {
  let app: TestApp
  let scratch: string

  before(async () => {
    app = await startTestApp()
    scratch = mkdtempSync(join(tmpdir(), 'opentill-openapi-lint-'))
    // The served document, written once for both linters.
    const document = (await app.api.inject({ method: 'GET', url: '/openapi.json' })).json()
    writeFileSync(join(scratch, 'openapi.json'), JSON.stringify(document))
  })
  after(async () => {
    await app?.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('has no error, and no warning but the four public documents that answer no 4xx', async () => {
    const lint = await promisify(execFile)(
      join(root, 'node_modules/.bin/redocly'),
      ['lint', join(scratch, 'openapi.json'), '--config', join(root, 'redocly.yaml'), '--format=json'],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
    const report = JSON.parse(lint.stdout) as LintReport
    const errors = report.problems.filter((p) => p.severity === 'error')
    assert.deepEqual(
      errors.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`),
      [],
    )
    assert.deepEqual(
      report.problems.map((p) => [p.ruleId, p.location[0]?.pointer]),
      [
        ['operation-4xx-response', '#/paths/~1.well-known~1oauth-authorization-server/get/responses'],
        ['operation-4xx-response', '#/paths/~1.well-known~1jwks.json/get/responses'],
        ['operation-4xx-response', '#/paths/~1healthz/get/responses'],
        ['operation-4xx-response', '#/paths/~1readyz/get/responses'],
      ],
    )
  })

  it('has no error under Spectral with the OWASP API Security ruleset (.spectral.yaml triages the rest)', async () => {
    const output = join(scratch, 'spectral.json')
    await promisify(execFile)(
      join(root, 'node_modules/.bin/spectral'),
      [
        'lint',
        join(scratch, 'openapi.json'),
        '--ruleset',
        join(root, '.spectral.yaml'),
        '--format',
        'json',
        '--output',
        output,
        '--fail-severity',
        'error',
      ],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
    ).catch(() => undefined)
    const findings = JSON.parse(readFileSync(output, 'utf8')) as { code: string; severity: number; path: string[] }[]
    // Severity 0 is an error.
    assert.deepEqual(
      findings.filter((f) => f.severity === 0).map((f) => `${f.code} ${f.path.join('.')}`),
      [],
    )
  })
})
