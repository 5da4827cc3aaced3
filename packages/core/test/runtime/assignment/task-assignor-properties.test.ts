import { expect } from 'chai'
import type { ClientInput } from '../../../src/runtime/assignment/client-state.js'
import { LATEST_OFFSET, UNKNOWN_OFFSET_SUM } from '../../../src/runtime/assignment/subscription-info.js'
import { assignTasks } from '../../../src/runtime/assignment/task-assignor.js'
import type { TaskAssignment, TaskAssignorConfig } from '../../../src/runtime/assignment/task-assignor.js'
import { seededRandom } from './assignment-helpers.js'

function checkInvariants(
  result: TaskAssignment,
  allTasks: string[],
  stateful: Set<string>,
  config: TaskAssignorConfig,
  label: string
): void {
  const clients = [...result.clients]
  for (const task of allTasks) {
    const owners = clients.filter(([, c]) => c.active.includes(task)).map(([id]) => id)
    expect(owners, `${label}: owners of ${task}`).to.have.length(1)
    const standbys = clients.filter(([, c]) => c.standby.includes(task)).map(([id]) => id)
    expect(standbys, `${label}: standby on the active's client for ${task}`).to.not.include(owners[0])
    expect(new Set(standbys).size, label).to.equal(standbys.length)
    const warm = clients.filter(([, c]) => c.warmups.includes(task)).length
    if (stateful.has(task)) {
      expect(standbys.length - warm, `${label}: standbys of ${task}`).to.equal(Math.min(config.numStandbyReplicas, clients.length - 1))
    } else {
      expect(standbys, `${label}: standbys of stateless ${task}`).to.deep.equal([])
    }
  }
  const warmups = clients.reduce((n, [, c]) => n + c.warmups.length, 0)
  expect(warmups, label).to.be.at.most(config.maxWarmupReplicas)
  for (const [, c] of clients) for (const task of c.warmups) expect(c.standby, label).to.include(task)
  const assigned = clients.flatMap(([, c]) => c.active)
  expect(assigned.length, label).to.equal(allTasks.length)
}

describe('assignTasks: randomized invariants', () => {
  it("assigns every task once as active, standbys on distinct clients other than the active's, warm-ups within budget", () => {
    const random = seededRandom(20240611)
    const pick = (n: number): number => Math.floor(random() * n)
    for (let round = 0; round < 300; round++) {
      const numClients = 1 + pick(6)
      const subtopologies = 1 + pick(3)
      const allTasks: string[] = []
      for (let s = 0; s < subtopologies; s++) for (let p = 0, n = 1 + pick(9); p < n; p++) allTasks.push(`${s}_${p}`)
      const stateful = new Set(allTasks.filter(() => random() < 0.6))
      const config: TaskAssignorConfig = { numStandbyReplicas: pick(4), acceptableRecoveryLag: 100, maxWarmupReplicas: 1 + pick(3) }
      const clients = new Map<string, ClientInput>()
      for (let c = 0; c < numClients; c++) {
        const lags = new Map<string, number>()
        const previousActive = new Set<string>()
        const previousStandby = new Set<string>()
        for (const task of allTasks) {
          const roll = random()
          if (roll < 0.15) previousActive.add(task)
          else if (roll < 0.3) previousStandby.add(task)
          if (stateful.has(task)) {
            const lagRoll = random()
            lags.set(task, previousActive.has(task) && lagRoll < 0.8 ? LATEST_OFFSET : lagRoll < 0.1 ? UNKNOWN_OFFSET_SUM : pick(400))
          }
        }
        clients.set(`client-${c}`, { capacity: 1 + pick(3), previousActive, previousStandby, lags })
      }
      const result = assignTasks({ clients, allTasks, statefulTasks: stateful, config })
      checkInvariants(result, allTasks, stateful, config, `round ${round}`)
    }
  })

  it('is stable: feeding an assignment back as the previous one changes nothing', () => {
    const random = seededRandom(7)
    const pick = (n: number): number => Math.floor(random() * n)
    for (let round = 0; round < 100; round++) {
      const allTasks: string[] = []
      for (let s = 0; s < 3; s++) for (let p = 0, n = 1 + pick(8); p < n; p++) allTasks.push(`${s}_${p}`)
      const stateful = new Set(allTasks.filter(task => !task.startsWith('1_')))
      const config: TaskAssignorConfig = { numStandbyReplicas: pick(3), acceptableRecoveryLag: 100, maxWarmupReplicas: 2 }
      const capacities = Array.from({ length: 1 + pick(5) }, () => 1 + pick(3))
      const fresh = new Map(
        capacities.map((capacity, i) => [
          `c${i}`,
          { capacity, previousActive: new Set<string>(), previousStandby: new Set<string>(), lags: new Map<string, number>() }
        ])
      )
      const first = assignTasks({ clients: fresh, allTasks, statefulTasks: stateful, config })
      const reported = new Map(
        [...first.clients].map(([id, c]) => [
          id,
          {
            capacity: fresh.get(id)!.capacity,
            previousActive: new Set(c.active),
            previousStandby: new Set(c.standby),
            lags: new Map([...c.standby.map(task => [task, 0] as const), ...c.active.map(task => [task, LATEST_OFFSET] as const)])
          }
        ])
      )
      const second = assignTasks({ clients: reported, allTasks, statefulTasks: stateful, config })
      expect(second.clients, `round ${round}`).to.deep.equal(first.clients)
      expect(second.probingRebalanceNeeded).to.equal(false)
    }
  })

  it('converges to a balanced assignment through probing rebalances after scaling out', () => {
    const stateful = Array.from({ length: 12 }, (_, p) => `0_${p}`)
    const config: TaskAssignorConfig = { numStandbyReplicas: 0, acceptableRecoveryLag: 100, maxWarmupReplicas: 2 }
    // Which client has (caught-up) state for which task: starts with all on a.
    const hasState = new Map<string, Set<string>>([
      ['a', new Set(stateful)],
      ['b', new Set()],
      ['c', new Set()]
    ])
    let previous = new Map<string, { active: readonly string[]; standby: readonly string[] }>([
      ['a', { active: stateful, standby: [] }],
      ['b', { active: [], standby: [] }],
      ['c', { active: [], standby: [] }]
    ])
    let rounds = 0
    for (; rounds < 20; rounds++) {
      const clients = new Map(
        [...previous].map(([id, prev]) => [
          id,
          {
            capacity: 1,
            previousActive: new Set(prev.active),
            previousStandby: new Set(prev.standby),
            lags: new Map(
              stateful.map(task => [task, prev.active.includes(task) ? LATEST_OFFSET : hasState.get(id)!.has(task) ? 0 : 50_000])
            )
          }
        ])
      )
      const result = assignTasks({ clients, allTasks: stateful, statefulTasks: new Set(stateful), config })
      checkInvariants(result, stateful, new Set(stateful), config, `rebalance ${rounds}`)
      // Every move is to a caught-up client: no active ever lands where state is missing.
      for (const [id, c] of result.clients)
        for (const task of c.active) expect(hasState.get(id)!.has(task), `rebalance ${rounds}: ${task} on ${id}`).to.equal(true)
      // Warm-ups catch up before the probing rebalance.
      for (const [id, c] of result.clients) for (const task of c.standby) hasState.get(id)!.add(task)
      previous = new Map([...result.clients].map(([id, c]) => [id, { active: c.active, standby: c.standby }]))
      if (!result.probingRebalanceNeeded) break
    }
    expect(rounds).to.be.within(1, 4)
    for (const [, c] of previous) expect(c.active).to.have.length(4)
  })
})
