/**
 * The broker of a soak run and the admin work on it (kafkajs): KAFKA_BOOTSTRAP_SERVERS, or a
 * single-node KafkaTestCluster of its own that close() stops; creating the run's topics, the
 * application's lag on its inputs, reading a topic whole (read_committed), and deleting what the
 * run created.
 */
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { KafkaTestCluster } from '@kstreams/kafka-local'

export class SoakCluster {
  readonly bootstrapServers: string
  readonly kafka: Kafka
  readonly #admin: Admin
  readonly #owned: KafkaTestCluster | undefined

  private constructor(bootstrapServers: string, owned: KafkaTestCluster | undefined) {
    this.bootstrapServers = bootstrapServers
    this.#owned = owned
    this.kafka = new Kafka({ clientId: 'kstreams-soak', brokers: bootstrapServers.split(','), logLevel: logLevel.NOTHING })
    this.#admin = this.kafka.admin()
  }

  /** The broker at KAFKA_BOOTSTRAP_SERVERS, else a local one started now and stopped by close(). */
  static async connect(log: (line: string) => void): Promise<SoakCluster> {
    const servers = process.env.KAFKA_BOOTSTRAP_SERVERS
    let cluster: SoakCluster
    if (servers !== undefined && servers !== '') {
      log(`broker ${servers} (KAFKA_BOOTSTRAP_SERVERS)`)
      cluster = new SoakCluster(servers, undefined)
    } else {
      log('KAFKA_BOOTSTRAP_SERVERS is not set: starting a local broker (stopped at the end)')
      const owned = await KafkaTestCluster.start({ heap: '1g' })
      log(`broker ${owned.bootstrapServers} (Kafka ${owned.kafkaVersion})`)
      cluster = new SoakCluster(owned.bootstrapServers, owned)
    }
    try {
      await cluster.#admin.connect()
    } catch (error) {
      await cluster.#owned?.stop()
      throw error
    }
    return cluster
  }

  /** Creates the topics and waits until every partition has a leader. */
  async createTopics(topics: readonly string[], partitions: number): Promise<void> {
    await this.#admin.createTopics({ topics: topics.map(topic => ({ topic, numPartitions: partitions, replicationFactor: 1 })) })
    for (let attempt = 0; attempt < 300; attempt++) {
      const metadata = await this.#admin.fetchTopicMetadata({ topics: [...topics] }).catch(() => undefined)
      const ready = metadata?.topics.every(t => t.partitions.length === partitions && t.partitions.every(p => p.leader >= 0))
      if (ready === true) return
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    throw new Error(`the topics ${topics.join(', ')} got no leaders within 30 s`)
  }

  /** Records of the topics the group has not committed yet (end offset - committed offset, summed). */
  async lag(groupId: string, topics: readonly string[]): Promise<number> {
    let lag = 0
    const committed = await this.#admin.fetchOffsets({ groupId, topics: [...topics] })
    for (const { topic, partitions } of committed) {
      const ends = new Map((await this.#admin.fetchTopicOffsets(topic)).map(p => [p.partition, Number(p.high)]))
      for (const [partition, end] of ends) {
        const offset = Number(partitions.find(p => p.partition === partition)?.offset ?? -1)
        lag += end - Math.max(0, offset)
      }
    }
    return lag
  }

  /**
   * Hands every record of the topic to `onRecord` (key and value as UTF-8), as a read_committed
   * consumer sees them: up to the end offsets as they are when called, so only once nothing
   * writes to the topic. `groupId` is the reader's own group.
   */
  async readAll(topic: string, groupId: string, onRecord: (key: string, value: string) => void, timeoutMs: number): Promise<void> {
    const ends = new Map((await this.#admin.fetchTopicOffsets(topic)).map(p => [p.partition, Number(p.high)]))
    const reached = new Map([...ends.keys()].map(partition => [partition, 0]))
    const done = (): boolean => [...ends].every(([partition, end]) => reached.get(partition)! >= end)
    if (done()) return
    const consumer = this.kafka.consumer({ groupId, readUncommitted: false, maxWaitTimeInMs: 200, maxBytes: 8 << 20 })
    try {
      await consumer.connect()
      await consumer.subscribe({ topics: [topic], fromBeginning: true })
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`reading ${topic} took more than ${timeoutMs / 1000} s`)), timeoutMs)
        // Also emitted for a batch of control records only (transaction markers), which eachBatch never sees.
        consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
          reached.set(payload.partition, Number(payload.lastOffset) + 1)
          if (done()) {
            clearTimeout(timer)
            resolve()
          }
        })
        consumer
          .run({
            autoCommit: false,
            eachBatch: async ({ batch }) => {
              for (const message of batch.messages) onRecord(message.key?.toString() ?? '', message.value?.toString() ?? '')
            }
          })
          .catch(reject)
      })
    } finally {
      await consumer.disconnect()
    }
  }

  /** Deletes the topics whose names start with `prefix` (the run's inputs, outputs and internal topics). */
  async deleteTopics(prefix: string): Promise<void> {
    const topics = (await this.#admin.listTopics()).filter(topic => topic.startsWith(prefix))
    if (topics.length > 0) await this.#admin.deleteTopics({ topics, timeout: 30_000 })
  }

  /**
   * Deletes the consumer groups whose ids start with `prefix`, retrying for up to a minute while
   * one still has members (a killed instance's member stays until its session times out).
   */
  async deleteGroups(prefix: string): Promise<void> {
    const { groups } = await this.#admin.listGroups()
    let ids = groups.map(g => g.groupId).filter(id => id.startsWith(prefix))
    for (let attempt = 0; ids.length > 0; attempt++) {
      try {
        await this.#admin.deleteGroups(ids)
        return
      } catch (error) {
        const failed = (error as { groups?: Array<{ groupId: string; error?: { type?: string } }> }).groups ?? []
        const nonEmpty = failed.filter(g => g.error?.type === 'NON_EMPTY_GROUP').map(g => g.groupId)
        if (attempt >= 12 || nonEmpty.length === 0 || nonEmpty.length < failed.length) throw error
        ids = nonEmpty
        await new Promise(resolve => setTimeout(resolve, 5000))
      }
    }
  }

  async close(): Promise<void> {
    try {
      await this.#admin.disconnect()
    } finally {
      await this.#owned?.stop()
    }
  }
}
