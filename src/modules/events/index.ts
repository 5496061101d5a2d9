/** The events API: every outbox event of the org for 30 days, as webhook envelopes; older ones are deleted. */
export { purgeExpiredEvents, startEventRetention } from './events.jobs.ts'
export { eventRoutes } from './events.routes.ts'
export { createEventsService, type EventsService } from './events.service.ts'
/** The outbox's row and columns, for the kitchen feed that reads it too. */
export { type EventRow, eventColumns } from './events.tables.ts'
