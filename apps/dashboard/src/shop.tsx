import { unwrap } from '@opentill/client'
import { useSuspenseQuery } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext } from 'react'
import { api } from './api.ts'
import { type Formatters, formatters } from './format.ts'
import type { Grant } from './session.ts'
import { strings } from './strings/index.ts'

/** What every page needs: the store's settings and locations, formatters in its currency and time zone, the scopes. */
export interface Shop {
  name: string
  currency: string
  timeZone: string
  locations: { id: string; name: string; timezone: string }[]
  fmt: Formatters
  email: string
  csrf: string
  can: (scope: string) => boolean
}

const ShopContext = createContext<Shop | null>(null)

export function ShopProvider({ grant, children }: { grant: Grant; children: ReactNode }) {
  const { data } = useSuspenseQuery({
    queryKey: ['shop'],
    queryFn: async () => {
      const [settings, locations] = await Promise.all([
        unwrap(api().GET('/api/v1/settings')),
        unwrap(api().GET('/api/v1/locations', { params: { query: { limit: 100 } } })),
      ])
      return { settings: settings.data, locations: locations.data }
    },
    staleTime: 5 * 60_000,
  })
  const shop: Shop = {
    name: data.settings.name,
    currency: data.settings.currency,
    timeZone: data.settings.timezone,
    locations: data.locations.map((l) => ({ id: l.id, name: l.name, timezone: l.timezone })),
    fmt: formatters({ currency: data.settings.currency, timeZone: data.settings.timezone, language: strings.language }),
    email: grant.email,
    csrf: grant.csrf,
    can: (scope) => grant.scopes.includes(scope),
  }
  return <ShopContext.Provider value={shop}>{children}</ShopContext.Provider>
}

export function useShop(): Shop {
  const shop = useContext(ShopContext)
  if (!shop) throw new Error('useShop outside the ShopProvider')
  return shop
}
