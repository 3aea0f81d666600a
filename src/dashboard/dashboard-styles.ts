/**
 * The page's styles: system fonts, colours with at least 4.5:1 contrast on white for text and
 * 3:1 for marks, a focus ring no control hides, and one column that narrows to a phone's width.
 */
export const DASHBOARD_STYLES = `
:root { color: #1b1f24; background: #fff; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0 auto; max-width: 1100px; padding: 16px; }
h1 { font-size: 1.6rem; margin: 0 0 8px; }
h2 { font-size: 1.3rem; margin: 32px 0 8px; border-bottom: 1px solid #d0d7de; overflow-wrap: anywhere; }
h3 { font-size: 1.05rem; margin: 24px 0 8px; }
a { color: #0550ae; }
:focus-visible { outline: 3px solid #0550ae; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { position: static; }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 480px), 1fr)); gap: 8px 24px; }
.panel { min-width: 0; }
figure { margin: 0; }
.chart { width: 100%; min-height: 240px; }
svg.bars { width: 100%; max-width: 480px; height: auto; font-size: 13px; }
svg.bars .bar-label, svg.bars .bar-value, svg.bars .tick, svg.bars .axis-label { fill: #1b1f24; }
svg.bars .axis-label { font-weight: 600; }
svg.bars .axis { stroke: #57606a; }
.tone-new { fill: #cf222e; } .tone-worsened { fill: #9a6700; } .tone-baseline { fill: #6e7781; }
.tone-points { fill: #0550ae; } .tone-overrides { fill: #8250df; } .tone-fixed { fill: #1a7f37; }
.legend { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.9rem; }
.swatch { display: inline-block; width: 14px; height: 14px; margin-right: 6px; vertical-align: -2px; border-radius: 2px; }
.empty { color: #57606a; font-style: italic; }
.warning { background: #fff8c5; border: 1px solid #9a6700; padding: 8px; }
details { margin: 8px 0 16px; }
summary { cursor: pointer; color: #0550ae; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.9rem; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.text { overflow-wrap: anywhere; min-width: 12ch; }
td.time { white-space: nowrap; }
`;
