// A whole log screen's list for one kind, from its definition and its row layout alone: a
// search box and the choice filters it declares (kept in the URL), its records on this
// device newest first (useLocalList), and, when the kind has a list endpoint, the server's
// pages online (lib/server-list.ts: the endpoint receives `q` and each filter as query
// parameters, with `limit` and `cursor`). Everything else is the scaffold's (record-list.tsx).
import type { LocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import type { Row } from '@rescuelog/sync-protocol/platform/mutator';
import { useCallback, useMemo, type ReactNode } from 'react';
import { z } from 'zod';
import { useListParams } from '@/lib/list-params';
import { useServerList } from '@/lib/server-list';
import { compareBy, type FieldOf } from '@/lib/sync/local-list';
import type { KindDefinition } from '@/lib/sync/use-local-records';
import {
  ListSearchForm,
  type ChoiceFilter,
  type DateFilter,
  type ListSearchValues,
  type TextFilter,
} from './list-search-form';
import { zonedDayStartMs } from '@rescuelog/sync-protocol/time';
import { RecordList, type RowState } from './record-list';
import { useDeviceList, type DeviceListOptions } from './use-device-list';

export interface KindListProps<R extends Row> {
  kind: KindDefinition<R>;
  noun: { one: string; many: string };
  /** The fields the search box looks in (any of them holding the words, case and accents aside). */
  searchFields: readonly FieldOf<LocalRecord<R>>[];
  /** Choice filters: the field must hold the chosen value. */
  filters?: readonly ChoiceFilter<FieldOf<LocalRecord<R>>>[];
  /** Words that must be in one of some fields (a parameter of their own, e.g. `responder`). */
  textFilters?: readonly TextFilter<FieldOf<LocalRecord<R>>>[];
  /** A date range (`from`, `to`: days in the service's time zone, both in) over a time field. */
  dateFilter?: DateFilter<FieldOf<LocalRecord<R>>>;
  /** The list's order, newest first unless `direction` says otherwise. */
  sortBy: FieldOf<LocalRecord<R>>;
  direction?: 'asc' | 'desc';
  /**
   * An order of more than one field, or of what the screen derives from a record (low stock
   * first); ties keep `sortBy`'s order. Memoise it: the list re-sorts when it changes.
   */
  compare?: (a: LocalRecord<R>, b: LocalRecord<R>) => number;
  /** An index range instead of the whole store (e.g. one parent's rows). */
  range?: DeviceListOptions<R>['range'];
  /** The kind's list endpoint, if it has one. */
  server?: { path: string; schema: z.ZodType<LocalRecord<R>[]> };
  hrefOf: (record: LocalRecord<R>, state: RowState) => string;
  renderRow: (record: LocalRecord<R>, state: RowState) => ReactNode;
  /** Controls of a row beside its link (one-tap actions); see RecordListProps.renderActions. */
  renderActions?: (record: LocalRecord<R>, state: RowState) => ReactNode;
  emptyHint?: string;
}

/** Lower case without accents: "Naudé" is found by "naude". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const NO_FILTERS: readonly ChoiceFilter[] = [];
const NO_TEXT_FILTERS: readonly TextFilter[] = [];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The calendar day after `day` (YYYY-MM-DD). */
function dayAfter(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + 1)).toISOString().slice(0, 10);
}

