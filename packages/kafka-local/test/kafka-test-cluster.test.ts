import { expect } from 'chai'
import { randomBytes } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { Kafka, Partitioners, logLevel, type Admin } from 'kafkajs'
import { KafkaTestCluster } from '../src/kafka-test-cluster.js'
import { commandLineOf } from '../src/broker-process.js'

// Real brokers: Java 17 and Maven (first run only) needed. The first start may download the
// jars (~45 MB) and build class-data archives, hence the generous hook timeouts.
const START_TIMEOUT = 240_000

function unique(prefix: string): string {
  return `${prefix}-${Date.now()}-${randomBytes(3).toString('hex')}`
}

function client(brokers: string[]): Kafka {
  return new Kafka({
    clientId: unique('kafka-test-cluster-test'),
    brokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 12, initialRetryTime: 200, maxRetryTime: 2000 }
  })
}

/** Reads `count` records from the beginning with a new group (read_committed, kafkajs' default). */
async function consume(
  kafka: Kafka,
  topic: string,
  count: number
): Promise<Array<{ key: string; value: string; headers: Record<string, string> }>> {
  const consumer = kafka.consumer({ groupId: unique('group') })
  const seen: Array<{ key: string; value: string; headers: Record<string, string> }> = []
  await consumer.connect()
  try {
    await consumer.subscribe({ topic, fromBeginning: true })
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]))
            seen.push({ key: String(message.key), value: String(message.value), headers })
            if (seen.length === count) resolve()
          }
        })
        .catch(reject)
    })
  } finally {
    await consumer.disconnect()
  }
  return seen
}

async function withAdmin<T>(kafka: Kafka, action: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    return await action(admin)
  } finally {
    await admin.disconnect()
  }
}

/**
 * createTopics, then wait until every partition has a leader. Not kafkajs' `waitForLeaders` (on
 * by default): it asks the broker that forwarded the request to the KRaft controller, whose
 * metadata may not list the new topic yet, and gives up on that UNKNOWN_TOPIC_OR_PARTITION
 * (seen with three 3.9 nodes).
 */
async function createTopic(
  kafka: Kafka,
  topic: string,
  options: { numPartitions?: number; replicationFactor?: number } = {}
): Promise<void> {
  await withAdmin(kafka, async admin => {
    expect(await admin.createTopics({ topics: [{ topic, ...options }], waitForLeaders: false })).to.equal(true)
    const deadline = Date.now() + 30_000
    for (;;) {
      const partitions = await admin.fetchTopicMetadata({ topics: [topic] }).then(
        m => m.topics[0]?.partitions ?? [],
        () => []
      )
      if (partitions.length === (options.numPartitions ?? 1) && partitions.every(p => p.leader >= 0)) return
      if (Date.now() > deadline) throw new Error(`topic ${topic} has no leaders after 30 s`)
      await new Promise(resolve => setTimeout(resolve, 100))
    }
  })
}

describe('a real Kafka broker (KAFKA_BOOTSTRAP_SERVERS, else KafkaTestCluster)', function () {
  this.timeout(60_000)
  let cluster: KafkaTestCluster | undefined
  let kafka: Kafka

  before(async function () {
    this.timeout(START_TIMEOUT)
    const fromEnv = process.env.KAFKA_BOOTSTRAP_SERVERS
    if (fromEnv !== undefined && fromEnv !== '') {
      kafka = client(fromEnv.split(','))
    } else {
      cluster = await KafkaTestCluster.start()
      kafka = client(cluster.brokers)
    }
  })

  after(async () => {
    await cluster?.stop()
  })

  it('creates a topic and round-trips a record with key, value and headers', async () => {
    const topic = unique('round-trip')
    await createTopic(kafka, topic, { numPartitions: 2 })
    const metadata = await withAdmin(kafka, async admin => await admin.fetchTopicMetadata({ topics: [topic] }))
    expect(metadata.topics[0]!.partitions).to.have.length(2)
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner })
    await producer.connect()
    try {
      const [result] = await producer.send({ topic, acks: -1, messages: [{ key: 'k1', value: 'v1', headers: { h: 'x' } }] })
      expect(result!.errorCode).to.equal(0)
    } finally {
      await producer.disconnect()
    }
    expect(await consume(kafka, topic, 1)).to.deep.equal([{ key: 'k1', value: 'v1', headers: { h: 'x' } }])
  })

  it('commits a transaction (transaction state log fits the cluster size)', async () => {
    const topic = unique('transactional')
    await createTopic(kafka, topic)
    const producer = kafka.producer({
      transactionalId: unique('tx'),
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner
    })
    await producer.connect()
    try {
      const aborted = await producer.transaction()
      await aborted.send({ topic, messages: [{ key: 'a', value: 'aborted' }] })
      await aborted.abort()
      const committed = await producer.transaction()
      await committed.send({ topic, messages: [{ key: 'c', value: 'committed' }] })
      await committed.commit()
    } finally {
      await producer.disconnect()
    }
    expect((await consume(kafka, topic, 1)).map(r => r.value)).to.deep.equal(['committed'])
  })
})

