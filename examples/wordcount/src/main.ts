/**
 * Runs the WordCount app on a Kafka cluster until SIGTERM/SIGINT (a graceful close: commit,
 * checkpoint). Configured through the environment:
 *   KAFKA_BOOTSTRAP_SERVERS (required), WORDCOUNT_APP_ID (default "wordcount"),
 *   WORDCOUNT_STATE_DIR, WORDCOUNT_TOPIC_PREFIX (prefix of the three topics), WORDCOUNT_STORE
 *   ("rocksdb" | "in-memory"), WORDCOUNT_COMMIT_INTERVAL_MS, WORDCOUNT_THREADS,
 *   WORDCOUNT_SESSION_TIMEOUT_MS, WORDCOUNT_ON_BAD_RECORD ("fail" | "continue"), WORDCOUNT_STANDBYS,
 *   WORDCOUNT_ACCEPTABLE_RECOVERY_LAG, WORDCOUNT_API ("dsl", the default: StreamsBuilder, repartition
 *   through an internal topic; "processor": the Processor API topology, through the
 *   `<prefix>wordcount-words` topic, which must exist), WORDCOUNT_REPLICATION_FACTOR (internal
 *   topics), WORDCOUNT_EXCEPTION_HANDLER ("replace-thread", the default: a failed thread is
 *   replaced; "default": none set, Kafka Streams' default SHUTDOWN_CLIENT), WORDCOUNT_LOG_LEVEL,
 *   WORDCOUNT_STORE_DUMP ("1": on SIGUSR2, print the local active "Counts" partitions as a
 *   `store-dump` event, to compare them with their changelog), WORDCOUNT_GUARANTEE
 *   ("at_least_once", the default, | "exactly_once_v2"), WORDCOUNT_TRANSACTION_TIMEOUT_MS,
 *   WORDCOUNT_CLIENT ("kafkajs", the default, | "platformatic": the Kafka client adapter;
 *   exactly_once_v2 needs platformatic), WORDCOUNT_APPLICATION_SERVER ("host:port"),
 *   WORDCOUNT_LEAVE_GROUP_ON_CLOSE ("1": a graceful close leaves the group, so the others
 *   rebalance right away instead of after the session timeout), WORDCOUNT_DASHBOARD ("1": serve the
 *   live dashboard of @kstreams/dashboard and the interactive queries of the "Counts" store on the
 *   applicationServer's port; prints a `dashboard` event with its URL).
 * Prints one JSON line per event on stdout (state changes, the local tasks at every RUNNING,
 * restore progress) for scripts and tests.
 */
import { InteractiveQueryServer, KafkaStreams, RangeQuery, Serdes, StateQueryRequest, consoleLogger } from '@kstreams/core'
import { Dashboard } from '@kstreams/dashboard'
import { buildWordCountTopology, DEFAULT_TOPICS, STORE_NAME } from './topology.js'
import { buildDslWordCountTopology } from './dsl-topology.js'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'

const env = process.env
const bootstrap = env.KAFKA_BOOTSTRAP_SERVERS
if (bootstrap === undefined || bootstrap === '') {
  process.stderr.write('KAFKA_BOOTSTRAP_SERVERS is not set (start a broker with `npm run kafka -- start`)\n')
  process.exit(2)
}
const prefix = env.WORDCOUNT_TOPIC_PREFIX ?? ''
const topics = { input: prefix + DEFAULT_TOPICS.input, words: prefix + DEFAULT_TOPICS.words, output: prefix + DEFAULT_TOPICS.output }
const emit = (event: Record<string, unknown>): void => {
  process.stdout.write(JSON.stringify({ t: Date.now(), ...event }) + '\n')
}

