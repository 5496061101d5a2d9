import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { neutralised } from '../../src/platform/http/csv.ts'

describe('a CSV cell a spreadsheet could run', () => {
  it('gets a leading quote when it starts like a formula', () => {
    for (const cell of ['=1+1', '+cmd', '-cola', '@SUM(A1)', '\t=x', '\r=x', '-', '+1-2', '=HYPERLINK("x")'])
      assert.equal(neutralised(cell), `'${cell}`, JSON.stringify(cell))
  })

  it('is left alone when it is text or a number, negative ones included', () => {
    for (const cell of ['Flat white', '', '12.50', '-12.50', '+3', '-7', 'a=b', "'quoted"])
      assert.equal(neutralised(cell), cell, JSON.stringify(cell))
  })
})