describe('KafkaTestCluster', function () {
  this.timeout(START_TIMEOUT)

  it('starts one broker, reports it, and stop() leaves no process and no run directory', async () => {
    const cluster = await KafkaTestCluster.start({ brokers: 1 })
    const [status] = await cluster.status()
    try {
      expect(cluster.bootstrapServers).to.match(/^127\.0\.0\.1:\d+$/)
      expect(cluster.brokers).to.deep.equal([cluster.bootstrapServers])
      expect(cluster.kafkaVersion).to.match(/^\d+\.\d+\.\d+$/)
      expect(status).to.include({ nodeId: 1, running: true, reachable: true })
      expect(await commandLineOf(status!.pid)).to.contain('kafka.Kafka')
      expect(
        await withAdmin(client(cluster.brokers), async admin => (await admin.describeCluster()).brokers.map(b => b.nodeId))
      ).to.deep.equal([1])
    } finally {
      await cluster.stop()
    }
    expect(await commandLineOf(status!.pid)).to.equal(undefined)
    expect(
      await stat(cluster.runDir).then(
        () => true,
        () => false
      )
    ).to.equal(false)
    await cluster.stop()
  })

  it('keeps a replicated topic readable and writable when its leader of three brokers is killed, and restarts it', async () => {
    const cluster = await KafkaTestCluster.start({ brokers: 3 })
    const kafka = client(cluster.brokers)
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner })
    const consumer = kafka.consumer({ groupId: unique('failover-group') })
    try {
      expect(cluster.brokers).to.have.length(3)
      const topic = unique('failover')
      await createTopic(kafka, topic, { replicationFactor: 3 })
      const partition = async (): Promise<{ leader: number; isr: number[] }> =>
        await withAdmin(kafka, async admin => {
          const p = (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions[0]!
          return { leader: p.leader, isr: p.isr }
        })
      const received: string[] = []
      let onRecord = (): void => {}
      const receivedCount = async (n: number): Promise<void> => {
        await new Promise<void>(resolve => {
          onRecord = () => {
            if (received.length >= n) resolve()
          }
          onRecord()
        })
      }
      await producer.connect()
      await consumer.connect()
      await consumer.subscribe({ topic, fromBeginning: true })
      // The group join (before the kill) also creates __consumer_offsets, which needs all 3 nodes.
      await consumer.run({
        eachMessage: async ({ message }) => {
          received.push(String(message.value))
          onRecord()
        }
      })
      await producer.send({ topic, acks: -1, messages: [{ key: 'k', value: 'before' }] })
      await receivedCount(1)

      const { leader, isr } = await partition()
      expect(isr).to.have.members([1, 2, 3])
      await cluster.killBroker(leader - 1)
      expect((await cluster.status()).map(s => s.running)).to.deep.equal([1, 2, 3].map(id => id !== leader))

      await producer.send({ topic, acks: -1, messages: [{ key: 'k', value: 'after' }] })
      await receivedCount(2)
      expect(received).to.deep.equal(['before', 'after'])
      const moved = await partition()
      expect(moved.leader).to.not.equal(leader)
      expect(moved.isr).to.not.include(leader)

      await cluster.restartBroker(leader - 1)
      expect((await cluster.status()).every(s => s.running && s.reachable)).to.equal(true)
      expect(await withAdmin(kafka, async admin => (await admin.describeCluster()).brokers.map(b => b.nodeId).sort())).to.deep.equal([
        1, 2, 3
      ])
    } finally {
      await consumer.disconnect()
      await producer.disconnect()
      await cluster.stop()
    }
    expect((await cluster.status()).map(s => s.running)).to.deep.equal([false, false, false])
  })
})
