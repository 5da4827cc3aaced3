/**
 * The leak verdict of a life: medians of the window after the warm-up and of the last window;
 * growth beyond the limit fails, one spike does not, warm-up growth does not count, rising open
 * iterators fail, and a life too short for two windows is not judged.
 */
import { expect } from 'chai'
import { judgeLife, median, runFailures, type InstanceSample, type Life } from '../verdict.js'
import type { KindResult } from '../output-check.js'

const MiB = 1048576
const MINUTE = 60_000
const rule = { warmupMs: 2 * MINUTE, windowMs: MINUTE, maxGrowth: 0.1 }
const life: Life = { instance: 'A', life: 2, startMs: 0, endMs: 10 * MINUTE, ending: 'closed' }

/** A sample every 10 s of the life, RSS and heap from `mib(t)` (t in minutes), iterators from `iterators(t)`. */
function samples(mib: (minute: number) => number, iterators: (minute: number) => number = () => 0): InstanceSample[] {
  const list: InstanceSample[] = []
  for (let t = 0; t <= 10 * MINUTE; t += 10_000) {
    list.push({
      atMs: t,
      instance: 'A',
      life: 2,
      rss: mib(t / MINUTE) * 4 * MiB,
      heapUsed: mib(t / MINUTE) * MiB,
      heapTotal: 0,
      external: 0,
      arrayBuffers: 0,
      handles: 10,
      iterators: iterators(t / MINUTE),
      activeTasks: 2,
      standbyTasks: 0
    })
  }
  return list
}

describe('soak verdict', () => {
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).to.equal(2)
    expect(median([4, 1, 3, 2])).to.equal(2.5)
    expect(Number.isNaN(median([]))).to.equal(true)
  })

  it('passes memory that is flat after the warm-up, however much it grew during it', () => {
    const verdict = judgeLife(
      life,
      samples(t => (t < 2 ? 20 + 10 * t : 40)),
      rule
    )
    expect(verdict.notJudged).to.equal(undefined)
    expect(verdict.failures).to.deep.equal([])
    expect(verdict.heap).to.deep.equal({ baseline: 40 * MiB, end: 40 * MiB, growth: 0 })
    expect(verdict.first?.heapUsed).to.equal(20 * MiB)
  })

  it('fails RSS and heap that grow more than the limit between the baseline and the end, naming the life', () => {
    const verdict = judgeLife(
      life,
      samples(t => 40 + 1.5 * t),
      rule
    )
    expect(verdict.heap!.growth).to.be.closeTo((40 + 1.5 * 9.5 - (40 + 1.5 * 2.5)) / (40 + 1.5 * 2.5), 0.01)
    expect(verdict.failures).to.have.length(2)
    expect(verdict.failures[0]).to.match(/^A2: RSS grew 24\.6% \(/)
    expect(verdict.failures[1]).to.match(/^A2: heap grew 24\.6% \(/)
    expect(
      judgeLife(
        life,
        samples(t => 40 + 0.3 * t),
        rule
      ).failures
    ).to.deep.equal([])
  })

  it('is not moved by one spike in a window (medians)', () => {
    const verdict = judgeLife(
      life,
      samples(t => (t > 9.4 && t < 9.6 ? 400 : 40)),
      rule
    )
    expect(verdict.failures).to.deep.equal([])
  })

  it('fails open iterators that rose for good, not one that was open at one sample', () => {
    expect(
      judgeLife(
        life,
        samples(
          () => 40,
          t => (t > 9 ? 3 : 0)
        ),
        rule
      ).failures
    ).to.deep.equal(['A2: open RocksDB iterators rose from at most 0 to at least 3'])
    expect(
      judgeLife(
        life,
        samples(
          () => 40,
          t => (t > 9.5 && t < 9.6 ? 1 : 0)
        ),
        rule
      ).failures
    ).to.deep.equal([])
  })

  it('does not judge a life too short for a baseline and an end window after its warm-up', () => {
    const short = { ...life, endMs: 3.5 * MINUTE }
    const verdict = judgeLife(
      short,
      samples(t => 40 + 10 * t),
      rule
    )
    expect(verdict.notJudged).to.match(/lived 3\.5 min, under warm-up \+ 2 windows \(4\.0 min\)/)
    expect(verdict.failures).to.deep.equal([])
  })

  it('uses only the samples of its own life and time', () => {
    const others = samples(() => 400).map(s => ({ ...s, instance: 'B' }))
    const later = samples(() => 400).map(s => ({ ...s, atMs: s.atMs + 10 * MINUTE + 1 }))
    expect(judgeLife(life, [...samples(() => 40), ...others, ...later], rule).failures).to.deep.equal([])
  })

  it('the run fails on any output or life failure, and when no life was judged', () => {
    const judged = judgeLife(
      life,
      samples(() => 40),
      rule
    )
    const notJudged = judgeLife(
      { ...life, endMs: MINUTE },
      samples(() => 40),
      rule
    )
    const output = { failures: ['1 of 6 views have no enriched output'] } as unknown as KindResult
    expect(runFailures([], [judged, notJudged])).to.deep.equal([])
    expect(runFailures([output], [judged])).to.deep.equal(['1 of 6 views have no enriched output'])
    expect(runFailures([], [notJudged])[0]).to.match(/^no life of an instance lived long enough/)
  })
})
