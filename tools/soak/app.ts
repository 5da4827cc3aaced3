/**
 * The application the soak runs, built with the DSL on RocksDB stores: a windowed count of
 * clicks per user, clicks joined with views (a stream-stream join), and views joined with the
 * users table (a stream-table join), each written to an output topic (formats in records.ts).
 */
import { KeyValue, Serdes, type Topology } from '@kstreams/core'
import { Consumed, Grouped, JoinWindows, Joined, Materialized, Produced, StreamJoined, StreamsBuilder, TimeWindows } from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'
import { COUNT_WINDOW_MS, GRACE_MS, JOIN_WINDOW_MS, type SoakTopics } from './records.js'

const S = Serdes.String()

export function soakTopology(topics: SoakTopics): Topology {
  const builder = new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })
  const clicks = builder.stream(topics.clicks, Consumed.with(S, S))
  const views = builder.stream(topics.views, Consumed.with(S, S))
  const users = builder.table(topics.users, Consumed.with(S, S), Materialized.as<string, string>('users').withKeySerde(S).withValueSerde(S))

  clicks
    .groupByKey(Grouped.with(S, S))
    .windowedBy(TimeWindows.ofSizeAndGrace(COUNT_WINDOW_MS, GRACE_MS))
    .count(Materialized.as<string, number>('click-counts'))
    .toStream()
    .map((windowed, count) => new KeyValue(windowed.key, `${windowed.window.start}:${count}`))
    .to(topics.counts, Produced.with(S, S))

  clicks
    .join(
      views,
      (click, view) => `${click}|${view}`,
      JoinWindows.ofTimeDifferenceAndGrace(JOIN_WINDOW_MS, GRACE_MS),
      StreamJoined.with(S, S, S).withStoreName('clicks-views')
    )
    .to(topics.joined, Produced.with(S, S))

  views.join(users, (view, user) => `${view}|${user}`, Joined.with(S, S, S)).to(topics.enriched, Produced.with(S, S))

  return builder.build()
}
