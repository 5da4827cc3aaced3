import { expect } from 'chai'
import { ManualClock } from '../../../src/clock.js'
import type { AssignmentInfo } from '../../../src/runtime/assignment/assignment-info.js'
import { LATEST_OFFSET } from '../../../src/runtime/assignment/subscription-info.js'
import type { TopicPartition } from '../../../src/runtime/kafka/ports.js'
import { assignorFor, decodeAll, InMemoryAdmin, members, nextSubscriptions, sub, subscription, topologyOf } from './assignment-helpers.js'
import type { MemberSpec } from './assignment-helpers.js'

const processOf = (memberId: string): string => memberId.split('-')[0]!
const activeOwner = (infos: ReadonlyMap<string, AssignmentInfo>): Map<string, string> => {
  const owners = new Map<string, string>()
  for (const [memberId, info] of infos) for (const task of info.activeTasks.keys()) owners.set(task, memberId)
  return owners
}

// Sub-topology 0: stateful over a (7 partitions); 1: stateless over b (5); 2: stateful over c (4).
const mixedTopology = topologyOf([
  sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s0-changelog'] }),
  sub(1, { sourceTopics: ['b'] }),
  sub(2, { sourceTopics: ['c'], changelogTopics: ['app-s2-changelog'] })
])
const mixedAdmin = (): InMemoryAdmin => new InMemoryAdmin({ a: 7, b: 5, c: 4 })

