/**
 * What an instance tells the group of the tasks a rebalance suspended. kstreams rebalances
 * eagerly: before a thread rejoins, its active tasks are suspended (their in-memory stores stay
 * open, and a task given back resumes on them). Its subscription reports them as Kafka Streams'
 * TaskManager.taskOffsetSums reports an owned task that is not running: by the changelog
 * positions of its stores. So with acceptable.recovery.lag 0 the leader sees the instance caught
 * up on them and keeps them there (as Kafka Streams' HighAvailabilityTaskAssignor does for its
 * cooperative members' running tasks), and a newcomer with no state only warms up.
 */
import { expect } from 'chai'
import type { App } from './streams-harness.js'
import { Harness } from './streams-harness.js'

const tasks = (app: App, kind: 'activeTasks' | 'standbyTasks'): string[] =>
  app.streams
    .metadataForLocalThreads()
    .flatMap(t => t[kind].map(task => task.taskId.toString()))
    .sort()

describe('KafkaStreams on the in-memory Kafka: tasks suspended by a rebalance', function () {
  this.timeout(20_000)
  let h: Harness

  beforeEach(() => {
    h = new Harness({ partitions: 4 })
  })
  afterEach(async () => {
    await h.cleanup()
  })

  it('count as caught up where they were suspended: an instance with in-memory stores keeps them when one with nothing joins', async () => {
    const config = { acceptableRecoveryLag: 0 }
    const first = await h.start({ config })
    h.produce(200)
    await h.settle()
    expect(tasks(first, 'activeTasks')).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])

    const second = await h.start({ config })
    await h.settle()
    // The newcomer lags by each whole changelog: it warms up (maxWarmupReplicas, 2) and runs nothing yet.
    expect(tasks(first, 'activeTasks')).to.deep.equal(['0_0', '0_1', '0_2', '0_3'])
    expect(tasks(second, 'activeTasks')).to.deep.equal([])
    expect(tasks(second, 'standbyTasks')).to.have.length(2)
    // Its stores, resumed where they were, count right (the newcomer has no store to query yet: it leaves first).
    await second.streams.close()
    await h.verify()
  })
})
