/**
 * The README demo: WordCount on a real broker. Creates the topics, starts the app (KafkaStreams,
 * RocksDB store with a changelog), feeds it lines of text, and prints the top counts as they
 * change. Needs KAFKA_BOOTSTRAP_SERVERS (tools/scripts/demo.sh starts a broker and sets it).
 */
import { Kafka, logLevel } from 'kafkajs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams } from '@kstreams/core'
import { buildWordCountTopology, DEFAULT_TOPICS } from './topology.js'

const TEXT = `Kafka Streams is a client library for building applications and microservices where the
input and output data are stored in Kafka clusters. It combines the simplicity of writing and
deploying standard applications on the client side with the benefits of Kafka's server-side
cluster technology. kstreams brings the same model to TypeScript: a topology of processors,
local state stores backed by changelog topics, tasks per partition, and a test driver.`.split('\n')

const bootstrap = process.env.KAFKA_BOOTSTRAP_SERVERS ?? ''
if (bootstrap === '') throw new Error('KAFKA_BOOTSTRAP_SERVERS is not set: run `npm run demo`')
const durationMs = Number(process.env.DEMO_DURATION_MS ?? 15000)
const run = Date.now().toString(36)
const topics = { input: `${DEFAULT_TOPICS.input}-${run}`, words: `${DEFAULT_TOPICS.words}-${run}`, output: `${DEFAULT_TOPICS.output}-${run}` }
const kafka = new Kafka({ clientId: 'wordcount-demo', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING })

const admin = kafka.admin()
await admin.connect()
await admin.createTopics({ topics: Object.values(topics).map(topic => ({ topic, numPartitions: 4, replicationFactor: 1 })), waitForLeaders: false })
for (let i = 0; i < 100; i++) {
  const meta = await admin.fetchTopicMetadata({ topics: Object.values(topics) }).catch(() => undefined)
  if (meta?.topics.every(t => t.partitions.length > 0 && t.partitions.every(p => p.leader >= 0)) === true) break
  await new Promise(resolve => setTimeout(resolve, 100))
}
await admin.disconnect()

const stateDir = await mkdtemp(join(tmpdir(), 'kstreams-demo-'))
const streams = new KafkaStreams(buildWordCountTopology(topics), {
  applicationId: `wordcount-demo-${run}`, bootstrapServers: bootstrap, stateDir, commitIntervalMs: 500
})
streams.setStateListener((to, from) => console.log(`[kstreams] ${from} -> ${to}`))
await streams.start()

const counts = new Map<string, number>()
const consumer = kafka.consumer({ groupId: `wordcount-demo-reader-${run}` })
await consumer.connect()
await consumer.subscribe({ topics: [topics.output], fromBeginning: true })
await consumer.run({ eachMessage: async ({ message }) => { counts.set(message.key!.toString(), Number(message.value!.readBigInt64BE())) } })

const producer = kafka.producer()
await producer.connect()
let sent = 0
const feeder = setInterval(() => {
  const line = TEXT[sent++ % TEXT.length]!
  void producer.send({ topic: topics.input, messages: [{ key: String(sent), value: line }] })
}, 200)
const printer = setInterval(() => {
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 8)
  console.log(`[${streams.state()}] lines sent: ${sent}  top words: ${top.map(([w, c]) => `${w}=${c}`).join(' ')}`)
}, 1000)

const stop = async (): Promise<void> => {
  clearInterval(feeder)
  clearInterval(printer)
  await producer.disconnect()
  await consumer.disconnect()
  await streams.close()
  await rm(stateDir, { recursive: true, force: true })
  console.log('[demo] done')
  process.exit(0)
}
process.on('SIGINT', () => { void stop() })
if (durationMs > 0) setTimeout(() => { void stop() }, durationMs)
