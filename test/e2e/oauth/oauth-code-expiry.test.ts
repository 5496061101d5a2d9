import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant } from '../../support/harness.ts'
import { authorizeUrl, Browser, type ListeningApps, startListeningApps } from '../../support/web.ts'

const REDIRECT = 'https://partner.example/callback'

describe('authorization codes expire', () => {
  let apps: ListeningApps
  before(async () => {
    apps = await startListeningApps({ AUTH_CODE_TTL_S: '1' })
  })
  after(() => apps.close())

  it('refuses a code after AUTH_CODE_TTL_S', async () => {
    const merchant = await createMerchant(apps.app)
    const ctx = systemContext(apps.app.runtime.database, merchant.orgId, MERCHANT_SCOPES)
    const { app, clientSecret } = await apps.app.services.oauth.apps.create(ctx, {
      name: 'Slow App',
      redirectUris: [REDIRECT],
    })
    const browser = new Browser(apps.appUrl)
    await browser.signIn(merchant.email, merchant.password)
    const callback = await browser.consent(
      authorizeUrl(apps.appUrl, {
        response_type: 'code',
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        scope: 'catalog:read',
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const res = await clientFor(apps.app.api).post('/api/v1/oauth/token', {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code'),
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: clientSecret,
    })
    assert.equal(res.status, 400)
    assert.equal(res.body.error, 'invalid_grant')
    assert.match(res.body.error_description, /expired/)
  })
})
