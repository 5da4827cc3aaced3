/**
 * Runs the kstreams side of a Java Kafka Streams application (see ../README.md): start it with
 * the Java application's application.id next to (or instead of) the Java instances.
 *
 *   KAFKA_BOOTSTRAP_SERVERS=localhost:9092 APPLICATION_ID=wordcount INPUT_TOPIC=lines \
 *   OUTPUT_TOPIC=counts STATE_DIR=/var/lib/kstreams npm start -w @kstreams/example-migrate-from-java
 *
 * SIGTERM / SIGINT close it, leaving the group so the other instances take its tasks over at once.
 */
import { KafkaStreams, consoleLogger } from '@kstreams/core'
import { kafkajs } from '@kstreams/kafkajs'
import { buildWordCount } from './topology.js'

const env = process.env
const required = (name: string): string => {
  const value = env[name]
  if (value === undefined || value === '') {
    process.stderr.write(`${name} is not set\n`)
    process.exit(2)
  }
  return value
}

const streams = new KafkaStreams(
  buildWordCount({ input: required('INPUT_TOPIC'), output: required('OUTPUT_TOPIC') }),
  {
    // Must be the Java application's application.id: it names the group, the internal topics and the committed offsets.
    applicationId: required('APPLICATION_ID'),
    bootstrapServers: required('KAFKA_BOOTSTRAP_SERVERS'),
    ...(env.STATE_DIR !== undefined ? { stateDir: env.STATE_DIR } : {}),
    // As the Java application's settings, so the group's assignor treats every instance alike.
    numStandbyReplicas: Number(env.NUM_STANDBY_REPLICAS ?? 0)
  },
  { client: kafkajs(), logger: consoleLogger('info') }
)
streams.setStateListener((to, from) => process.stdout.write(`state ${from} -> ${to}\n`))
const close = (): void => {
  void streams.close({ leaveGroup: true }).then(() => process.exit(0))
}
process.on('SIGTERM', close)
process.on('SIGINT', close)
await streams.start()
