/// <reference lib="dom" />
/**
 * The page's script, as one self-contained function: the server sends its source
 * (`dashboardClient.toString()`), so it must use nothing from outside its body but the browser's
 * globals (types are fine: they are erased). It polls `api/state` every `data-poll-ms` and
 * renders the instances with their threads and tasks, the restores and standbys in progress,
 * the rates of the last minutes as sparklines, and runs the store browser against
 * `api/stores/...`. @internal
 */
import type { DashboardState } from './dashboard.js'
import type { HistoryPoint, InstanceView, ProgressView, TaskView, ThreadView } from './instance-view.js'

export function dashboardClient(): void {
  const pollMs = Number(document.body.dataset.pollMs ?? '2000')
  const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T
  type Child = Node | string | number | undefined | null | false

  const h = (tag: string, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElement => {
    const el = document.createElement(tag)
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v)
    for (const c of children) if (c !== undefined && c !== null && c !== false) el.append(typeof c === 'number' ? String(c) : c)
    return el
  }
  const fmt = (n: number | undefined | null, digits = 0): string =>
    n === undefined || n === null ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  const duration = (ms: number | undefined | null): string => {
    if (ms === undefined || ms === null) return '–'
    if (ms < 1000) return `${Math.round(ms)} ms`
    const s = Math.round(ms / 1000)
    return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`
  }
  const num = (n: number | undefined | null, digits = 0): HTMLElement => h('td', { class: 'num' }, fmt(n, digits))
  const SVG = 'http://www.w3.org/2000/svg'

  /** A sparkline of `values` (undefined: a gap counted as 0). */
  const spark = (values: ReadonlyArray<number | undefined>, label: string): Element => {
    const w = 160
    const hgt = 28
    const svg = document.createElementNS(SVG, 'svg')
    svg.setAttribute('class', 'spark')
    svg.setAttribute('width', String(w))
    svg.setAttribute('height', String(hgt))
    svg.setAttribute('aria-label', label)
    const max = Math.max(1e-9, ...values.map(v => v ?? 0))
    const step = values.length > 1 ? w / (values.length - 1) : 0
    const line = document.createElementNS(SVG, 'polyline')
    line.setAttribute(
      'points',
      values.map((v, i) => `${(i * step).toFixed(1)},${(hgt - 2 - ((v ?? 0) / max) * (hgt - 4)).toFixed(1)}`).join(' ')
    )
    svg.append(line)
    return svg
  }

  const taskRows = (tasks: readonly TaskView[], role: 'active' | 'standby'): HTMLElement[] =>
    tasks.map(t =>
      h(
        'tr',
        { 'data-task': t.id, 'data-role': role },
        h('td', {}, t.id),
        h('td', {}, role),
        h('td', { class: 'muted' }, t.partitions.join(', ')),
        num(t.inputLag),
        num(t.standbyLag),
        h('td', { class: 'num' }, t.restoreRemaining === undefined ? '–' : `restoring, ${fmt(t.restoreRemaining)} left`),
        num(t.inputRate, 1)
      )
    )

  const taskTable = (rows: HTMLElement[]): HTMLElement =>
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'task'),
          h('th', {}, 'role'),
          h('th', {}, 'partitions'),
          h('th', { class: 'num' }, 'input lag'),
          h('th', { class: 'num' }, 'standby lag'),
          h('th', { class: 'num' }, 'restore'),
          h('th', { class: 'num' }, 'rec/s')
        )
      ),
      h('tbody', {}, ...rows)
    )

  const threadBlock = (t: ThreadView): HTMLElement =>
    h(
      'div',
      { class: 'thread', 'data-thread': t.name },
      h('div', {}, h('strong', {}, t.name), ' ', h('span', { class: `badge ${t.state}`, 'data-thread-state': t.state }, t.state)),
      taskTable([...taskRows(t.active, 'active'), ...taskRows(t.standby, 'standby')])
    )

  const instanceCard = (i: InstanceView): HTMLElement => {
    const active = i.reachable ? i.threads.reduce((n, t) => n + t.active.length, 0) : i.assigned.active.length
    const standby = i.reachable ? i.threads.reduce((n, t) => n + t.standby.length, 0) : i.assigned.standby.length
    const bare = (id: string): TaskView => ({
      id,
      partitions: [],
      inputLag: undefined,
      standbyLag: undefined,
      restoreRemaining: undefined,
      inputRate: undefined
    })
    const unreachableRows = [...taskRows(i.assigned.active.map(bare), 'active'), ...taskRows(i.assigned.standby.map(bare), 'standby')]
    return h(
      'article',
      { class: `instance${i.reachable ? '' : ' unreachable'}`, 'data-instance': i.host ?? 'local', 'data-local': String(i.local) },
      h(
        'h3',
        {},
        h('span', {}, i.host ?? '(no applicationServer)'),
        h('span', { class: `badge ${i.state}`, 'data-state': i.state }, i.state),
        i.local ? h('span', { class: 'muted' }, 'this instance') : null,
        h(
          'span',
          { class: 'muted' },
          h('span', { class: 'count-active' }, active),
          ' active, ',
          h('span', { class: 'count-standby' }, standby),
          ' standby'
        )
      ),
      i.reachable ? null : h('p', { class: 'muted' }, `did not answer: ${i.error ?? 'unknown'}; tasks from the group's assignment`),
      ...(i.reachable ? i.threads.map(threadBlock) : [taskTable(unreachableRows)])
    )
  }

  const progressTable = (instances: readonly InstanceView[]): HTMLElement => {
    const rows: HTMLElement[] = []
    for (const i of instances)
      for (const p of i.progress as ProgressView[]) {
        const done = p.end > 0 ? Math.min(1, p.position / p.end) : 1
        const bar = h('span', { class: 'bar' }, h('span', { style: undefined }))
        ;(bar.firstChild as HTMLElement).style.width = `${(done * 100).toFixed(0)}%`
        rows.push(
          h(
            'tr',
            { 'data-progress': p.kind, 'data-task': p.task },
            h('td', {}, i.host ?? ''),
            h('td', {}, p.kind),
            h('td', {}, p.store),
            h('td', {}, p.task ?? ''),
            h('td', { class: 'muted' }, `${p.topic}-${p.partition}`),
            h('td', {}, bar),
            num(p.position),
            num(p.end),
            num(p.remaining),
            num(p.recordsPerSecond, 1),
            h('td', { class: 'num' }, p.kind === 'restore' ? duration(p.etaMs) : '–')
          )
        )
      }
    if (rows.length === 0) return h('p', { class: 'empty' }, 'none')
    const head = ['instance', 'kind', 'store', 'task', 'changelog', '', 'position', 'end', 'left', 'rec/s', 'ETA']
    return h(
      'table',
      {},
      h('thead', {}, h('tr', {}, ...head.map((c, n) => h('th', n >= 6 ? { class: 'num' } : {}, c)))),
      h('tbody', {}, ...rows)
    )
  }

  const rateTable = (instances: readonly InstanceView[]): HTMLElement => {
    const rows: HTMLElement[] = []
    for (const i of instances) {
      if (!i.reachable) continue
      const history = i.history as HistoryPoint[]
      for (const t of i.threads) {
        const rates = history.map(p => p.threads[t.name]?.processRate)
        const commits = history.map(p => p.threads[t.name]?.commitLatencyAvgMs)
        rows.push(
          h(
            'tr',
            { 'data-rate-thread': t.name, 'data-instance': i.host },
            h('td', {}, i.host ?? ''),
            h('td', {}, t.name),
            num(t.metrics.processRate ?? rates.at(-1), 1),
            h('td', {}, spark(rates, `process rate of ${t.name}`)),
            num(t.metrics.processLatencyAvgMs, 3),
            num(t.metrics.commitLatencyAvgMs, 1),
            h('td', {}, spark(commits, `commit latency of ${t.name}`)),
            num(t.metrics.pollRate, 1)
          )
        )
        for (const task of t.active)
          rows.push(
            h(
              'tr',
              { 'data-rate-task': task.id, class: 'muted' },
              h('td', {}, ''),
              h('td', {}, `task ${task.id}`),
              num(task.inputRate, 1),
              h(
                'td',
                {},
                spark(
                  history.map(p => p.tasks[task.id]),
                  `input rate of task ${task.id}`
                )
              ),
              h('td', {}, ''),
              h('td', {}, ''),
              h('td', {}, ''),
              h('td', {}, '')
            )
          )
      }
    }
    const minutes = Math.max(0, ...instances.map(i => (i.history.length > 1 ? (i.history.at(-1)!.t - i.history[0]!.t) / 60000 : 0)))
    const head = [
      'instance',
      'thread / task',
      'rec/s',
      `last ${minutes.toFixed(1)} min`,
      'process ms',
      'commit ms',
      'commit ms over time',
      'polls/s'
    ]
    return h('table', {}, h('thead', {}, h('tr', {}, ...head.map(c => h('th', {}, c)))), h('tbody', {}, ...rows))
  }

  let storesKnown = ''
  const updateStores = (state: DashboardState): void => {
    const key = JSON.stringify(state.stores) + String(state.queries)
    if (key === storesKnown) return
    storesKnown = key
    const select = byId<HTMLSelectElement>('iq-store')
    select.replaceChildren(...state.stores.map(s => h('option', { value: s.name, 'data-kind': s.kind }, `${s.name} (${s.kind})`)))
    byId<HTMLButtonElement>('iq-submit').disabled = !state.queries
    if (!state.queries) byId('iq-owner').textContent = 'No interactive-query server was given to the dashboard: the store browser is off.'
    syncMode()
  }
  const syncMode = (): void => {
    const select = byId<HTMLSelectElement>('iq-store')
    const kind = select.selectedOptions[0]?.dataset.kind
    byId<HTMLSelectElement>('iq-mode').value = kind === 'window' ? 'windows' : kind === 'session' ? 'sessions' : 'value'
  }
  byId('iq-store').addEventListener('change', syncMode)

  byId<HTMLFormElement>('iq-form').addEventListener('submit', event => {
    event.preventDefault()
    const store = byId<HTMLSelectElement>('iq-store').value
    const key = byId<HTMLInputElement>('iq-key').value
    const mode = byId<HTMLSelectElement>('iq-mode').value
    const params = new URLSearchParams()
    const from = byId<HTMLInputElement>('iq-from').value.trim()
    const to = byId<HTMLInputElement>('iq-to').value.trim()
    if (mode === 'windows' && from !== '') params.set('from', from)
    if (mode === 'windows' && to !== '') params.set('to', to)
    const path = `api/stores/${encodeURIComponent(store)}/keys/${encodeURIComponent(key)}${mode === 'value' ? '' : `/${mode}`}`
    const owner = byId('iq-owner')
    const result = byId('iq-result')
    owner.textContent = 'asking…'
    result.textContent = ''
    result.removeAttribute('data-status')
    void fetch(params.size > 0 ? `${path}?${params}` : path, { headers: { accept: 'application/json' } })
      .then(async res => {
        const body = (await res.json()) as { value?: unknown; windows?: unknown; host?: string; partition?: number; error?: string }
        result.dataset.status = String(res.status)
        if (res.ok) {
          owner.textContent = `answered by ${body.host ?? '?'} (partition ${body.partition ?? '–'})`
          result.textContent = JSON.stringify(mode === 'value' ? body.value : body.windows, null, 2)
        } else {
          owner.textContent = `${res.status}: ${body.error ?? 'error'}${res.headers.get('retry-after') !== null ? ' (try again in a moment)' : ''}`
          result.textContent = JSON.stringify(body, null, 2)
        }
      })
      .catch((err: unknown) => {
        owner.textContent = `the request failed: ${String(err)}`
      })
  })

  const render = (state: DashboardState): void => {
    const count = byId('instance-count')
    count.textContent = `(${state.instances.length})`
    byId('instance-list').replaceChildren(...state.instances.map(instanceCard))
    byId('progress-list').replaceChildren(progressTable(state.instances))
    byId('rate-list').replaceChildren(rateTable(state.instances))
    updateStores(state)
    const self = state.instances.find(i => i.local)
    const status = byId('status')
    status.className = ''
    status.replaceChildren(
      h('span', { class: `badge ${self?.state ?? 'UNKNOWN'}`, id: 'self-state' }, self?.state ?? 'UNKNOWN'),
      ` ${state.tasks.length} tasks over ${state.instances.length} instances · updated ${new Date(state.generatedAt).toLocaleTimeString()}`
    )
    document.body.dataset.generatedAt = String(state.generatedAt)
  }

  const poll = (): void => {
    fetch('api/state', { headers: { accept: 'application/json' } })
      .then(async res => {
        if (!res.ok) throw new Error(`api/state answered ${res.status}`)
        render((await res.json()) as DashboardState)
      })
      .catch((err: unknown) => {
        const status = byId('status')
        status.className = 'error'
        status.textContent = `no answer from the application (${err instanceof Error ? err.message : String(err)}); retrying`
      })
      .finally(() => setTimeout(poll, pollMs))
  }
  poll()
}
