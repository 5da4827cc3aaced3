/**
 * A state store written from scratch, as a user would (no kstreams layers): a count per word,
 * answering its own IQv2 query types through StateStore.query (KIP-796), tracking its position
 * from the record metadata of each write, and refusing every other query with UNKNOWN_QUERY_TYPE.
 */
import {
  Position,
  type PositionBound,
  QUERY_RESULT,
  type Query,
  type QueryConfig,
  QueryResult,
  type StateStore,
  type StateStoreContext,
  type StoreBuilder
} from '@kstreams/core'

/** The count of one word (undefined when the store never saw it). */
export class WordCountQuery implements Query<number | undefined> {
  declare readonly [QUERY_RESULT]?: number | undefined
  constructor(readonly word: string) {}
  toString(): string {
    return `WordCountQuery{word=${this.word}}`
  }
}

/** The words seen at least `min` times, sorted. */
export class FrequentWordsQuery implements Query<string[]> {
  declare readonly [QUERY_RESULT]?: string[]
  constructor(readonly min: number) {}
}

export class WordCountStore implements StateStore {
  readonly persistent = false
  readonly #counts = new Map<string, number>()
  readonly #position = Position.emptyPosition()
  #context: StateStoreContext | undefined
  #open = false

  constructor(readonly name: string) {}

  init(context: StateStoreContext, root: StateStore): void {
    this.#context = context
    context.register(root, () => {})
    this.#open = true
  }

  /** Counts one occurrence of `word`; the store's position moves to the record being processed. */
  add(word: string): void {
    this.#counts.set(word, (this.#counts.get(word) ?? 0) + 1)
    const metadata = this.#context?.recordMetadata()
    if (metadata !== undefined) this.#position.update(metadata.topic, metadata.partition, metadata.offset)
  }

  query<R>(query: Query<R>, positionBound: PositionBound, config: QueryConfig): QueryResult<R> {
    const partition = this.#context!.taskId.partition
    let result: QueryResult<unknown>
    if (!(query instanceof WordCountQuery) && !(query instanceof FrequentWordsQuery)) {
      result = QueryResult.forUnknownQueryType(query, this)
    } else if (!positionBound.permits(this.#position, partition)) {
      result = QueryResult.notUpToBound(this.#position, positionBound, partition)
    } else if (query instanceof WordCountQuery) {
      result = QueryResult.forResult(this.#counts.get(query.word))
    } else {
      const min = (query as FrequentWordsQuery).min
      result = QueryResult.forResult(
        [...this.#counts]
          .filter(([, n]) => n >= min)
          .map(([w]) => w)
          .sort()
      )
    }
    if (config.isCollectExecutionInfo()) result.addExecutionInfo(`WordCountStore ${this.name} answered partition ${partition}`)
    result.setPosition(this.#position)
    return result as QueryResult<R>
  }

  getPosition(): Position {
    return this.#position
  }

  flush(): void {}
  close(): void {
    this.#open = false
  }
  isOpen(): boolean {
    return this.#open
  }
}

/** Builds a WordCountStore per task (not logged). */
export function wordCountStoreBuilder(name: string): StoreBuilder<WordCountStore> {
  return { name, build: () => new WordCountStore(name), loggingEnabled: false, logConfig: {} }
}
