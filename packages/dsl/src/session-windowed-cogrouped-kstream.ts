/**
 * Cogrouped streams windowed by sessions (Kafka Streams' `SessionWindowedCogroupedKStream`):
 * every grouped stream's aggregator folds into one aggregate per key and session, in one session
 * store (retention = the Materialized's, else gap + grace); `sessionMerger` combines the
 * aggregates of merged sessions. Emitted on every session update. Nodes are named as
 * CogroupedKStream's (COGROUPKSTREAM-AGGREGATE- per stream, COGROUPKSTREAM-MERGE-).
 */
import { WindowedSerdes } from '@kstreams/core'
import type { StateStore, StoreBuilder, Windowed } from '@kstreams/core'
import { EmitStrategy } from './emit-strategy.js'
import type { Initializer, Merger } from './functions.js'
import { buildCogroupAggregate } from './internal/cogroup-aggregate-builder.js'
import type { CogroupPattern } from './internal/cogroup-aggregate-builder.js'
import type { InternalStreamsBuilder } from './internal/internal-streams-builder.js'
import { sessionWindowAggregateSupplier } from './internal/kstream-session-window-aggregate.js'
import { WindowedMaterializedInternal } from './internal/windowed-materialized-internal.js'
import type { KTable } from './ktable.js'
import { Materialized } from './materialized.js'
import type { Named } from './named.js'
import type { SessionWindows } from './session-windows.js'

/** Cogrouped streams windowed by sessions (Kafka Streams' SessionWindowedCogroupedKStream). */
export class SessionWindowedCogroupedKStream<K, VOut> {
  readonly #builder: InternalStreamsBuilder
  readonly #patterns: ReadonlyArray<CogroupPattern<K, VOut>>
  readonly #windows: SessionWindows

  /** @internal */
  constructor(builder: InternalStreamsBuilder, patterns: ReadonlyArray<CogroupPattern<K, VOut>>, windows: SessionWindows) {
    this.#builder = builder
    this.#patterns = patterns
    this.#windows = windows
  }

  /** The aggregate of every cogrouped stream per key and session, started by `initializer`. */
  aggregate(
    initializer: Initializer<VOut>,
    sessionMerger: Merger<K, VOut>,
    named?: Named | Materialized<K, VOut>,
    materialized?: Materialized<K, VOut>
  ): KTable<Windowed<K>, VOut> {
    const args = named instanceof Materialized ? { named: undefined, materialized: named } : { named, materialized }
    const windows = this.#windows
    const gap = windows.inactivityGap()
    const grace = windows.gracePeriodMs()
    const m = new WindowedMaterializedInternal<K, VOut>(args.materialized, this.#builder, 'COGROUPKSTREAM-AGGREGATE-', {
      minimumMs: gap + grace,
      storeKind: 'session store',
      rule: 'the session inactivity gap plus the grace period',
      parts: `gap=[${gap}], grace=[${grace}]`
    })
    const keySerde = m.keySerde ?? this.#patterns[0]?.source.grouped.keySerde
    const emitStrategy = EmitStrategy.onWindowUpdate()
    return buildCogroupAggregate<K, Windowed<K>, VOut>(this.#builder, this.#patterns, {
      named: args.named,
      storeName: m.storeName,
      queryableStoreName: m.queryableStoreName,
      storeBuilder: m.sessionStoreBuilder(keySerde, m.valueSerde, true) as unknown as StoreBuilder<StateStore>,
      keySerde: keySerde === undefined ? undefined : WindowedSerdes.sessionWindowedSerdeFrom(keySerde),
      valueSerde: m.valueSerde,
      createSupplier: aggregator =>
        sessionWindowAggregateSupplier<K, unknown, VOut>({
          windows,
          storeName: m.storeName,
          emitStrategy,
          initializer,
          aggregator,
          merger: sessionMerger,
          retentionMs: m.retentionMs
        })
    })
  }
}
