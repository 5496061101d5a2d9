/**
 * The walls between domains (docs/architecture.md "Rules"), checked in CI by `npm run check:modules`.
 * Module and platform paths: src/modules/<domain>/…, src/platform/…
 */
const SALES = '(orders|payments|laybys|gift-cards|campaigns|loyalty|registers|tax|reports)'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-entered-through-index',
      comment: "A module is entered only through its index.ts: another module's files are its own business.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'platform-imports-no-module',
      comment: 'The platform is the machinery every domain shares; it knows no domain.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'modules-import-no-app-or-entry',
      comment:
        'Modules do not reach up into the web app, the tenders, the flows or the process entries that assemble them.',
      severity: 'error',
      from: { path: '^src/(modules|platform)/' },
      to: {
        path: '^src/(web/|tenders/|flows/|app\\.ts$|server\\.ts$|worker\\.ts$|cli\\.ts$|services\\.ts$|seed\\.ts$)',
      },
    },
    {
      name: 'flows-enter-modules-through-index',
      comment: "A flow composes modules through their index.ts: a module's files, its repo above all, are its own.",
      severity: 'error',
      from: { path: '^src/flows/' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'catalog-stock-identity-import-no-sales',
      comment: 'Catalog, stock and identity come before selling: they import nothing of sales.',
      severity: 'error',
      from: { path: '^src/modules/(catalog|inventory|locations|auth|oauth|orgs|partners)/' },
      to: { path: `^src/modules/${SALES}/` },
    },
    {
      name: 'no-module-cycles',
      comment: 'Modules depend on each other in one direction; a use case that needs two of them is a flow (src/flows).',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/', circular: true, pathNot: '^src/modules/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
