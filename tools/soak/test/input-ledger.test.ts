/** InputLedger: the expected counts per key and window, and the join pairs within the join window. */
import { expect } from 'chai'
import { InputLedger } from '../input-ledger.js'
import { COUNT_WINDOW_MS, JOIN_WINDOW_MS, VIEW_DELAY_MS } from '../records.js'

function pairs(ledger: InputLedger): string[] {
  const found: string[] = []
  ledger.forEachExpectedPair((click, view) => found.push(`${click}-${view}`))
  return found.sort()
}

describe('InputLedger', () => {
  it('counts the clicks of each key per count window', () => {
    const ledger = new InputLedger(2)
    for (const time of [0, 1, COUNT_WINDOW_MS - 1, COUNT_WINDOW_MS, 3 * COUNT_WINDOW_MS]) ledger.addClick(time)
    // Keys go round: seq 0, 2, 4 -> k0 (at 0, COUNT_WINDOW_MS - 1, 3 x COUNT_WINDOW_MS); 1, 3 -> k1.
    const counts = ledger.expectedCounts()
    expect([...counts.keys()]).to.deep.equal(['k0', 'k1'])
    expect([...counts.get('k0')!]).to.deep.equal([
      [0, 2],
      [3 * COUNT_WINDOW_MS, 1]
    ])
    expect([...counts.get('k1')!]).to.deep.equal([
      [0, 1],
      [COUNT_WINDOW_MS, 1]
    ])
  })

  it('pairs each click with its own view, and with the views of its key within the join window on both sides', () => {
    // One key: every click may join every view. View n is at click n + VIEW_DELAY_MS.
    for (const gap of [0, 1]) {
      const ledger = new InputLedger(1)
      // Click 2 is exactly JOIN_WINDOW_MS after view 1 (a pair), or 1 ms more (none).
      const times = [0, 50, 50 + VIEW_DELAY_MS + JOIN_WINDOW_MS + gap, 1000]
      for (const time of times) ledger.addClick(time)
      const expected: string[] = []
      for (let click = 0; click < times.length; click++) {
        for (let view = 0; view < times.length; view++) {
          if (Math.abs(times[click]! - (times[view]! + VIEW_DELAY_MS)) <= JOIN_WINDOW_MS) expected.push(`${click}-${view}`)
        }
      }
      expect(pairs(ledger)).to.deep.equal(expected.sort())
      expect(pairs(ledger)).to.include.members(['0-0', '0-1', '1-0', '1-1', '2-2', '3-3'])
      if (gap === 0) expect(pairs(ledger)).to.include('2-1')
      else expect(pairs(ledger)).not.to.include('2-1')
    }
  })

  it('pairs only within a key', () => {
    const ledger = new InputLedger(2)
    for (let i = 0; i < 6; i++) ledger.addClick(i)
    expect(pairs(ledger).every(pair => Number(pair.split('-')[0]) % 2 === Number(pair.split('-')[1]) % 2)).to.equal(true)
    expect(pairs(ledger)).to.have.length(18)
  })
})
