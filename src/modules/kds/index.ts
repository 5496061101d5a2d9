/** The kitchen display feed: orders as Server-Sent Events, one feed per process fanned out to every screen. */
export { kdsRoutes } from './kds.routes.ts'
export { createKdsService } from './kds.service.ts'
