/** Hands the browser a CSV the page made or fetched, as a file of that name. */
export function downloadCsv(text: string, filename: string): void {
  const link = document.createElement('a')
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/csv' }))
  link.download = filename
  link.click()
  URL.revokeObjectURL(link.href)
}
