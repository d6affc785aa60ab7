// Small inline SVG trend charts, one per vital sign (no chart library: the whole thing is a
// few rectangles and lines). The normal band for the patient's age is shaded; readings
// outside it are drawn as a triangle pointing the way they are off (shape, not only
// colour). Each chart is an image with a text summary for screen readers, e.g. 'Heart
// rate 3 readings, latest 128 /min HIGH, rising'. Voided readings are left out.
import { formatTime } from '@rescuelog/sync-protocol/time';
import { normalRange } from '@rescuelog/sync-protocol/cases/vital-ranges';
import { VITAL_SIGNS, type VitalSignType } from '@rescuelog/sync-protocol/cases/clinical';
import {
  chartScale,
  chartSummary,
  liveReadings,
  readingNumbers,
  readingStatus,
  typesWithReadings,
  vitalLabel,
  type ReadingLike,
} from './vital-display';
import styles from './vitals.module.css';
import { cx } from '@/lib/cx';

const W = 300;
const H = 130;
const PAD = { left: 36, right: 12, top: 10, bottom: 24 };

interface Point {
  t: number;
  value: number;
  diastolic?: number | undefined;
  status: 'low' | 'normal' | 'high' | null;
  time: string;
}

function points(
  type: VitalSignType,
  readings: readonly ReadingLike[],
  ageYears: number | null,
): Point[] {
  return liveReadings(readings.filter((r) => r.type === type))
    .flatMap((r): Point[] => {
      const n = readingNumbers(r);
      const t = Date.parse(r.timestamp ?? '');
      if (n.value === null || !Number.isFinite(t)) return [];
      return [
        {
          t,
          value: n.value,
          diastolic: n.diastolic,
          status: readingStatus(r, ageYears),
          time: r.timestamp ?? '',
        },
      ];
    })
    .sort((a, b) => a.t - b.t);
}

