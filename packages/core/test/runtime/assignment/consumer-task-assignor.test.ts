import { expect } from 'chai'
import { assignTasksToConsumers } from '../../../src/runtime/assignment/consumer-task-assignor.js'
import type { ConsumerInput } from '../../../src/runtime/assignment/consumer-task-assignor.js'

function consumer(memberId: string, previousActive: string[] = [], previousStandby: string[] = []): ConsumerInput {
  return { memberId, previousActive: new Set(previousActive), previousStandby: new Set(previousStandby) }
}

describe('assignTasksToConsumers', () => {
  it('balances stateful and total active tasks over threads', () => {
    const stateful = new Set(['0_0', '0_1', '0_2', '0_3'])
    const result = assignTasksToConsumers(
      [consumer('t1'), consumer('t2'), consumer('t3')],
      ['0_0', '0_1', '0_2', '0_3', '1_0', '1_1', '1_2'],
      [],
      stateful
    )
    const counts = [...result.values()].map(tasks => tasks.active.length)
    const statefulCounts = [...result.values()].map(tasks => tasks.active.filter(task => stateful.has(task)).length)
    expect(Math.max(...counts) - Math.min(...counts)).to.be.at.most(1)
    expect(Math.max(...statefulCounts) - Math.min(...statefulCounts)).to.be.at.most(1)
    expect([...result.values()].flatMap(tasks => tasks.active).sort()).to.deep.equal(['0_0', '0_1', '0_2', '0_3', '1_0', '1_1', '1_2'])
  })

  it("keeps each thread's previous tasks", () => {
    const result = assignTasksToConsumers(
      [consumer('t1', ['0_3', '1_1'], ['0_0']), consumer('t2', ['0_1', '1_0'], ['0_2'])],
      ['0_1', '0_3', '1_0', '1_1'],
      ['0_0', '0_2'],
      new Set(['0_0', '0_1', '0_2', '0_3'])
    )
    expect(result.get('t1')).to.deep.equal({ active: ['0_3', '1_1'], standby: ['0_0'] })
    expect(result.get('t2')).to.deep.equal({ active: ['0_1', '1_0'], standby: ['0_2'] })
  })

  it('spreads the sub-topologies of new tasks over threads', () => {
    const result = assignTasksToConsumers(
      [consumer('t1'), consumer('t2')],
      ['0_0', '0_1', '1_0', '1_1'],
      [],
      new Set(['0_0', '0_1', '1_0', '1_1'])
    )
    for (const tasks of result.values()) {
      expect(tasks.active.map(task => task.split('_')[0]).sort()).to.deep.equal(['0', '1'])
    }
  })

  it('gives a new thread its share and leaves the rest in place', () => {
    const result = assignTasksToConsumers(
      [consumer('t1', ['1_0', '1_1', '1_2', '1_3']), consumer('t2')],
      ['1_0', '1_1', '1_2', '1_3'],
      [],
      new Set()
    )
    expect(result.get('t1')!.active).to.deep.equal(['1_0', '1_1'])
    expect(result.get('t2')!.active).to.deep.equal(['1_2', '1_3'])
  })

  it('puts standbys on the threads with the least total load', () => {
    const result = assignTasksToConsumers(
      [consumer('t1'), consumer('t2')],
      ['0_0', '0_1', '0_2'],
      ['1_0'],
      new Set(['0_0', '0_1', '0_2', '1_0'])
    )
    const load = [...result.values()].map(tasks => tasks.active.length + tasks.standby.length)
    expect(load).to.deep.equal([2, 2])
  })
})
