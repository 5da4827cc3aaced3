/**
 * The messages between the e2e bench (parent) and a pipeline worker (child) over the fork IPC
 * channel, and the environment variable that asks a profiled worker for its source maps.
 *   parent -> { type: 'start', spec } | { type: 'stop' }
 *   child  -> { type: 'ready' } | { type: 'started' } | { type: 'stopped', maxBlockMs } | { type: 'failed', message }
 */
import type { PipelineSpec } from './pipelines.js'

export type ParentMessage = { readonly type: 'start'; readonly spec: PipelineSpec } | { readonly type: 'stop' }
export type WorkerMessage =
  | { readonly type: 'ready' | 'started' }
  /** maxBlockMs: the longest the worker's event loop was blocked while the pipeline ran. */
  | { readonly type: 'stopped'; readonly maxBlockMs: number }
  | { readonly type: 'failed'; readonly message: string }

/** Set by the parent when the worker is profiled: where to save the loaded files' source maps. */
export const SOURCE_MAPS_ENV = 'BENCH_E2E_SOURCE_MAPS'

/** Worker argument: replace kafkajs' quadratic message grouping first (linear-grouping.ts). */
export const LINEAR_GROUPING_ARG = '--linear-grouping'
