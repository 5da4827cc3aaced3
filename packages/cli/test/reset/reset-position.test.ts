/**
 * The reset positions' parsing, as Kafka's tool takes them: ISO-8601 durations as Java's
 * Duration.parse (DurationTest's accepted and rejected forms that apply), datetimes as Kafka's
 * Utils.getDateTime (local time unless a zone is given).
 */
import { expect } from 'chai'
import { parseDatetime, parseDuration, resetPosition } from '../../src/reset/reset-position.js'

describe('reset positions', () => {
  it('parses ISO-8601 durations as Java Duration.parse does', () => {
    const cases: Array<[string, number]> = [
      ['PT0S', 0],
      ['PT15M', 15 * 60_000],
      ['PT1H', 3_600_000],
      ['P1D', 86_400_000],
      ['P2DT3H4M', 2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000],
      ['PT1.5S', 1500],
      ['PT-1.5S', -1500],
      ['-PT6H', -6 * 3_600_000],
      ['pt10s', 10_000],
      ['PT-6H3M', -6 * 3_600_000 + 3 * 60_000]
    ]
    for (const [text, ms] of cases) expect(parseDuration(text), text).to.equal(ms)
    for (const bad of ['', 'P', 'PT', 'P1H', '1H', 'PT1', 'P1DT', 'PT1.S1']) expect(() => parseDuration(bad), bad).to.throw('--by-duration')
  })

  it('parses datetimes with and without a zone, and rejects what is not a date', () => {
    expect(parseDatetime('2024-03-01T12:30:15.250Z')).to.equal(Date.UTC(2024, 2, 1, 12, 30, 15, 250))
    expect(parseDatetime('2024-03-01T12:30:15.250+02:00')).to.equal(Date.UTC(2024, 2, 1, 10, 30, 15, 250))
    expect(parseDatetime('2024-03-01T12:30:15-0130')).to.equal(Date.UTC(2024, 2, 1, 14, 0, 15))
    expect(parseDatetime('2024-03-01T12:30:15.250')).to.equal(new Date(2024, 2, 1, 12, 30, 15, 250).getTime())
    expect(parseDatetime('2024-03-01T12:30:15.2Z')).to.equal(Date.UTC(2024, 2, 1, 12, 30, 15, 200))
    for (const bad of ['2024-03-01', '2024-13-01T00:00:00', '2023-02-29T00:00:00Z', '2024-03-01T24:00:00', 'yesterday'])
      expect(() => parseDatetime(bad), bad).to.throw('--to-datetime')
  })

  it('defaults to the earliest offsets and allows one position only', () => {
    const none = {
      toEarliest: false,
      toLatest: false,
      toOffset: undefined,
      shiftBy: undefined,
      toDatetime: undefined,
      byDuration: undefined
    }
    expect(resetPosition(none)).to.deep.equal({ kind: 'earliest' })
    expect(resetPosition({ ...none, shiftBy: -3 })).to.deep.equal({ kind: 'shift', by: -3 })
    expect(resetPosition({ ...none, byDuration: 'PT1M' })).to.deep.equal({ kind: 'duration', ms: 60_000 })
    expect(() => resetPosition({ ...none, toEarliest: true, toOffset: 4 })).to.throw('got --to-earliest and --to-offset')
  })
})
