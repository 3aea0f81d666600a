/**
 * The page's one script of its own, run by the browser after the chart library: it draws each
 * time chart the JSON element describes. It reads data only from that element (never from the
 * page's text), sizes charts to their container so a phone screen keeps them whole, and leaves
 * the library's mouse-only legend and drag-zoom off: the tables are the keyboard's way in.
 */
export const DASHBOARD_BROWSER_SCRIPT = `(() => {
  const specs = JSON.parse(document.getElementById('chart-data').textContent);
  const drawn = [];
  const widthOf = (host) => Math.max(240, host.clientWidth);
  for (const spec of specs) {
    const host = document.getElementById(spec.id);
    if (host === null) continue;
    const axis = { stroke: '#1b1f24', grid: { stroke: '#d0d7de', width: 1 }, ticks: { stroke: '#d0d7de' } };
    const plot = new uPlot(
      {
        width: widthOf(host),
        height: 240,
        legend: { show: false },
        // The axes say UTC, as the ledger's times are: not the viewer's own time zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        cursor: { drag: { x: false, y: false } },
        // One point alone would get a range of years: an hour either side reads as one moment.
        scales: {
          x: spec.x.length > 1
            ? { time: true }
            : { time: true, auto: false, range: [spec.x[0] - 3600, spec.x[0] + 3600] },
        },
        axes: [
          { ...axis, label: spec.xLabel },
          { ...axis, label: spec.yLabel, size: 64 },
        ],
        series: [
          {},
          ...spec.series.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            dash: line.dashed ? [8, 5] : undefined,
            points: { show: true, size: 7, fill: line.color },
          })),
        ],
      },
      [spec.x, ...spec.series.map((line) => line.values)],
      host,
    );
    host.dataset.points = String(spec.x.length);
    host.dataset.xLabel = spec.xLabel;
    host.dataset.yLabel = spec.yLabel;
    drawn.push({ plot, host });
  }
  addEventListener('resize', () => {
    for (const { plot, host } of drawn) plot.setSize({ width: widthOf(host), height: 240 });
  });
})();
`;
