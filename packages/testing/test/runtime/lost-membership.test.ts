/**
 * A stream thread whose group membership is lost while records flow (evicted by the coordinator,
 * or a commit answered with an error saying the group moved on): it closes its tasks as lost,
 * without a commit (their in-memory stores are gone: whoever gets the tasks restores them from
 * the changelog), rejoins, and processing goes on. The default uncaught-exception handler is in
 * place: any thread failure would take the client to ERROR.
 */
import { expect } from 'chai'
import type { KafkaErrorName, StateRestoreListener } from '@kstreams/core'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, memberOf, sleep } from './streams-harness.js'

/** Records the changelog partitions whose restore started, with the time. */
function restoreRecorder(): { listener: StateRestoreListener; restoredSince: (ms: number) => number[] } {
  const starts: Array<{ at: number; partition: number; startOffset: number }> = []
  return {
    listener: {
      onRestoreStart: (tp, _store, startOffset) => {
        starts.push({ at: Date.now(), partition: tp.partition, startOffset })
      }
    },
    restoredSince: ms => [...new Set(starts.filter(s => s.at >= ms && s.startOffset === 0).map(s => s.partition))].sort()
  }
}

describe('KafkaStreams on the in-memory Kafka: lost membership', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  it('an evicted thread closes its tasks as lost, rejoins as a new member, and processing goes on', async () => {
    const restores = restoreRecorder()
    const app = await h.start({ config: { numStreamThreads: 2 }, restoreListener: restores.listener })
    h.produce(200)
    await h.settle()
    const evicted = memberOf(h.kafka, h.applicationId, 'StreamThread-1-consumer')!
    const itsTasks = app.streams
      .metadataForLocalThreads()
      .find(t => t.threadName === 'StreamThread-1')!
      .activeTasks.map(t => t.taskId.partition)
      .sort()
    expect(itsTasks).to.have.length(2)
    const flowing = h.produceSlowly(300)
    await sleep(100) // in the middle of processing
    const evictedAt = Date.now()
    h.kafka.evictMember(h.applicationId, evicted.memberId)
    await eventually(() => {
      const now = memberOf(h.kafka, h.applicationId, 'StreamThread-1-consumer')
      return now !== undefined && now.memberId !== evicted.memberId
    })
    await flowing
    await h.verify()
    // Its tasks were closed, not kept suspended: their stores were restored from the changelog's start.
    expect(restores.restoredSince(evictedAt)).to.include.members(itsTasks)
    expect(app.streams.state()).to.equal('RUNNING')
  })

  it('a lone evicted thread gets its tasks back after rejoining, and restores every store (they were closed as lost)', async () => {
    const restores = restoreRecorder()
    const app = await h.start({ restoreListener: restores.listener })
    h.produce(200)
    await h.settle()
    const evicted = memberOf(h.kafka, h.applicationId, 'StreamThread-1-consumer')!
    const flowing = h.produceSlowly(300)
    await sleep(100)
    const evictedAt = Date.now()
    h.kafka.evictMember(h.applicationId, evicted.memberId)
    await flowing
    await h.verify()
    expect(memberOf(h.kafka, h.applicationId, 'StreamThread-1-consumer')!.memberId).to.not.equal(evicted.memberId)
    expect(restores.restoredSince(evictedAt)).to.deep.equal([0, 1, 2, 3])
    expect(app.states.slice(0, 2)).to.deep.equal(['REBALANCING', 'RUNNING'])
    expect(app.states.at(-1)).to.equal('RUNNING')
  })

  for (const error of ['ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID', 'REBALANCE_IN_PROGRESS'] as const satisfies readonly KafkaErrorName[]) {
    it(`a commit answered ${error} closes the thread's tasks as lost and makes it rejoin; no ERROR, counts right`, async () => {
      const restores = restoreRecorder()
      const app = await h.start({ restoreListener: restores.listener })
      h.produce(200)
      await h.settle()
      const generation = h.kafka.group(h.applicationId)!.generationId
      const flowing = h.produceSlowly(300)
      await sleep(100)
      const failedAt = Date.now()
      const fault = h.kafka.failNext({ api: 'commitOffsets', error, clientId: /-StreamThread-1-consumer$/ })
      await eventually(() => fault.hits === 1)
      await flowing
      await h.verify()
      // A new generation, and every task was restored anew: the thread closed them as lost (Kafka's TaskMigratedException).
      expect(h.kafka.group(h.applicationId)!.generationId).to.be.greaterThan(generation)
      expect(restores.restoredSince(failedAt)).to.deep.equal([0, 1, 2, 3])
      expect(app.states.at(-1)).to.equal('RUNNING')
    })
  }
})
