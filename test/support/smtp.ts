import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
  /** What the test saw while the mail was being received (set by `onMail`). */
  statusSeen?: string
}

/** A plain SMTP server on 127.0.0.1 that keeps every message it is given. */
export async function startSmtp(onMail?: (mail: ReceivedMail) => Promise<void>) {
  const mails: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          // Undo quoted-printable soft line breaks, so tests match whole sentences.
          raw: Buffer.concat(chunks).toString('utf8').replace(/=\r\n/g, ''),
        }
        await onMail?.(mail)
        mails.push(mail)
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

export type Smtp = Awaited<ReturnType<typeof startSmtp>>
