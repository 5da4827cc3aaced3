import { expect } from 'chai'
import { ConfigResourceTypes } from 'kafkajs'
import { coordinatorPartition, kafka, leaderOf, threeBrokerCluster } from './helpers.js'
import { FaultApp } from './wordcount-fault-harness.js'

/**
 * Three brokers; every topic (the test's and the application's internal ones) with replication
 * factor 3 and min.insync.replicas 2, so one broker down leaves everything writable. Three
 * WordCount instances run while lines flow; brokers are SIGKILLed one at a time and restarted:
 * the group coordinator of the application, then the leader of an output partition, then the
 * leader of a changelog partition. The application keeps counting while each is down.
 */
describe('Fault: one of three brokers killed (coordinator, output leader, changelog leader), RF 3, min ISR 2', function () {
  this.timeout(420000)
  const cluster = threeBrokerCluster()
  const leader = async (topic: string, partition: number): Promise<number> => await leaderOf(cluster().bootstrapServers, topic, partition)

  /** Until every partition of `topics` has all three replicas in sync (a restarted broker caught up). */
  async function waitInSync(app: FaultApp, topics: string[]): Promise<void> {
    await app.waitFor(
      `all replicas in sync (${topics.join(', ')})`,
      async () => {
        const admin = kafka(cluster().bootstrapServers).admin()
        await admin.connect()
        try {
          const meta = await admin.fetchTopicMetadata({ topics })
          return meta.topics.every(t => t.partitions.every(p => p.isr.length === 3 && p.leader >= 0))
        } finally {
          await admin.disconnect()
        }
      },
      120000
    )
  }

  /** Kills the broker with `nodeId`, waits for output while it is down, restarts it and waits until it is in sync again. */
  async function killAndRestart(app: FaultApp, nodeId: number, what: string): Promise<void> {
    const index = (await cluster().status()).findIndex(s => s.nodeId === nodeId)
    expect(index, `broker ${nodeId} is in the cluster`).to.be.greaterThan(-1)
    const killedAt = Date.now()
    await cluster().killBroker(index)
    const before = await app.outputRecords().catch(() => 0)
    await app.waitFor(
      `output while the ${what} (broker ${nodeId}) is down`,
      async () => (await app.outputRecords()) > before + 1500,
      120000
    )
    const downMs = Date.now() - killedAt
    await cluster().restartBroker(index)
    await waitInSync(app, [...Object.values(app.topics), app.changelog, '__consumer_offsets'])
    console.log(`      ${what}: broker ${nodeId} down ${downMs} ms (until output moved on), back in sync after ${Date.now() - killedAt} ms`)
  }

  async function scenario(
    name: string,
    kills: (app: FaultApp) => Promise<void>,
    guarantee: 'at_least_once' | 'exactly_once_v2' = 'at_least_once'
  ): Promise<void> {
    const app = await FaultApp.create({
      name,
      servers: cluster().bootstrapServers,
      replicationFactor: 3,
      topicConfigs: { 'min.insync.replicas': '2' },
      guarantee
    })
    try {
      await Promise.all([app.start(), app.start(), app.start()])
      await app.waitAllRunning()
      const admin = kafka(cluster().bootstrapServers).admin()
      await admin.connect()
      try {
        const meta = await admin.fetchTopicMetadata({ topics: [app.changelog] })
        expect(
          meta.topics[0]!.partitions.every(p => p.replicas.length === 3),
          'the changelog has replication factor 3'
        ).to.equal(true)
        const configs = await admin.describeConfigs({
          includeSynonyms: false,
          resources: [{ type: ConfigResourceTypes.TOPIC, name: app.changelog, configNames: ['min.insync.replicas'] }]
        })
        expect(
          configs.resources[0]!.configEntries.find(e => e.configName === 'min.insync.replicas')?.configValue,
          'the changelog has min.insync.replicas 2'
        ).to.equal('2')
      } finally {
        await admin.disconnect()
      }
      app.startFeeding()
      const before = await app.outputRecords()
      await app.waitFor('output while the lines flow', async () => (await app.outputRecords()) > before + 1500, 60000)
      await kills(app)
      await app.verify()
    } catch (err) {
      const logs = await Promise.all(
        [0, 1, 2].map(
          async i =>
            `broker ${i + 1}:\n${(
              await cluster()
                .logs(i, 8)
                .catch(() => '')
            )
              .split('\n')
              .map(l => l.slice(0, 300))
              .join('\n')}`
        )
      )
      throw new Error(`${(err as Error).message}\n${logs.join('\n')}`)
    } finally {
      await app.cleanup()
    }
  }

  it('the group coordinator killed and restarted: no instance reaches ERROR, no count below the true count, stores equal their changelogs', async () => {
    await scenario('b3c', async app => {
      const coordinator = await leader('__consumer_offsets', coordinatorPartition(app.appId, 3))
      await killAndRestart(app, coordinator, 'group coordinator')
    })
  })

  it('the leader of an output partition, then of a changelog partition, killed and restarted: no ERROR, no count below the true count, stores equal their changelogs', async () => {
    await scenario('b3l', async app => {
      await killAndRestart(app, await leader(app.topics.output, 0), 'output partition 0 leader')
      const changelogLeader = await leader(app.changelog, 1)
      await killAndRestart(app, changelogLeader, 'changelog partition 1 leader')
    })
  })

  it('under exactly_once_v2 (@kstreams/platformatic), each broker killed and restarted in turn (every group and transaction coordinator and leader moves): no ERROR, every count exact', async () => {
    await scenario(
      'b3eos',
      async app => {
        for (const node of (await cluster().status()).map(s => s.nodeId)) await killAndRestart(app, node, `broker ${node}`)
      },
      'exactly_once_v2'
    )
  })
})
