import { expect } from 'chai'
import type { ClientInput } from '../../../src/runtime/assignment/client-state.js'
import { LATEST_OFFSET, UNKNOWN_OFFSET_SUM } from '../../../src/runtime/assignment/subscription-info.js'
import { assignTasks } from '../../../src/runtime/assignment/task-assignor.js'
import type { TaskAssignment, TaskAssignorConfig } from '../../../src/runtime/assignment/task-assignor.js'

const defaults: TaskAssignorConfig = { numStandbyReplicas: 0, acceptableRecoveryLag: 100, maxWarmupReplicas: 2 }

interface ClientSpec {
  capacity?: number
  active?: string[]
  standby?: string[]
  lags?: Record<string, number>
}

function client(spec: ClientSpec = {}): ClientInput {
  return {
    capacity: spec.capacity ?? 1,
    previousActive: new Set(spec.active ?? []),
    previousStandby: new Set(spec.standby ?? []),
    lags: new Map(Object.entries(spec.lags ?? {}))
  }
}

function tasks(subtopology: number, count: number): string[] {
  return Array.from({ length: count }, (_, p) => `${subtopology}_${p}`)
}

function run(
  clients: Record<string, ClientSpec>,
  all: string[],
  stateful: string[],
  config: Partial<TaskAssignorConfig> = {}
): TaskAssignment {
  return assignTasks({
    clients: new Map(Object.entries(clients).map(([id, spec]) => [id, client(spec)])),
    allTasks: all,
    statefulTasks: new Set(stateful),
    config: { ...defaults, ...config }
  })
}

const activeOf = (result: TaskAssignment, id: string): readonly string[] => result.clients.get(id)!.active
const standbyOf = (result: TaskAssignment, id: string): readonly string[] => result.clients.get(id)!.standby
const warmupsOf = (result: TaskAssignment, id: string): readonly string[] => result.clients.get(id)!.warmups

/** Lags as clients report them after `result`: actives running, standbys at `standbyLag`. */
function reportFrom(result: TaskAssignment, stateful: string[], standbyLag = 0): Record<string, ClientSpec> {
  const specs: Record<string, ClientSpec> = {}
  for (const [id, assigned] of result.clients) {
    const lags: Record<string, number> = {}
    for (const task of stateful) lags[task] = 1_000_000
    for (const task of assigned.standby) lags[task] = standbyLag
    for (const task of assigned.active) lags[task] = LATEST_OFFSET
    specs[id] = { active: [...assigned.active], standby: [...assigned.standby], lags }
  }
  return specs
}

