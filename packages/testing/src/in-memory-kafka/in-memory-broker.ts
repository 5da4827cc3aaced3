/**
 * The in-memory cluster's insides, wired together: timers, topics, the group coordinator, offsets,
 * transactions and faults; the connections of the ports and the disconnected client ids; and
 * call(), the one path every port request takes (connection, injected delay and failure, the
 * handler, the request log).
 * @internal
 */
import { BrokerTimers } from './broker-timers.js'
import { ChangeSignal } from './change-signal.js'
import { ClientConnection } from './client-connection.js'
import { clientIdMatches, FaultInjector } from './fault-injector.js'
import type { RequestScope } from './fault-injector.js'
import { GroupCoordinator } from './group-coordinator.js'
import type { RequestRecord } from './kafka-api.js'
import { OffsetStore } from './offset-store.js'
import { kafkaError } from './request-errors.js'
import type { BrokerErrorName } from './request-errors.js'
import type { Scheduler } from './scheduler.js'
import { TopicRegistry } from './topic-registry.js'
import { TransactionCoordinator } from './transaction-coordinator.js'

export interface InMemoryBrokerOptions {
  readonly nodes: number
  readonly scheduler: Scheduler
  readonly initialRebalanceDelayMs: number
  readonly newMemberJoinTimeoutMs: number
  readonly minSessionTimeoutMs: number
  readonly maxSessionTimeoutMs: number
  readonly defaultPartitions: number
  readonly maxRequestLog: number
}

export class InMemoryBroker {
  readonly timers: BrokerTimers
  readonly signal: ChangeSignal
  readonly topics: TopicRegistry
  readonly coordinator: GroupCoordinator
  readonly offsets: OffsetStore
  readonly transactions: TransactionCoordinator
  readonly faults = new FaultInjector()
  readonly defaultPartitions: number
  readonly #maxRequestLog: number
  readonly #connections = new Set<ClientConnection>()
  #disconnected: Array<string | RegExp> = []
  #log: RequestRecord[] = []
  #closed = false

  constructor(options: InMemoryBrokerOptions) {
    this.timers = new BrokerTimers(options.scheduler)
    this.signal = new ChangeSignal(this.timers)
    this.topics = new TopicRegistry(
      Array.from({ length: options.nodes }, (_, i) => i + 1),
      this.signal
    )
    this.coordinator = new GroupCoordinator({
      timers: this.timers,
      initialRebalanceDelayMs: options.initialRebalanceDelayMs,
      newMemberJoinTimeoutMs: options.newMemberJoinTimeoutMs,
      minSessionTimeoutMs: options.minSessionTimeoutMs,
      maxSessionTimeoutMs: options.maxSessionTimeoutMs
    })
    this.offsets = new OffsetStore({ coordinator: this.coordinator, topics: this.topics, signal: this.signal })
    this.transactions = new TransactionCoordinator({ topics: this.topics, offsets: this.offsets, timers: this.timers })
    this.defaultPartitions = options.defaultPartitions
    this.#maxRequestLog = options.maxRequestLog
  }

  get closed(): boolean {
    return this.#closed
  }

  /** A connection for a new port. */
  connect(clientId: string, describe: string): ClientConnection {
    const connection = new ClientConnection(clientId, describe)
    this.#connections.add(connection)
    return connection
  }

  /** A port closed. */
  release(connection: ClientConnection): void {
    connection.close()
    this.#connections.delete(connection)
  }

  /** Requests of matching clients fail with NETWORK_EXCEPTION, those in flight at once, until reconnect(). */
  disconnect(clientId: string | RegExp): void {
    this.#disconnected.push(clientId)
    for (const connection of this.#connections) {
      if (clientIdMatches(clientId, connection.clientId)) connection.drop(() => networkError(connection.clientId))
    }
  }

  /** Lifts disconnect(pattern) for an equal pattern, or every disconnect when none is given. */
  reconnect(clientId?: string | RegExp): void {
    this.#disconnected = clientId === undefined ? [] : this.#disconnected.filter(p => !samePattern(p, clientId))
  }

  isDisconnected(clientId: string): boolean {
    return this.#disconnected.some(p => clientIdMatches(p, clientId))
  }

  /** Runs one request of a port through connection checks, injected faults and the request log. */
  async call<T>(connection: ClientConnection, scope: RequestScope, handler: () => T | Promise<T>): Promise<T> {
    const startMs = this.timers.now()
    let error: unknown
    try {
      return await connection.track(async () => {
        this.#checkReachable(connection.clientId)
        const delayMs = this.faults.takeDelay(scope)
        if (delayMs > 0) {
          await this.timers.sleep(delayMs)
          this.#checkReachable(connection.clientId)
        }
        const failure = this.faults.takeFailure(scope)
        if (failure !== undefined && failure.afterProcessing !== true) throw injected(failure.error, scope)
        const result = await handler()
        if (failure !== undefined) throw injected(failure.error, scope)
        return result
      })
    } catch (e) {
      error = e
      throw e
    } finally {
      this.#record(scope, startMs, error)
    }
  }

  requests(): RequestRecord[] {
    return [...this.#log]
  }

  clearRequests(): void {
    this.#log = []
  }

  /** The broker goes away: requests in flight fail with NETWORK_EXCEPTION, groups die, timers stop. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    for (const connection of this.#connections) connection.drop(() => kafkaError('NETWORK_EXCEPTION', 'the in-memory Kafka was closed'))
    this.coordinator.close()
    this.signal.notify()
    this.timers.close()
  }

  #checkReachable(clientId: string): void {
    if (this.#closed) throw kafkaError('NETWORK_EXCEPTION', 'the in-memory Kafka is closed')
    if (this.isDisconnected(clientId)) throw networkError(clientId)
  }

  #record(scope: RequestScope, startMs: number, error: unknown): void {
    const name =
      error === undefined
        ? undefined
        : typeof (error as { errorName?: unknown }).errorName === 'string'
          ? (error as { errorName: string }).errorName
          : (error as Error).name
    this.#log.push({
      api: scope.api,
      clientId: scope.clientId,
      groupId: scope.groupId,
      partitions: scope.partitions,
      startMs,
      endMs: this.timers.now(),
      error: name
    })
    if (this.#log.length > this.#maxRequestLog) this.#log.splice(0, this.#log.length - this.#maxRequestLog)
  }
}

const networkError = (clientId: string): Error => kafkaError('NETWORK_EXCEPTION', `client ${clientId} is disconnected`)
const injected = (error: BrokerErrorName, scope: RequestScope): Error =>
  kafkaError(error, `injected fault on ${scope.api} of client ${scope.clientId}`)

function samePattern(a: string | RegExp, b: string | RegExp): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b
  return a.source === b.source && a.flags === b.flags
}
