import nodemailer, { type Transporter } from 'nodemailer'
import type { Mailer, MailMessage } from './mailer.ts'

interface SmtpOptions {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465 (TLS from the start). */
  url: string
  from: string
  /** Extra trusted CA (PEM) for the server's certificate, beside Node's store and NODE_EXTRA_CA_CERTS. */
  ca?: string
}

/** E-mail through an SMTP server, with nodemailer's pooled connection. */
export class SmtpMailer implements Mailer {
  readonly channel = 'email' as const
  private readonly transport: Transporter

  constructor(private readonly options: SmtpOptions) {
    this.transport = nodemailer.createTransport({
      url: options.url,
      // A notice is sent from a background worker: a hanging server must not hold it for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      ...(options.ca ? { tls: { ca: options.ca } } : {}),
    })
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    })
  }

  close(): void {
    this.transport.close()
  }
}
