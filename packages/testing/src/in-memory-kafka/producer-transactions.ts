/**
 * The client side of one transactional producer (Java's TransactionManager, simply): its state as
 * a transition table, InitProducerId on first use, and begin / send / sendOffsets / commit /
 * abort against the transaction coordinator. State checks are local (no request); the state moves
 * only on an answer. A fenced producer stays fenced; a send that failed leaves only abort(), as
 * does a sendOffsets that failed with an error that is not retriable; after a retriable one (the
 * coordinator moved or timed out) the transaction stays open and sendOffsets or commit may be
 * sent again, as Java's producer retries them.
 * @internal
 */
import type { GroupGeneration, ProducedRecord, SendResult, TopicPartitionOffset } from '@kstreams/core'
import type { ClientConnection } from './client-connection.js'
import type { InMemoryBroker } from './in-memory-broker.js'
import { kafkaError } from './request-errors.js'
import type { ProducerIdentity } from './transaction-coordinator.js'

export type TransactionState = 'UNINITIALIZED' | 'READY' | 'IN_TRANSACTION' | 'ABORTABLE_ERROR' | 'FENCED'

const TRANSITIONS: Record<TransactionState, readonly TransactionState[]> = {
  UNINITIALIZED: ['READY', 'FENCED'],
  READY: ['IN_TRANSACTION', 'FENCED'],
  IN_TRANSACTION: ['READY', 'ABORTABLE_ERROR', 'FENCED'],
  ABORTABLE_ERROR: ['READY', 'FENCED'],
  FENCED: []
}

const FENCING_ERRORS = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH'])

export class ProducerTransactions {
  readonly #broker: InMemoryBroker
  readonly #connection: ClientConnection
  readonly #transactionalId: string
  readonly #timeoutMs: number
  #state: TransactionState = 'UNINITIALIZED'
  #identity: ProducerIdentity | undefined
  #abortableCause: Error | undefined

  constructor(broker: InMemoryBroker, connection: ClientConnection, options: { transactionalId: string; transactionTimeoutMs: number }) {
    this.#broker = broker
    this.#connection = connection
    this.#transactionalId = options.transactionalId
    this.#timeoutMs = options.transactionTimeoutMs
  }

  get state(): TransactionState {
    return this.#state
  }

  /** InitProducerId now (Java's initTransactions): fences earlier producers of this transactional id. */
  async init(): Promise<void> {
    this.#failIfFenced()
    if (this.#state !== 'UNINITIALIZED') return
    this.#identity = await this.#call('beginTransaction', undefined, () =>
      this.#broker.transactions.initProducerId(this.#transactionalId, this.#timeoutMs)
    )
    this.#moveTo('READY')
  }

  async begin(): Promise<void> {
    this.#failIfFenced()
    if (this.#state !== 'UNINITIALIZED') this.#require('READY', 'begin a transaction')
    // InitProducerId on first use; a retry after a failed begin initialises again (a new epoch).
    const identity = await this.#call(
      'beginTransaction',
      undefined,
      () => this.#identity ?? this.#broker.transactions.initProducerId(this.#transactionalId, this.#timeoutMs)
    )
    if (this.#state === 'UNINITIALIZED') {
      this.#identity = identity
      this.#moveTo('READY')
    }
    this.#moveTo('IN_TRANSACTION')
  }

