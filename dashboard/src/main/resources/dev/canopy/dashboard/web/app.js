// Canopy dashboard: plain JavaScript and SVG, no libraries. Each view renders one JSON endpoint; the event
// stream (/api/stream) pushes the parts' versions and the page refetches the parts that changed.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const state = { versions: {}, grid: null, plan: null, events: [] };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  return node;
}

function ms(value) {
  return value === null || value === undefined ? '–' : Number(value).toFixed(1);
}

async function getJson(path) {
  const response = await fetch(path, { cache: 'no-store' });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.status);
  return body;
}

function setStatus(text, ok) {
  const status = document.getElementById('status');
  status.textContent = text;
  status.className = 'status ' + (ok ? 'ok' : 'bad');
}

// ---- Grid: wan group > site > lan > cluster > host > members
function renderGrid(grid) {
  state.grid = grid;
  document.getElementById('job').textContent = 'job ' + grid.job + (grid.started ? '' : ' (waiting at the start barrier)');
  const tree = new Map();
  for (const m of grid.members) {
    const c = m.coordinates;
    const path = [c.wan_group, c.site, c.lan, c.cluster, c.host];
    let level = tree;
    for (const key of path) {
      if (!level.has(key)) level.set(key, new Map());
      level = level.get(key);
    }
    if (!level.has('')) level.set('', []);
    level.get('').push(m);
  }
  const kinds = ['wan', 'site', 'lan', 'cluster', 'host'];
  function draw(level, depth) {
    const nodes = [];
    for (const [key, child] of level) {
      if (key === '') continue;
      const box = el('div', { class: 'group ' + kinds[depth] }, el('div', { class: 'label' }, kinds[depth] + ' ' + key));
      if (kinds[depth] === 'site') box.setAttribute('data-site', key);
      if (depth === kinds.length - 1) {
        for (const m of child.get('')) {
          box.append(el('span', { class: 'member ' + m.state, title: m.id + ' ' + m.address + ' (' + m.state + ')',
            'data-rank': m.rank }, 'r' + m.rank + ' ' + m.id));
        }
      } else {
        box.append(...draw(child, depth + 1));
      }
      nodes.push(box);
    }
    return nodes;
  }
  const target = document.getElementById('grid');
  target.replaceChildren(...draw(tree, 0));
  const source = grid.source_status;
  if (source !== 'ok') setStatus(source, false);
  document.getElementById('plan-root').max = Math.max(0, grid.members.length - 1);
}

// ---- Site-pair matrix
// Green (LAN) to red (300 ms and more) on a log scale, the same for every grid.
const RED_MS = 300;
function latencyColour(rtt) {
  if (rtt === null || rtt === undefined) return '#eceff1';
  const t = Math.min(1, Math.log1p(rtt) / Math.log1p(RED_MS));
  return 'hsl(' + Math.round(120 - 120 * t) + ', 65%, ' + Math.round(80 - 15 * t) + '%)';
}

function renderLinks(links) {
  const sites = links.sites;
  const byPair = new Map();
  for (const p of links.pairs) {
    byPair.set(p.a + '|' + p.b, p);
    byPair.set(p.b + '|' + p.a, p);
  }
  const head = el('tr', {}, el('th', {}, 'site'));
  sites.forEach(s => head.append(el('th', {}, s)));
  const table = el('table', { id: 'matrix-table' }, head);
  const tooltip = document.getElementById('tooltip');
  for (const a of sites) {
    const row = el('tr', {}, el('th', {}, a));
    for (const b of sites) {
      if (a === b) { row.append(el('td', { class: 'cell self' }, '')); continue; }
      const p = byPair.get(a + '|' + b);
      const seen = p.forecast_rtt_ms ?? p.measured_rtt_ms;
      const rtt = seen ?? p.configured_rtt_ms;
      const cell = el('td', { class: 'cell', 'data-a': a, 'data-b': b }, ms(p.configured_rtt_ms) + ' / ' + ms(seen));
      cell.style.background = latencyColour(rtt);
      cell.dataset.detail = a + ' ↔ ' + b + '\nconfigured  ' + ms(p.configured_rtt_ms) + ' ms\nmeasured    ' + ms(p.measured_rtt_ms)
        + ' ms\nforecast    ' + ms(p.forecast_rtt_ms) + ' ms' + (p.forecaster ? ' (' + p.forecaster + ', error ' + ms(p.error_ms)
        + ' ms, ' + p.samples + ' samples, ' + p.state + ')' : '') + '\nbandwidth   '
        + (p.bandwidth_mbps === null ? '–' : Number(p.bandwidth_mbps).toFixed(1) + ' Mbit/s');
      cell.addEventListener('mousemove', e => {
        tooltip.textContent = cell.dataset.detail;
        tooltip.style.left = (e.clientX + 12) + 'px';
        tooltip.style.top = (e.clientY + 12) + 'px';
        tooltip.hidden = false;
      });
      cell.addEventListener('mouseleave', () => { tooltip.hidden = true; });
      row.append(cell);
    }
    table.append(row);
  }
  document.getElementById('matrix').replaceChildren(table);
}

