import PDFDocument from 'pdfkit'
import type { Block } from './receipt.layout.ts'
import type { Paper } from './render-html.ts'

const MM = 72 / 25.4
const FONT = 'Helvetica'
const BOLD = 'Helvetica-Bold'
const SIZE = 9
const LINE = 12

interface Page {
  size: 'A4' | [number, number]
  margin: number
  width: number
}

const ROLL_MARGIN = 4 * MM
/** A roll long enough for any receipt: the first pass measures where the printing ends. */
const ROLL_MAX = 14_400

/**
 * The receipt as a PDF, with the fonts every PDF reader has (no font file travels with it): on a roll 80 mm wide
 * and exactly as long as the receipt (drawn once to measure it), or on an A4 sheet in a column.
 */
export async function renderPdf(blocks: readonly Block[], o: { title: string; paper: Paper }): Promise<Buffer> {
  if (o.paper === 'a4') return (await draw(blocks, o.title, { size: 'A4', margin: 20 * MM, width: 120 * MM })).pdf
  const roll = (height: number): Page => ({ size: [80 * MM, height], margin: ROLL_MARGIN, width: 72 * MM })
  const measured = await draw(blocks, o.title, roll(ROLL_MAX))
  return (await draw(blocks, o.title, roll(Math.ceil(measured.end + ROLL_MARGIN)))).pdf
}

function draw(blocks: readonly Block[], title: string, page: Page): Promise<{ pdf: Buffer; end: number }> {
  const doc = new PDFDocument({ size: page.size, margin: page.margin, info: { Title: title }, compress: true })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  let end = 0
  const done = new Promise<{ pdf: Buffer; end: number }>((resolve, reject) => {
    doc.on('end', () => resolve({ pdf: Buffer.concat(chunks), end }))
    doc.on('error', reject)
  })
  const left = page.margin
  const width = page.width
  doc.fontSize(SIZE).font(FONT)
  for (const b of blocks) {
    if (b.kind === 'rule') {
      const y = doc.y + LINE / 3
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .dash(2, { space: 2 })
        .strokeColor('#555')
        .stroke()
        .undash()
      doc.y = y + LINE / 2
    } else if (b.kind === 'row') {
      const indent = b.indent ? 10 : 0
      const amountWidth = b.right ? doc.font(b.strong ? BOLD : FONT).widthOfString(b.right) + 6 : 0
      const y = doc.y
      doc.font(b.strong ? BOLD : FONT).text(b.left, left + indent, y, { width: width - indent - amountWidth })
      const after = doc.y
      // The amount beside the label's first line.
      if (b.right) doc.text(b.right, left, y, { width, align: 'right' })
      doc.y = Math.max(after, y + LINE)
    } else {
      doc
        .font(b.kind === 'title' ? BOLD : FONT)
        .fontSize(b.kind === 'title' ? SIZE + 3 : SIZE)
        .text(b.text, left, doc.y, { width, align: 'center', oblique: b.kind === 'note' })
      doc.fontSize(SIZE)
    }
  }
  end = doc.y
  doc.end()
  return done
}