function round(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function marker(p: { x: number; y: number }, status: Point['status'], key: string) {
  if (status === 'high')
    return (
      <path
        key={key}
        className={cx(styles.point, styles.pointHigh)}
        d={`M${p.x} ${p.y - 7} L${p.x + 6} ${p.y + 4} L${p.x - 6} ${p.y + 4} Z`}
      />
    );
  if (status === 'low')
    return (
      <path
        key={key}
        className={cx(styles.point, styles.pointLow)}
        d={`M${p.x} ${p.y + 7} L${p.x + 6} ${p.y - 4} L${p.x - 6} ${p.y - 4} Z`}
      />
    );
  return <circle key={key} className={styles.point} cx={p.x} cy={p.y} r={4} />;
}

export interface VitalTrendChartProps {
  type: VitalSignType;
  /** Every reading of the case (other types and voided ones are left out here). */
  readings: readonly ReadingLike[];
  ageYears: number | null;
}

export function VitalTrendChart({ type, readings, ageYears }: VitalTrendChartProps) {
  const summary = chartSummary(type, readings, ageYears);
  const data = points(type, readings, ageYears);
  const unit = VITAL_SIGNS[type].unit;
  const title = `${vitalLabel(type)}${unit ? ` (${unit})` : ''}`;
  if (data.length === 0) {
    return (
      <figure className={styles.chart}>
        <figcaption className={styles.chartTitle}>{title}</figcaption>
        <p className={styles.empty}>{summary}</p>
      </figure>
    );
  }
  const range = normalRange(type, ageYears);
  const values = data.flatMap((p) =>
    p.diastolic !== undefined ? [p.value, p.diastolic] : [p.value],
  );
  const bounds = [range?.low, range?.high, range?.diastolic?.low, range?.diastolic?.high].filter(
    (b): b is number => b !== undefined,
  );
  const { min, max } = chartScale(type, [...values, ...bounds]);
  const first = data[0]?.t ?? 0;
  const last = data[data.length - 1]?.t ?? 0;
  const x = (t: number) =>
    last === first
      ? (PAD.left + W - PAD.right) / 2
      : PAD.left + ((t - first) / (last - first)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + ((max - v) / (max - min)) * (H - PAD.top - PAD.bottom);
  const band = (
    low: number | undefined,
    high: number | undefined,
    className: string | undefined,
  ) => {
    if (low === undefined && high === undefined) return null;
    const top = y(Math.min(high ?? max, max));
    const bottom = y(Math.max(low ?? min, min));
    return (
      <rect
        className={className}
        x={PAD.left}
        y={top}
        width={W - PAD.left - PAD.right}
        height={Math.max(0, bottom - top)}
      />
    );
  };
  const line = (pick: (p: Point) => number | undefined) =>
    data
      .map((p) => [p.t, pick(p)] as const)
      .filter((pair): pair is readonly [number, number] => pair[1] !== undefined)
      .map(([t, v]) => `${round(x(t))},${round(y(v))}`)
      .join(' ');
  const diastolicLine = type === 'bloodPressure' ? line((p) => p.diastolic) : '';
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartTitle}>{title}</figcaption>
      <svg
        className={styles.chartSvg}
        viewBox={`0 0 ${String(W)} ${String(H)}`}
        role="img"
        aria-label={summary}
        preserveAspectRatio="xMidYMid meet"
      >
        {band(range?.low, range?.high, styles.band)}
        {type === 'bloodPressure' && range?.diastolic
          ? band(range.diastolic.low, range.diastolic.high, cx(styles.band, styles.bandSecond))
          : null}
        <line
          className={styles.axis}
          x1={PAD.left}
          y1={H - PAD.bottom}
          x2={W - PAD.right}
          y2={H - PAD.bottom}
        />
        <text className={styles.chartLabel} x={PAD.left - 4} y={PAD.top + 4} textAnchor="end">
          {round(max)}
        </text>
        <text className={styles.chartLabel} x={PAD.left - 4} y={H - PAD.bottom} textAnchor="end">
          {round(min)}
        </text>
        <text className={styles.chartLabel} x={PAD.left} y={H - 6} textAnchor="start">
          {formatTime(data[0]?.time, '')}
        </text>
        {data.length > 1 ? (
          <text className={styles.chartLabel} x={W - PAD.right} y={H - 6} textAnchor="end">
            {formatTime(data[data.length - 1]?.time, '')}
          </text>
        ) : null}
        {data.length > 1 ? (
          <polyline className={styles.line} points={line((p) => p.value)} />
        ) : null}
        {diastolicLine && data.length > 1 ? (
          <polyline className={cx(styles.line, styles.lineSecond)} points={diastolicLine} />
        ) : null}
        {data.map((p, i) => marker({ x: x(p.t), y: y(p.value) }, p.status, `v${String(i)}`))}
        {data.map((p, i) =>
          p.diastolic !== undefined ? (
            <circle
              key={`d${String(i)}`}
              className={cx(styles.point, styles.pointSecond)}
              cx={x(p.t)}
              cy={y(p.diastolic)}
              r={3}
            />
          ) : null,
        )}
      </svg>
      <p className={styles.chartSummary} aria-hidden="true">
        {summary.replace(`${vitalLabel(type)} `, '')}
      </p>
    </figure>
  );
}

/** A chart for every vital sign with at least one reading (none: an empty state). */
export function VitalTrendCharts({
  readings,
  ageYears,
}: {
  readings: readonly ReadingLike[];
  ageYears: number | null;
}) {
  const live = liveReadings(readings);
  const types = typesWithReadings(live);
  if (types.length === 0) return <p className={styles.empty}>No readings to chart yet.</p>;
  return (
    <div className={styles.charts}>
      {types.map((type) => (
        <VitalTrendChart key={type} type={type} readings={readings} ageYears={ageYears} />
      ))}
    </div>
  );
}
