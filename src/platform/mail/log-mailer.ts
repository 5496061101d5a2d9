import type { FastifyBaseLogger } from 'fastify'
import type { Mailer, MailMessage } from './mailer.ts'

/**
 * Without SMTP_URL a notice is a warning in the log (docs/decisions.md: "else the log and the dashboard"): its
 * recipient and subject, never its body, which may hold what only the recipient may read (an automation's e-mail
 * carries a voucher code, a customer's details) and would reach whoever reads the logs.
 */
export class LogMailer implements Mailer {
  readonly channel = 'log' as const

  constructor(private readonly log: FastifyBaseLogger) {}

  async send(message: MailMessage): Promise<void> {
    this.log.warn({ mail: { to: message.to, subject: message.subject } }, message.subject)
  }

  close(): void {}
}