export function KindList<R extends Row>(props: KindListProps<R>) {
  const { noun, searchFields, sortBy, direction = 'desc' } = props;
  const filters: readonly ChoiceFilter[] = props.filters ?? NO_FILTERS;
  const textFilters: readonly TextFilter[] = props.textFilters ?? NO_TEXT_FILTERS;
  const dateFilter: DateFilter | undefined = props.dateFilter;
  // Values the URL holds: the words, and each filter's value if it is one of its choices.
  const read = useCallback(
    (params: URLSearchParams): ListSearchValues => {
      const values: ListSearchValues = { q: params.get('q')?.trim() ?? '' };
      for (const f of filters) {
        const value = params.get(f.field) ?? '';
        values[f.field] = f.options.some((o) => o.value === value) ? value : '';
      }
      for (const f of textFilters) values[f.param] = params.get(f.param)?.trim() ?? '';
      if (dateFilter)
        for (const end of ['from', 'to']) {
          const day = params.get(end) ?? '';
          values[end] = DAY.test(day) ? day : '';
        }
      return values;
    },
    [filters, textFilters, dateFilter],
  );
  const { parsed: values, key, apply } = useListParams(read);
  const params = useMemo(() => {
    const p = new URLSearchParams();
    for (const [field, value] of Object.entries(values)) if (value !== '') p.set(field, value);
    return p;
  }, [values]);

  const filter = useMemo(() => {
    const words = fold(values.q).split(/\s+/).filter(Boolean);
    const chosen = filters.filter((f) => values[f.field] !== '');
    const texts = textFilters
      .filter((f) => (values[f.param] ?? '') !== '')
      .map((f) => ({
        fields: f.fields,
        words: fold(values[f.param] ?? '')
          .split(/\s+/)
          .filter(Boolean),
      }));
    const bounds = {
      fromMs: dateFilter && values.from ? zonedDayStartMs(values.from) : null,
      toMs: dateFilter && values.to ? zonedDayStartMs(dayAfter(values.to)) : null,
    };
    return (record: LocalRecord<R>) => {
      const fields = record as Row;
      if (chosen.some((f) => String(fields[f.field] ?? '') !== values[f.field])) return false;
      for (const t of texts) {
        const text = fold(t.fields.map((f) => String(fields[f] ?? '')).join(' '));
        if (!t.words.every((w) => text.includes(w))) return false;
      }
      if (dateFilter && (bounds.fromMs !== null || bounds.toMs !== null)) {
        const at = Date.parse(String(fields[dateFilter.field] ?? ''));
        if (Number.isNaN(at)) return false;
        if (bounds.fromMs !== null && at < bounds.fromMs) return false;
        if (bounds.toMs !== null && at >= bounds.toMs) return false;
      }
      if (words.length === 0) return true;
      const haystack = fold(searchFields.map((f) => String(fields[f] ?? '')).join(' '));
      return words.every((w) => haystack.includes(w));
    };
  }, [values, filters, textFilters, dateFilter, searchFields]);

  const device = useDeviceList(props.kind, {
    sortBy,
    direction,
    range: props.range,
    filter,
    ...(props.compare ? { compare: props.compare } : {}),
  });
  const server = useServerList({
    path: props.server?.path ?? '',
    params,
    schema: props.server?.schema ?? NOTHING,
    enabled: props.server !== undefined,
  });
  const byField = useMemo(() => compareBy<LocalRecord<R>>(sortBy, direction), [sortBy, direction]);
  const custom = props.compare;
  const compare = useMemo(
    () =>
      custom ? (a: LocalRecord<R>, b: LocalRecord<R>) => custom(a, b) || byField(a, b) : byField,
    [custom, byField],
  );

  return (
    <>
      <ListSearchForm
        key={key}
        label={`Filter ${noun.many}`}
        searchLabel={`Search ${noun.many}`}
        filters={filters}
        textFilters={textFilters}
        dateFilter={dateFilter}
        values={values}
        onSearch={(next) => {
          const p = new URLSearchParams();
          for (const [field, value] of Object.entries(next)) if (value !== '') p.set(field, value);
          apply(p);
        }}
      />
      <RecordList
        noun={noun}
        device={device}
        server={props.server ? server : undefined}
        keyOf={idOf}
        idOf={idOf}
        compare={compare}
        hrefOf={props.hrefOf}
        renderRow={props.renderRow}
        {...(props.renderActions ? { renderActions: props.renderActions } : {})}
        filtered={params.toString() !== ''}
        filtersKey={key}
        {...(props.emptyHint ? { emptyHint: props.emptyHint } : {})}
      />
    </>
  );
}

const idOf = (record: { id: string }) => record.id;
/** The schema of a list that has no endpoint (never asked, so never used). */
const NOTHING = z.array(z.never());
