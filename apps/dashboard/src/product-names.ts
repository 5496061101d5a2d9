import { unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { api } from './api.ts'

/** The names of products a page shows by id (stock levels, alerts, movements): one call for up to 100 of them. */
export function useProductNames(ids: string[]): Record<string, string> {
  const unique = [...new Set(ids)].sort().slice(0, 100)
  const { data } = useQuery({
    queryKey: ['product-names', unique],
    queryFn: async () => {
      const page = await unwrap(
        api().GET('/api/v1/products', { params: { query: { ids: unique.join(','), limit: 100 } } }),
      )
      return Object.fromEntries(page.data.map((p) => [p.id, p.name]))
    },
    enabled: unique.length > 0,
    staleTime: 60_000,
  })
  return data ?? {}
}
