/**
 * The broker the bench runs on and the admin work around the timed runs: the bootstrap servers
 * from KAFKA_BOOTSTRAP_SERVERS, or a throwaway single-node cluster (KafkaTestCluster) that
 * close() stops again; topic creation (waiting for leaders), the end-offset poll that counts a
 * topic's records (or the committed-offset poll for exactly-once runs, and a read_committed count
 * of their output), and deleting the topics and groups a run created.
 */
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { KafkaTestCluster } from '@kstreams/kafka-local'

const READ_TIMEOUT_MS = 300_000

export class BenchCluster {
  readonly bootstrapServers: string
  readonly kafka: Kafka
  readonly #admin: Admin
  readonly #owned: KafkaTestCluster | undefined

  private constructor(bootstrapServers: string, owned: KafkaTestCluster | undefined, admin: Admin, kafka: Kafka) {
    this.bootstrapServers = bootstrapServers
    this.#owned = owned
    this.#admin = admin
    this.kafka = kafka
  }

  /** Uses KAFKA_BOOTSTRAP_SERVERS, else starts a local broker of its own (stopped by close()). */
  static async connect(log: (line: string) => void): Promise<BenchCluster> {
    const fromEnv = process.env.KAFKA_BOOTSTRAP_SERVERS
    let owned: KafkaTestCluster | undefined
    let servers: string
    if (fromEnv !== undefined && fromEnv !== '') {
      servers = fromEnv
      log(`broker: ${servers} (KAFKA_BOOTSTRAP_SERVERS)`)
    } else {
      log('broker: KAFKA_BOOTSTRAP_SERVERS not set, starting a local one (stopped at the end)')
      owned = await KafkaTestCluster.start({ heap: '1g' })
      servers = owned.bootstrapServers
      log(`broker: ${servers} (Kafka ${owned.kafkaVersion})`)
    }
    const kafka = new Kafka({ clientId: 'bench-e2e', brokers: servers.split(','), logLevel: logLevel.NOTHING })
    const admin = kafka.admin()
    try {
      await admin.connect()
    } catch (error) {
      await owned?.stop()
      throw error
    }
    return new BenchCluster(servers, owned, admin, kafka)
  }

  /** Creates the topics and waits for their leaders; `configs` are topic configs (e.g. max.message.bytes). */
  async createTopics(topics: readonly string[], numPartitions: number, configs: Readonly<Record<string, string>> = {}): Promise<void> {
    const configEntries = Object.entries(configs).map(([name, value]) => ({ name, value }))
    await this.#admin.createTopics({
      topics: topics.map(topic => ({ topic, numPartitions, replicationFactor: 1, configEntries })),
      waitForLeaders: false
    })
    for (let i = 0; i < 200; i++) {
      const meta = await this.#admin.fetchTopicMetadata({ topics: [...topics] }).catch(() => undefined)
      if (meta?.topics.every(t => t.partitions.length === numPartitions && t.partitions.every(p => p.leader >= 0)) === true) return
      await sleep(100)
    }
    throw new Error(`topics ${topics.join(', ')} got no leaders`)
  }

  /** Records in a topic (sum of the partitions' end offsets; every topic here starts at 0). */
  async count(topic: string): Promise<number> {
    const offsets = await this.#admin.fetchTopicOffsets(topic)
    return offsets.reduce((sum, p) => sum + Number(p.high), 0)
  }

  /**
   * Input records whose processing is committed: the sum of the group's committed offsets on the
   * topic (every topic here starts at 0). Under exactly_once_v2 the offsets commit with the
   * transaction that holds their output, so this counts output that read_committed readers see.
   */
  async committed(groupId: string, topic: string): Promise<number> {
    const [offsets] = await this.#admin.fetchOffsets({ groupId, topics: [topic] })
    return (offsets?.partitions ?? []).reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0)
  }

  /**
   * Records a read_committed consumer (group `groupId`) reads from the whole topic: no control
   * records, nothing of aborted transactions. Reads until every partition reached its end offset
   * as it is when called (so only once nothing writes to the topic any more).
   */
  async readCommitted(topic: string, groupId: string): Promise<number> {
    const ends = new Map((await this.#admin.fetchTopicOffsets(topic)).map(p => [p.partition, Number(p.high)]))
    const positions = new Map([...ends.keys()].map(partition => [partition, 0]))
    const consumer = this.kafka.consumer({ groupId, readUncommitted: false, maxWaitTimeInMs: 100 })
    let records = 0
    const done = (): boolean => [...ends].every(([partition, end]) => positions.get(partition)! >= end)
    try {
      await consumer.connect()
      await consumer.subscribe({ topics: [topic], fromBeginning: true })
      await new Promise<void>((resolve, reject) => {
        if (done()) {
          resolve()
          return
        }
        const timer = setTimeout(() => {
          reject(new Error(`reading ${topic} took more than ${READ_TIMEOUT_MS} ms`))
        }, READ_TIMEOUT_MS)
        const finish = (): void => {
          clearTimeout(timer)
          resolve()
        }
        // Also emitted for a fetched batch of control records only, which eachBatch never sees.
        consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
          positions.set(payload.partition, Number(payload.lastOffset) + 1)
          if (done()) finish()
        })
        consumer
          .run({
            autoCommit: false,
            eachBatch: async ({ batch }) => {
              records += batch.messages.length
            }
          })
          .catch(reject)
      })
      return records
    } finally {
      await consumer.disconnect()
    }
  }

  /** Deletes every topic whose name starts with `prefix` (inputs, outputs, changelogs). */
  async deleteTopicsWithPrefix(prefix: string): Promise<string[]> {
    const topics = (await this.#admin.listTopics()).filter(t => t.startsWith(prefix))
    if (topics.length > 0) await this.#admin.deleteTopics({ topics, timeout: 30_000 })
    return topics
  }

  async deleteGroupsWithPrefix(prefix: string): Promise<void> {
    const { groups } = await this.#admin.listGroups()
    await this.deleteGroups(groups.map(g => g.groupId).filter(g => g.startsWith(prefix)))
  }

  async deleteGroups(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.#admin.deleteGroups([...ids])
  }

  async close(): Promise<void> {
    try {
      await this.#admin.disconnect()
    } finally {
      await this.#owned?.stop()
    }
  }
}

export const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))
