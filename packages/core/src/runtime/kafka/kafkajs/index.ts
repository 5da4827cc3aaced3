/**
 * The kafkajs adapter of the Kafka ports (the only code that imports kafkajs). The runtime loads
 * it lazily, so an embedding application that brings its own KafkaClientFactory never loads kafkajs.
 */
export { createKafkajsClientFactory, KafkajsClientFactory } from './kafkajs-client-factory.js'
export type { KafkajsClientConfig } from './kafkajs-client-config.js'
export type { KafkajsLogLevelName } from './kafkajs-log-creator.js'
