/** Reports: sales, payments, refunds, tax and discounts from aggregates kept in step by triggers; stock and balances. */
export { reportRoutes } from './reports.routes.ts'
export { createReportsService } from './reports.service.ts'
