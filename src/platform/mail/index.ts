import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.ts'
import { LogMailer } from './log-mailer.ts'
import type { Mailer } from './mailer.ts'
import { SmtpMailer } from './smtp-mailer.ts'

export { LogMailer } from './log-mailer.ts'
export type { Mailer, MailMessage } from './mailer.ts'
export { SmtpMailer } from './smtp-mailer.ts'

/** SMTP when SMTP_URL is set, else the log. */
export function mailerFor(config: Config, log: FastifyBaseLogger): Mailer {
  return config.smtpUrl ? new SmtpMailer({ url: config.smtpUrl, from: config.mailFrom }) : new LogMailer(log)
}
export { type MailOutbox, queueMail, startMailOutbox } from './outbox.ts'