describe('StreamsPartitionAssignor: placement', () => {
  it('balances active tasks over 1..5 processes x 1..3 threads: per-thread counts differ by at most one', async () => {
    for (let processes = 1; processes <= 5; processes++) {
      for (let threads = 1; threads <= 3; threads++) {
        const admin = mixedAdmin()
        const specs = members(Array.from({ length: processes }, () => threads))
        const infos = decodeAll(await assignorFor(mixedTopology, admin).assign(specs.map(subscription), admin.topics))
        const counts = [...infos.values()].map(info => info.activeTasks.size)
        expect(Math.max(...counts) - Math.min(...counts), `${processes} x ${threads}`).to.be.at.most(1)
        expect(counts.reduce((a, b) => a + b, 0)).to.equal(16)
      }
    }
  })

  it('balances per thread with processes of different sizes too', async () => {
    const admin = mixedAdmin()
    const specs = members([1, 3, 2])
    const infos = decodeAll(await assignorFor(mixedTopology, admin).assign(specs.map(subscription), admin.topics))
    const counts = [...infos.values()].map(info => info.activeTasks.size)
    expect(Math.max(...counts) - Math.min(...counts)).to.be.at.most(1)
  })

  it('moves nothing in a second rebalance with unchanged membership', async () => {
    const admin = mixedAdmin()
    const specs = members([2, 2, 1])
    const assignor = assignorFor(mixedTopology, admin, { numStandbyReplicas: 1 })
    const first = await assignor.assign(specs.map(subscription), admin.topics)
    const second = await assignor.assign(nextSubscriptions(specs, decodeAll(first)), admin.topics)
    for (const [memberId, assignment] of first) {
      expect(second.get(memberId)!.partitions, memberId).to.deep.equal(assignment.partitions)
      expect(second.get(memberId)!.userData.equals(assignment.userData), memberId).to.equal(true)
    }
  })

  it("moves only the new process's share when a process joins", async () => {
    const admin = new InMemoryAdmin({ a: 12, b: 6 })
    const topology = topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] }), sub(1, { sourceTopics: ['b'] })])
    const assignor = assignorFor(topology, admin)
    const before = members([1, 1])
    const first = decodeAll(await assignor.assign(before.map(subscription), admin.topics))
    const after: MemberSpec[] = [...before, { memberId: 'p3-t1', process: 3 }]
    const second = decodeAll(await assignor.assign(nextSubscriptions(after, first), admin.topics))
    const was = activeOwner(first)
    const now = activeOwner(second)
    const moved = [...now].filter(([task, owner]) => was.get(task) !== owner)
    expect(second.get('p3-t1')!.activeTasks.size).to.equal(6)
    expect(moved).to.have.length(6)
    expect(moved.every(([, owner]) => owner === 'p3-t1')).to.equal(true)
    expect(second.get('p1-t1')!.nextRebalanceMs).to.equal(undefined)
  })

  it("moves only the new thread's share when a process adds a thread", async () => {
    const admin = new InMemoryAdmin({ a: 8 })
    const assignor = assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin)
    const before = members([1, 1])
    const first = decodeAll(await assignor.assign(before.map(subscription), admin.topics))
    const after: MemberSpec[] = [...before, { memberId: 'p1-t2', process: 1 }]
    const second = decodeAll(await assignor.assign(nextSubscriptions(after, first), admin.topics))
    const was = activeOwner(first)
    const moved = [...activeOwner(second)].filter(([task, owner]) => was.get(task) !== owner)
    expect(moved.map(([, owner]) => owner)).to.deep.equal(['p1-t2', 'p1-t2'])
    expect(second.get('p1-t1')!.activeTasks.size).to.equal(3)
    expect(second.get('p2-t1')!.activeTasks.size).to.equal(3)
  })

  it("places standbys with their changelog partitions on processes other than the active's", async () => {
    const admin = mixedAdmin()
    const specs = members([2, 1, 1])
    const infos = decodeAll(
      await assignorFor(mixedTopology, admin, { numStandbyReplicas: 2 }).assign(specs.map(subscription), admin.topics)
    )
    const owners = activeOwner(infos)
    const standbyProcesses = new Map<string, string[]>()
    for (const [memberId, info] of infos) {
      for (const [task, partitions] of info.standbyTasks) {
        expect(partitions, task).to.deep.equal(infos.get(owners.get(task)!)!.activeTasks.get(task))
        standbyProcesses.set(task, [...(standbyProcesses.get(task) ?? []), processOf(memberId)])
      }
    }
    expect([...standbyProcesses.keys()].sort()).to.have.length(11)
    for (const [task, processes] of standbyProcesses) {
      expect(processes, task).to.have.length(2)
      expect(new Set(processes).size, task).to.equal(2)
      expect(processes, task).to.not.include(processOf(owners.get(task)!))
    }
  })

  it('sends every member the host -> active and host -> standby partition maps', async () => {
    const admin = new InMemoryAdmin({ a: 2 })
    const topology = topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] })])
    const specs: MemberSpec[] = [
      { memberId: 'p1-t1', process: 1, endpoint: 'one:8080' },
      { memberId: 'p2-t1', process: 2, endpoint: 'two:8080' },
      { memberId: 'p3-t1', process: 3 }
    ]
    const infos = decodeAll(await assignorFor(topology, admin, { numStandbyReplicas: 1 }).assign(specs.map(subscription), admin.topics))
    const first = infos.get('p1-t1')!
    for (const info of infos.values()) {
      expect(info.partitionsByHost).to.deep.equal(first.partitionsByHost)
      expect(info.standbyPartitionsByHost).to.deep.equal(first.standbyPartitionsByHost)
    }
    expect([...first.partitionsByHost.keys()]).to.deep.equal(['one:8080', 'two:8080'])
    expect(first.partitionsByHost.get('one:8080')).to.deep.equal([...first.activeTasks.values()].flat())
    expect(first.partitionsByHost.get('two:8080')).to.deep.equal([...infos.get('p2-t1')!.activeTasks.values()].flat())
    const standbySources = (info: AssignmentInfo): TopicPartition[] =>
      [...info.standbyTasks.keys()].map(task => ({ topic: 'a', partition: Number(task.split('_')[1]) }))
    expect(first.standbyPartitionsByHost.get('one:8080')).to.deep.equal(standbySources(first))
    expect(first.standbyPartitionsByHost.get('two:8080')).to.deep.equal(standbySources(infos.get('p2-t1')!))
  })

  describe('lag-aware assignment', () => {
    const topology = topologyOf([sub(0, { sourceTopics: ['a'], changelogTopics: ['app-s-changelog'] })])
    const withChangelogEnds = (): InMemoryAdmin =>
      new InMemoryAdmin({ a: 2, 'app-s-changelog': 2 })
        .setEndOffset('app-s-changelog', 0, 50_000)
        .setEndOffset('app-s-changelog', 1, 50_000)

    it('keeps tasks on the caught-up process, warms up the new one, and schedules a probing rebalance', async () => {
      const admin = withChangelogEnds()
      const clock = new ManualClock(1000)
      const assignor = assignorFor(topology, admin, { probingRebalanceIntervalMs: 600_000 }, clock)
      const infos = decodeAll(
        await assignor.assign(
          [
            subscription({
              memberId: 'p1-t1',
              process: 1,
              active: ['0_0', '0_1'],
              offsets: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }
            }),
            subscription({ memberId: 'p2-t1', process: 2 })
          ],
          admin.topics
        )
      )
      expect([...infos.get('p1-t1')!.activeTasks.keys()]).to.deep.equal(['0_0', '0_1'])
      expect(infos.get('p2-t1')!.activeTasks.size).to.equal(0)
      expect(infos.get('p2-t1')!.standbyTasks.size).to.equal(1)
      for (const info of infos.values()) expect(info.nextRebalanceMs).to.equal(601_000)

      // The warm-up caught up (within acceptableRecoveryLag): the probing rebalance moves the task.
      const warmed = [...infos.get('p2-t1')!.standbyTasks.keys()][0]!
      clock.set(700_000)
      const after = decodeAll(
        await assignor.assign(
          [
            subscription({
              memberId: 'p1-t1',
              process: 1,
              active: ['0_0', '0_1'],
              offsets: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }
            }),
            subscription({ memberId: 'p2-t1', process: 2, standby: [warmed], offsets: { [warmed]: 45_000 } })
          ],
          admin.topics
        )
      )
      expect([...after.get('p2-t1')!.activeTasks.keys()]).to.deep.equal([warmed])
      expect(after.get('p1-t1')!.activeTasks.size).to.equal(1)
      for (const info of after.values()) expect(info.nextRebalanceMs).to.equal(undefined)
    })

    it('measures the lag on a source topic serving as a changelog against the committed offsets, not its end (reuse.ktable.source.topics)', async () => {
      const reuse = topologyOf([sub(0, { sourceTopics: ['a'], sourceChangelogTopics: ['a'] })])
      const admin = new InMemoryAdmin({ a: 2 }).setEndOffset('a', 0, 50_000).setEndOffset('a', 1, 50_000)
      admin.committedByPartition.set('a-0', 100).set('a-1', 100)
      const infos = decodeAll(
        await assignorFor(reuse, admin).assign(
          [
            subscription({
              memberId: 'p1-t1',
              process: 1,
              active: ['0_0', '0_1'],
              offsets: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }
            }),
            subscription({ memberId: 'p2-t1', process: 2, standby: ['0_1'], offsets: { '0_1': 100 } })
          ],
          admin.topics
        )
      )
      // Against the end (50,000) process 2 would lag far beyond acceptableRecoveryLag and need a
      // warm-up and a probing rebalance; against the committed offsets (100) it is caught up.
      for (const info of infos.values()) expect(info.nextRebalanceMs).to.equal(undefined)
      expect(infos.get('p2-t1')!.activeTasks.size).to.equal(1)
    })

    it('merges the offset sums threads of one process report', async () => {
      const admin = withChangelogEnds()
      const assignor = assignorFor(topology, admin)
      const infos = decodeAll(
        await assignor.assign(
          [
            subscription({
              memberId: 'p1-t1',
              process: 1,
              active: ['0_0', '0_1'],
              offsets: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }
            }),
            subscription({ memberId: 'p2-t1', process: 2, offsets: { '0_1': 10 } }),
            subscription({ memberId: 'p2-t2', process: 2, offsets: { '0_1': 49_990 } })
          ],
          admin.topics
        )
      )
      // Process 2 is caught up on 0_1 (lag 10) thanks to its second thread's report, so no warm-up is needed.
      const p2 = [...infos.get('p2-t1')!.activeTasks.keys(), ...infos.get('p2-t2')!.activeTasks.keys()]
      expect(p2).to.deep.equal(['0_1'])
      for (const info of infos.values()) expect(info.nextRebalanceMs).to.equal(undefined)
    })

    it('falls back to keeping running actives and an immediate follow-up rebalance when end offsets cannot be fetched', async () => {
      const admin = withChangelogEnds()
      admin.failEndOffsets = true
      const infos = decodeAll(
        await assignorFor(topology, admin, {}, new ManualClock(5000)).assign(
          [
            subscription({
              memberId: 'p1-t1',
              process: 1,
              active: ['0_0', '0_1'],
              offsets: { '0_0': LATEST_OFFSET, '0_1': LATEST_OFFSET }
            }),
            subscription({ memberId: 'p2-t1', process: 2, offsets: { '0_0': 50_000, '0_1': 50_000 } })
          ],
          admin.topics
        )
      )
      expect([...infos.get('p1-t1')!.activeTasks.keys()]).to.deep.equal(['0_0', '0_1'])
      for (const info of infos.values()) expect(info.nextRebalanceMs).to.equal(5000)
    })

    it('does not fetch end offsets when no task is stateful', async () => {
      const admin = new InMemoryAdmin({ a: 2 })
      await assignorFor(topologyOf([sub(0, { sourceTopics: ['a'] })]), admin).assign(
        [subscription({ memberId: 'm', process: 1 })],
        admin.topics
      )
      expect(admin.endOffsetCalls).to.equal(0)
    })
  })
})
