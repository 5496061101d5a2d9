/** The web app served on APP_PORT (consent screen, sign-in, dashboard). */
export { buildWebApp } from './web-app.ts'
