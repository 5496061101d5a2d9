/** Reports: sales, payments, refunds, tax and discounts from aggregates kept in step by triggers; stock and balances. */
export { toCsv } from './csv.ts'
export { reportRoutes } from './reports.routes.ts'
export { createReportsService, type Report, type ReportsService } from './reports.service.ts'
