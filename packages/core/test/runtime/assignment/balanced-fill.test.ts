import { expect } from 'chai'
import { fillBalanced, leastLoaded, minBy } from '../../../src/runtime/assignment/balanced-fill.js'
import type { Bin } from '../../../src/runtime/assignment/balanced-fill.js'
import { codeOf } from '../../state/helpers/expect-code.js'

interface TestBin extends Bin {
  readonly tasks: string[]
  readonly previous: string[]
}

const bin = (id: string, capacity: number, previous: string[] = []): TestBin => ({ id, capacity, tasks: [], previous })
const fill = (bins: TestBin[], tasks: string[], initial: (b: TestBin) => number = () => 0): void =>
  fillBalanced({
    bins,
    tasks,
    initialCount: initial,
    previousTasks: b => b.previous,
    choose: leastLoaded,
    place: (b, task) => b.tasks.push(task)
  })

describe('fillBalanced', () => {
  it('gives each bin capacity x floor(units / capacity) plus at most its capacity in extra units', () => {
    const bins = [bin('a', 1), bin('b', 2), bin('c', 3)]
    fill(
      bins,
      Array.from({ length: 10 }, (_, i) => `t${i}`)
    )
    const perThread = bins.map(b => b.tasks.length / b.capacity)
    for (const load of perThread) expect(load).to.be.within(1, 2)
    expect(bins.reduce((n, b) => n + b.tasks.length, 0)).to.equal(10)
  })

  it('lets previous owners keep their tasks up to their quota, extras included', () => {
    const bins = [bin('a', 1, ['t0', 't1', 't2', 't3']), bin('b', 1, ['t4', 't5', 't6']), bin('c', 1)]
    fill(bins, ['t0', 't1', 't2', 't3', 't4', 't5', 't6'])
    expect(bins[0]!.tasks).to.deep.equal(['t0', 't1', 't2'])
    expect(bins[1]!.tasks).to.deep.equal(['t4', 't5'])
    expect(bins[2]!.tasks).to.deep.equal(['t3', 't6'])
  })

  it('counts units already held toward the balance', () => {
    const bins = [bin('a', 1), bin('b', 1)]
    fill(bins, ['x', 'y', 'z'], b => (b.id === 'a' ? 3 : 0))
    expect(bins[0]!.tasks).to.deep.equal([])
    expect(bins[1]!.tasks).to.deep.equal(['x', 'y', 'z'])
  })

  it('falls back to the least loaded bin when held units exceed every quota', () => {
    const bins = [bin('a', 1), bin('b', 1)]
    fill(bins, ['x'], b => (b.id === 'a' ? 5 : 3))
    expect(bins[1]!.tasks).to.deep.equal(['x'])
  })

  it('fails with ILLEGAL_STATE when there is no bin for the tasks', () => {
    expect(codeOf(() => fill([], ['x']))).to.equal('ILLEGAL_STATE')
  })

  it('minBy compares keys element by element and keeps the first on ties', () => {
    expect(minBy(['a', 'b', 'c'], item => (item === 'a' ? [1, 2] : item === 'b' ? [1, 1] : [1, 1]))).to.equal('b')
  })
})
