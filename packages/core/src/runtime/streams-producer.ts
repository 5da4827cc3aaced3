/**
 * A stream thread's producer (Kafka Streams' StreamsProducer). Under at_least_once it is the
 * adapter's idempotent producer as is. Under exactly_once_v2 it is one transactional producer for
 * the whole thread, its transactional id `<applicationId>-<processId>-<thread index>` (stable over
 * restarts: the state directory keeps the process id, so a restarted process fences its own
 * predecessor): init() sends InitProducerId before the thread restores or processes, the first
 * send after a commit begins a transaction, and commitTransaction() puts the input offsets (with
 * the group's generation, KIP-447) into it and commits. A commit step that fails with a retriable
 * error (the transaction or group coordinator moved, is loading or did not answer, an earlier
 * EndTxn still completing) is sent again for the same transaction, for up to `max.block.ms`, as
 * Java's producer keeps retrying it (its TransactionManager keeps the pending EndTxn and
 * TxnOffsetCommit; a repeated EndTxn with the same producer id and epoch gets the same outcome);
 * only then, or after any other error, is it TASK_CORRUPTED (Kafka's TaskExecutor turns the
 * producer's TimeoutException into a TaskCorruptedException under exactly-once). Fencing (a newer
 * producer with the same transactional id, a group generation that moved on) is TASK_MIGRATED;
 * an abort that fails replaces the producer, whose InitProducerId aborts what the old one left
 * open. @internal
 */
import { StreamsError } from '../errors.js'
import type { Logger } from '../logger.js'
import type { ClientConfigs } from '../config/client-configs.js'
import { isKafkaError } from './kafka/kafka-request-error.js'
import { isSecurityError } from './kafka/security-errors.js'
import { isRetriable, retrying } from './retrying.js'
import { systemClock } from '../clock.js'
import type { GroupGeneration, KafkaClientFactory, ProducedRecord, ProducerPort, SendResult, TopicPartitionOffset } from './kafka/ports.js'

/** Errors that mean another producer or group member owns this output now (or the producer lost its sequence: Kafka's RecordCollectorImpl takes that for fencing too). */
const FENCED = [
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
  'UNKNOWN_PRODUCER_ID',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'FENCED_INSTANCE_ID'
] as const

/** Kafka's producer defaults: `max.block.ms` and `retry.backoff.ms`. */
const DEFAULT_MAX_BLOCK_MS = 60_000
const DEFAULT_RETRY_BACKOFF_MS = 100

export interface StreamsProducerOptions {
  readonly clients: KafkaClientFactory
  readonly clientId: string
  /** Set under exactly_once_v2. */
  readonly transactionalId?: string | undefined
  /** The producer's configs for the adapter (StreamsConfig `producer` keys the adapter honours). */
  readonly configs?: ClientConfigs
  /** How long a commit step is sent again after retriable errors (`max.block.ms`); default 60000. */
  readonly maxBlockMs?: number
  /** The first pause before such a retry, doubling up to 1 s (`retry.backoff.ms`); default 100. */
  readonly retryBackoffMs?: number
  readonly logger: Logger
}

/** The group a transaction's offsets belong to, and the generation that may commit them. */
export interface GroupMetadata {
  readonly groupId: string
  readonly generation: GroupGeneration
}

export class StreamsProducer implements ProducerPort {
  readonly #o: StreamsProducerOptions
  #port: ProducerPort
  #initialized = false
  #inFlight = false

  constructor(options: StreamsProducerOptions) {
    this.#o = options
    this.#port = this.#create()
  }

  get eosEnabled(): boolean {
    return this.#o.transactionalId !== undefined
  }

  /** Whether a transaction is open (something was sent since the last commit or abort). */
  get transactionInFlight(): boolean {
    return this.#inFlight
  }

