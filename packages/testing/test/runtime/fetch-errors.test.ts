/**
 * Fetch errors of the main and restore consumers: a leader that moved (NOT_LEADER_OR_FOLLOWER,
 * the leaders are looked up again), a lost connection (NETWORK_EXCEPTION, the request fails as a
 * whole), an injected partition error. Processing goes on without a rebalance or an ERROR.
 */
import { expect } from 'chai'
import { eventually } from '../in-memory-kafka/helpers.js'
import { Harness, INPUT } from './streams-harness.js'

const MAIN = /-StreamThread-1-consumer$/

describe('KafkaStreams on the in-memory Kafka: fetch errors', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4, kafka: { nodes: 3 } })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  it('partition leaders moving while records flow: fetches at the old leader get NOT_LEADER_OR_FOLLOWER, leaders are looked up again', async () => {
    const app = await h.start()
    h.produce(200)
    await h.settle()
    const flowing = h.produceSlowly(300)
    const movedAt = Date.now()
    const input = h.kafka.topic(INPUT)
    for (let p = 0; p < 4; p++) h.kafka.moveLeader(INPUT, p, (input.leader(p) % 3) + 1)
    await flowing
    await h.verify()
    // The consumer asked for the leaders of every moved partition again.
    const asked = new Set(
      h.kafka
        .requests({ api: 'leaders', clientId: MAIN })
        .filter(r => r.startMs >= movedAt && r.error === undefined)
        .flatMap(r => (r.partitions ?? []).map(tp => tp.partition))
    )
    expect([...asked].sort()).to.deep.equal([0, 1, 2, 3])
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING'])
  })

  it('fetch requests failing with NETWORK_EXCEPTION are sent again', async () => {
    const app = await h.start()
    h.produce(200)
    await h.settle()
    const fault = h.kafka.failNext({ api: 'fetch', error: 'NETWORK_EXCEPTION', times: 5, clientId: MAIN })
    const flowing = h.produceSlowly(300)
    await eventually(() => fault.remaining === 0)
    await flowing
    await h.verify()
    expect(fault.hits).to.equal(5)
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING'])
  })

  it('a partition answered NOT_LEADER_OR_FOLLOWER inside a fetch response is fetched again, the others go on', async () => {
    const app = await h.start()
    h.produce(200)
    await h.settle()
    const fault = h.kafka.failNext({ api: 'fetch', error: 'NOT_LEADER_OR_FOLLOWER', topic: INPUT, partition: 1, times: 3, clientId: MAIN })
    const flowing = h.produceSlowly(300)
    await eventually(() => fault.remaining === 0)
    await flowing
    await h.verify()
    expect(fault.hits).to.equal(3)
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING'])
  })

  it('restore fetches failing with NETWORK_EXCEPTION are sent again: the store is restored completely', async () => {
    const first = await h.start()
    h.produce(200)
    await h.settle()
    await first.streams.close()
    const fault = h.kafka.failNext({ api: 'fetch', error: 'NETWORK_EXCEPTION', times: 5, clientId: /-StreamThread-1-restore-consumer$/ })
    let restored = 0
    const app = await h.start({
      restoreListener: {
        onRestoreEnd: (_p, _s, total) => {
          restored += total
        }
      }
    })
    await h.verify()
    expect(fault.hits).to.equal(5)
    expect(restored).to.equal(200)
    expect(app.states).to.deep.equal(['REBALANCING', 'RUNNING'])
  })
})
