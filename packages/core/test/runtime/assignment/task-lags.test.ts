import { expect } from 'chai'
import { LATEST_OFFSET, UNKNOWN_OFFSET_SUM } from '../../../src/runtime/assignment/subscription-info.js'
import { endOffsetSums, mergeOffsetSums, taskLags } from '../../../src/runtime/assignment/task-lags.js'

describe('task lags', () => {
  it('merges thread reports: running active wins, then the largest known sum, then unknown', () => {
    const merged = mergeOffsetSums([
      new Map([
        ['0_0', 5],
        ['0_1', UNKNOWN_OFFSET_SUM],
        ['0_2', 7],
        ['0_3', UNKNOWN_OFFSET_SUM]
      ]),
      new Map([
        ['0_0', LATEST_OFFSET],
        ['0_1', 3],
        ['0_2', 4],
        ['0_3', UNKNOWN_OFFSET_SUM]
      ])
    ])
    expect([...merged]).to.deep.equal([
      ['0_0', LATEST_OFFSET],
      ['0_1', 3],
      ['0_2', 7],
      ['0_3', UNKNOWN_OFFSET_SUM]
    ])
  })

  it("sums the end offsets of each task's changelog partitions", () => {
    const sums = endOffsetSums(
      new Map([
        [
          '0_1',
          [
            { topic: 'x', partition: 1 },
            { topic: 'y', partition: 1 }
          ]
        ]
      ]),
      new Map([
        ['x-1', 10],
        ['y-1', 32],
        ['x-0', 1000]
      ])
    )
    expect([...sums]).to.deep.equal([['0_1', 42]])
  })

  it('computes lag = end offset sum - offset sum, keeping the sentinels, and whole-changelog lag for unreported or corrupt state', () => {
    const lags = taskLags(
      new Map([
        ['0_0', 90],
        ['0_1', LATEST_OFFSET],
        ['0_2', UNKNOWN_OFFSET_SUM],
        ['0_4', 500]
      ]),
      ['0_0', '0_1', '0_2', '0_3', '0_4'],
      new Map([
        ['0_0', 100],
        ['0_1', 100],
        ['0_2', 100],
        ['0_3', 100],
        ['0_4', 100]
      ])
    )
    expect([...lags]).to.deep.equal([
      ['0_0', 10],
      ['0_1', LATEST_OFFSET],
      ['0_2', UNKNOWN_OFFSET_SUM],
      ['0_3', 100],
      ['0_4', 100]
    ])
  })

  it('treats every lag but a running active as unknown without end offsets', () => {
    const lags = taskLags(
      new Map([
        ['0_0', 5],
        ['0_1', LATEST_OFFSET]
      ]),
      ['0_0', '0_1', '0_2'],
      undefined
    )
    expect([...lags]).to.deep.equal([
      ['0_0', UNKNOWN_OFFSET_SUM],
      ['0_1', LATEST_OFFSET],
      ['0_2', UNKNOWN_OFFSET_SUM]
    ])
  })
})