  /**
   * InitProducerId under exactly-once (once per producer; again after reset()); nothing
   * otherwise. Retriable errors are tried again for `timeoutMs`; fencing is TASK_MIGRATED.
   */
  async initTransactions(timeoutMs = 0): Promise<void> {
    if (!this.eosEnabled || this.#initialized) return
    try {
      await retrying(
        async () => {
          await this.#transactions().init()
        },
        { timeoutMs, backoffMs: 100, clock: systemClock }
      )
    } catch (error) {
      if (isKafkaError(error, ...FENCED)) throw this.#translate(error, 'Initialising the transactions')
      throw error
    }
    this.#initialized = true
  }

  async send(records: readonly ProducedRecord[]): Promise<SendResult> {
    if (this.eosEnabled) await this.#maybeBegin()
    try {
      return await this.#port.send(records)
    } catch (error) {
      throw this.eosEnabled ? this.#translate(error, `Sending ${records.length} record(s) in a transaction`) : error
    }
  }

  /**
   * Puts `offsets` (with their commit metadata) into the open transaction, for `group` in its
   * generation, and commits it; begins one first when nothing was sent. TASK_MIGRATED when fenced.
   */
  async commitTransaction(
    offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>,
    group: GroupMetadata
  ): Promise<void> {
    const transactions = this.#transactions()
    if (group.generation.generationId < 0) {
      // The member lost its generation: a TxnOffsetCommit without one is not fenced by the group
      // coordinator (it takes it for a producer that sends no group metadata), so it must not go out.
      throw new StreamsError(
        'TASK_MIGRATED',
        `${this.#o.clientId}: not committing the transaction of group ${group.groupId}: the member has no generation (it lost its membership)`
      )
    }
    await this.#maybeBegin()
    try {
      if (offsets.length > 0)
        await this.#untilBlocked(`TxnOffsetCommit of group ${group.groupId}`, async () => {
          await transactions.sendOffsets(group.groupId, group.generation, offsets)
        })
      await this.#untilBlocked('EndTxn(commit)', async () => {
        await transactions.commit()
      })
    } catch (error) {
      const retried = isRetriable(error) ? `, tried for max.block.ms (${this.#maxBlockMs} ms),` : ''
      throw this.#translate(
        error,
        `Committing the transaction (offsets of ${offsets.length} partition(s) of group ${group.groupId}, generation ${group.generation.generationId})${retried}`
      )
    }
    this.#inFlight = false
  }

  /**
   * Aborts the open transaction, if any, and replaces the producer when `replace` or when it
   * cannot abort (fenced, or its state broken by a failed commit): the new one's InitProducerId
   * aborts what is left.
   */
  async abortTransaction(replace = false): Promise<void> {
    if (this.#inFlight) {
      this.#inFlight = false
      try {
        await this.#transactions().abort()
      } catch (error) {
        this.#o.logger.info(
          `${this.#o.clientId}: aborting the transaction failed (${error instanceof Error ? error.message : String(error)}); replacing the producer`
        )
        replace = true
      }
    }
    if (replace) await this.reset()
  }

  /** A new producer with the same transactional id (after fencing or a lost membership); init again before the next transaction. */
  async reset(): Promise<void> {
    const old = this.#port
    this.#port = this.#create()
    this.#initialized = false
    this.#inFlight = false
    await old.close().catch(() => undefined)
  }

  async close(): Promise<void> {
    await this.#port.close()
  }

  /**
   * A transaction step, sent again after retriable errors until `max.block.ms` has passed (a
   * coordinator failover costs a wait, not the transaction); fencing and other errors are thrown
   * at once, the last retriable one after the bound.
   */
  async #untilBlocked(step: string, request: () => Promise<void>): Promise<void> {
    const maxBlockMs = this.#maxBlockMs
    await retrying(request, {
      timeoutMs: maxBlockMs,
      backoffMs: this.#o.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS,
      clock: systemClock,
      onRetry: (error, attempt) => {
        const text = `${this.#o.clientId} (transactional id ${String(this.#o.transactionalId)}): ${step} failed (${error instanceof Error ? error.message : String(error)}); sending it again for up to max.block.ms (${maxBlockMs} ms)`
        if (attempt === 0) this.#o.logger.warn(text)
        else this.#o.logger.debug(text)
      }
    })
  }

  get #maxBlockMs(): number {
    return this.#o.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS
  }

  #create(): ProducerPort {
    const { clients, clientId, transactionalId, configs = {} } = this.#o
    return clients.producer(transactionalId === undefined ? { clientId, configs } : { clientId, transactionalId, configs })
  }

  async #maybeBegin(): Promise<void> {
    if (this.#inFlight) return
    await this.initTransactions()
    try {
      await this.#transactions().begin()
    } catch (error) {
      throw this.#translate(error, 'Beginning a transaction')
    }
    this.#inFlight = true
  }

  #transactions(): NonNullable<ProducerPort['transactions']> {
    const transactions = this.#port.transactions
    if (transactions === undefined) {
      throw new StreamsError(
        'ILLEGAL_STATE',
        `${this.#o.clientId}: the Kafka client gave a producer without transactions for transactional id ${String(this.#o.transactionalId)}`
      )
    }
    return transactions
  }

  /**
   * Fencing becomes TASK_MIGRATED; an authentication or authorization error (no WRITE on a topic or
   * the transactional id) stays what it is, fatal as in Kafka Streams, since trying the transaction
   * again cannot help; anything else is a failed transaction (TASK_CORRUPTED for the tasks in it).
   */
  #translate(error: unknown, what: string): StreamsError {
    if (isSecurityError(error)) return error as StreamsError
    const text = `${this.#o.clientId} (transactional id ${String(this.#o.transactionalId)}): ${what} failed: ${error instanceof Error ? error.message : String(error)}`
    if (isKafkaError(error, ...FENCED))
      return new StreamsError('TASK_MIGRATED', `${text}; another producer or group member owns this output now`, { cause: error })
    if (error instanceof StreamsError && error.code === 'TASK_MIGRATED') return error
    return new StreamsError(
      'TASK_CORRUPTED',
      `${text}; the transaction is aborted and its tasks process again from their committed offsets`,
      { cause: error }
    )
  }
}
