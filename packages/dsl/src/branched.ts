/**
 * How one branch of `split()` is named and post-processed (Kafka Streams' `Branched`): the
 * branch name (suffix of the result map key) and an optional function or consumer applied to it.
 */
import type { KStream } from './kstream.js'

/** How one branch of `split()` is named and post-processed (Kafka Streams' Branched). */
export class Branched<K, V> {
  private constructor(
    /** The branch name, the suffix of its key in the result map; undefined: the branch's index. */
    readonly name: string | undefined,
    /** Applied to the branch; the map holds what it returns. */
    readonly chainFunction: ((branch: KStream<K, V>) => KStream<K, V> | null | undefined) | undefined,
    /** Given the branch, which is left out of the map. */
    readonly chainConsumer: ((branch: KStream<K, V>) => void) | undefined
  ) {}

  /** Only a branch name. */
  static as<K, V>(name: string): Branched<K, V> {
    return new Branched<K, V>(name, undefined, undefined)
  }

  /** The map holds what `chain` returns (nothing when it returns null or undefined). */
  static withFunction<K, V>(chain: (branch: KStream<K, V>) => KStream<K, V> | null | undefined, name?: string): Branched<K, V> {
    return new Branched<K, V>(name, chain, undefined)
  }

  /** The branch is handed to `chain` and left out of the map. */
  static withConsumer<K, V>(chain: (branch: KStream<K, V>) => void, name?: string): Branched<K, V> {
    return new Branched<K, V>(name, undefined, chain)
  }

  /** A copy with another branch name. */
  withName(name: string): Branched<K, V> {
    return new Branched(name, this.chainFunction, this.chainConsumer)
  }
}
