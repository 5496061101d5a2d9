/** The events API: every outbox event of the org for 30 days, as webhook envelopes; older ones are deleted. */
export { toEnvelope } from './envelope.ts'
export { purgeExpiredEvents, startEventRetention } from './events.jobs.ts'
export { eventRoutes } from './events.routes.ts'
export { createEventsService, type EventsService } from './events.service.ts'
