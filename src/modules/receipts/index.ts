/** Receipts of orders: HTML, text and PDF, and by e-mail; above the sales modules, which it reads through their indexes. */
export { receiptRoutes } from './receipts.routes.ts'
export { createReceiptsService } from './receipts.service.ts'
