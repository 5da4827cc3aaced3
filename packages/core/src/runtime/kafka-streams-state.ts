/**
 * The states of a KafkaStreams instance and Kafka Streams' transition table between them
 * (KafkaStreams.State), with the predicates Java defines on the enum as functions of a state.
 */

/** The state of a KafkaStreams instance (Kafka Streams' KafkaStreams.State). */
export type KafkaStreamsState = 'CREATED' | 'REBALANCING' | 'RUNNING' | 'PENDING_SHUTDOWN' | 'NOT_RUNNING' | 'PENDING_ERROR' | 'ERROR'

/** The valid transitions from each state, as Kafka Streams' KafkaStreams.State defines them. @internal */
export const KAFKA_STREAMS_TRANSITIONS: Readonly<Record<KafkaStreamsState, readonly KafkaStreamsState[]>> = Object.freeze({
  CREATED: ['REBALANCING', 'PENDING_SHUTDOWN'],
  REBALANCING: ['RUNNING', 'PENDING_SHUTDOWN', 'PENDING_ERROR'],
  RUNNING: ['REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'PENDING_ERROR'],
  PENDING_SHUTDOWN: ['NOT_RUNNING'],
  NOT_RUNNING: [],
  PENDING_ERROR: ['ERROR'],
  ERROR: []
})

/** The predicates of Kafka Streams' KafkaStreams.State, as functions of a state: `KafkaStreamsState.isShuttingDown(streams.state())`. */
export const KafkaStreamsState = Object.freeze({
  /** Every state, in Kafka Streams' order. */
  values: Object.freeze(Object.keys(KAFKA_STREAMS_TRANSITIONS) as KafkaStreamsState[]),
  /** CREATED: start() was not called yet. */
  hasNotStarted(state: KafkaStreamsState): boolean {
    return state === 'CREATED'
  },
  /** RUNNING or REBALANCING. */
  isRunningOrRebalancing(state: KafkaStreamsState): boolean {
    return state === 'RUNNING' || state === 'REBALANCING'
  },
  /** PENDING_SHUTDOWN or PENDING_ERROR: shutting down, not finished yet. */
  isShuttingDown(state: KafkaStreamsState): boolean {
    return state === 'PENDING_SHUTDOWN' || state === 'PENDING_ERROR'
  },
  /** NOT_RUNNING or ERROR: the terminal states. */
  hasCompletedShutdown(state: KafkaStreamsState): boolean {
    return state === 'NOT_RUNNING' || state === 'ERROR'
  },
  /** Shutting down or shut down. */
  hasStartedOrFinishedShuttingDown(state: KafkaStreamsState): boolean {
    return KafkaStreamsState.isShuttingDown(state) || KafkaStreamsState.hasCompletedShutdown(state)
  },
  /** Whether Kafka Streams allows `from` -> `to` (Kafka's `from.isValidTransition(to)`); false for an unknown state. */
  isValidTransition(from: KafkaStreamsState, to: KafkaStreamsState): boolean {
    return Object.hasOwn(KAFKA_STREAMS_TRANSITIONS, from) && KAFKA_STREAMS_TRANSITIONS[from].includes(to)
  }
})
