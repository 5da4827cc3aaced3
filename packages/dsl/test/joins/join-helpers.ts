/** Helpers of the join tests: a two-topic stream-stream join wired to a capturing processor. */
import { Serdes } from '@kstreams/core'
import type { StreamsConfig } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import type { TestInputTopic } from '@kstreams/testing'
import { Consumed } from '../../src/consumed.js'
import type { JoinWindows } from '../../src/join-windows.js'
import { StreamJoined } from '../../src/stream-joined.js'
import { StreamsBuilder } from '../../src/streams-builder.js'
import { capture } from '../helpers.js'
import type { KVT } from '../helpers.js'

export const I = Serdes.Integer()
export const S = Serdes.String()

/** Kafka's MockValueJoiner.TOSTRING_JOINER. */
export const joiner = (v1: string | null, v2: string | null): string => `${String(v1)}+${String(v2)}`

export interface JoinFixture {
  readonly driver: TopologyTestDriver
  readonly left: TestInputTopic<number, string>
  readonly right: TestInputTopic<number, string>
  /** Every record the join emitted since the last call, as [key, value, timestamp]. */
  take(): Array<KVT<number, string>>
}

/** topic1 (left) joined with topic2 (right), Integer keys and String values, as in Kafka's join tests. */
export function streamStreamJoin(kind: 'join' | 'leftJoin' | 'outerJoin', windows: JoinWindows, config: StreamsConfig = {}): JoinFixture {
  const builder = new StreamsBuilder()
  const { supplier, processed } = capture<number, string>()
  const s1 = builder.stream('topic1', Consumed.with(I, S))
  const s2 = builder.stream('topic2', Consumed.with(I, S))
  const sj = StreamJoined.with(I, S, S)
  const joined =
    kind === 'join'
      ? s1.join(s2, joiner, windows, sj)
      : kind === 'leftJoin'
        ? s1.leftJoin(s2, joiner, windows, sj)
        : s1.outerJoin(s2, joiner, windows, sj)
  joined.process(supplier)
  const driver = new TopologyTestDriver(builder.build(), config)
  return {
    driver,
    left: driver.createInputTopic('topic1', I, S, 0, 0),
    right: driver.createInputTopic('topic2', I, S, 0, 0),
    take: () => processed.splice(0, processed.length)
  }
}

export { droppedRecordsTotal as droppedRecords } from '../helpers.js'
