/** An e-mail to one recipient, plain text (a receipt also as HTML): notices, not marketing. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html?: string
}

/**
 * The port every notice goes through. `channel` says where a message really ends up, so callers can tell the
 * recipient (and the dashboard) whether an e-mail went out or only the log has it.
 */
export interface Mailer {
  readonly channel: 'email' | 'log'
  /** Sends or records the message; rejects when an SMTP server refuses it. */
  send(message: MailMessage): Promise<void>
  close(): void
}