// ---- Plan: one SVG tree per group, drawn left to right by depth
function drawTree(group, arrivals) {
  const children = new Map();
  for (const e of group.edges) {
    if (!children.has(e.parent)) children.set(e.parent, []);
    children.get(e.parent).push(e.child);
  }
  const position = new Map();
  let row = 0;
  let depthMax = 0;
  (function place(node, depth) {
    depthMax = Math.max(depthMax, depth);
    const kids = children.get(node) || [];
    if (kids.length === 0) { position.set(node, { x: depth, y: row++ }); return; }
    kids.forEach(k => place(k, depth + 1));
    const ys = kids.map(k => position.get(k).y);
    position.set(node, { x: depth, y: (Math.min(...ys) + Math.max(...ys)) / 2 });
  })(group.root, 0);
  const dx = 180, dy = 26, width = (depthMax + 1) * dx + 40, height = Math.max(1, row) * dy + 10;
  const picture = svg('svg', { width, height, role: 'img' });
  const at = n => ({ x: 10 + position.get(n).x * dx, y: 16 + position.get(n).y * dy });
  for (const e of group.edges) {
    const p = at(e.parent), c = at(e.child);
    picture.append(svg('line', { x1: p.x + 84, y1: p.y - 4, x2: c.x - 4, y2: c.y - 4, stroke: '#7a8a99' }));
  }
  for (const [node] of position) {
    const p = at(node);
    const label = svg('text', { x: p.x, y: p.y });
    label.textContent = 'r' + node + ' ' + ms(arrivals.get(node)) + ' ms';
    picture.append(label);
  }
  return picture;
}

function renderPlan(plan) {
  state.plan = plan;
  const arrivals = new Map(plan.arrivals.map(a => [a.rank, a.arrival_ms]));
  document.getElementById('plan-summary').textContent = plan.epoch === null ? 'no members yet'
    : 'epoch ' + plan.epoch + ' (' + plan.source + '), predicted completion ' + ms(plan.predicted_completion_ms) + ' ms'
      + (plan.reason ? ': ' + plan.reason : '');
  const trees = plan.levels.filter(g => g.edges.length > 0).map(g => el('div', { class: 'tree' },
    el('h3', {}, g.level + (g.group ? ' ' + g.group : '') + ': ' + g.algorithm + ' from r' + g.root), drawTree(g, arrivals)));
  document.getElementById('plan-trees').replaceChildren(...trees);
}

async function loadPlan() {
  const root = document.getElementById('plan-root').value || 0;
  try {
    renderPlan(await getJson('/api/plan?root=' + encodeURIComponent(root)));
  } catch (e) {
    document.getElementById('plan-summary').textContent = String(e.message);
  }
}

// ---- Events and the re-plan timeline
function renderEvents(body) {
  state.events = body.events;
  const rows = body.events.slice().reverse().map(e => el('tr', {},
    el('td', {}, e.seq), el('td', {}, new Date(e.time_ms).toLocaleTimeString()),
    el('td', { class: 'kind-' + e.kind }, e.kind), el('td', {}, e.detail)));
  document.querySelector('#events tbody').replaceChildren(...rows);
  const replans = body.events.filter(e => e.kind === 'replan').reverse().map(e => el('li', {},
    new Date(e.time_ms).toLocaleTimeString() + ' epoch ' + e.epoch
      + (e.predicted_gain_ms === undefined ? '' : ', predicted gain ' + ms(e.predicted_gain_ms) + ' ms') + ': ' + e.detail));
  document.getElementById('replans').replaceChildren(...replans);
}

// ---- Collectives with their skew reports
function skewChart(skew) {
  const ranks = skew.ranks;
  const max = Math.max(1, ...ranks.map(r => r.completion_ms || 0), ...ranks.map(r => r.predicted_ms || 0));
  const width = 520, bar = 14, left = 90;
  const picture = svg('svg', { width: width + left + 60, height: ranks.length * (bar + 4) + 20, role: 'img' });
  const x = v => left + (v / max) * width;
  ranks.forEach((r, i) => {
    const y = 4 + i * (bar + 4);
    const label = svg('text', { x: 0, y: y + bar - 3 });
    label.textContent = 'r' + r.rank + ' ' + r.site;
    picture.append(label);
    if (r.arrival_ms !== null && r.completion_ms !== null) {
      picture.append(svg('rect', { x: x(Math.max(0, r.arrival_ms)), y, width: Math.max(1, x(r.completion_ms) - x(Math.max(0, r.arrival_ms))),
        height: bar, fill: '#7fbf7f' }));
    }
    picture.append(svg('line', { x1: x(r.predicted_ms), x2: x(r.predicted_ms), y1: y - 1, y2: y + bar + 1, stroke: '#1f6fb2', 'stroke-width': 2 }));
    const end = svg('text', { x: x(r.completion_ms || 0) + 4, y: y + bar - 3 });
    end.textContent = ms(r.completion_ms) + ' ms';
    picture.append(end);
  });
  return picture;
}

