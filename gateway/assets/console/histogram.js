// The hits chart: one SVG bar per time bucket; dragging across it picks a new time range, and so
// do keys while it has focus (+ and - zoom around the middle, the arrows move by a quarter).
const NS = 'http://www.w3.org/2000/svg';
const H = 140;  // viewBox units; the width is the box's, so text keeps its shape
const AXIS = 18;  // room for the time labels
const MAX_SPAN = 31 * 86400e3;  // the longest range the hits API takes

function svgEl(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function label(date, spanMs) {
  const iso = date.toISOString();
  return spanMs > 2 * 86400e3 ? iso.slice(5, 16).replace('T', ' ') : iso.slice(11, 19);
}

// hits: the /api/logs/hits answer. onZoom(startDate, endDate) after a drag.
export function renderHistogram(svg, hits, onZoom) {
  svg.replaceChildren();
  const W = Math.max(300, Math.round(svg.getBoundingClientRect().width)) || 1000;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const start = new Date(hits.start).getTime();
  const end = new Date(hits.end).getTime();
  const span = Math.max(1, end - start);
  const bucketMs = Math.max(1, (hits.bucket_seconds || 1) * 1000);
  const max = Math.max(1, ...hits.hits.map((h) => h.count));
  const x = (t) => ((t - start) / span) * W;
  const plot = H - AXIS;
  for (const h of hits.hits) {
    const t = new Date(h.timestamp).getTime();
    const height = (h.count / max) * (plot - 4);
    const width = Math.max(1, x(t + bucketMs) - x(t) - 1);
    const bar = svgEl('rect', { class: 'bar', x: x(t), y: plot - height, width, height });
    bar.dataset.count = String(h.count);
    bar.dataset.timestamp = h.timestamp;
    const title = svgEl('title', {});
    title.textContent = `${h.timestamp}: ${h.count}`;
    bar.append(title);
    svg.append(bar);
  }
  svg.append(svgEl('line', { class: 'axis', x1: 0, x2: W, y1: plot + 0.5, y2: plot + 0.5 }));
  for (let i = 0; i <= 4; i++) {
    const t = start + (span * i) / 4;
    const anchor = i === 0 ? 'start' : i === 4 ? 'end' : 'middle';
    const text = svgEl('text', { x: (W * i) / 4, y: H - 4, 'text-anchor': anchor });
    text.textContent = label(new Date(t), span);
    svg.append(text);
  }
  enableZoom(svg, W, start, span, onZoom);
  enableKeys(svg, start, span, onZoom);
}

function enableZoom(svg, W, start, span, onZoom) {
  const toUnits = (clientX) => {
    const box = svg.getBoundingClientRect();
    return Math.min(W, Math.max(0, ((clientX - box.left) / box.width) * W));
  };
  let from = null;
  let selection = null;
  svg.onpointerdown = (e) => {
    from = toUnits(e.clientX);
    selection = svgEl('rect', { class: 'selection', x: from, y: 0, width: 0, height: H - AXIS });
    svg.append(selection);
    svg.setPointerCapture(e.pointerId);
  };
  svg.onpointermove = (e) => {
    if (from === null) return;
    const to = toUnits(e.clientX);
    selection.setAttribute('x', String(Math.min(from, to)));
    selection.setAttribute('width', String(Math.abs(to - from)));
  };
  svg.onpointerup = (e) => {
    if (from === null) return;
    const to = toUnits(e.clientX);
    const [a, b] = [Math.min(from, to), Math.max(from, to)];
    from = null;
    selection.remove();
    if (b - a < 3) return;  // a click, not a drag
    onZoom(new Date(start + (a / W) * span), new Date(start + (b / W) * span));
  };
}

function enableKeys(svg, start, span, onZoom) {
  svg.setAttribute('tabindex', '0');
  svg.setAttribute('aria-keyshortcuts', '+ - ArrowLeft ArrowRight');
  svg.onkeydown = (e) => {
    const middle = start + span / 2;
    let next = null;
    if (e.key === '+' || e.key === '=') next = [middle - span / 4, middle + span / 4];
    else if (e.key === '-' || e.key === '_') {
      const half = Math.min(span, MAX_SPAN / 2);
      next = [middle - half, middle + half];
    } else if (e.key === 'ArrowLeft') next = [start - span / 4, start + (3 * span) / 4];
    else if (e.key === 'ArrowRight') next = [start + span / 4, start + (5 * span) / 4];
    if (!next || next[1] - next[0] < 1000) return;
    e.preventDefault();
    onZoom(new Date(Math.round(next[0])), new Date(Math.round(next[1])));
  };
}
