// Which test files a run takes, and in which processes (docs/testing.md "What makes it fast").
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Tests whose outcome does not depend on the database engine behind DATABASE_URL: rules (unit), pages in the
 * browser, the embedded server itself (which they start on their own), and the API's document and the client
 * generated from it. CI runs them in its embedded pass only; `--engine-dependent` leaves them out.
 */
const ENGINE_FREE = ['test/unit/', 'test/pages/', 'test/embedded/', 'test/document/']

/**
 * Files that start processes, a browser or a load: each runs in a process of its own, and they start first, so
 * the run does not end waiting for one of them alone.
 */
const LONGEST = [
  'embedded-server.test.ts',
  'mixed-load.test.ts',
  'cli.test.ts',
  'faults.test.ts',
  'fleet.test.ts',
  'pglite-import.test.ts',
  'shutdown.test.ts',
  'secrets-at-rest.test.ts',
  'automations-crash.test.ts',
  'stalled-work-crash.test.ts',
  'sync-crash.test.ts',
  'catalog-cache.test.ts',
  'trust-proxy.test.ts',
  'client-packed.test.ts',
  'back-office-browser.test.ts',
  'back-office-people-browser.test.ts',
]

/**
 * Files that keep a process of their own for what they hold process-wide: DBOS is one per process (automations),
 * and the metrics test reads the event loop's delay, which another file's leftovers would disturb.
 */
const ALONE = [
  ...LONGEST,
  'automations.test.ts',
  'automations-schedule.test.ts',
  'automations-authors.test.ts',
  'metrics.test.ts',
]

/** Files a grouped process takes at most: loading the app once per group instead of once per file. */
const GROUP_SIZE = 6

function collect(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return collect(path)
    return name.endsWith('.test.ts') ? [path] : []
  })
}

const named = (list: readonly string[], file: string) => list.some((name) => file.endsWith(`/${name}`))

export interface TestPlan {
  /** The files the run takes. */
  files: string[]
  /**
   * What to run, in order: a file on its own, or a generated module that imports several (scripts/test-bundle.ts
   * compiles each).
   */
  entries: string[]
  /** Removes the generated modules. */
  cleanUp(): void
}

/**
 * The files matching `filter` (parts of paths; all when empty), less the engine-free ones with
 * `engineDependentOnly`. Each file used to be a process of its own that loaded the app's modules through tsx
 * (about 2.5 s of CPU) before its first test: files that share nothing process-wide now run six to a process, one
 * after the other, each still on its own app and database.
 */
export function planTestRun(filter: readonly string[], engineDependentOnly: boolean): TestPlan {
  const files = collect('test')
    .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
    .filter((f) => !engineDependentOnly || !ENGINE_FREE.some((dir) => f.startsWith(dir)))
    .sort()
  const longest = LONGEST.flatMap((name) => files.filter((f) => f.endsWith(`/${name}`)))
  const aloneRest = files.filter((f) => named(ALONE, f) && !named(LONGEST, f))
  const groupable = files.filter((f) => !named(ALONE, f))
  if (groupable.length <= 1) return { files, entries: [...longest, ...aloneRest, ...groupable], cleanUp() {} }

  const dir = mkdtempSync(join(tmpdir(), 'opentill-test-groups-'))
  // Pages stay together (they share one Chromium launcher), so do unit tests, and groups are of even size.
  const kinds = new Map<string, string[]>()
  for (const f of groupable) {
    const kind = f.startsWith('test/pages/') ? 'pages' : f.startsWith('test/unit/') ? 'unit' : 'e2e'
    kinds.set(kind, [...(kinds.get(kind) ?? []), f])
  }
  const groups: string[] = []
  for (const [kind, members] of kinds) {
    const count = Math.ceil(members.length / GROUP_SIZE)
    for (let g = 0; g < count; g++) {
      const part = members.filter((_, i) => i % count === g)
      const path = join(dir, `${kind}-${g + 1}.test.mjs`)
      writeFileSync(path, part.map((f) => `import ${JSON.stringify(resolve(f))}\n`).join(''))
      groups.push(path)
    }
  }
  return {
    files,
    entries: [...longest, ...groups, ...aloneRest],
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  }
}
