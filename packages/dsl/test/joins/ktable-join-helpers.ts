/** Helpers of the KTable-KTable join tests: the driver's topics and what reaches a node as [key, new, old, timestamp]. */
import { Serdes } from '@kstreams/core'
import type { Processor, ProcessorSupplier, StreamsConfig } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import type { TestInputTopic, TestOutputTopic } from '@kstreams/testing'
import type { Change } from '../../src/change.js'
import { Consumed } from '../../src/consumed.js'
import type { StreamsBuilder } from '../../src/streams-builder.js'

export const I = Serdes.Integer()
export const S = Serdes.String()
export const consumed = Consumed.with(I, S)
export const joiner = (a: string | null, b: string | null): string => `${String(a)}+${String(b)}`

/** A Change reaching a node: [key, newValue, oldValue, timestamp]. */
export type ChangeRecord = [number | null, string | null, string | null, number]

export function captureChanges(): { supplier: ProcessorSupplier<number, Change<string>, never, never>; take: () => ChangeRecord[] } {
  let processed: ChangeRecord[] = []
  const supplier = (): Processor<number, Change<string>, never, never> => ({
    process(r) {
      processed.push([r.key, r.value.newValue, r.value.oldValue, r.timestamp])
    }
  })
  return {
    supplier,
    take: () => {
      const out = processed
      processed = []
      return out
    }
  }
}

export interface Harness {
  driver: TopologyTestDriver
  left: TestInputTopic<number, string>
  right: TestInputTopic<number, string>
  output: TestOutputTopic<number, string>
  /** Output records read so far as [key, value, timestamp]. */
  read: () => Array<[number | null, string | null, number]>
}

/** A driver with Integer keys and String values as the default serdes (Kafka's test properties). */
export function harness(builder: StreamsBuilder, config: StreamsConfig = {}): Harness {
  const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: S, ...config })
  const left = driver.createInputTopic('topic1', I, S, 0, 0)
  const right = driver.createInputTopic('topic2', I, S, 0, 0)
  const output = driver.createOutputTopic('output', I, S)
  const read = (): Array<[number | null, string | null, number]> => output.readRecordsToList().map(r => [r.key, r.value, r.timestamp])
  return { driver, left, right, output, read }
}

const KEYS = [0, 1, 2, 3]

/**
 * The input sequence of Kafka's KTableKTableInnerJoinTest, KTableKTableLeftJoinTest and KTableKTableOuterJoinTest, each step returning what it produced
 * (output records, or the Changes reaching the node after the join).
 */
export function runScenario<T>(h: Harness, take: () => T[]): T[][] {
  const steps: T[][] = []
  // two items on the left; the right table is empty (a null key is dropped)
  h.left.pipeInput(0, 'X0', 5)
  h.left.pipeInput(1, 'X1', 6)
  h.left.pipeInput(null, 'SomeVal', 42)
  steps.push(take())
  h.right.pipeInput(0, 'Y0', 0)
  h.right.pipeInput(1, 'Y1', 10)
  h.right.pipeInput(null, 'AnotherVal', 73)
  steps.push(take())
  for (const k of KEYS) h.left.pipeInput(k, 'XX' + k, 7)
  steps.push(take())
  for (const k of KEYS) h.right.pipeInput(k, 'YY' + k, k * 5)
  steps.push(take())
  for (const k of KEYS) h.left.pipeInput(k, 'XXX' + k, 6)
  steps.push(take())
  h.right.pipeInput(0, null, 5)
  h.right.pipeInput(1, null, 7)
  steps.push(take())
  for (const k of KEYS) h.left.pipeInput(k, 'XXXX' + k, 13)
  steps.push(take())
  h.left.pipeInput(0, null, 0)
  h.left.pipeInput(1, null, 42)
  h.left.pipeInput(2, null, 5)
  h.left.pipeInput(3, null, 20)
  steps.push(take())
  return steps
}
