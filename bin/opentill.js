#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader in this very process, so the package needs no build step and the
// process a service manager starts is the one that serves: its SIGTERM reaches the server directly, and a
// kill -9 kills the server, not a wrapper that would leave it running.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
