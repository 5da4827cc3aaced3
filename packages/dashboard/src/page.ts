/**
 * The page, its style sheet and its script, all from this package (no asset from elsewhere, no
 * inline script or style: the content security policy allows only these). The page is rendered
 * once: the topology diagram as inline SVG and describe()'s text; the script (page-script.ts)
 * fills in the instances, progress, rates and store browser from `api/state`.
 */
import { dashboardClient } from './page-script.js'
import { escapeXml, topologySvg } from './topology-svg.js'
import type { TopologyView } from './topology-view.js'

/** The page's HTML. */
export function dashboardPage(options: { title: string; topology: TopologyView; pollIntervalMs: number }): string {
  const title = escapeXml(options.title)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · kstreams</title>
<link rel="stylesheet" href="dashboard.css">
<script src="dashboard.js" defer></script>
</head>
<body data-poll-ms="${options.pollIntervalMs}">
<header>
  <h1>${title}</h1>
  <div id="status" aria-live="polite">connecting…</div>
</header>
<main>
<section id="topology">
  <h2>Topology</h2>
  <div class="diagram">${topologySvg(options.topology)}</div>
  <details><summary>describe()</summary><pre>${escapeXml(options.topology.text)}</pre></details>
</section>
<section id="instances">
  <h2>Instances <span id="instance-count"></span></h2>
  <div id="instance-list"></div>
</section>
<section id="progress">
  <h2>Restores and standbys</h2>
  <div id="progress-list"><p class="empty">none</p></div>
</section>
<section id="rates">
  <h2>Throughput and latency</h2>
  <div id="rate-list"></div>
</section>
<section id="store-browser">
  <h2>Store browser</h2>
  <form id="iq-form">
    <label>Store <select id="iq-store"></select></label>
    <label>Key <input id="iq-key" autocomplete="off" required></label>
    <label>Ask for <select id="iq-mode"><option value="value">value</option><option value="windows">windows</option><option value="sessions">sessions</option></select></label>
    <label class="window-range">From <input id="iq-from" inputmode="numeric" placeholder="epoch ms"></label>
    <label class="window-range">To <input id="iq-to" inputmode="numeric" placeholder="epoch ms"></label>
    <button id="iq-submit" type="submit">Look up</button>
  </form>
  <div id="iq-answer"><p id="iq-owner"></p><pre id="iq-result"></pre></div>
</section>
</main>
</body>
</html>
`
}

/** The page's script: the client function, called once the page is parsed. */
export function dashboardScript(): string {
  // A build of the source may name nested functions through esbuild's __name helper: define it as a no-op.
  return `"use strict";\nvar __name = function (f) { return f };\n(${dashboardClient.toString()})();\n`
}

/** The page's style sheet. */
export const DASHBOARD_CSS = `
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --bg: #f6f8fa; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --accent: #0969da; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0; }
header { display: flex; align-items: baseline; gap: 1.5rem; padding: .8rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--bg); }
h1 { font-size: 1.25rem; margin: 0; } h2 { font-size: 1.05rem; margin: 1.4rem 0 .6rem; }
main { padding: 0 1.5rem 2rem; }
#status { color: var(--muted); } #status.error { color: var(--bad); }
.diagram { overflow: auto; border: 1px solid var(--line); border-radius: 6px; padding: .6rem; background: #fff; }
svg.topology text { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; text-anchor: middle; fill: var(--fg); }
svg.topology .title, svg.topology .pattern { text-anchor: start; font-weight: 600; }
svg.topology .frame { fill: #fbfcfd; stroke: var(--line); }
svg.topology .global .frame { stroke-dasharray: 6 4; }
svg.topology .node rect { fill: #ddf4ff; stroke: #54aeff; }
svg.topology .node.processor rect { fill: #fff8c5; stroke: #d4a72c; }
svg.topology .node.sink rect { fill: #dafbe1; stroke: #4ac26b; }
svg.topology .store rect { fill: #fbefff; stroke: #c297ff; }
svg.topology .topic rect { fill: #fff; stroke: #8c959f; stroke-dasharray: 3 2; }
svg.topology .topic.repartition rect { stroke: #bf8700; stroke-width: 1.5; }
svg.topology .topic.changelog rect { stroke: #8250df; }
svg.topology .edge { fill: none; stroke: #8c959f; stroke-width: 1.2; }
svg.topology .store-link, svg.topology .changelog-link { stroke-dasharray: 4 3; }
svg.topology marker path { fill: #8c959f; }
details pre { background: var(--bg); padding: .8rem; border-radius: 6px; overflow: auto; }
#instance-list { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 1rem; }
.instance { border: 1px solid var(--line); border-radius: 6px; padding: .7rem .9rem; overflow-x: auto; }
.instance td.muted { white-space: normal; overflow-wrap: anywhere; }
.instance h3 { font-size: .95rem; margin: 0 0 .4rem; display: flex; gap: .6rem; align-items: center; flex-wrap: wrap; }
.instance.unreachable { border-color: var(--bad); background: #fff5f5; }
.badge { font-size: .75rem; padding: .05rem .45rem; border-radius: 1rem; background: var(--bg); border: 1px solid var(--line); }
.badge.RUNNING { color: var(--ok); border-color: var(--ok); } .badge.REBALANCING, .badge.PARTITIONS_ASSIGNED, .badge.STARTING { color: var(--warn); border-color: var(--warn); }
.badge.ERROR, .badge.UNKNOWN, .badge.DEAD, .badge.PENDING_ERROR { color: var(--bad); border-color: var(--bad); }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: .85rem; margin: .3rem 0 .6rem; }
th, td { text-align: left; padding: .2rem .45rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr[data-role="standby"] td:first-child { color: var(--muted); }
.bar { display: inline-block; width: 80px; height: 8px; background: var(--bg); border: 1px solid var(--line); vertical-align: middle; }
.bar > span { display: block; height: 100%; background: var(--accent); }
.spark { vertical-align: middle; } .spark polyline { fill: none; stroke: var(--accent); stroke-width: 1.5; }
form#iq-form { display: flex; gap: .8rem; flex-wrap: wrap; align-items: end; }
form#iq-form label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
input, select, button { font: inherit; padding: .25rem .4rem; }
#iq-result { background: var(--bg); padding: .6rem; border-radius: 6px; min-height: 2rem; }
.empty { color: var(--muted); }
`
