/**
 * Injected faults: failures (before the broker handles a request, or after, so the client sees an
 * error for a request that took effect) and delays, each matching requests by API, client id,
 * group and partition, for a number of times.
 * @internal
 */
import { StreamsError } from '@kstreams/core'
import type { KafkaErrorName, TopicPartition } from '@kstreams/core'
import type { KafkaApi } from './kafka-api.js'
import { KAFKA_APIS } from './kafka-api.js'

/** Which requests a fault applies to; every given field must match. */
export interface FaultTarget {
  /** The request(s), by port method name. */
  readonly api: KafkaApi | readonly KafkaApi[]
  /** The client id the port was created with: equal to a string, or matching a RegExp. */
  readonly clientId?: string | RegExp
  /** Group requests of this group only. */
  readonly groupId?: string
  /**
   * Requests that touch this topic (and partition) only. A failure of `api: 'fetch'` (alone) so
   * targeted fails just that partition of the response, as a PartitionError.
   */
  readonly topic?: string
  /** With `topic`: requests that touch this partition only. */
  readonly partition?: number
  /** How many matching requests it applies to (default 1; Infinity for all of them). */
  readonly times?: number
}

/** A failure to inject (InMemoryKafka.failNext): which requests, and the Kafka error they get. */
export interface FailureSpec extends FaultTarget {
  /** Kafka's error name the request rejects with. */
  readonly error: KafkaErrorName
  /** Handle the request first, then lose the answer: the client sees `error` although the request took effect. */
  readonly afterProcessing?: boolean
}

/** A delay to inject (InMemoryKafka.delay): which requests, and by how much. */
export interface DelaySpec extends FaultTarget {
  /** How long the request takes to reach the broker. */
  readonly ms: number
}

/** A registered fault: how often it struck, how often it still will, and a way to withdraw it. */
export interface Fault {
  /** How many requests it struck so far. */
  readonly hits: number
  /** How many more requests it will strike. */
  readonly remaining: number
  /** Withdraws it. */
  remove(): void
}

/** What a request carries that faults match on. */
export interface RequestScope {
  readonly api: KafkaApi
  readonly clientId: string
  readonly groupId?: string | undefined
  readonly partitions?: readonly TopicPartition[] | undefined
}

interface Rule {
  readonly target: FaultTarget
  readonly apis: ReadonlySet<KafkaApi>
  readonly failure: FailureSpec | undefined
  readonly delayMs: number
  hits: number
  remaining: number
}

export class FaultInjector {
  #rules: Rule[] = []

  fail(spec: FailureSpec): Fault {
    return this.#add(spec, spec, 0)
  }

  delay(spec: DelaySpec): Fault {
    if (!(spec.ms >= 0)) throw new StreamsError('ILLEGAL_ARGUMENT', `delay: ms must be a non-negative number, got ${spec.ms}`)
    return this.#add(spec, undefined, spec.ms)
  }

  clear(): void {
    this.#rules = []
  }

  /** Takes the delay of the first matching delay rule (0 when none). */
  takeDelay(scope: RequestScope): number {
    return this.#take(scope, r => r.failure === undefined)?.delayMs ?? 0
  }

  /** Takes the first matching request-level failure (a partition-targeted fetch failure is not one). */
  takeFailure(scope: RequestScope): FailureSpec | undefined {
    return this.#take(scope, r => r.failure !== undefined && !isPartitionFetchFailure(r))?.failure
  }

  /** Takes the first failure targeting this partition of a fetch. */
  takePartitionFailure(scope: RequestScope, tp: TopicPartition): FailureSpec | undefined {
    return this.#take({ ...scope, partitions: [tp] }, isPartitionFetchFailure)?.failure
  }

  #add(target: FaultTarget, failure: FailureSpec | undefined, delayMs: number): Fault {
    const apis = new Set(typeof target.api === 'string' ? [target.api] : target.api)
    for (const api of apis) {
      if (!(KAFKA_APIS as readonly string[]).includes(api))
        throw new StreamsError('ILLEGAL_ARGUMENT', `unknown api '${api}' (one of ${KAFKA_APIS.join(', ')})`)
    }
    const times = target.times ?? 1
    if (!(times > 0)) throw new StreamsError('ILLEGAL_ARGUMENT', `times must be positive, got ${times}`)
    const rule: Rule = { target, apis, failure, delayMs, hits: 0, remaining: times }
    this.#rules.push(rule)
    return {
      get hits() {
        return rule.hits
      },
      get remaining() {
        return rule.remaining
      },
      remove: () => {
        this.#rules = this.#rules.filter(r => r !== rule)
      }
    }
  }

  #take(scope: RequestScope, kind: (rule: Rule) => boolean): Rule | undefined {
    const rule = this.#rules.find(r => kind(r) && matches(r, scope))
    if (rule === undefined) return undefined
    rule.hits++
    if (--rule.remaining <= 0) this.#rules = this.#rules.filter(r => r !== rule)
    return rule
  }
}

function isPartitionFetchFailure(rule: Rule): boolean {
  return rule.failure !== undefined && rule.target.topic !== undefined && rule.apis.size === 1 && rule.apis.has('fetch')
}

function matches(rule: Rule, scope: RequestScope): boolean {
  const t = rule.target
  if (!rule.apis.has(scope.api)) return false
  if (t.clientId !== undefined && !clientIdMatches(t.clientId, scope.clientId)) return false
  if (t.groupId !== undefined && t.groupId !== scope.groupId) return false
  if (t.topic !== undefined) {
    return (scope.partitions ?? []).some(tp => tp.topic === t.topic && (t.partition === undefined || tp.partition === t.partition))
  }
  return true
}

/** A string matches the whole client id; a RegExp anywhere in it. */
export function clientIdMatches(pattern: string | RegExp, clientId: string): boolean {
  if (typeof pattern === 'string') return pattern === clientId
  pattern.lastIndex = 0
  return pattern.test(clientId)
}
