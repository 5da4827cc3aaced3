/**
 * A Kafka Streams application as a module, for KafkaStreams.onWorkerThreads(): every worker
 * thread imports the module and builds the same topology, config and client, because functions
 * (processors, serdes, the client adapter) cannot cross threads.
 */
import type { Topology } from '../../topology/topology.js'
import type { StreamsConfig } from '../../config/streams-config.js'
import type { KafkaStreamsOptions } from '../kafka-streams.js'
import { ConfigError } from '../../errors.js'

/**
 * What the default export of an application module returns: the topology, its config and the
 * KafkaStreams options (the Kafka client, the logger). The module is imported once on the main
 * thread and once on every worker thread; each call must build the same topology.
 */
export interface StreamsApp {
  /** The application's topology; the same on every thread. */
  readonly topology: Topology
  /** Its config (numStreamThreads: how many worker threads); applicationId and stateDir must be the same on every thread. */
  readonly config: StreamsConfig
  /** The KafkaStreams options: the Kafka client (required), the logger. */
  readonly options: KafkaStreamsOptions
}

/** Imports `module` and calls its default export; CONFIG errors name the module when it is not an application module. */
export async function loadStreamsApp(module: string): Promise<StreamsApp> {
  const exports = (await import(module)) as { default?: unknown }
  if (typeof exports.default !== 'function')
    throw new ConfigError('workerModule', `The module ${module} has no default export function returning { topology, config, options }`)
  const app = (await (exports.default as () => StreamsApp | Promise<StreamsApp>)()) as Partial<StreamsApp> | undefined
  if (app?.topology === undefined || app.config === undefined || app.options === undefined)
    throw new ConfigError('workerModule', `The default export of ${module} must return { topology, config, options }`)
  return app as StreamsApp
}
