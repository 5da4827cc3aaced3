/**
 * What the soak (parent) and an instance process (child, instance.ts) say to each other over the
 * fork IPC channel, and what the child is started with (its spec, as the one argument, JSON).
 *   parent -> child: { type: 'stop', leaveGroup } (a clean close)
 *   child -> parent: started, a sample every sampleEveryMs, state changes, stopped, failed
 */
import type { MemorySample } from './sampler.js'
import type { SoakTopics } from './records.js'

export interface InstanceSpec {
  /** 'A' or 'B': the instance whatever its restarts (its state directory stays). */
  readonly name: string
  readonly applicationId: string
  readonly bootstrapServers: string
  readonly stateDir: string
  readonly topics: SoakTopics
  readonly eos: boolean
  readonly commitIntervalMs: number
  readonly sampleEveryMs: number
}

/** A clean close; `leaveGroup`: the member leaves the group at once instead of when its session times out. */
export type ParentMessage = { readonly type: 'stop'; readonly leaveGroup: boolean }

export type ChildMessage =
  | { readonly type: 'started' }
  | { readonly type: 'sample'; readonly sample: MemorySample }
  | { readonly type: 'state'; readonly from: string; readonly to: string }
  | { readonly type: 'stopped' }
  | { readonly type: 'failed'; readonly message: string }
