/**
 * An instance cut off from the cluster (every client of it disconnected) past the session
 * timeout while records flow: the coordinator evicts its member and the group moves its tasks to
 * the other instance; once reconnected the cut-off instance finds its membership gone, loses its
 * partitions (no commit), drops the output it could not send (the new owner produced it again)
 * and rejoins. Two instances, the default uncaught-exception handler.
 */
import { expect } from 'chai'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, memberOf, sleep } from './streams-harness.js'

describe('KafkaStreams on the in-memory Kafka: a member that stops heartbeating', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  it('the group moves its tasks; after reconnecting it loses its partitions (no commit, no late write), rejoins, and no count is lost', async () => {
    const [a, b] = [await h.start({ config: { clientId: 'a' } }), await h.start({ config: { clientId: 'b' } })]
    h.produce(200)
    await h.settle()
    const before = memberOf(h.kafka, h.applicationId, 'b-StreamThread-1-consumer')!
    expect(
      h.kafka
        .group(h.applicationId)!
        .members.map(m => m.clientId)
        .sort()
    ).to.deep.equal(['a-StreamThread-1-consumer', 'b-StreamThread-1-consumer'])
    const flowing = h.produceSlowly(300)
    await sleep(150) // b is in the middle of processing and sending
    const cutAt = Date.now()
    h.kafka.disconnect(/^b-/)
    // Evicted after its session timeout: a alone in a stable group, with every task.
    await eventually(() => {
      const group = h.kafka.group(h.applicationId)!
      return group.state === 'Stable' && group.members.length === 1 && group.members[0]!.clientId === 'a-StreamThread-1-consumer'
    }, 5000)
    expect(Date.now() - cutAt).to.be.at.least(450)
    await sleep(300)
    const reconnectedAt = Date.now()
    h.kafka.reconnect()
    await eventually(() => {
      const now = memberOf(h.kafka, h.applicationId, 'b-StreamThread-1-consumer')
      return now !== undefined && now.memberId !== before.memberId
    }, 5000)
    await flowing
    await h.verify()
    const rejoinedAt = h.kafka
      .requests({ api: 'syncGroup', clientId: before.clientId })
      .find(r => r.startMs >= reconnectedAt && r.error === undefined)!.endMs
    const between = (r: { startMs: number; endMs: number }): boolean => r.startMs >= cutAt && r.endMs <= rejoinedAt
    // b's sends failed while it was cut off, and none took effect before it rejoined: the output of its lost tasks was dropped.
    const sends = h.kafka.requests({ api: 'send', clientId: 'b-StreamThread-1-producer' }).filter(between)
    expect(sends.filter(r => r.error === undefined)).to.deep.equal([])
    // Lost, not revoked: none of b's commits took effect from the cut until it rejoined.
    expect(
      h.kafka.requests({ api: 'commitOffsets', clientId: before.clientId }).filter(r => between(r) && r.error === undefined)
    ).to.deep.equal([])
    expect([a.streams.state(), b.streams.state()]).to.deep.equal(['RUNNING', 'RUNNING'])
  })
})
