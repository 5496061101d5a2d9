import { type components, unwrap } from '@opentill/client'
import { useQuery } from '@tanstack/react-query'
import { api } from '../api.ts'
import { ErrorNote } from './notes.tsx'

/** An order's receipt as the API prints it (text, 42 columns), read again whenever the order changes. */
export function ReceiptText({ order }: { order: components['schemas']['Order'] }) {
  const receipt = useQuery({
    queryKey: ['receipt', order.id, order.version],
    queryFn: async () =>
      (await unwrap(
        api().GET('/api/v1/orders/{id}/receipt', {
          params: { path: { id: order.id }, query: { format: 'text' } },
          parseAs: 'text',
        }),
      )) as unknown as string,
  })
  return (
    <>
      {receipt.data && <pre className="receipt">{receipt.data}</pre>}
      <ErrorNote error={receipt.error} />
    </>
  )
}
