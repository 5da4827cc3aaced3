/**
 * The transaction steps of one transactional ProducerPort on a platformatic Producer:
 *
 * - init(): InitProducerId with producer id -1 and epoch -1 (platformatic's own default is 0/0,
 *   which a coordinator takes for an expected earlier producer id and answers PRODUCER_FENCED
 *   for a transactional id used before); the Producer is built with -1/-1 as its defaults, and
 *   init() opens a platformatic transaction (which sends InitProducerId) and drops it again
 *   locally (nothing was added to it, so the coordinator holds no open transaction).
 *   CONCURRENT_TRANSACTIONS (an earlier transaction of this id still completing) is retried
 *   until the request timeout has passed.
 * - begin(): a platformatic transaction (AddPartitionsToTxn happens at the first send to a partition).
 * - sendOffsets(): AddOffsetsToTxn (once per group and transaction, platformatic's
 *   `addConsumer`), then one TxnOffsetCommit v4 to the group's coordinator with every partition,
 *   its metadata string, the group generation, member id and group instance id (KIP-447).
 * - commit()/abort(): EndTxn (a transaction nothing was sent in ends locally, as in Java).
 *
 * Fencing (PRODUCER_FENCED, INVALID_PRODUCER_EPOCH, TRANSACTIONAL_ID_AUTHORIZATION_FAILED) makes
 * the producer unusable: every later step rejects with the same error name, and it must be
 * closed. A sendOffsets or commit that failed with a retriable error (a coordinator that moved,
 * is loading or did not answer, CONCURRENT_TRANSACTIONS) leaves the transaction as it was: the
 * runtime sends it again (AddOffsetsToTxn is sent again until it succeeded once, TxnOffsetCommit
 * and EndTxn with the same producer id and epoch, which the coordinator answers with the same
 * outcome). Any other failed send, sendOffsets or commit leaves only abort(): a send is not sent
 * again by the runtime (platformatic gave its records their sequence numbers already).
 */
import { txnOffsetCommitV4, type Consumer, type Producer } from '@platformatic/kafka'
import {
  IllegalStateError,
  KafkaRequestError,
  isKafkaError,
  tpKey,
  type AclRequest,
  type Clock,
  type GroupGeneration,
  type Logger,
  type TopicPartitionOffset,
  groupByTopic
} from '@kstreams/core'
import type { BrokerConnections } from './broker-connections.js'
import { viaCallback } from './callbacks.js'
import { CoordinatorLookup } from './coordinator-lookup.js'
import { fromErrorCode, toKafkaRequestError } from './platformatic-errors.js'

type OffsetsWithMetadata = ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
type PlatformaticProducer = Producer<Buffer, Buffer, Buffer, Buffer>
/** platformatic's Transaction class (not exported by name). */
type PlatformaticTransaction = NonNullable<PlatformaticProducer['transaction']>

/** Errors after which this producer's epoch is gone for good. */
const FATAL = ['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED', 'INVALID_PRODUCER_ID_MAPPING'] as const
const CONCURRENT_TRANSACTIONS = 'CONCURRENT_TRANSACTIONS'
const INIT_RETRY_MS = 100

export class ProducerTransactions {
  readonly #producer: PlatformaticProducer
  readonly #transactionalId: string
  readonly #clientId: string
  readonly #connections: BrokerConnections
  readonly #logger: Logger
  readonly #initTimeoutMs: number
  readonly #clock: Clock
  readonly #coordinators = new Map<string, CoordinatorLookup>()
  #transaction: PlatformaticTransaction | undefined
  #initialised = false
  /** Why this producer cannot go on (fenced); set once, never cleared. */
  #fatal: KafkaRequestError | undefined
  /** Why the open transaction can only be aborted. */
  #abortOnly: KafkaRequestError | undefined
  /** Whether the open transaction may hold anything at the coordinator (a send or sendOffsets was tried). */
  #touched = false

  constructor(options: {
    producer: PlatformaticProducer
    transactionalId: string
    clientId: string
    connections: BrokerConnections
    logger: Logger
    clock: Clock
    initTimeoutMs: number
  }) {
    this.#producer = options.producer
    this.#transactionalId = options.transactionalId
    this.#clientId = options.clientId
    this.#connections = options.connections
    this.#logger = options.logger
    this.#initTimeoutMs = options.initTimeoutMs
    this.#clock = options.clock
  }

