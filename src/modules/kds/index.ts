/** The kitchen display feed: orders as Server-Sent Events, one feed per process fanned out to every screen. */
export { compareCursors, type FeedCursor, formatCursor, parseCursor } from './feed-cursor.ts'
export { kdsRoutes } from './kds.routes.ts'
export { createKdsService, type KdsService } from './kds.service.ts'
