/**
 * OutputCheck: complete output passes; a missing count, join pair or table-join output fails; so
 * does output that matches nothing produced; counts above the input and duplicates fail only
 * when the run must be exact (no SIGKILL under at-least-once).
 */
import { expect } from 'chai'
import { InputLedger } from '../input-ledger.js'
import { OutputCheck, type KindResult, type OutputKind } from '../output-check.js'
import { clickValue, keyOf, userValue, viewValue } from '../records.js'

const KEYS = 3
const CLICKS = 6

/** Six clicks 1 s apart (no two in one join window), keys k0 k1 k2 k0 k1 k2, all in count window 0. */
function ledger(): InputLedger {
  const l = new InputLedger(KEYS)
  for (let i = 0; i < CLICKS; i++) l.addClick(i * 1000)
  return l
}

type Out = [OutputKind, string, string]

/** The output a correct run gives for ledger(). */
function completeOutput(): Out[] {
  const out: Out[] = []
  for (let key = 0; key < KEYS; key++) out.push(['counts', keyOf(key, KEYS), '0:1'], ['counts', keyOf(key, KEYS), '0:2'])
  for (let seq = 0; seq < CLICKS; seq++) {
    const key = keyOf(seq, KEYS)
    out.push(['joined', key, `${clickValue(seq)}|${viewValue(seq)}`])
    out.push(['enriched', key, `${viewValue(seq)}|${userValue(key, 0)}`])
  }
  return out
}

function check(output: readonly Out[], exact = true): KindResult[] {
  const outputCheck = new OutputCheck(ledger(), exact)
  for (const [kind, key, value] of output) outputCheck.add(kind, key, value)
  return outputCheck.result()
}

const failures = (results: readonly KindResult[]): string[] => results.flatMap(r => r.failures)
const without = (output: readonly Out[], value: string): Out[] => output.filter(([, , v]) => v !== value)

describe('OutputCheck', () => {
  it('passes complete output, and counts what it read and expected', () => {
    const results = check(completeOutput())
    expect(failures(results)).to.deep.equal([])
    expect(results.map(r => [r.kind, r.records, r.expected])).to.deep.equal([
      ['counts', 6, 3],
      ['joined', 6, 6],
      ['enriched', 6, 6]
    ])
  })

  it('fails a count window below the clicks produced in it (the highest count read counts)', () => {
    const results = check(without(completeOutput(), '0:2').concat([['counts', 'k0', '0:2']]))
    expect(results[0]!.missing).to.equal(2)
    expect(failures(results)).to.deep.equal(['2 of 3 count windows below the clicks produced in them'])
  })

  it('fails a missing join pair and a view without table-join output', () => {
    const results = check(without(without(completeOutput(), 'c4|v4'), 'v1|k1#0'))
    expect(failures(results)).to.deep.equal(['1 of 6 join pairs have no joined output', '1 of 6 views have no enriched output'])
    expect(results[1]!.examples).to.deep.equal(['c4|v4 missing'])
  })

  it('fails output that matches nothing produced: a pair out of the window, a wrong key, a wrong user, a count of no window', () => {
    const results = check(
      completeOutput().concat([
        ['joined', 'k0', 'c0|v3'],
        ['joined', 'k1', 'c0|v0'],
        ['enriched', 'k1', 'v1|k2#0'],
        ['enriched', 'k0', 'garbage'],
        ['counts', 'k0', '10000:1']
      ])
    )
    expect(results.map(r => r.unexpected)).to.deep.equal([1, 2, 2])
    expect(failures(results)).to.have.length(3)
  })

  it('allows counts above the input and duplicates unless the run must be exact', () => {
    const output = completeOutput().concat([
      ['counts', 'k0', '0:3'],
      ['joined', 'k0', 'c0|v0'],
      ['enriched', 'k0', `v0|${userValue('k0', 0)}`]
    ])
    const atLeastOnce = check(output, false)
    expect(failures(atLeastOnce)).to.deep.equal([])
    expect(atLeastOnce.map(r => r.over + r.duplicated)).to.deep.equal([1, 1, 1])
    expect(failures(check(output, true))).to.deep.equal([
      '1 of 3 count windows above the clicks produced in them',
      '1 join pairs output more than once',
      '1 views output more than once'
    ])
  })
})
