import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  name: string;
  values: number[];
  /** A CSS custom property (`--chart-en`), read when drawing so that dark mode gets its own colours. */
  color: string;
  /** A dash pattern, so that lines are told apart by more than their colour. */
  dash?: number[];
}

const HEIGHT = 260;
const HOUR = 3600;
const DAY = 24 * HOUR;
/** Whole days (or hours) only: a tick between two days repeated the date on the axis. */
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY, 91 * DAY];
const HOUR_STEPS = [HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR];

/** The seconds of a bucket ("2026-11-26" or "2026-11-26T14"), the site's wall clock read as UTC. */
export const secondsOf = (bucket: string) =>
  Date.parse(bucket.length > 10 ? `${bucket}:00:00Z` : `${bucket}T00:00:00Z`) / 1000;

/** Whether the console is drawn dark; a change redraws the chart in the other palette. */
function useDark(): boolean {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const change = () => setDark(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, [query]);
  return dark;
}

/**
 * A line per series over the hours or days, drawn by uPlot on a canvas. The canvas is a picture for
 * the eyes only: the page puts the same numbers in a table beside it, and the legend is the page's too.
 */
export default function Chart({
  label,
  buckets,
  hourly,
  series,
  language,
}: {
  label: string;
  buckets: string[];
  hourly: boolean;
  series: ChartSeries[];
  language: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useDark();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const tickFormat = new Intl.DateTimeFormat(
      language,
      hourly ? { hour: 'numeric', timeZone: 'UTC' } : { day: 'numeric', month: 'short', timeZone: 'UTC' },
    );
    const numberFormat = new Intl.NumberFormat(language);
    const styles = getComputedStyle(element);
    const read = (name: string, fallback: string) => styles.getPropertyValue(name).trim() || fallback;
    const muted = read('--muted', '#4b5260');
    const grid = read('--border', '#d5dae3');
    const axis = {
      stroke: muted,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
    };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 280),
        height: HEIGHT,
        // The buckets are wall-clock times of the site read as UTC; ticks fall on their midnights.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_, __, max) => [0, Math.max(1, max)] } },
        axes: [
          {
            ...axis,
            incrs: hourly ? HOUR_STEPS : DAY_STEPS,
            values: (_, splits) => splits.map((s) => tickFormat.format(new Date(s * 1000))),
          },
          { ...axis, values: (_, splits) => splits.map((s) => (Number.isInteger(s) ? numberFormat.format(s) : '')) },
        ],
        series: [
          {},
          ...series.map((line) => ({
            label: line.name,
            stroke: read(line.color, muted),
            width: 2,
            dash: line.dash,
            points: { show: buckets.length <= 45 },
          })),
        ],
      },
      [buckets.map(secondsOf), ...series.map((line) => line.values)],
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
  }, [buckets, hourly, series, language, dark]);
  return <div ref={box} className="chart__canvas" role="img" aria-label={label} />;
}
