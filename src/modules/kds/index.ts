/** The kitchen display feed: orders as Server-Sent Events, one feed per process fanned out to every screen. */
export { compareCursors, type FeedCursor, formatCursor, parseCursor } from './feed-cursor.ts'
export { KDS_EVENT_TYPES } from './kds.repo.ts'
export { kdsRoutes } from './kds.routes.ts'
export { createKdsService, type KdsOptions, type KdsService, kdsOptionsFromEnv } from './kds.service.ts'
