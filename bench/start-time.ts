// `npx tsx bench/start-time.ts`: how long `npm start`'s process takes from spawn to its banner on the embedded
// PostgreSQL, for a fresh DATA_DIR (initdb, first migrations, demo seed) and for a second start of the same one.
// Prints medians of BENCH_ROUNDS (3) runs of each as one JSON line.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freeLoopbackPort } from '../src/platform/net/free-port.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)

/** Starts `opentill serve` on `dataDir`, waits for the banner's database line, stops it; answers the ms to banner. */
async function timedStart(dataDir: string): Promise<number> {
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
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
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
for (let i = 0; i < rounds; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'opentill-start-'))
  try {
    fresh.push(await timedStart(dir))
    second.push(await timedStart(dir))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
process.stdout.write(
  `${JSON.stringify({ freshStartMs: Math.round(median(fresh)), secondStartMs: Math.round(median(second)), fresh: fresh.map(Math.round), second: second.map(Math.round) })}\n`,
)