describe('assignTasks (high-availability task assignor)', () => {
  describe('balance', () => {
    it('spreads tasks over clients in proportion to their threads', () => {
      const all = tasks(0, 12)
      const result = run({ a: { capacity: 1 }, b: { capacity: 2 }, c: { capacity: 3 } }, all, all)
      expect(activeOf(result, 'a')).to.have.length(2)
      expect(activeOf(result, 'b')).to.have.length(4)
      expect(activeOf(result, 'c')).to.have.length(6)
    })

    it('keeps active tasks per thread within one of each other, stateful and stateless together', () => {
      for (let processes = 1; processes <= 5; processes++) {
        for (let threads = 1; threads <= 3; threads++) {
          for (const mixed of [false, true]) {
            const clients: Record<string, ClientSpec> = {}
            for (let i = 0; i < processes; i++) clients[`c${i}`] = { capacity: mixed ? 1 + (i % 3) : threads }
            const stateful = [...tasks(0, 7), ...tasks(2, 4)]
            const all = [...stateful, ...tasks(1, 5)]
            const result = run(clients, all, stateful)
            const perThread = Object.entries(clients).map(([id, spec]) => activeOf(result, id).length / spec.capacity!)
            const floor = Math.floor(all.length / Object.values(clients).reduce((n, spec) => n + spec.capacity!, 0))
            for (const load of perThread)
              expect(load).to.be.within(floor, floor + 1, `${processes} processes x ${threads} threads (mixed ${String(mixed)})`)
          }
        }
      }
    })

    it('assigns every task exactly once as active', () => {
      const all = [...tasks(0, 5), ...tasks(1, 3)]
      const result = run({ a: {}, b: {}, c: {} }, all, tasks(0, 5))
      const assigned = [...result.clients.values()].flatMap(c => c.active).sort()
      expect(assigned).to.deep.equal([...all].sort())
    })
  })

  describe('stickiness', () => {
    it('moves nothing when the same clients report what they were given', () => {
      const stateful = [...tasks(0, 6), ...tasks(1, 6)]
      const all = [...stateful, ...tasks(2, 5)]
      const clients = { a: { capacity: 2 }, b: { capacity: 1 }, c: { capacity: 1 } }
      const first = run(clients, all, stateful, { numStandbyReplicas: 1 })
      const report = reportFrom(first, stateful)
      for (const id of Object.keys(clients)) report[id]!.capacity = clients[id as keyof typeof clients].capacity
      const second = run(report, all, stateful, { numStandbyReplicas: 1 })
      expect(second.clients).to.deep.equal(first.clients)
      expect(second.probingRebalanceNeeded).to.equal(false)
    })

    it("keeps previous owners when another client joins and moves only the new client's share", () => {
      const all = tasks(0, 12)
      const before = { a: { active: tasks(0, 12).slice(0, 6) }, b: { active: tasks(0, 12).slice(6) } }
      const result = run({ ...before, c: {} }, all, [])
      expect(activeOf(result, 'c')).to.have.length(4)
      expect(activeOf(result, 'a').every(task => before.a.active.includes(task))).to.equal(true)
      expect(activeOf(result, 'b').every(task => before.b.active.includes(task))).to.equal(true)
    })

    it('gives the tasks of a departed client to the others without moving theirs', () => {
      const all = tasks(0, 9)
      const result = run({ a: { active: ['0_0', '0_1', '0_2'] }, b: { active: ['0_3', '0_4', '0_5'] } }, all, [])
      expect(activeOf(result, 'a')).to.include.members(['0_0', '0_1', '0_2'])
      expect(activeOf(result, 'b')).to.include.members(['0_3', '0_4', '0_5'])
      expect(activeOf(result, 'a').length + activeOf(result, 'b').length).to.equal(9)
    })
  })

  describe('standby replicas', () => {
    it("never places a standby on the active's client, and places numStandbyReplicas copies on distinct clients", () => {
      const stateful = tasks(0, 6)
      const result = run({ a: {}, b: {}, c: {}, d: {} }, stateful, stateful, { numStandbyReplicas: 2 })
      for (const task of stateful) {
        const active = [...result.clients].filter(([, c]) => c.active.includes(task)).map(([id]) => id)
        const standbys = [...result.clients].filter(([, c]) => c.standby.includes(task)).map(([id]) => id)
        expect(active).to.have.length(1)
        expect(standbys).to.have.length(2)
        expect(standbys).to.not.include(active[0])
      }
      for (const id of ['a', 'b', 'c', 'd']) expect(standbyOf(result, id)).to.have.length(3)
      expect(result.missingStandbys).to.equal(0)
    })

    it('gives stateless tasks no standbys', () => {
      const result = run({ a: {}, b: {} }, tasks(0, 4), [], { numStandbyReplicas: 1 })
      expect(standbyOf(result, 'a')).to.deep.equal([])
      expect(standbyOf(result, 'b')).to.deep.equal([])
    })

    it('reports standbys that cannot be placed when there are not enough clients', () => {
      const stateful = tasks(0, 3)
      const result = run({ a: {}, b: {} }, stateful, stateful, { numStandbyReplicas: 2 })
      expect(result.missingStandbys).to.equal(3)
      expect(standbyOf(result, 'a').length + standbyOf(result, 'b').length).to.equal(3)
      const single = run({ a: { capacity: 3 } }, stateful, stateful, { numStandbyReplicas: 1 })
      expect(standbyOf(single, 'a')).to.deep.equal([])
      expect(single.missingStandbys).to.equal(3)
    })

    it('keeps standbys where they were', () => {
      const stateful = tasks(0, 6)
      const running = (active: string[], standby: string[]): ClientSpec => ({
        active,
        standby,
        lags: Object.fromEntries([...active.map(task => [task, LATEST_OFFSET]), ...standby.map(task => [task, 0])])
      })
      const result = run(
        {
          a: running(['0_0', '0_1'], ['0_2', '0_4']),
          b: running(['0_2', '0_3'], ['0_5', '0_0']),
          c: running(['0_4', '0_5'], ['0_1', '0_3'])
        },
        stateful,
        stateful,
        { numStandbyReplicas: 1 }
      )
      expect(activeOf(result, 'a')).to.deep.equal(['0_0', '0_1'])
      expect(standbyOf(result, 'a')).to.deep.equal(['0_2', '0_4'])
      expect(standbyOf(result, 'b')).to.deep.equal(['0_0', '0_5'])
      expect(standbyOf(result, 'c')).to.deep.equal(['0_1', '0_3'])
    })

    it('moves an active to a caught-up standby when its owner must give it up, without a probing rebalance', () => {
      const stateful = tasks(0, 4)
      const result = run(
        {
          a: { active: ['0_0', '0_1'], standby: ['0_2'], lags: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET, '0_2': 0 } },
          b: { active: ['0_2', '0_3'], standby: ['0_1'], lags: { '0_2': LATEST_OFFSET, '0_3': LATEST_OFFSET, '0_1': 0 } },
          c: { standby: ['0_0', '0_3'], lags: { '0_0': 0, '0_3': 0 } }
        },
        stateful,
        stateful,
        { numStandbyReplicas: 1 }
      )
      expect(activeOf(result, 'c')).to.have.length(1)
      expect(['0_0', '0_3']).to.include(activeOf(result, 'c')[0])
      expect(result.probingRebalanceNeeded).to.equal(false)
    })
  })

  describe('lag-aware placement', () => {
    it('keeps an active on its caught-up owner and warms up the balanced target, then asks for a probing rebalance', () => {
      const stateful = tasks(0, 2)
      const result = run(
        {
          a: { active: stateful, lags: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET } },
          b: { lags: { '0_0': 5000, '0_1': 5000 } }
        },
        stateful,
        stateful
      )
      expect(activeOf(result, 'a')).to.deep.equal(['0_0', '0_1'])
      expect(activeOf(result, 'b')).to.deep.equal([])
      expect(warmupsOf(result, 'b')).to.have.length(1)
      expect(standbyOf(result, 'b')).to.deep.equal(warmupsOf(result, 'b'))
      expect(result.probingRebalanceNeeded).to.equal(true)
    })

    it('moves the task once the warm-up is caught up (within acceptableRecoveryLag)', () => {
      const stateful = tasks(0, 2)
      const first = run(
        {
          a: { active: stateful, lags: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET } },
          b: { lags: { '0_0': 5000, '0_1': 5000 } }
        },
        stateful,
        stateful
      )
      const warmed = warmupsOf(first, 'b')[0]!
      const second = run(
        {
          a: { active: stateful, lags: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET } },
          b: { standby: [warmed], lags: { '0_0': 5000, '0_1': 5000, [warmed]: 100 } }
        },
        stateful,
        stateful
      )
      expect(activeOf(second, 'b')).to.deep.equal([warmed])
      expect(activeOf(second, 'a')).to.have.length(1)
      expect(warmupsOf(second, 'a').length + warmupsOf(second, 'b').length).to.equal(0)
      expect(second.probingRebalanceNeeded).to.equal(false)
    })

    it('hands an active to a caught-up standby instead of a client without state', () => {
      const stateful = tasks(0, 2)
      const result = run(
        {
          b: { standby: ['0_1'], lags: { '0_0': 9000, '0_1': 10 } },
          c: { lags: { '0_0': 9000, '0_1': 9000 } }
        },
        stateful,
        stateful
      )
      expect(activeOf(result, 'b')).to.deep.equal(['0_1'])
      expect(activeOf(result, 'c')).to.deep.equal(['0_0'])
      expect(result.probingRebalanceNeeded).to.equal(false)
    })

    it('issues at most maxWarmupReplicas warm-ups but still asks for a probing rebalance', () => {
      const stateful = tasks(0, 6)
      const running = Object.fromEntries(stateful.map(task => [task, LATEST_OFFSET]))
      const result = run({ a: { active: stateful, lags: running }, b: {}, c: {} }, stateful, stateful, { maxWarmupReplicas: 1 })
      expect(activeOf(result, 'a')).to.deep.equal(stateful)
      expect(warmupsOf(result, 'b').length + warmupsOf(result, 'c').length).to.equal(1)
      expect(result.probingRebalanceNeeded).to.equal(true)
    })

    it('uses a free standby slot on the target instead of a warm-up', () => {
      const stateful = tasks(0, 2)
      const result = run(
        {
          a: { active: stateful, lags: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET } },
          b: { lags: { '0_0': 5000, '0_1': 5000 } }
        },
        stateful,
        stateful,
        { numStandbyReplicas: 1 }
      )
      expect(activeOf(result, 'a')).to.deep.equal(stateful)
      expect(standbyOf(result, 'b')).to.deep.equal(stateful)
      expect(warmupsOf(result, 'b')).to.deep.equal([])
      expect(result.probingRebalanceNeeded).to.equal(true)
    })

    it('treats unknown lags as not caught up and places tasks nobody is caught up on by balance', () => {
      const stateful = tasks(0, 4)
      const unknown = Object.fromEntries(stateful.map(task => [task, UNKNOWN_OFFSET_SUM]))
      const result = run({ a: { lags: unknown }, b: { lags: unknown } }, stateful, stateful)
      expect(activeOf(result, 'a')).to.have.length(2)
      expect(activeOf(result, 'b')).to.have.length(2)
      expect(result.probingRebalanceNeeded).to.equal(false)
    })

    it('prefers the client with the least lag when nobody is caught up', () => {
      const stateful = ['0_0']
      const result = run({ a: { lags: { '0_0': 9000 } }, b: { lags: { '0_0': 500 } }, c: {} }, stateful, stateful)
      expect(activeOf(result, 'b')).to.deep.equal(['0_0'])
    })

    // The two survivors of a SIGKILLed instance that ran 0_0 and 1_0 (dashboard-browser.test.ts):
    // x ran 1_1 and kept a standby of 1_2, y ran 1_2 and kept a standby of 1_0. Eager members
    // rejoin with their actives suspended, reported by offset sum. The changelogs (1_0: 40
    // records, 1_1: 45, 1_2: 38) are far below the default acceptableRecoveryLag.
    const survivors = (acceptableRecoveryLag: number): TaskAssignment =>
      run(
        {
          x: { standby: ['1_1', '1_2'], lags: { '1_0': 40, '1_1': 0, '1_2': 0 } },
          y: { standby: ['1_0', '1_2'], lags: { '1_0': 0, '1_1': 45, '1_2': 0 } }
        },
        ['0_0', '0_1', '0_2', '1_0', '1_1', '1_2'],
        ['1_0', '1_1', '1_2'],
        { numStandbyReplicas: 1, acceptableRecoveryLag }
      )

    it('with every client within acceptableRecoveryLag, places stateful tasks by client order, standby or not (as Kafka Streams 4.1)', () => {
      // Kafka Streams 4.1.1's HighAvailabilityTaskAssignor, run on the same subscriptions, gives
      // exactly this: round-robin over the sorted process ids, and no movement (every client is
      // caught up), so the standby of 1_0 on y does not count.
      const result = survivors(10_000)
      expect(result.clients.get('x')).to.deep.include({ active: ['0_1', '1_0', '1_2'], standby: ['1_1'] })
      expect(result.clients.get('y')).to.deep.include({ active: ['0_0', '0_2', '1_1'], standby: ['1_0', '1_2'] })
      expect(result.probingRebalanceNeeded).to.equal(false)
    })

    it('with acceptableRecoveryLag below the changelogs, gives each task to the survivor caught up on it', () => {
      const result = survivors(0)
      expect(activeOf(result, 'y')).to.include('1_0')
      expect(activeOf(result, 'x')).to.include('1_1')
      expect(activeOf(result, 'x').length + activeOf(result, 'y').length).to.equal(6)
    })
  })
})
