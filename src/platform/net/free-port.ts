import { createServer } from 'node:net'

/** A loopback port nothing listens on now (the kernel's pick); the caller binds it soon after. */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}
