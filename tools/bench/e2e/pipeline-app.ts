/**
 * The application module of a kstreams pipeline on worker threads (pipelines.ts, threads > 1):
 * KafkaStreams.onWorkerThreads imports it on the main thread and on every worker, each building
 * the pipeline from the PipelineSpec in the module URL's `spec` query parameter.
 */
import type { StreamsApp } from '@kstreams/core'
import { pipelineApp, type PipelineSpec } from './pipelines.js'

export default function app(): StreamsApp {
  return pipelineApp(JSON.parse(new URL(import.meta.url).searchParams.get('spec')!) as PipelineSpec)
}
