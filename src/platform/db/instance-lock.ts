import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

function lockFile(dataDir: string): string {
  return join(resolve(dataDir), 'opentill.pid')
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The pid of the live `opentill serve` holding `dataDir`, if any. */
function holder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile(dataDir), 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined
  } catch {
    return undefined
  }
}

/**
 * One `opentill serve` per data directory: the lock is a pid file created exclusively. A file whose process is
 * gone (the server was killed) is taken over; a live one makes the second server refuse to start.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = lockFile(dataDir)
  mkdirSync(resolve(dataDir), { recursive: true })
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o644 })
      return {
        release() {
          if (holder(dataDir) === process.pid) unlinkSync(file)
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const pid = holder(dataDir)
      if (pid !== undefined) {
        throw new Error(
          `another OpenTill server (pid ${pid}) is serving ${resolve(dataDir)}; stop it first, or give this one its own DATA_DIR`,
        )
      }
      // Left by a server that was killed: remove it and try again (another starter may win the retry).
      try {
        unlinkSync(file)
      } catch {}
    }
  }
  throw new Error(`could not lock ${file}`)
}

lockDataDir.isHeld = (dataDir: string): boolean => holder(dataDir) !== undefined
