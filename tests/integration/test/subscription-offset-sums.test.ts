/**
 * What a restarted instance tells the group leader about the state it still has: as Kafka
 * Streams' threads do, its subscription carries the offset sums of the task directories on disk
 * (from their checkpoints), so the leader sees it is caught up and gives the tasks back to it.
 * Read from the group itself (DescribeGroups: each member's subscription bytes).
 */
import { expect } from 'chai'
import { KafkaStreams } from '@kstreams/core'
import { decodeSubscription, decodeSubscriptionInfo } from '@kstreams/core/internal'
import { buildDslWordCountTopology } from '@kstreams/example-wordcount/dsl-topology'
import { bootstrapServers, createTopics, kafka, produce, readUntil, tempDir, testClient, unique, waitFor } from './helpers.js'

describe('A restarted instance reports the state on its disk in its subscription', function () {
  this.timeout(180_000)

  it('offset sums of the task directories from their checkpoints', async () => {
    const prefix = unique('sums')
    await createTopics([
      { topic: `${prefix}-in`, numPartitions: 2 },
      { topic: `${prefix}-out`, numPartitions: 2 }
    ])
    const state = await tempDir('kstreams-sums')
    const appId = `${prefix}-app`
    const start = async (): Promise<KafkaStreams> => {
      const streams = new KafkaStreams(
        buildDslWordCountTopology({ input: `${prefix}-in`, output: `${prefix}-out` }),
        { applicationId: appId, bootstrapServers: bootstrapServers(), stateDir: state.path, commitIntervalMs: 200 },
        { client: testClient() }
      )
      await streams.start()
      await waitFor('RUNNING', () => streams.state() === 'RUNNING', 60_000)
      return streams
    }
    const admin = kafka().admin()
    await admin.connect()
    const subscription = async () => {
      const { groups } = await admin.describeGroups([appId])
      const member = groups[0]!.members[0]!
      return decodeSubscriptionInfo(decodeSubscription(member.memberMetadata).userData)
    }
    try {
      const first = await start()
      await produce(
        `${prefix}-in`,
        Array.from({ length: 40 }, (_, i) => ({ key: String(i), value: `alpha beta w${i % 7}` }))
      )
      await readUntil(
        `${prefix}-out`,
        k => k?.toString(),
        out => out.includes('w6'),
        60_000
      )
      await first.close({ leaveGroup: true })

      const second = await start()
      const info = await subscription()
      // Its first join: no task runs yet; the stateful tasks' directories (with checkpoints) are on disk.
      expect([...info.taskOffsetSums.keys()]).to.include.members(['1_0', '1_1'])
      for (const task of ['1_0', '1_1']) expect(info.taskOffsetSums.get(task), task).to.be.greaterThan(0)
      expect(info.activeTasks).to.deep.equal([])

      await second.close({ leaveGroup: true })
    } finally {
      await admin.disconnect()
      await state.remove()
    }
  })
})
