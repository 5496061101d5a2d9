import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { returnLocation, safeReturnTo } from '../../src/web/security.ts'

const APP = 'https://app.shop.example'

describe('the return_to after sign-in', () => {
  it('keeps paths of this site, query and fragment included', () => {
    assert.equal(safeReturnTo('/dashboard/apps', APP), '/dashboard/apps')
    assert.equal(
      safeReturnTo('/oauth/authorize?client_id=abc&state=x%20y#top', APP),
      '/oauth/authorize?client_id=abc&state=x%20y#top',
    )
    // Encoded slashes stay a path on this site.
    assert.equal(safeReturnTo('/%2F%2Fevil.example', APP), '/%2F%2Fevil.example')
  })

  it('sends anything that could leave the site to the dashboard', () => {
    for (const attempt of [
      '//evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\u0000',
      // Dot segments resolve to a path that reads as another host (they answered 303 to //evil.example/x).
      '/.//evil.example/x',
      '/..//evil.example/x',
      '/%2e//evil.example/x',
      '/a/..//evil.example',
      'dashboard',
      '',
      42,
      undefined,
      `/${'a'.repeat(5000)}`,
    ]) {
      assert.equal(safeReturnTo(attempt, APP), '/dashboard', JSON.stringify(attempt))
    }
  })

  it('redirects to an absolute URL on APP_URL', () => {
    assert.equal(returnLocation('/dashboard/apps?x=1', APP), 'https://app.shop.example/dashboard/apps?x=1')
    assert.equal(returnLocation('/.//evil.example/x', APP), 'https://app.shop.example/dashboard')
  })
})