  /** Produce inside the open transaction. */
  async send(records: readonly ProducedRecord[], byPartition: ReadonlyMap<string, ProducedRecord[]>): Promise<SendResult> {
    return await this.#inTransaction('send', records, () => {
      for (const group of byPartition.values()) this.#broker.topics.requireLog(group[0]!)
      const result: SendResult = new Map()
      for (const [key, group] of byPartition) result.set(key, this.#broker.transactions.append(this.#identity!, group[0]!, group))
      return result
    })
  }

  async sendOffsets(
    groupId: string,
    generation: GroupGeneration,
    offsets: ReadonlyArray<TopicPartitionOffset & { readonly metadata?: string | undefined }>
  ): Promise<void> {
    await this.#inTransaction(
      'sendOffsets',
      offsets,
      () => {
        this.#broker.transactions.addOffsets(this.#identity!, groupId, generation, offsets)
      },
      groupId
    )
  }

  /** EndTxn(commit). A commit whose answer was lost may be retried: the coordinator has nothing open then. */
  async commit(): Promise<void> {
    this.#failIfFenced()
    if (this.#state === 'ABORTABLE_ERROR') {
      throw kafkaError(
        'INVALID_TXN_STATE',
        `cannot commit: the transaction of ${this.#transactionalId} failed (${this.#abortableCause?.message ?? ''}) and must be aborted`
      )
    }
    this.#require('IN_TRANSACTION', 'commit')
    await this.#call('commitTransaction', undefined, () => {
      this.#broker.transactions.endTransaction(this.#identity!, true)
    })
    this.#moveTo('READY')
  }

  async abort(): Promise<void> {
    this.#failIfFenced()
    if (this.#state !== 'ABORTABLE_ERROR') this.#require('IN_TRANSACTION', 'abort')
    await this.#call('abortTransaction', undefined, () => {
      this.#broker.transactions.endTransaction(this.#identity!, false)
    })
    this.#abortableCause = undefined
    this.#moveTo('READY')
  }

  /** A send or sendOffsets: needs an open transaction; a failure leaves the transaction abortable only (not a retriable one of sendOffsets). */
  async #inTransaction<T>(
    api: 'send' | 'sendOffsets',
    partitions: ReadonlyArray<{ topic: string; partition: number }>,
    handler: () => T,
    groupId?: string
  ): Promise<T> {
    this.#failIfFenced()
    if (this.#state !== 'IN_TRANSACTION') {
      throw kafkaError(
        'INVALID_TXN_STATE',
        `cannot ${api} outside a transaction (transactional id ${this.#transactionalId} is ${this.#state})`
      )
    }
    try {
      return await this.#broker.call(
        this.#connection,
        {
          api,
          clientId: this.#connection.clientId,
          groupId,
          partitions: partitions.map(p => ({ topic: p.topic, partition: p.partition }))
        },
        handler
      )
    } catch (error) {
      this.#onError(error)
      if (this.#state === 'IN_TRANSACTION' && (api === 'send' || (error as { retriable?: unknown }).retriable !== true)) {
        this.#abortableCause = error as Error
        this.#moveTo('ABORTABLE_ERROR')
      }
      throw error
    }
  }

  async #call<T>(
    api: 'beginTransaction' | 'commitTransaction' | 'abortTransaction',
    groupId: string | undefined,
    handler: () => T
  ): Promise<T> {
    try {
      return await this.#broker.call(this.#connection, { api, clientId: this.#connection.clientId, groupId }, handler)
    } catch (error) {
      this.#onError(error)
      throw error
    }
  }

  #onError(error: unknown): void {
    const name = (error as { errorName?: unknown }).errorName
    if (typeof name === 'string' && FENCING_ERRORS.has(name) && this.#state !== 'FENCED') this.#moveTo('FENCED')
  }

  #failIfFenced(): void {
    if (this.#state === 'FENCED') {
      throw kafkaError('PRODUCER_FENCED', `transactional id ${this.#transactionalId}: this producer was fenced by a newer one`)
    }
  }

  #require(state: TransactionState, what: string): void {
    if (this.#state !== state)
      throw kafkaError('INVALID_TXN_STATE', `cannot ${what}: transactional id ${this.#transactionalId} is ${this.#state}`)
  }

  #moveTo(state: TransactionState): void {
    if (!TRANSITIONS[this.#state].includes(state)) {
      throw kafkaError('INVALID_TXN_STATE', `transactional producer ${this.#transactionalId} cannot move from ${this.#state} to ${state}`)
    }
    this.#state = state
  }
}
