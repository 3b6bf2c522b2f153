import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  name: string;
  values: number[];
  color: string;
  /** The total is drawn dashed, so that it is told apart by more than its colour. */
  dashed?: boolean;
}

const HEIGHT = 260;

/**
 * A line per series over the days, drawn by uPlot on a canvas. The canvas is a picture for the
 * eyes only: the page puts the same numbers in a table beside it, and the legend is the page's too.
 */
export default function Chart({
  label,
  days,
  series,
  language,
}: {
  label: string;
  days: string[];
  series: ChartSeries[];
  language: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const dayFormat = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const numberFormat = new Intl.NumberFormat(language);
    const styles = getComputedStyle(document.documentElement);
    const muted = styles.getPropertyValue('--muted').trim() || '#4b5260';
    const grid = styles.getPropertyValue('--border').trim() || '#d5dae3';
    const axis = {
      stroke: muted,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
    };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 280),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_, __, max) => [0, Math.max(1, max)] } },
        axes: [
          { ...axis, values: (_, splits) => splits.map((s) => dayFormat.format(new Date(s * 1000))) },
          { ...axis, values: (_, splits) => splits.map((s) => (Number.isInteger(s) ? numberFormat.format(s) : '')) },
        ],
        series: [
          {},
          ...series.map((line) => ({
            label: line.name,
            stroke: line.color,
            width: line.dashed ? 2.5 : 2,
            dash: line.dashed ? [6, 4] : undefined,
            points: { show: days.length <= 45 },
          })),
        ],
      },
      [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((line) => line.values)],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 280), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, language]);
  return <div ref={box} className="chart__canvas" role="img" aria-label={label} />;
}
