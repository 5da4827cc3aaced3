/**
 * Integration test helpers: the broker from KAFKA_BOOTSTRAP_SERVERS (CI starts it), unique
 * names per test, topic creation and output reading with kafkajs.
 */
import { Kafka, logLevel, type Admin } from 'kafkajs'
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KafkaClient } from '@kstreams/core'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import { KafkaTestCluster } from '@kstreams/kafka-local'

export function bootstrapServers(): string {
  const servers = process.env.KAFKA_BOOTSTRAP_SERVERS
  if (servers === undefined || servers === '') {
    throw new Error('KAFKA_BOOTSTRAP_SERVERS is not set: start a broker with `npm run kafka -- start` and export the address it prints')
  }
  return servers
}

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`

/**
 * The Kafka client the broker tests run kstreams on: KSTREAMS_TEST_CLIENT=platformatic runs the
 * suite on @kstreams/platformatic, otherwise on @kstreams/kafkajs. Child-process apps get it as
 * WORDCOUNT_CLIENT (wordcount-instances.ts).
 */
export function testClient(): KafkaClient {
  return testClientName() === 'platformatic' ? platformatic() : kafkajs()
}

export function testClientName(): 'kafkajs' | 'platformatic' {
  const name = process.env.KSTREAMS_TEST_CLIENT ?? 'kafkajs'
  if (name !== 'kafkajs' && name !== 'platformatic')
    throw new Error(`KSTREAMS_TEST_CLIENT must be "kafkajs" or "platformatic", got "${name}"`)
  return name
}

/** A kafkajs client of the shared broker, or of `servers` (a test's own cluster). */
export function kafka(servers: string = bootstrapServers()): Kafka {
  return new Kafka({ clientId: unique('it'), brokers: servers.split(','), logLevel: logLevel.NOTHING })
}

/** Runs `fn` with a connected kafkajs admin of the shared broker, disconnected after. */
export async function withAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka().admin()
  await admin.connect()
  try {
    return await fn(admin)
  } finally {
    await admin.disconnect()
  }
}

export interface TopicOptions {
  /** Default: the shared broker. */
  readonly servers?: string
  /** Default 1. */
  readonly replicationFactor?: number
  readonly configs?: Record<string, string>
}

export async function createTopics(topics: Array<{ topic: string; numPartitions: number }>, options: TopicOptions = {}): Promise<void> {
  const admin: Admin = kafka(options.servers).admin()
  await admin.connect()
  try {
    const configEntries = Object.entries(options.configs ?? {}).map(([name, value]) => ({ name, value }))
    await admin.createTopics({
      topics: topics.map(t => ({ ...t, replicationFactor: options.replicationFactor ?? 1, configEntries })),
      waitForLeaders: false
    })
    for (let i = 0; i < 100; i++) {
      const meta = await admin.fetchTopicMetadata({ topics: topics.map(t => t.topic) }).catch(() => undefined)
      if (meta !== undefined && meta.topics.every(t => t.partitions.length > 0 && t.partitions.every(p => p.leader >= 0))) return
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    throw new Error(`Topics ${topics.map(t => t.topic).join(', ')} did not get leaders`)
  } finally {
    await admin.disconnect()
  }
}

export async function produce(topic: string, messages: Array<{ key: string | null; value: string }>, servers?: string): Promise<void> {
  const producer = kafka(servers).producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  try {
    for (let i = 0; i < messages.length; i += 500) {
      await producer.send({ topic, messages: messages.slice(i, i + 500) })
    }
  } finally {
    await producer.disconnect()
  }
}

/** Reads a topic from the beginning until `done(records)` or the timeout; returns what it read. */
export async function readUntil<T>(
  topic: string,
  decode: (key: Buffer | null, value: Buffer | null) => T,
  done: (records: T[]) => boolean,
  timeoutMs: number
): Promise<T[]> {
  const consumer = kafka().consumer({ groupId: unique('reader') })
  const records: T[] = []
  await consumer.connect()
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  let resolveDone!: () => void
  const finished = new Promise<void>(resolve => {
    resolveDone = resolve
  })
  await consumer.run({
    eachMessage: async ({ message }) => {
      records.push(decode(message.key, message.value))
      if (done(records)) resolveDone()
    }
  })
  const timer = setTimeout(resolveDone, timeoutMs)
  await finished
  clearTimeout(timer)
  await consumer.disconnect()
  return records
}

export async function tempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `${prefix}-`))
  return { path, remove: async () => rm(path, { recursive: true, force: true }) }
}

export const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

export async function waitFor(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(50)
  }
}

/** The number of records in a topic (sum of its partitions' end offsets). */
export async function recordCount(topic: string): Promise<number> {
  const admin = kafka().admin()
  await admin.connect()
  try {
    const offsets = await admin.fetchTopicOffsets(topic)
    return offsets.reduce((n, o) => n + Number(o.high) - Number(o.low), 0)
  } finally {
    await admin.disconnect()
  }
}

/** A TCP port free on 127.0.0.1 now (for an applicationServer / HTTP endpoint). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

/** GET a JSON answer from 127.0.0.1:port. */
export async function getJson(port: number, path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }))
    })
    req.on('error', reject)
    req.end()
  })
}

/**
 * Which partition of `__consumer_offsets` (a group id) or `__transaction_state` (a transactional
 * id) holds `key`, so its coordinator is that partition's leader: Java's String.hashCode and
 * Kafka's Utils.abs, modulo the topic's partition count (GroupMetadataManager and
 * TransactionStateManager.partitionFor).
 */
export function coordinatorPartition(key: string, partitions: number): number {
  let h = 0
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0
  return (h === -2147483648 ? 0 : Math.abs(h)) % partitions
}

/**
 * A cluster of three brokers (internal topics with replication factor 3, min.insync.replicas 2)
 * for the tests of the calling describe(): started before them, stopped after. The function
 * returned gives the cluster once started.
 */
export function threeBrokerCluster(): () => KafkaTestCluster {
  let cluster: KafkaTestCluster | undefined
  before(async function () {
    this.timeout(180000)
    cluster = await KafkaTestCluster.start({ brokers: 3, overrides: { 'min.insync.replicas': 2 } })
  })
  after(async () => {
    await cluster?.stop()
  })
  return () => cluster!
}

/** The node id of the leader of a partition, from the metadata of the cluster at `servers`. */
export async function leaderOf(servers: string, topic: string, partition: number): Promise<number> {
  const admin = kafka(servers).admin()
  await admin.connect()
  try {
    const meta = await admin.fetchTopicMetadata({ topics: [topic] })
    return meta.topics[0]!.partitions.find(p => p.partitionId === partition)!.leader
  } finally {
    await admin.disconnect()
  }
}