const store = env.WORDCOUNT_STORE === 'in-memory' ? 'in-memory' : 'rocksdb'
const api = env.WORDCOUNT_API ?? 'dsl'
if (api !== 'dsl' && api !== 'processor') {
  process.stderr.write(`WORDCOUNT_API must be "dsl" or "processor", got "${api}"\n`)
  process.exit(2)
}
const guarantee = env.WORDCOUNT_GUARANTEE ?? 'at_least_once'
if (guarantee !== 'at_least_once' && guarantee !== 'exactly_once_v2') {
  process.stderr.write(`WORDCOUNT_GUARANTEE must be "at_least_once" or "exactly_once_v2", got "${guarantee}"\n`)
  process.exit(2)
}
const clientName = env.WORDCOUNT_CLIENT ?? 'kafkajs'
if (clientName !== 'kafkajs' && clientName !== 'platformatic') {
  process.stderr.write(`WORDCOUNT_CLIENT must be "kafkajs" or "platformatic", got "${clientName}"\n`)
  process.exit(2)
}
const topology = api === 'dsl' ? buildDslWordCountTopology(topics, store) : buildWordCountTopology(topics, store)
const streams = new KafkaStreams(
  topology,
  {
    applicationId: env.WORDCOUNT_APP_ID ?? 'wordcount',
    bootstrapServers: bootstrap,
    ...(env.WORDCOUNT_STATE_DIR !== undefined ? { stateDir: env.WORDCOUNT_STATE_DIR } : {}),
    commitIntervalMs: Number(env.WORDCOUNT_COMMIT_INTERVAL_MS ?? 1000),
    numStreamThreads: Number(env.WORDCOUNT_THREADS ?? 1),
    numStandbyReplicas: Number(env.WORDCOUNT_STANDBYS ?? 0),
    ...(env.WORDCOUNT_REPLICATION_FACTOR !== undefined ? { replicationFactor: Number(env.WORDCOUNT_REPLICATION_FACTOR) } : {}),
    ...(env.WORDCOUNT_ACCEPTABLE_RECOVERY_LAG !== undefined
      ? { acceptableRecoveryLag: Number(env.WORDCOUNT_ACCEPTABLE_RECOVERY_LAG) }
      : {}),
    ...(env.WORDCOUNT_SESSION_TIMEOUT_MS !== undefined
      ? { sessionTimeoutMs: Number(env.WORDCOUNT_SESSION_TIMEOUT_MS), heartbeatIntervalMs: 1000 }
      : {}),
    ...(env.WORDCOUNT_APPLICATION_SERVER !== undefined ? { applicationServer: env.WORDCOUNT_APPLICATION_SERVER } : {}),
    deserializationExceptionHandler: env.WORDCOUNT_ON_BAD_RECORD === 'continue' ? 'logAndContinue' : 'logAndFail',
    processingGuarantee: guarantee,
    ...(env.WORDCOUNT_TRANSACTION_TIMEOUT_MS !== undefined ? { transactionTimeoutMs: Number(env.WORDCOUNT_TRANSACTION_TIMEOUT_MS) } : {})
  },
  {
    client: clientName === 'platformatic' ? platformatic() : kafkajs(),
    logger: consoleLogger((env.WORDCOUNT_LOG_LEVEL ?? 'warn') as 'info')
  }
)

streams.setStateListener((to, from) => {
  emit({ event: 'state', from, to })
  if (to !== 'RUNNING') return
  const ids = (pick: 'activeTasks' | 'standbyTasks'): string[] =>
    streams
      .metadataForLocalThreads()
      .flatMap(thread => thread[pick].map(task => task.taskId.toString()))
      .sort()
  emit({ event: 'tasks', active: ids('activeTasks'), standby: ids('standbyTasks') })
})
// A failed thread is replaced: it resumes from the committed offsets (at-least-once).
if (env.WORDCOUNT_EXCEPTION_HANDLER !== 'default') {
  streams.setUncaughtExceptionHandler(error => {
    emit({ event: 'thread-error', code: error.code, message: error.message })
    return 'REPLACE_THREAD'
  })
}
streams.setGlobalStateRestoreListener({
  onRestoreStart: (tp, store, start, end) => emit({ event: 'restore-start', topic: tp.topic, partition: tp.partition, store, start, end }),
  onRestoreEnd: (tp, store, total) => emit({ event: 'restore-end', topic: tp.topic, partition: tp.partition, store, total }),
  onRestoreSuspended: (tp, store, total) => emit({ event: 'restore-suspended', topic: tp.topic, partition: tp.partition, store, total })
})

/** Every local active partition of the "Counts" store (RUNNING tasks only), or why it did not answer. */
const dumpStore = (): void => {
  const partitions: Record<string, Record<string, number>> = {}
  const failures: Record<string, string> = {}
  try {
    const result = streams.query(StateQueryRequest.inStore(STORE_NAME).withQuery(RangeQuery.withNoBounds<string, number>()).requireActive())
    for (const [partition, r] of result.partitionResults) {
      if (!r.isSuccess()) {
        failures[partition] = String(r.getFailureReason())
        continue
      }
      const entries: Record<string, number> = {}
      const it = r.getResult()
      try {
        for (const kv of it) entries[kv.key] = Number(kv.value)
      } finally {
        it.close()
      }
      partitions[partition] = entries
    }
  } catch (err) {
    failures.all = err instanceof Error ? err.message : String(err)
  }
  emit({ event: 'store-dump', state: streams.state(), partitions, failures })
}
if (env.WORDCOUNT_STORE_DUMP === '1') process.on('SIGUSR2', dumpStore)

const dashboard =
  env.WORDCOUNT_DASHBOARD === '1'
    ? new Dashboard(streams, {
        topology,
        applicationId: env.WORDCOUNT_APP_ID ?? 'wordcount',
        queries: new InteractiveQueryServer(streams, { keySerializer: Serdes.String() })
      })
    : undefined

let closing = false
const shutdown = (): void => {
  if (closing) return
  closing = true
  void dashboard?.close()
  void streams.close({ leaveGroup: env.WORDCOUNT_LEAVE_GROUP_ON_CLOSE === '1' }).then(() => {
    emit({ event: 'closed' })
    process.exit(0)
  })
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
await streams.start()
if (dashboard !== undefined) {
  const at = await dashboard.start()
  emit({ event: 'dashboard', url: `http://${at.host}:${at.port}/` })
}
