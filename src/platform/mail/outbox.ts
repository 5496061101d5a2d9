import type { FastifyBaseLogger } from 'fastify'
import { newId } from '../crypto/ids.ts'
import { rowBinding, type SecretBox } from '../crypto/secret-box.ts'
import type { Database, Queryable } from '../db/database.ts'
import { type Poller, startPoller } from '../queue/poller.ts'
import type { Mailer, MailMessage } from './mailer.ts'

const TABLE = 'mail_outbox'
const POLL_MS = 2_000
const BATCH = 20
/** Longer than an SMTP exchange takes; a worker that dies while sending leaves the mail to another after this. */
const LEASE_S = 120
/** After this many failed sends the mail is dropped (and logged): an address the server refuses stays refused. */
const MAX_ATTEMPTS = 10

/**
 * Queues an e-mail in the caller's transaction (db/migrations/0139): it is sent only if the change that asked for
 * it commits, and a crash after the commit does not lose it. The body holds single-use links, so it is sealed.
 */
export async function queueMail(q: Queryable, secrets: SecretBox, orgId: string, message: MailMessage): Promise<void> {
  const id = newId('mail')
  const binding = rowBinding(TABLE, orgId, id)
  await q.query(
    'INSERT INTO mail_outbox (id, org_id, to_address, subject, body_sealed, html_sealed) VALUES ($1, $2, $3, $4, $5, $6)',
    [
      id,
      orgId,
      message.to,
      message.subject,
      secrets.seal(message.text, binding),
      message.html === undefined ? null : secrets.seal(message.html, binding),
    ],
  )
}

interface QueuedMail {
  id: string
  org_id: string
  to_address: string
  subject: string
  body_sealed: string
  html_sealed: string | null
  attempts: number
}

interface MailOutboxOptions {
  database: Database
  secrets: SecretBox
  mailer: Mailer
  log: FastifyBaseLogger
  pollMs?: number
}

/** Sends one claimed batch; answers whether a full batch was claimed (more may wait). */
async function sendBatch({ database, secrets, mailer, log }: MailOutboxOptions): Promise<boolean> {
  const claimed = await database.unscoped(async (q) => {
    const result = await q.query<QueuedMail>('SELECT * FROM mail_outbox_claim($1, $2)', [LEASE_S, BATCH])
    return result.rows
  })
  for (const mail of claimed) {
    const { org_id: orgId, id } = mail
    try {
      const binding = rowBinding(TABLE, orgId, id)
      const text = secrets.open(mail.body_sealed, binding)
      const html = mail.html_sealed === null ? undefined : secrets.open(mail.html_sealed, binding)
      await mailer.send({ to: mail.to_address, subject: mail.subject, text, ...(html ? { html } : {}) })
    } catch (error) {
      if (mail.attempts < MAX_ATTEMPTS) {
        log.warn({ err: error, orgId, mailId: id, attempt: mail.attempts }, 'an e-mail could not be sent; retrying')
        continue
      }
      log.error({ err: error, orgId, mailId: id, to: mail.to_address }, `e-mail dropped after ${MAX_ATTEMPTS} tries`)
    }
    await database.transaction(orgId, (q) =>
      q.query('DELETE FROM mail_outbox WHERE org_id = $1 AND id = $2', [orgId, id]),
    )
  }
  return claimed.length === BATCH
}

export type MailOutbox = Poller

/** The worker that sends what `queueMail` queued: SMTP when SMTP_URL is set, else the log (recipient and subject). */
export function startMailOutbox(options: MailOutboxOptions): MailOutbox {
  return startPoller({
    intervalMs: options.pollMs ?? POLL_MS,
    tick: () => sendBatch(options),
    onError: (error) => options.log.error({ err: error }, 'sending queued e-mails failed'),
  })
}
