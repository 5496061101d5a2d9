#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the package needs no build step. Signals reach the command (a service
// manager's SIGTERM must stop the server cleanly, and its embedded PostgreSQL with it).
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const tsx = require.resolve('tsx/cli')
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const child = spawn(process.execPath, [tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)))
