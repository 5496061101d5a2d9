import { Html, html } from '../platform/http/html.ts'

export { Html, html }

const style = `
body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input[type=text],input[type=email],input[type=password],textarea{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{font:inherit;padding:.5rem 1rem;margin:.5rem .5rem 0 0;cursor:pointer}
.primary{background:#00703c;color:#fff;border:0;border-radius:4px}
.error{background:#fee;border:1px solid #c00;padding:.75rem;border-radius:4px}
.notice{background:#efe;border:1px solid #00703c;padding:.75rem;border-radius:4px}
code,.secret{font-family:ui-monospace,monospace;word-break:break-all}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}
nav a{margin-right:1rem}
fieldset{border:1px solid #ddd;margin:.75rem 0}
`

export function page(title: string, body: Html, options: { nav?: boolean; head?: Html; wide?: boolean } = {}): string {
  const nav = options.nav
    ? html`<nav aria-label="Dashboard"><a href="/dashboard">Back office</a><a href="/dashboard/apps">My apps</a><a href="/dashboard/connected">Connected apps</a><a href="/dashboard/reports">Reports</a></nav>`
    : ''
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · OpenTill</title><style>${new Html(style)}${options.wide ? new Html('body{max-width:64rem}') : ''}</style>${options.head ?? ''}</head>
<body><header>${nav}</header><main>${body}</main></body></html>`}`
}

export function hidden(name: string, value: string | undefined): Html {
  return value === undefined ? html`` : html`<input type="hidden" name="${name}" value="${value}">`
}
