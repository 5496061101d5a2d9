import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pino from 'pino'
import { type MailOutbox, SmtpMailer, startMailOutbox } from '../../../src/platform/mail/index.ts'
import { eventually } from '../../support/eventually.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { signIn } from '../../support/people.ts'
import { type Smtp, startSmtp } from '../../support/smtp.ts'

/** The one link of a mail to `to`, read back from the test SMTP server. */
async function linkMailedTo(smtp: Smtp, to: string, path: string): Promise<string> {
  const mail = await eventually(async () => {
    const found = smtp.mails.find((m) => m.to.includes(to) && m.raw.includes(path))
    assert.ok(found, `no mail to ${to} yet`)
    return found
  })
  smtp.mails.splice(smtp.mails.indexOf(mail), 1)
  return new RegExp(`https?://[^\\s]+${path}[A-Za-z0-9_-]+`).exec(mail.raw)![0]
}

describe('passwords: change with the current one, reset by e-mail', () => {
  let app: TestApp
  let smtp: Smtp
  let outbox: MailOutbox
  let merchant: Merchant

  before(async () => {
    smtp = await startSmtp()
    app = await startTestApp({ SMTP_URL: smtp.url, APP_URL: 'https://app.shop.test' })
    outbox = startMailOutbox({
      database: app.runtime.database,
      secrets: app.runtime.secrets,
      mailer: new SmtpMailer({ url: smtp.url, from: 'OpenTill <no-reply@shop.test>' }),
      log: pino({ level: 'silent' }),
      pollMs: 50,
    })
    merchant = await createMerchant(app)
  })
  after(async () => {
    await outbox.stop()
    await app.close()
    await smtp.close()
  })

  it('changes a password with the current one; the other sessions end, this one stays', async () => {
    const other = await signIn(app, merchant.email, merchant.password)
    const api = clientFor(app.api, merchant.token)
    const wrong = await api.post('/api/v1/auth/password', {
      current_password: 'not it',
      new_password: 'a new long passphrase',
    })
    assert.equal(wrong.status, 422)
    assert.deepEqual([wrong.body.errors[0].field, wrong.body.errors[0].code], ['current_password', 'incorrect'])
    const common = await api.post('/api/v1/auth/password', {
      current_password: merchant.password,
      new_password: 'qwertyuiop',
    })
    assert.deepEqual(
      [common.status, common.body.errors[0].field, common.body.errors[0].code],
      [422, 'new_password', 'too_common'],
    )
    const short = await api.post('/api/v1/auth/password', {
      current_password: merchant.password,
      new_password: 'short',
    })
    assert.equal(short.body.errors[0].code, 'too_short')

    const changed = await api.post('/api/v1/auth/password', {
      current_password: merchant.password,
      new_password: 'a new long passphrase',
    })
    assert.equal(changed.status, 204)
    assert.equal((await other.api.get('/api/v1/orders')).status, 401)
    assert.equal((await api.get('/api/v1/orders')).status, 200)
    const old = await clientFor(app.api).post('/api/v1/auth/login', {
      email: merchant.email,
      password: merchant.password,
    })
    assert.equal(old.status, 401)
    merchant.password = 'a new long passphrase'
    await signIn(app, merchant.email, merchant.password)
  })

  it('answers a reset request the same for a registered and an unknown address, and mails only the first', async () => {
    const anonymous = clientFor(app.api)
    const known = await anonymous.post('/api/v1/auth/password-reset', { email: merchant.email })
    const unknown = await anonymous.post('/api/v1/auth/password-reset', { email: 'nobody@nowhere.example' })
    assert.deepEqual([known.status, unknown.status], [202, 202])
    assert.equal(known.body, unknown.body)
    const link = await linkMailedTo(smtp, merchant.email, '/reset-password/')
    assert.ok(link.startsWith('https://app.shop.test/reset-password/pwr_'))
    // Mail goes out in the order it was queued: once a later request's mail is here, nothing went to the unknown one.
    const later = await createMerchant(app)
    await anonymous.post('/api/v1/auth/password-reset', { email: later.email })
    await linkMailedTo(smtp, later.email, '/reset-password/')
    assert.ok(!smtp.mails.some((m) => m.to.includes('nobody@nowhere.example')))
    const session = await signIn(app, merchant.email, merchant.password)

    const token = link.split('/').pop()!
    const done = await anonymous.post('/api/v1/auth/password-reset/confirm', {
      token,
      password: 'reset long passphrase',
    })
    assert.equal(done.status, 204)
    // Every session ended; the link works once.
    assert.equal((await session.api.get('/api/v1/orders')).status, 401)
    assert.equal(
      (await clientFor(app.api).post('/api/v1/auth/refresh', { refreshToken: session.refreshToken })).status,
      401,
    )
    const twice = await anonymous.post('/api/v1/auth/password-reset/confirm', {
      token,
      password: 'another long passphrase',
    })
    assert.equal(twice.status, 422)
    assert.deepEqual([twice.body.errors[0].field, twice.body.errors[0].code], ['token', 'invalid_reset'])
    merchant.password = 'reset long passphrase'
    await signIn(app, merchant.email, merchant.password)
    const audit = await clientFor(app.api, (await signIn(app, merchant.email, merchant.password)).accessToken).get(
      `/api/v1/audit-log?record_id=${merchant.userId}`,
    )
    assert.deepEqual(
      audit.body.data.map((e: { action: string }) => e.action),
      ['user.password_reset', 'user.password_changed'],
    )
  })

  it('keeps only the latest link of an address working', async () => {
    const anonymous = clientFor(app.api)
    const owner = await createMerchant(app)
    await anonymous.post('/api/v1/auth/password-reset', { email: owner.email })
    const first = await linkMailedTo(smtp, owner.email, '/reset-password/')
    await anonymous.post('/api/v1/auth/password-reset', { email: owner.email })
    const second = await linkMailedTo(smtp, owner.email, '/reset-password/')
    const stale = await anonymous.post('/api/v1/auth/password-reset/confirm', {
      token: first.split('/').pop(),
      password: 'first long passphrase',
    })
    assert.equal(stale.status, 422)
    const fresh = await anonymous.post('/api/v1/auth/password-reset/confirm', {
      token: second.split('/').pop(),
      password: 'second long passphrase',
    })
    assert.equal(fresh.status, 204)
  })

  it('limits reset requests per e-mail, registered or not', async () => {
    const anonymous = clientFor(app.api)
    const statuses = []
    for (let i = 0; i < 5; i++)
      statuses.push((await anonymous.post('/api/v1/auth/password-reset', { email: 'flood@nowhere.example' })).status)
    assert.deepEqual(statuses.slice(0, 3), [202, 202, 202])
    assert.equal(statuses.at(-1), 429)
  })
})
