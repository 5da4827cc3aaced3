/**
 * The branches of `KStream.split()` (Kafka Streams' BranchedKStream): one splitter processor
 * (`KSTREAM-BRANCH-n` or the split name) sends each record to the first branch whose predicate
 * it satisfies, else to the default branch. Each branch is a pass-through child named
 * `<split name><branch name>`, or `<split name><n>` with n the 1-based branch position (0 for
 * the default branch); that name is also its key in the result map.
 */
import type { Branched } from './branched.js'
import type { Predicate } from './functions.js'
import { branchProcessor, passThroughProcessor } from './internal/stateless-processors.js'
import { KStream } from './kstream.js'

/**
 * The branches of `KStream.split()` (Kafka Streams' BranchedKStream): each record goes to the first
 * branch whose predicate it satisfies.
 */
export class BranchedKStream<K, V> {
  readonly #source: KStream<K, V>
  readonly #splitterName: string
  readonly #predicates: Array<Predicate<K, V>> = []
  readonly #childNames: string[] = []
  readonly #outputBranches = new Map<string, KStream<K, V>>()

  /** @internal */
  constructor(source: KStream<K, V>, splitterName: string) {
    this.#source = source
    this.#splitterName = splitterName
    source.builder.topology.addProcessor(splitterName, branchProcessor(this.#predicates, this.#childNames), source.name)
  }

  /** Adds a branch of the records that satisfy `predicate` (and no earlier branch's). */
  branch(predicate: Predicate<K, V>, branched?: Branched<K, V>): this {
    this.#predicates.push(predicate)
    this.#createBranch(branched, this.#predicates.length)
    return this
  }

  /** Adds the branch of the records no predicate matched and returns the branches by name. */
  defaultBranch(branched?: Branched<K, V>): Map<string, KStream<K, V>> {
    this.#createBranch(branched, 0)
    return this.#outputBranches
  }

  /** Returns the branches by name; records no predicate matched are dropped. */
  noDefaultBranch(): Map<string, KStream<K, V>> {
    return this.#outputBranches
  }

  #createBranch(branched: Branched<K, V> | undefined, index: number): void {
    const source = this.#source
    const childName = this.#splitterName + (branched?.name ?? String(index))
    this.#childNames.push(childName)
    source.builder.newProcessorName(childName) // burns an index, as Kafka Streams does
    source.builder.topology.addProcessor(childName, passThroughProcessor<K, V>(), this.#splitterName)
    const branch = new KStream<K, V>(source.builder, childName, source.keySerde, source.valueSerde, source.repartitionRequired)
    if (branched?.chainFunction !== undefined) {
      const result = branched.chainFunction(branch)
      if (result !== null && result !== undefined) this.#outputBranches.set(childName, result)
    } else if (branched?.chainConsumer !== undefined) {
      branched.chainConsumer(branch)
    } else {
      this.#outputBranches.set(childName, branch)
    }
  }
}
