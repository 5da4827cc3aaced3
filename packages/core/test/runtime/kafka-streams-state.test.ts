/** The predicates of Kafka Streams' KafkaStreams.State, and its transition table, on the KafkaStreamsState union. */
import { expect } from 'chai'
import { KafkaStreamsState } from '../../src/index.js'

const ALL = ['CREATED', 'REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING', 'PENDING_ERROR', 'ERROR'] as const

/** Kafka's enum: CREATED(1, 3), REBALANCING(2, 3, 5), RUNNING(1, 2, 3, 5), PENDING_SHUTDOWN(4), NOT_RUNNING, PENDING_ERROR(6), ERROR. */
const JAVA_VALID_TRANSITIONS: ReadonlyArray<readonly number[]> = [[1, 3], [2, 3, 5], [1, 2, 3, 5], [4], [], [6], []]

describe('KafkaStreamsState (KafkaStreams.State)', () => {
  it('lists the states in Kafka Streams order', () => {
    expect(KafkaStreamsState.values).to.deep.equal(ALL)
  })

  it('isValidTransition follows the Java transition table exactly', () => {
    for (const [i, from] of ALL.entries()) {
      for (const [j, to] of ALL.entries()) {
        expect(KafkaStreamsState.isValidTransition(from, to), `${from} -> ${to}`).to.equal(JAVA_VALID_TRANSITIONS[i]!.includes(j))
      }
    }
    expect(KafkaStreamsState.isValidTransition('RUNNING' as never, 'UNKNOWN' as never)).to.equal(false)
    expect(KafkaStreamsState.isValidTransition('toString' as never, 'RUNNING')).to.equal(false)
  })

  it('the predicates answer as in Java for every state', () => {
    const holds = (predicate: (state: KafkaStreamsState) => boolean): string[] => ALL.filter(state => predicate(state))
    expect(holds(KafkaStreamsState.hasNotStarted)).to.deep.equal(['CREATED'])
    expect(holds(KafkaStreamsState.isRunningOrRebalancing)).to.deep.equal(['REBALANCING', 'RUNNING'])
    expect(holds(KafkaStreamsState.isShuttingDown)).to.deep.equal(['PENDING_SHUTDOWN', 'PENDING_ERROR'])
    expect(holds(KafkaStreamsState.hasCompletedShutdown)).to.deep.equal(['NOT_RUNNING', 'ERROR'])
    expect(holds(KafkaStreamsState.hasStartedOrFinishedShuttingDown)).to.deep.equal([
      'PENDING_SHUTDOWN',
      'NOT_RUNNING',
      'PENDING_ERROR',
      'ERROR'
    ])
  })
})
