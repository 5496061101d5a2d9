import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { fromRoot } from '../../src/platform/paths.ts'

const run = promisify(execFile)
const root = fromRoot()
const depcruise = join(root, 'node_modules/.bin/depcruise')
const config = join(root, '.dependency-cruiser.cjs')

/** A scratch tree laid out like src/, checked with the project's own rules. */
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'opentill-rules-'))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true } }))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

async function check(dir: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout } = await run(depcruise, ['src', '--config', config], { cwd: dir })
    return { ok: true, output: stdout }
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string }
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
}

describe('module rules (dependency-cruiser)', () => {
  const dirs: string[] = []
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })
  const tree = (files: Record<string, string>) => {
    const dir = scratch({
      'src/modules/orders/index.ts': "export { total } from './orders.service.ts'\n",
      'src/modules/orders/orders.service.ts': 'export const total = 1\n',
      'src/platform/money/money.ts': 'export const cents = 100\n',
      ...files,
    })
    dirs.push(dir)
    return dir
  }

  it('passes the project itself', async () => {
    const { ok, output } = await check(root)
    assert.ok(ok, output)
  })

  it('passes a module that enters another through its index', async () => {
    const dir = tree({
      'src/modules/payments/index.ts': "import { total } from '../orders/index.ts'\nexport const t = total\n",
    })
    const { ok, output } = await check(dir)
    assert.ok(ok, output)
  })

  const cases: [string, string, Record<string, string>][] = [
    [
      'module-entered-through-index',
      "a module reaching into another's files",
      {
        'src/modules/payments/index.ts':
          "import { total } from '../orders/orders.service.ts'\nexport const t = total\n",
      },
    ],
    [
      'platform-imports-no-module',
      'the platform importing a module',
      {
        'src/platform/money/rounding.ts':
          "import { total } from '../../modules/orders/index.ts'\nexport const t = total\n",
      },
    ],
    [
      'modules-import-no-app-or-entry',
      'a module importing the app',
      {
        'src/app.ts': 'export const app = 1\n',
        'src/modules/payments/index.ts': "import { app } from '../../app.ts'\nexport const a = app\n",
      },
    ],
    [
      'modules-import-no-app-or-entry',
      'a module importing a flow',
      {
        'src/flows/sell.ts': 'export const sell = 1\n',
        'src/modules/payments/index.ts': "import { sell } from '../../flows/sell.ts'\nexport const s = sell\n",
      },
    ],
    [
      'flows-enter-modules-through-index',
      "a flow reaching into a module's repo",
      { 'src/flows/sell.ts': "import { total } from '../modules/orders/orders.service.ts'\nexport const t = total\n" },
    ],
    [
      'catalog-stock-identity-import-no-sales',
      'the catalog importing orders',
      { 'src/modules/catalog/index.ts': "import { total } from '../orders/index.ts'\nexport const t = total\n" },
    ],
    [
      'no-module-cycles',
      'two modules importing each other',
      {
        'src/modules/orders/index.ts': "import { p } from '../payments/index.ts'\nexport const total = p\n",
        'src/modules/payments/index.ts':
          "import { total } from '../orders/index.ts'\nexport const p = 1\nexport const t = total\n",
      },
    ],
  ]
  for (const [rule, what, files] of cases) {
    it(`fails ${what} (${rule})`, async () => {
      const { ok, output } = await check(tree(files))
      assert.equal(ok, false, output)
      assert.match(output, new RegExp(`error ${rule}`))
    })
  }
})
