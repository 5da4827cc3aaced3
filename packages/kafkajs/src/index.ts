/**
 * `@kstreams/kafkajs`: the Kafka client adapter on kafkajs 2.2.4. Applications pick it with
 * `new KafkaStreams(topology, config, { client: kafkajs() })`; this is the only package of
 * kstreams that imports kafkajs.
 * @packageDocumentation
 */
export { kafkajs, KafkajsClientFactory } from './kafkajs-client-factory.js'
export type { KafkajsOptions } from './kafkajs-client-config.js'
export type { KafkajsLogLevelName } from './kafkajs-log-creator.js'
