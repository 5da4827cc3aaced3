import { KafkaTestCluster } from '@kstreams/kafka-local'
import { sleep } from './helpers.js'
import { FaultApp } from './wordcount-fault-harness.js'

/**
 * The only broker (a cluster of this file's own: the shared CI broker is never restarted) is
 * killed while two WordCount instances process a steady flow of lines, stays down, and comes
 * back on the same data. The instances keep running (sends, fetches, commits and heartbeats fail
 * meanwhile and are retried) and end with correct counts.
 */
describe('Fault: the single broker restarts under load (own cluster)', function () {
  this.timeout(420000)
  let cluster: KafkaTestCluster

  before(async function () {
    this.timeout(180000)
    cluster = await KafkaTestCluster.start({})
  })

  after(async () => {
    await cluster?.stop()
  })

  async function outage(downMs: number, guarantee: 'at_least_once' | 'exactly_once_v2' = 'at_least_once'): Promise<void> {
    const app = await FaultApp.create({ name: `br${downMs / 1000}`, servers: cluster.bootstrapServers, partitions: 4, guarantee })
    try {
      await Promise.all([app.start(), app.start()])
      await app.waitAllRunning()
      app.startFeeding()
      const before = await app.outputRecords()
      await app.waitFor('output while the lines flow', async () => (await app.outputRecords()) > before + 1500, 60000)
      await cluster.killBroker(0)
      await sleep(downMs)
      await cluster.restartBroker(0)
      const back = await app.outputRecords()
      await app.waitFor('output after the broker came back', async () => (await app.outputRecords().catch(() => 0)) > back + 1500, 120000)
      await app.verify()
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\nbroker log:\n${(await cluster.logs(0, 8).catch(() => ''))
          .split('\n')
          .map(l => l.slice(0, 300))
          .join('\n')}`
      )
    } finally {
      await app.cleanup()
    }
  }

  it('down ~20 s: no instance reaches ERROR, no count ends below the true count, every store equals its changelog', async () => {
    await outage(20000)
  })

  it('down ~90 s: no instance reaches ERROR, no count ends below the true count, every store equals its changelog', async () => {
    await outage(90000)
  })

  it('under exactly_once_v2 (@kstreams/platformatic), down ~20 s, transactions open: no ERROR, every count exact, stores equal their changelogs', async () => {
    await outage(20000, 'exactly_once_v2')
  })
})
