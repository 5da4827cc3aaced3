/** Shared helpers of the in-memory Kafka tests. */
import { expect } from 'chai'
import type { GroupCoordinatorPort, JoinGroupRequest, JoinGroupResponse } from '@kstreams/core'
import { InMemoryKafka, ManualScheduler } from '@kstreams/testing/in-memory-kafka'
import type { InMemoryKafkaOptions } from '@kstreams/testing/in-memory-kafka'

export function joinRequest(overrides: Partial<JoinGroupRequest> = {}): JoinGroupRequest {
  return {
    memberId: '',
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 30_000,
    protocolType: 'consumer',
    protocols: [{ name: 'range', metadata: Buffer.from('subscription') }],
    ...overrides
  }
}

/** An InMemoryKafka on a ManualScheduler (the caller closes it). */
export function manualKafka(options: InMemoryKafkaOptions = {}): { kafka: InMemoryKafka; scheduler: ManualScheduler } {
  const scheduler = new ManualScheduler(1_000_000)
  return { kafka: new InMemoryKafka({ ...options, scheduler }), scheduler }
}

/** Resolves with the Kafka error name a promise rejects with. */
export async function errorNameOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    const name = (error as { errorName?: unknown }).errorName
    if (typeof name === 'string') return name
    throw error
  }
  expect.fail('expected the request to fail')
}

/** Whether a promise has settled (after letting pending callbacks run). */
export async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  promise.then(
    () => {
      settled = true
    },
    () => {
      settled = true
    }
  )
  for (let i = 0; i < 5; i++) await new Promise<void>(resolve => setImmediate(resolve))
  return settled
}

/** Polls `condition` on real timers until it holds. */
export async function eventually(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) expect.fail(`condition not met within ${timeoutMs} ms`)
    await new Promise(resolve => setTimeout(resolve, 5))
  }
}

/**
 * Joins `ports` as new members and completes the first generation: every member joins, the
 * initial-rebalance timer fires, the leader syncs `assign(memberIds)`, the followers sync.
 */
export async function formGroup(
  scheduler: ManualScheduler,
  ports: readonly GroupCoordinatorPort[],
  options: { request?: Partial<JoinGroupRequest>; assign?: (memberIds: string[]) => Map<string, Buffer> } = {}
): Promise<JoinGroupResponse[]> {
  const joins = ports.map(port => port.joinGroup(joinRequest(options.request)))
  scheduler.advance(0)
  const responses = await Promise.all(joins)
  const leader = responses.find(r => r.memberId === r.leaderId)!
  const assignment =
    options.assign?.(leader.members.map(m => m.memberId)) ??
    new Map(leader.members.map(m => [m.memberId, Buffer.from(`for ${m.memberId}`)]))
  await Promise.all(
    responses.map(
      async (r, i) =>
        await ports[i]!.syncGroup({
          generationId: r.generationId,
          memberId: r.memberId,
          protocolType: 'consumer',
          protocolName: r.protocolName,
          assignments: r.memberId === r.leaderId ? [...assignment].map(([memberId, a]) => ({ memberId, assignment: a })) : []
        })
    )
  )
  return responses
}
