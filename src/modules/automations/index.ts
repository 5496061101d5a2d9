/** Automations: rules (trigger, conditions, actions) run as durable DBOS workflows, with every run and step kept. */
export { type AutomationWorker, startAutomationWorker } from './automations.jobs.ts'
export { automationRoutes } from './automations.routes.ts'
export {
  type AutomationsService,
  createAutomationsService,
} from './automations.service.ts'
