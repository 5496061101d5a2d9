import { parseArgs } from 'node:util'
import { loadConfig, type Plan } from './config.ts'
import { migrate } from './platform/db/migrate.ts'
import { openRuntime } from './platform/runtime.ts'
import { serve } from './server.ts'
import { createServices } from './services.ts'

const usage = `usage: opentill <command> [options]
  serve                                  serve the API (what npm start runs)
  migrate                                apply pending database migrations
  create-org --name N --email E --password P [--plan starter|growth|pro|enterprise] [--currency USD]
On the embedded database, run commands other than serve while the server is stopped.`

const commands: Record<string, (args: string[]) => Promise<void>> = {
  async serve() {
    await serve(loadConfig())
  },

  async migrate() {
    const runtime = await openRuntime(loadConfig(), { migrate: false })
    try {
      const applied = await migrate(runtime.ownerUrl)
      process.stdout.write(`${JSON.stringify({ applied })}\n`)
    } finally {
      await runtime.close()
    }
  },

  async 'create-org'(args) {
    const { values } = parseArgs({
      args,
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        plan: { type: 'string', default: 'starter' },
        currency: { type: 'string', default: 'USD' },
      },
    })
    if (!values.name || !values.email || !values.password) throw new Error('create-org needs --name, --email and --password')
    if (!['starter', 'growth', 'pro', 'enterprise'].includes(values.plan!)) throw new Error('--plan must be starter, growth, pro or enterprise')
    const runtime = await openRuntime(loadConfig(), { migrate: true })
    try {
      const { org, owner } = await createServices(runtime).orgs.createOrg({
        name: values.name,
        email: values.email,
        password: values.password,
        plan: values.plan as Plan,
        currency: values.currency,
      })
      process.stdout.write(`${JSON.stringify({ orgId: org.id, userId: owner.id })}\n`)
    } finally {
      await runtime.close()
    }
  },
}

const [command, ...rest] = process.argv.slice(2)
const run = command ? commands[command] : undefined
if (!run) {
  process.stderr.write(`${usage}\n`)
  process.exit(command ? 2 : 0)
}
run(rest).catch((error: Error) => {
  process.stderr.write(`opentill ${command}: ${error.message}\n`)
  process.exit(1)
})
