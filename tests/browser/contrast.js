// WCAG 2 contrast, run inside the page: every visible element with its own text, its text colour
// against the background it is drawn on (the nearest ancestor's background, alpha-composited).
// Returns the elements below `min` as {text, fg, bg, ratio}.
module.exports = function lowContrast(min) {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const background = (el) => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c && c.a > 0) {
        layers.push(c);
        if (c.a === 1) break;
      }
    }
    let color = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  };
  const luminance = ({ r, g, b }) => {
    const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const ratio = (a, b) => {
    const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  const failures = [];
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText || !el.checkVisibility?.() || el.closest('.visually-hidden')) continue;
    const style = getComputedStyle(el);
    let fg = parse(el instanceof SVGElement ? style.fill : style.color);
    if (!fg) continue;
    const bg = background(el);
    fg = over(fg, bg);
    checked++;
    const r = ratio(fg, bg);
    if (r < min) failures.push({ text: el.textContent.trim().slice(0, 40), fg: style.color, bg: JSON.stringify(bg), ratio: r.toFixed(2) });
  }
  return { checked, failures };
};
