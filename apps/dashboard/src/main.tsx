import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { startClient } from './api.ts'
import { router } from './router.tsx'
import { grant } from './session.ts'
import { ShopProvider } from './shop.tsx'
import { strings } from './strings/index.ts'
import 'uplot/dist/uPlot.min.css'
import './styles.css'

const queries = new QueryClient({
  defaultOptions: {
    // The API's own retries (503, a lost connection) are in the client; a 4xx is an answer, not a glitch.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 15_000 },
  },
})

const first = await grant()
startClient(first.api_url)
document.documentElement.lang = strings.language

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <Suspense fallback={<p aria-busy="true">{strings.common.loading}</p>}>
        <ShopProvider grant={first}>
          <RouterProvider router={router} />
        </ShopProvider>
      </Suspense>
    </QueryClientProvider>
  </StrictMode>,
)
