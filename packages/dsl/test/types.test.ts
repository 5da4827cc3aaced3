/**
 * Type-level checks, compiled by `tsc -b`: key and value types flow through the operators and a
 * wrong serde or a wrong type is a compile error. The runtime part only builds the topologies.
 */
import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '../src/index.js'
import type { KGroupedStream, KStream, KTable } from '../src/index.js'

describe('DSL types', () => {
  it('infers key and value types through the operators and rejects mismatches', () => {
    const builder = new StreamsBuilder()
    const lines: KStream<string, string> = builder.stream('in', Consumed.with(Serdes.String(), Serdes.String()))
    const lengths: KStream<string, number> = lines.mapValues(v => v.length)
    const swapped: KStream<number, string> = lengths.map((k, v) => KeyValue.pair(v, k))
    const grouped: KGroupedStream<number, string> = swapped.groupByKey(Grouped.with(Serdes.Integer(), Serdes.String()))
    const counts: KTable<number, number> = grouped.count()
    const joined: KTable<number, string> = grouped.aggregate(
      () => '',
      (_k, v, agg) => agg + v,
      Materialized.with(Serdes.Integer(), Serdes.String())
    )
    counts.toStream().to('counts', Produced.with(Serdes.Integer(), Serdes.Long()))

    // @ts-expect-error the value serde does not match the stream's value type
    lengths.to('out', Produced.with(Serdes.String(), Serdes.String()))
    // @ts-expect-error the key serde does not match the grouping key type
    swapped.groupByKey(Grouped.with(Serdes.String(), Serdes.String()))
    // @ts-expect-error values are numbers after mapValues
    lengths.filter((_k, v) => v.startsWith('a'))
    // @ts-expect-error map must return a KeyValue
    lines.map((k, v) => [k, v])
    grouped.aggregate(
      () => 0,
      (_k, v, agg) => agg + v.length,
      // @ts-expect-error the aggregate's Materialized must serialize the aggregate type
      Materialized.with(Serdes.Integer(), Serdes.String())
    )
    joined
      .mapValues(v => v.length)
      .toStream()
      // @ts-expect-error a table of numbers cannot be written with a string serde
      .to('x', Produced.with(Serdes.Integer(), Serdes.String()))

    // A ValueMapperWithKey declares its parameter types (TypeScript infers them only for the value-only overload).
    const keyed: KStream<string, string> = lines.mapValues((k: string, v: string) => k + v)
    // @ts-expect-error the declared key type must be the stream's key type
    lines.mapValues((k: number, v: string) => k + v.length)
    expect(keyed).to.not.equal(undefined)
    expect(builder.build().describe().subtopologies.length).to.be.greaterThan(0)
  })
})
