/**
 * The processor of the WordCount demo (Kafka Streams' WordCountProcessorDemo.WordCountProcessor):
 * counts words into a key-value store while processing, and forwards every (word, count) in the
 * store on a stream-time punctuation. Also owns `splitWords`, Java's `split("\\W+")`.
 */
import { PunctuationType, Record } from '@kstreams/core'
import type { KeyValueStore, Processor, ProcessorContext } from '@kstreams/core'

/** Java's `\W`: anything but [a-zA-Z0-9_] (no Unicode classes, as in Java's default mode). */
const NON_WORD = /\W+/

/**
 * Splits a line the way Java's `String.split("\\W+")` does: a leading separator gives a leading
 * empty word, trailing empty words are dropped, and a line without any separator (the empty
 * line included) is returned whole.
 */
export function splitWords(line: string): string[] {
  const words = line.split(NON_WORD)
  if (words.length === 1) return words
  let end = words.length
  while (end > 0 && words[end - 1] === '') end--
  return end === words.length ? words : words.slice(0, end)
}

export class WordCountProcessor implements Processor<string | null, string | null, string, number> {
  readonly #storeName: string
  readonly #punctuationIntervalMs: number
  #context: ProcessorContext<string, number> | undefined
  #store: KeyValueStore<string, number> | undefined

  constructor(storeName: string, punctuationIntervalMs: number) {
    this.#storeName = storeName
    this.#punctuationIntervalMs = punctuationIntervalMs
  }

  init(context: ProcessorContext<string, number>): void {
    this.#context = context
    context.schedule(this.#punctuationIntervalMs, PunctuationType.STREAM_TIME, timestamp => {
      this.#forwardAll(timestamp)
    })
    this.#store = context.getStateStore<KeyValueStore<string, number>>(this.#storeName)
  }

  process(record: Record<string | null, string | null>): void {
    // Java would fail with a NullPointerException on a null line; a tombstone has no words.
    if (record.value === null) return
    const store = this.#store!
    for (const word of splitWords(record.value.toLowerCase())) {
      const oldValue = store.get(word)
      store.put(word, oldValue === null ? 1 : oldValue + 1)
    }
  }

  /** Forwards every count in the store, in key order, stamped with the punctuation time. */
  #forwardAll(timestamp: number): void {
    const context = this.#context!
    const iterator = this.#store!.all()
    try {
      for (const entry of iterator) {
        context.forward(new Record(entry.key, entry.value, timestamp))
      }
    } finally {
      iterator.close()
    }
  }
}
