/**
 * Mocha root hook: tests that need Kafka read KAFKA_BOOTSTRAP_SERVERS. When it is not set (a
 * developer running `npm test` on a fresh clone), start a local broker for the run and stop it
 * afterwards, so no test is skipped for want of a broker. CI starts one itself (.ci/run).
 */
import { KafkaTestCluster } from '@kstreams/kafka-local'

let cluster: KafkaTestCluster | undefined

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    if (process.env.KAFKA_BOOTSTRAP_SERVERS !== undefined && process.env.KAFKA_BOOTSTRAP_SERVERS !== '') return
    this.timeout(300000)
    cluster = await KafkaTestCluster.start({})
    process.env.KAFKA_BOOTSTRAP_SERVERS = cluster.bootstrapServers
  },
  async afterAll(this: Mocha.Context): Promise<void> {
    this.timeout(60000)
    await cluster?.stop()
  }
}
