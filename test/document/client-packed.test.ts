import assert from 'node:assert/strict'
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { fromRoot } from '../../src/platform/paths.ts'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../support/harness.ts'

const client = fromRoot('packages', 'client')
const typescript = join(client, 'node_modules/typescript/bin/tsc')

/** The till day (test/support/till-day.ts) run from a project of its own, which knows the API only through the packed client. */
const MAIN = `import { createOpenTillClient } from '@opentill/client'
import { tillDay } from './till-day.js'

const client = createOpenTillClient({ baseUrl: process.env.API_URL ?? '' })
await client.login(process.env.EMAIL ?? '', process.env.PASSWORD ?? '')
await tillDay(client)
console.log(JSON.stringify({ done: true, signedIn: client.session !== undefined }))
`

/**
 * @opentill/client stands alone: built and packed as \`npm pack\` makes it, installed into a scratch project from the
 * tarball, type-checked there with strict TypeScript, and run against this server.
 */
describe('the packed client in a project of its own', () => {
  let app: TestApp
  let merchant: Merchant
  let scratch: string

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    scratch = mkdtempSync(join(tmpdir(), 'opentill-packed-client-'))
  })
  after(async () => {
    await app?.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('installs from its tarball, type-checks the till day under strict TypeScript, and runs it', async () => {
    execFileSync('npm', ['run', 'build'], { cwd: client, stdio: 'pipe' })
    execFileSync('npm', ['pack', '--pack-destination', scratch], { cwd: client, stdio: 'pipe' })
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'))
    assert.ok(tarball, 'npm pack made a tarball')
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({
        name: 'till',
        private: true,
        type: 'module',
        dependencies: { '@opentill/client': `file:./${tarball}`, '@types/node': '^20.19.0' },
      }),
    )
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: false,
          outDir: 'out',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
        },
        files: ['main.ts', 'till-day.ts'],
      }),
    )
    writeFileSync(join(scratch, 'main.ts'), MAIN)
    copyFileSync(fromRoot('test', 'support', 'till-day.ts'), join(scratch, 'till-day.ts'))
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: scratch, stdio: 'pipe' })
    const compiled = spawnSync(process.execPath, [typescript, '-p', 'tsconfig.json'], {
      cwd: scratch,
      encoding: 'utf8',
    })
    assert.equal(compiled.status, 0, `the till day does not compile against the packed client:\n${compiled.stdout}`)
    const address = await app.api.listen({ port: 0, host: '127.0.0.1' })
    // Not execFileSync: the sale calls this process's server, which must keep answering meanwhile.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['out/main.js'], {
      cwd: scratch,
      env: { ...process.env, API_URL: address, EMAIL: merchant.email, PASSWORD: merchant.password },
      encoding: 'utf8',
    })
    assert.deepEqual(JSON.parse(output), { done: true, signedIn: true })
  })
})