function renderCollectives(body) {
  const target = document.getElementById('collectives');
  if (!body.recorded) { target.replaceChildren(el('p', { class: 'hint' }, body.note)); return; }
  const blocks = [];
  for (const c of body.communicators) {
    blocks.push(el('h2', {}, c.name));
    for (const op of c.operations) {
      const algorithms = Object.entries(op.algorithms).map(([level, a]) => level + ' ' + a).join(', ');
      const late = op.skew.late.map(l => el('li', { class: 'late' }, 'rank ' + l.rank + ' (' + l.id + ', ' + l.site + ') '
        + ms(l.late_ms) + ' ms late: ' + l.cause + (l.waited_for === undefined ? '' : ' (waited for rank ' + l.waited_for + ')')));
      const details = el('div', { class: 'details' },
        el('p', {}, 'predicted completion ' + ms(op.skew.predicted_completion_ms) + ' ms, tolerance ' + ms(op.skew.tolerance_ms)
          + ' ms; bars: each rank from its start to its completion, blue mark: its predicted arrival'),
        el('ul', {}, ...(late.length ? late : [el('li', {}, 'nobody late')])), skewChart(op.skew));
      const block = el('div', { class: 'op' + (op.status === 'ok' ? '' : ' failed'), 'data-seq': op.seq },
        el('div', { class: 'head' }, '#' + op.seq + ' ' + op.op + ' root ' + op.root + ', ' + op.bytes + ' B, epoch ' + op.epoch
          + ', ' + algorithms + ': ' + ms(op.completion_ms) + ' ms, ' + op.status + (late.length ? ', ' + late.length + ' late' : '')),
        details);
      block.querySelector('.head').addEventListener('click', () => { details.hidden = !details.hidden; });
      blocks.push(block);
    }
  }
  target.replaceChildren(...blocks);
}

// ---- Multicast counters
const MULTICAST_COLUMNS = ['multicast_bcasts', 'tree_bcasts', 'packets_multicast', 'packets_from_fabric', 'forwards',
  'retransmissions', 'forced_retransmissions', 'acks_sent', 'acks_received', 'duplicates_dropped', 'credit_stalls'];

function renderMulticast(body) {
  const target = document.getElementById('multicast');
  if (!body.active) { target.replaceChildren(el('p', { class: 'hint' }, 'no bcast runs over multicast in this job (yet)')); return; }
  const header = el('tr', {}, el('th', {}, 'rank'), el('th', {}, 'site'),
    el('th', { title: 'packets held in its root and co-root send windows until acknowledged / packets one window holds' }, 'window'),
    ...MULTICAST_COLUMNS.map(c => el('th', {}, c.replaceAll('_', ' '))));
  const windowCell = counters => counters.window_size === undefined ? String(counters.window_slots_in_use)
    : counters.window_slots_in_use + ' / ' + counters.window_size;
  const row = (rank, site, counters, cls) => el('tr', cls ? { class: cls } : {}, el('td', {}, String(rank)), el('td', {}, site),
    el('td', { class: 'window' }, windowCell(counters)), ...MULTICAST_COLUMNS.map(c => el('td', {}, String(counters[c]))));
  target.replaceChildren(
    el('p', {}, body.communicator + ': ' + body.path + (body.fallback ? '; fallback: ' + body.fallback : '')),
    el('p', { id: 'multicast-occupancy' }, 'fullest send window: ' + Math.round(body.window_occupancy * 100) + ' % of a window'),
    el('table', { id: 'multicast-table' }, el('thead', {}, header),
      el('tbody', {}, ...body.members.map(m => row(m.rank, m.site, m)), row('all', '', body.totals, 'totals'))));
}

// ---- Loading and live updates
const loaders = {
  grid: async () => renderGrid(await getJson('/api/grid')),
  links: async () => renderLinks(await getJson('/api/links')),
  plan: loadPlan,
  events: async () => renderEvents(await getJson('/api/events')),
  collectives: async () => renderCollectives(await getJson('/api/collectives')),
  multicast: async () => renderMulticast(await getJson('/api/multicast')),
};

async function refresh(parts) {
  for (const part of parts) {
    try { await loaders[part](); } catch (e) { setStatus(part + ': ' + e.message, false); }
  }
}

function listen() {
  const stream = new EventSource('/api/stream');
  stream.addEventListener('versions', e => {
    const versions = JSON.parse(e.data);
    const changed = Object.keys(versions).filter(p => versions[p] !== state.versions[p] && loaders[p]);
    state.versions = versions;
    if (!state.grid || state.grid.source_status === 'ok') setStatus('live', true);
    refresh(changed);
  });
  stream.onerror = () => setStatus('reconnecting…', false);
}

for (const button of document.querySelectorAll('nav button')) {
  button.addEventListener('click', () => {
    document.querySelectorAll('nav button').forEach(b => b.classList.toggle('active', b === button));
    document.querySelectorAll('.view').forEach(v => v.classList.toggle('active', v.id === 'view-' + button.dataset.view));
  });
}
document.getElementById('plan-root').addEventListener('change', loadPlan);
refresh(Object.keys(loaders)).then(listen);
