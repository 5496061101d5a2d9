import { Link, Outlet, useRouterState } from '@tanstack/react-router'
import { Suspense, useEffect, useRef } from 'react'
import { useShop } from './shop.tsx'
import { strings } from './strings/index.ts'

const t = strings.nav

/** Every page's frame: a skip link, the store's name, the sections, sign-out. */
export function Layout() {
  const shop = useShop()
  const path = useRouterState({ select: (state) => state.location.pathname })
  // Another page: the focus goes to its heading, as a page load would start at the top.
  const first = useRef(true)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page's path changes, which it does not read
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    // The page's heading, or the page itself while it is still loading.
    const focusHeading = () =>
      (document.querySelector<HTMLElement>('main h1') ?? document.getElementById('main'))?.focus()
    requestAnimationFrame(focusHeading)
  }, [path])
  const links = [
    { to: '/', label: t.home },
    { to: '/sale', label: t.sale },
    { to: '/orders', label: t.orders },
    { to: '/items', label: t.items },
    { to: '/inventory', label: t.inventory },
    { to: '/registers', label: t.registers },
    { to: '/reports', label: t.reports },
  ] as const
  const more = [
    ...(shop.can('customers:read') ? [{ to: '/customers', label: t.customers } as const] : []),
    ...(shop.can('loyalty:read') ? [{ to: '/loyalty', label: t.loyalty } as const] : []),
    ...(shop.can('campaigns:read') ? [{ to: '/campaigns', label: t.campaigns } as const] : []),
    ...(shop.can('automations:read') ? [{ to: '/automations', label: t.automations } as const] : []),
    { to: '/gift-cards', label: t.giftCards } as const,
    ...(shop.can('users:read') ? [{ to: '/staff', label: t.staff } as const] : []),
    { to: '/settings', label: t.settings } as const,
    ...(shop.can('audit:read') ? [{ to: '/audit', label: t.audit } as const] : []),
    ...(shop.can('webhooks:write') ? [{ to: '/webhooks', label: t.webhooks } as const] : []),
    { to: '/developers', label: t.developers } as const,
  ]
  return (
    <>
      <a className="skip" href="#main">
        {t.skip}
      </a>
      <header className="top">
        <p className="store">{shop.name}</p>
        <nav aria-label={t.sections}>
          <ul>
            {links.map((l) => (
              <li key={l.to}>
                <Link to={l.to} activeOptions={{ exact: l.to === '/' }} activeProps={{ 'aria-current': 'page' }}>
                  {l.label}
                </Link>
              </li>
            ))}
            <li>
              {/* The people and the store's set-up: a second menu, open while one of its pages is. */}
              <details
                className="more"
                open={more.some((l) => path.replace(/^\/dashboard/, '').startsWith(l.to)) || undefined}
              >
                <summary>{t.more}</summary>
                <ul>
                  {more.map((l) => (
                    <li key={l.to}>
                      <Link to={l.to} activeProps={{ 'aria-current': 'page' }}>
                        {l.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          </ul>
        </nav>
        <form method="post" action="/logout" className="sign-out">
          <input type="hidden" name="csrf" value={shop.csrf} />
          <span className="who">{shop.email}</span>
          <button type="submit">{t.signOut}</button>
        </form>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p aria-busy="true">{strings.common.loading}</p>}>
          <Outlet />
        </Suspense>
      </main>
    </>
  )
}
