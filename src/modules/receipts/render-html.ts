import { Html, html } from '../../platform/http/html.ts'
import type { Block } from './receipt.layout.ts'

export const PAPERS = ['80mm', 'a4'] as const
export type Paper = (typeof PAPERS)[number]

/** Print CSS for a roll of 80 mm (the page as long as the receipt) or an A4 sheet; on screen, a narrow column. */
const PAGE: Record<Paper, string> = {
  '80mm': '@page { size: 80mm auto; margin: 4mm } @media print { main { width: 72mm; } }',
  a4: '@page { size: A4; margin: 20mm } @media print { main { width: 100%; max-width: 120mm; } }',
}

const STYLE = `
  :root { color-scheme: light; }
  body { margin: 0; background: #f4f4f4; color: #111; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
  main { box-sizing: border-box; width: min(100%, 380px); margin: 0 auto; padding: 16px; background: #fff; }
  h1 { font-size: 18px; margin: 0 0 4px; text-align: center; }
  p { margin: 0; text-align: center; }
  p.note { font-style: italic; margin: 8px 0; }
  hr { border: 0; border-top: 1px dashed #555; margin: 8px 0; }
  table { width: 100%; border-collapse: collapse; }
  td { padding: 1px 0; vertical-align: top; }
  td.amount { text-align: right; white-space: nowrap; padding-left: 12px; font-variant-numeric: tabular-nums; }
  tr.indent td:first-child { padding-left: 14px; color: #333; }
  tr.strong td { font-weight: 700; }
  @media print { body { background: #fff; } main { padding: 0; margin: 0; } }
`

/** The receipt as a page of its own: no script, no remote asset; the browser's print dialog prints it. */
export function renderHtml(blocks: readonly Block[], o: { language: string; title: string; paper: Paper }): string {
  const body: Html[] = []
  let rows: Html[] = []
  const flush = () => {
    if (rows.length) body.push(html`<table>${rows}</table>`)
    rows = []
  }
  for (const b of blocks) {
    if (b.kind === 'row') {
      const cls = [b.indent ? 'indent' : '', b.strong ? 'strong' : ''].filter(Boolean).join(' ')
      rows.push(html`<tr class="${cls}"><td>${b.left}</td><td class="amount">${b.right}</td></tr>`)
      continue
    }
    flush()
    if (b.kind === 'rule') body.push(html`<hr>`)
    else if (b.kind === 'title') body.push(html`<h1>${b.text}</h1>`)
    else body.push(html`<p class="${b.kind}">${b.text}</p>`)
  }
  flush()
  return html`<!doctype html>
<html lang="${o.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title}</title>
<style>${new Html(STYLE + PAGE[o.paper])}</style>
</head>
<body><main>${body}</main></body>
</html>
`.value
}
