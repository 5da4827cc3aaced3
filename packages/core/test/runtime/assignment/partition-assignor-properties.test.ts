import { expect } from 'chai'
import type { AssignorSubtopology } from '../../../src/runtime/assignment/topology-metadata.js'
import {
  assignorFor,
  decodeAll,
  InMemoryAdmin,
  members,
  nextSubscriptions,
  seededRandom,
  sub,
  subscription,
  topologyOf
} from './assignment-helpers.js'

describe('StreamsPartitionAssignor: randomized invariants', () => {
  it("every task active exactly once with its partitions; standbys on distinct processes other than the active's", async () => {
    const random = seededRandom(99)
    const pick = (n: number): number => Math.floor(random() * n)
    for (let round = 0; round < 60; round++) {
      const topics: Record<string, number> = {}
      const subtopologies: AssignorSubtopology[] = []
      for (let s = 0, n = 1 + pick(3); s < n; s++) {
        topics[`t${s}`] = 1 + pick(8)
        subtopologies.push(sub(s, { sourceTopics: [`t${s}`], changelogTopics: random() < 0.6 ? [`app-s${s}-changelog`] : [] }))
      }
      const admin = new InMemoryAdmin(topics)
      for (const s of subtopologies)
        for (let p = 0; p < topics[`t${s.id}`]!; p++) admin.setEndOffset(`app-s${s.id}-changelog`, p, pick(3) * 10_000)
      const numStandbyReplicas = pick(3)
      const specs = members(Array.from({ length: 1 + pick(5) }, () => 1 + pick(3)))
      const assignor = assignorFor(topologyOf(subtopologies), admin, { numStandbyReplicas })
      let infos = decodeAll(await assignor.assign(specs.map(subscription), admin.topics))
      for (let rebalance = 0; rebalance < 2; rebalance++) {
        const label = `round ${round}, rebalance ${rebalance}`
        const processes = new Set(specs.map(spec => spec.process)).size
        const active = new Map<string, string>()
        const standbys = new Map<string, string[]>()
        for (const [memberId, info] of infos) {
          expect(info.errorCode, label).to.equal(0)
          for (const [task, partitions] of info.activeTasks) {
            expect(active.has(task), `${label}: ${task} twice`).to.equal(false)
            active.set(task, memberId.split('-')[0]!)
            expect(partitions, label).to.deep.equal([{ topic: `t${task.split('_')[0]!}`, partition: Number(task.split('_')[1]) }])
          }
          for (const task of info.standbyTasks.keys()) standbys.set(task, [...(standbys.get(task) ?? []), memberId.split('-')[0]!])
        }
        const expectedTasks = subtopologies.reduce((n, s) => n + topics[`t${s.id}`]!, 0)
        expect(active.size, label).to.equal(expectedTasks)
        for (const [task, holders] of standbys) {
          expect(new Set(holders).size, `${label}: ${task}`).to.equal(holders.length)
          expect(holders, `${label}: ${task}`).to.not.include(active.get(task))
          const stateful = subtopologies.find(s => s.id === Number(task.split('_')[0]))!.changelogTopics.length > 0
          expect(stateful, label).to.equal(true)
          expect(holders.length, `${label}: ${task}`).to.be.at.most(Math.min(numStandbyReplicas, processes - 1) + 1)
        }
        infos = decodeAll(await assignor.assign(nextSubscriptions(specs, infos), admin.topics))
      }
    }
  })
})
