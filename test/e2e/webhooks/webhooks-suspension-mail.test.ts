import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import type { WebhookWorker } from '../../../src/modules/webhooks/index.ts'
import { LogMailer, SmtpMailer } from '../../../src/platform/mail/index.ts'
import { clientFor, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { HttpsReceiver } from '../../support/https-receiver.ts'
import { startSmtp } from '../../support/smtp.ts'
import { emitAs, RECEIVER_ENV, sleep, startTestWorker, subscriber } from '../../support/webhook-fixtures.ts'

describe("the owner's notice when an endpoint is suspended", () => {
  let app: TestApp
  let receiver: HttpsReceiver
  let worker: WebhookWorker
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  /** The token of the merchant whose endpoint the current test suspends. */
  let currentToken = ''

  before(async () => {
    receiver = await new HttpsReceiver().start()
    // The mail server looks the endpoint up while the message arrives: the suspension must already be committed.
    smtp = await startSmtp(async (mail) => {
      const endpoints = await clientFor(app.api, currentToken).get('/api/v1/webhooks/endpoints')
      mail.statusSeen = endpoints.body.data[0]?.status
    })
    app = await startTestApp({
      ...RECEIVER_ENV,
      SMTP_URL: smtp.url,
      SMTP_FROM: 'OpenTill <alerts@shop.test>',
      APP_URL: 'https://dashboard.shop.test',
    })
    worker = startTestWorker(app)
  })
  after(async () => {
    await worker.stop()
    await receiver.close()
    await smtp.close()
    await app.close()
  })

  async function failingSubscriber(path: string) {
    receiver.script(path, [], { status: 500 })
    const { merchant, api, hook } = await subscriber<{ id: string }>(app, receiver, path, ['order.created'])
    currentToken = merchant.token
    return { merchant, api, hook }
  }

  const emit = (m: Merchant, type: string, data: object) => emitAs(app, m, type, data)

  async function waitUntil(predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs
    while (!(await predicate())) {
      if (Date.now() > deadline) throw new Error('condition not met in time')
      await sleep(50)
    }
  }

  it('e-mails the owner once, by SMTP, after the suspension committed, and records it on the endpoint', async () => {
    const { merchant, api, hook } = await failingSubscriber('/down')
    for (let i = 0; i < 12; i++) await emit(merchant, 'order.created', { id: `ord_${i}` })
    await waitUntil(() => smtp.mails.length === 1)
    const [mail] = smtp.mails
    assert.deepEqual(mail.to, [merchant.email])
    assert.equal(mail.from, 'alerts@shop.test')
    assert.match(mail.raw, /Subject: Webhook endpoint suspended: https:\/\/localhost:\d+\/down/)
    assert.match(mail.raw, /10 consecutive events failed/)
    assert.match(mail.raw, /https:\/\/dashboard\.shop\.test\/dashboard\/webhooks/)
    assert.ok(mail.raw.includes(hook.id))
    assert.equal(mail.statusSeen, 'suspended')

    await waitUntil(async () => {
      const endpoint = (await api.get('/api/v1/webhooks/endpoints')).body.data[0]
      return endpoint.suspension_notified_by === 'email'
    })
    const endpoint = (await api.get('/api/v1/webhooks/endpoints')).body.data[0]
    assert.ok(endpoint.suspension_notified_at)
    await sleep(300)
    assert.equal(smtp.mails.length, 1)

    const enabled = await api.post(`/api/v1/webhooks/endpoints/${hook.id}/enable`)
    assert.equal(enabled.status, 200)
    assert.equal(enabled.body.data.suspension_notified_at, null)
    assert.equal(enabled.body.data.suspension_notified_by, null)
  })

  it('falls back to the log, and says so on the endpoint, when the SMTP server is unreachable', async () => {
    const lines: string[] = []
    const log = pino(
      { level: 'warn' },
      { write: (line: string) => void lines.push(line) },
    ) as unknown as FastifyBaseLogger
    await worker.stop()
    // Port 9 on loopback: nothing listens, the connection is refused at once.
    const broken = new SmtpMailer({ url: 'smtp://127.0.0.1:9', from: 'alerts@shop.test' })
    worker = startTestWorker(app, { mailer: broken, log })
    try {
      const { merchant, api } = await failingSubscriber('/down-too')
      for (let i = 0; i < 10; i++) await emit(merchant, 'order.created', { id: `ord_b${i}` })
      await waitUntil(async () => {
        const endpoint = (await api.get('/api/v1/webhooks/endpoints')).body.data[0]
        return endpoint.suspension_notified_by === 'log'
      })
      const logged = lines.map((l) => JSON.parse(l)).find((l) => /could not be sent/.test(l.msg))
      assert.ok(logged, 'the failed e-mail is logged')
      assert.equal(logged.orgId, merchant.orgId)
      assert.match(logged.text, /resume it and replay what failed on the Webhooks page/)
    } finally {
      broken.close()
    }
  })

  it("writes the notice's recipient and subject to the log when no SMTP server is configured, never its body", async () => {
    const lines: string[] = []
    const log = pino(
      { level: 'warn' },
      { write: (line: string) => void lines.push(line) },
    ) as unknown as FastifyBaseLogger
    await new LogMailer(log).send({
      to: 'owner@shop.test',
      subject: 'Webhook endpoint suspended: x',
      text: 'body with VCH-SECRET-CODE',
    })
    const [entry] = lines.map((l) => JSON.parse(l))
    assert.equal(entry.level, 40)
    assert.equal(entry.msg, 'Webhook endpoint suspended: x')
    assert.deepEqual(entry.mail, { to: 'owner@shop.test', subject: 'Webhook endpoint suspended: x' })
    // The body never reaches the log (it was written whole, codes and all, before).
    assert.doesNotMatch(lines.join('\n'), /VCH-SECRET-CODE|body with/)
  })
})