  /** The open transaction, for sends; throws when there is none or it can only be aborted. */
  sending(): PlatformaticTransaction {
    this.#requireUsable('send')
    if (this.#abortOnly !== undefined) throw this.#abortOnlyError('send', this.#abortOnly)
    return this.#requireTransaction('send')
  }

  /** A send into the open transaction is about to go out (AddPartitionsToTxn, then Produce). */
  touch(): void {
    this.#touched = true
  }

  /** Records a failed step: fatal for fencing, abort-only otherwise (unless `retriable` and the error is: the step may be sent again). */
  failed(error: KafkaRequestError, retriable = false): void {
    const again = retriable && error.retriable
    if (isKafkaError(error, ...FATAL)) this.#fatal ??= error
    else if (this.#transaction !== undefined && !again) this.#abortOnly ??= error
  }

  async init(): Promise<void> {
    this.#requireUsable('init')
    if (this.#initialised) return
    const deadline = this.#clock.milliseconds() + this.#initTimeoutMs
    for (;;) {
      try {
        const transaction = await viaCallback<PlatformaticTransaction>(cb => {
          this.#producer.beginTransaction({ producerId: -1n, producerEpoch: -1 }, cb)
        })
        await viaCallback(cb => {
          transaction.cancel(cb)
        })
        this.#initialised = true
        return
      } catch (error) {
        await this.#dropFailedBegin()
        const mapped = toKafkaRequestError(
          error,
          `InitProducerId of transactional id ${this.#transactionalId} (producer ${this.#clientId})`,
          'request',
          { api: 'InitProducerId', transactionalId: this.#transactionalId }
        )
        if (mapped instanceof KafkaRequestError && mapped.errorName === CONCURRENT_TRANSACTIONS && this.#clock.milliseconds() < deadline) {
          this.#logger.debug(
            `Producer ${this.#clientId}: an earlier transaction of ${this.#transactionalId} is still completing; retrying InitProducerId`
          )
          await new Promise(resolve => setTimeout(resolve, INIT_RETRY_MS))
          continue
        }
        if (mapped instanceof KafkaRequestError) this.failed(mapped)
        throw mapped
      }
    }
  }

  async begin(): Promise<void> {
    this.#requireUsable('begin')
    if (this.#transaction !== undefined) throw new IllegalStateError(`Producer ${this.#clientId}: a transaction is already open`)
    if (!this.#initialised) await this.init()
    try {
      this.#transaction = await viaCallback<PlatformaticTransaction>(cb => {
        this.#producer.beginTransaction({ producerId: -1n, producerEpoch: -1 }, cb)
      })
      this.#abortOnly = undefined
      this.#touched = false
    } catch (error) {
      await this.#dropFailedBegin()
      throw this.#failure(error, `Beginning a transaction of producer ${this.#clientId}`, { api: 'InitProducerId' })
    }
  }

  async sendOffsets(groupId: string, generation: GroupGeneration, offsets: OffsetsWithMetadata): Promise<void> {
    this.#requireUsable('sendOffsets')
    if (this.#abortOnly !== undefined) throw this.#abortOnlyError('sendOffsets', this.#abortOnly)
    const transaction = this.#requireTransaction('sendOffsets')
    if (offsets.length === 0) return
    this.#touched = true
    const what = `Sending offsets of group ${groupId} in a transaction of producer ${this.#clientId}`
    try {
      // AddOffsetsToTxn: platformatic reads only the group id of the "consumer".
      await viaCallback(cb => {
        transaction.addConsumer({ groupId } as unknown as Consumer<Buffer, Buffer, Buffer, Buffer>, cb)
      })
      await this.#txnOffsetCommit(groupId, generation, offsets, what)
    } catch (error) {
      throw this.#failure(error, what, { api: 'AddOffsetsToTxn', group: groupId }, true)
    }
  }

  async end(how: 'commit' | 'abort'): Promise<void> {
    this.#requireUsable(how)
    if (how === 'commit' && this.#abortOnly !== undefined) throw this.#abortOnlyError('commit', this.#abortOnly)
    const transaction = this.#requireTransaction(how)
    try {
      // A coordinator answers EndTxn of a transaction it never saw with INVALID_TXN_STATE: one
      // that holds nothing ends here, as Java's producer ends it.
      if (this.#touched)
        await viaCallback(cb => {
          how === 'commit' ? transaction.commit(cb) : transaction.abort(cb)
        })
      else
        await viaCallback(cb => {
          transaction.cancel(cb)
        })
    } catch (error) {
      throw this.#failure(error, `Transaction ${how} of producer ${this.#clientId}`, { api: 'EndTxn' }, how === 'commit')
    }
    this.#transaction = undefined
    this.#abortOnly = undefined
  }

  async #txnOffsetCommit(groupId: string, generation: GroupGeneration, offsets: OffsetsWithMetadata, what: string): Promise<void> {
    const producerId = this.#producer.producerId
    const producerEpoch = this.#producer.producerEpoch
    if (producerId === undefined || producerEpoch === undefined) throw new IllegalStateError(`${what}: the producer has no producer id`)
    let coordinator = this.#coordinators.get(groupId)
    if (coordinator === undefined) this.#coordinators.set(groupId, (coordinator = new CoordinatorLookup(this.#connections, groupId)))
    const topics = groupByTopic(offsets).map(({ topic, items }) => ({
      name: topic,
      partitions: items.map(o => ({
        partitionIndex: o.partition,
        committedOffset: BigInt(o.offset),
        committedLeaderEpoch: -1,
        committedMetadata: o.metadata ?? null
      }))
    }))
    try {
      const connection = await coordinator.connection(what)
      const response = await this.#connections.request(
        connection,
        txnOffsetCommitV4.api,
        [
          this.#transactionalId,
          groupId,
          producerId,
          producerEpoch,
          generation.generationId,
          generation.memberId,
          generation.groupInstanceId ?? null,
          topics
        ],
        `${what} (TxnOffsetCommit)`
      )
      for (const { name, partitions } of response.topics) {
        const failed = partitions.find(p => p.errorCode !== 0)
        if (failed !== undefined)
          throw fromErrorCode(failed.errorCode, `${what} (TxnOffsetCommit of ${tpKey(name, failed.partitionIndex)})`, null, {
            api: 'TxnOffsetCommit',
            transactionalId: this.#transactionalId,
            group: groupId,
            topic: name
          })
      }
    } catch (error) {
      coordinator.forgetAfter(error)
      throw error
    }
  }

  /** platformatic keeps a transaction whose begin failed as the producer's open one; it is dropped (locally) here. */
  async #dropFailedBegin(): Promise<void> {
    const stale = this.#producer.transaction
    if (stale !== undefined && stale !== this.#transaction)
      await viaCallback(cb => {
        stale.cancel(cb)
      }).catch(() => undefined)
  }

  /**
   * `error` as a KafkaRequestError, recorded (see failed()); `retriable`: a retriable one leaves the
   * transaction as it was. `request`: the step's request, for an authorization error (the API the
   * client names in its error wins).
   */
  #failure(error: unknown, what: string, request: Omit<AclRequest, 'transactionalId'>, retriable = false): Error {
    const mapped = toKafkaRequestError(error, what, 'request', { ...request, transactionalId: this.#transactionalId })
    if (mapped instanceof KafkaRequestError) this.failed(mapped, retriable)
    return mapped
  }

  #requireTransaction(what: string): PlatformaticTransaction {
    if (this.#transaction === undefined) throw new IllegalStateError(`Producer ${this.#clientId}: ${what}() without an open transaction`)
    return this.#transaction
  }

  #requireUsable(what: string): void {
    const fatal = this.#fatal
    if (fatal === undefined) return
    throw new KafkaRequestError(
      fatal.errorName,
      `${what}() on producer ${this.#clientId} (transactional id ${this.#transactionalId}), which was fenced earlier and must be closed`,
      { cause: fatal }
    )
  }

  #abortOnlyError(what: string, cause: KafkaRequestError): IllegalStateError {
    return new IllegalStateError(
      `Producer ${this.#clientId}: ${what}() after a failed step of this transaction (${cause.errorName}); only abort() is left`,
      { cause }
    )
  }
}
