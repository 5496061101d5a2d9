// `npx tsx bench/start-time.ts`: how long `npm start`'s process (node bin/opentill.js serve, the server's bundle)
// takes from spawn to its banner on the embedded PostgreSQL, for a fresh DATA_DIR (initdb, first migrations, demo
// seed) and for a second start of the same one; beside it, the second start from the TypeScript sources through tsx
// (how `npm start` ran before the bundle), alternating. Prints medians of BENCH_ROUNDS (3) runs as one JSON line.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freeLoopbackPort } from '../src/platform/net/free-port.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

/** Starts `opentill serve` on `dataDir`, waits for the banner's database line, stops it; answers the ms to banner. */
async function timedStart(dataDir: string, from: 'bundle' | 'sources' = 'bundle'): Promise<number> {
  const env = {
    ...process.env,
    DATABASE_URL: '',
    REDIS_URL: '',
    DATA_DIR: dataDir,
    PORT: String(await freeLoopbackPort()),
    APP_PORT: String(await freeLoopbackPort()),
    LOG_LEVEL: 'warn',
  }
  const started = performance.now()
  const args = from === 'bundle' ? ['bin/opentill.js', 'serve'] : ['--import', 'tsx', 'src/cli.ts', 'serve']
  const child = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  const ms = await new Promise<number>((done, fail) => {
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (/Database: .*\n/.test(out)) done(performance.now() - started)
    })
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)))
  })
  const exited = new Promise((done) => child.once('exit', done))
  child.kill('SIGTERM')
  await exited
  return ms
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const fresh: number[] = []
const second: number[] = []
const fromSources: number[] = []
for (let i = 0; i < rounds; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'opentill-start-'))
  try {
    fresh.push(await timedStart(dir))
    if (i % 2 === 0) {
      second.push(await timedStart(dir))
      fromSources.push(await timedStart(dir, 'sources'))
    } else {
      fromSources.push(await timedStart(dir, 'sources'))
      second.push(await timedStart(dir))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
const ms = (xs: number[]) => ({ median: Math.round(median(xs)), runs: xs.map(Math.round) })
process.stdout.write(
  `${JSON.stringify({ freshStart: ms(fresh), secondStart: ms(second), secondStartFromSources: ms(fromSources) })}\n`,
)
