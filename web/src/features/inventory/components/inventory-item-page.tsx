// /medical-inventory/:itemId: one item. Its stock (derived) with one-tap − / +, a booking of
// any quantity and reason from a batch (first expiry, first out unless another is chosen), a
// stock take, its batches with lot and expiry, its details (the form kit, read-only for who
// may not change it) and its history of movements.
import { inventoryItemRecord } from '@rescuelog/sync-protocol/inventory/inventory-item';
import { INVENTORY_MESSAGES } from '@rescuelog/sync-protocol/inventory/inventory-item';
import {
  byExpiry,
  expiryState,
  firstExpiryOut,
  stockByBatch,
} from '@rescuelog/sync-protocol/inventory/stock';
import {
  INVENTORY_CATEGORIES,
  INVENTORY_LOCATIONS,
  INVENTORY_LOCATION_LABELS,
  MOVEMENT_REASONS,
  MOVEMENT_REASON_LABELS,
  nonNegativeQuantity,
  type MovementReason,
} from '@rescuelog/sync-protocol/inventory/values';
import { checkCalendarDay, formatDateTime } from '@rescuelog/sync-protocol/time';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { RecordSaveError } from '@/components/record-form/record-form-provider';
import { RecordSyncMark } from '@/components/record-form/record-sync-mark';
import { formKit } from '@/components/record-form/form-kit';
import { RecordConflicts } from '@/components/record-form/record-conflicts';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { requireSyncSession, saveLocalChange } from '@/lib/sync/sync-session';
import { useLocalRecord } from '@/lib/sync/use-local-records';
import { bookMovement, recordStockTake, saveBatch } from '../data/inventory-writes';
import {
  serviceToday,
  useExpiryWindowDays,
  useInventoryStock,
  type InventoryItem,
  type ItemStock,
} from '../data/use-inventory';
import { inventoryRights } from '../inventory-access';
import { OneTap } from './one-tap';
import { StockFlags, formatQuantity } from './stock-flags';
import styles from './inventory.module.css';

const Item = formKit(inventoryItemRecord);
const LOCATION_OPTIONS = INVENTORY_LOCATIONS.map((l) => ({
  value: l,
  label: INVENTORY_LOCATION_LABELS[l],
}));
const CATEGORY_OPTIONS = INVENTORY_CATEGORIES.map((c) => ({ value: c, label: c }));
const countSchema = nonNegativeQuantity(INVENTORY_MESSAGES.stockOnHand);

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function InventoryItemPage() {
  const { itemId } = useParams();
  const item = useLocalRecord('inventoryItem', itemId);
  const stock = useInventoryStock();
  const { data: user } = useUser();
  const rights = inventoryRights(user);
  const title = item?.description ?? 'Inventory item';
  return (
    <>
      <PageHeader
        title={title}
        back={{ to: '/medical-inventory', label: 'Back to Medical Inventory' }}
      />
      <main className={`page ${styles.page}`}>
        {item === undefined || (item && !stock) ? (
          <Spinner label="Loading the item" />
        ) : item === null || !stock ? (
          <p className="empty-state">
            This item is not stored on this device. If it was added on another device, it appears
            here after that device has synced and this one has pulled the changes.
          </p>
        ) : (
          <ItemSections
            item={item}
            stock={stock.of(item)}
            canChange={rights.change(item)}
            canDelete={rights.delete(item)}
          />
        )}
      </main>
    </>
  );
}

function ItemSections({
  item,
  stock,
  canChange,
  canDelete,
}: {
  item: InventoryItem;
  stock: ItemStock;
  canChange: boolean;
  canDelete: boolean;
}) {
  const unit = item.unit ?? 'pieces';
  return (
    <>
      <section className={styles.section} aria-labelledby="stock-title">
        <h2 id="stock-title">Stock on hand</h2>
        <p className={styles.stockLine}>
          <span>
            {formatQuantity(stock.stock)} {unit}
          </span>
          {canChange ? <OneTap item={item} stock={stock} /> : null}
        </p>
        <p className="text-muted">Minimum {formatQuantity(item.minimumQty ?? 1)}</p>
        <StockFlags low={stock.low} expiry={stock.expiry} />
        <RecordSyncMark recordId={item.id} />
      </section>
      {canChange ? <BookingForm item={item} stock={stock} /> : null}
      {canChange ? <StockTake item={item} stock={stock} /> : null}
      <Batches item={item} stock={stock} canChange={canChange} />
      <section className={styles.section} aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <Item.Form id={item.id} readOnly={!canChange}>
          <RecordSaveError />
          <RecordConflicts kind="inventoryItem" recordId={item.id} />
          <Item.TextField field="description" label="Description" maxLength={500} />
          <Item.NumberField field="minimumQty" label="Minimum quantity" min={0} max={1_000_000} />
          <Item.TextField field="unit" label="Unit" maxLength={50} hint="pieces, ampoules, ml…" />
          <Item.Choice field="category" label="Category" options={CATEGORY_OPTIONS} columns={3} />
          <Item.Choice
            field="location"
            label="Kept at"
            options={LOCATION_OPTIONS}
            columns={3}
            clearable={false}
          />
          <Item.TextField field="locationName" label="Vehicle or bag" maxLength={500} />
          <Item.TextField field="notes" label="Notes" multiline />
        </Item.Form>
        {canDelete ? <DeleteItem item={item} /> : null}
      </section>
      <History item={item} stock={stock} />
    </>
  );
}

/** Any quantity, with its reason and batch; out of the batch that expires first by default. */
function BookingForm({ item, stock }: { item: InventoryItem; stock: ItemStock }) {
  const [quantity, setQuantity] = useState('1');
  const [reason, setReason] = useState<MovementReason>('used');
  const [batchId, setBatchId] = useState('');
  const [note, setNote] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const inward = reason === 'received';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const n = Number(quantity);
    if (!Number.isFinite(n) || n <= 0) {
      setMessage({ error: true, text: 'Enter how many, more than 0' });
      return;
    }
    const chosen =
      batchId !== ''
        ? batchId
        : inward
          ? null
          : (firstExpiryOut(stock.batches, stock.movements)?.id ?? null);
    try {
      await bookMovement({
        itemId: item.id,
        quantity: inward ? n : -n,
        reason,
        batchId: chosen,
        note: note.trim() === '' ? null : note.trim(),
      });
      setMessage({ error: false, text: `Booked ${String(n)} ${inward ? 'in' : 'out'}.` });
      setNote('');
    } catch (error) {
      setMessage({ error: true, text: messageOf(error) });
    }
  };
  return (
    <section className={styles.section} aria-labelledby="book-title">
      <h2 id="book-title">Book stock</h2>
      <form className={styles.formRow} onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor="book-quantity">
            How many
          </label>
          <input
            id="book-quantity"
            className="input"
            inputMode="decimal"
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="book-reason">
            Reason
          </label>
          <select
            id="book-reason"
            className="input"
            value={reason}
            onChange={(e) => setReason(e.target.value as MovementReason)}
          >
            {MOVEMENT_REASONS.filter((r) => r !== 'stock_take').map((r) => (
              <option key={r} value={r}>
                {MOVEMENT_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="book-batch">
            Batch
          </label>
          <select
            id="book-batch"
            className="input"
            value={batchId}
            onChange={(e) => setBatchId(e.target.value)}
          >
            <option value="">{inward ? 'No batch' : 'The one that expires first'}</option>
            {[...stock.batches].sort(byExpiry).map((b) => (
              <option key={b.id} value={b.id}>
                {batchLabel(b)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor="book-note">
            Note (optional)
          </label>
          <input
            id="book-note"
            className="input"
            maxLength={500}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        <button type="submit" className="button button--primary">
          {inward ? 'Book in' : 'Book out'}
        </button>
      </form>
      {message ? (
        <p
          className={message.error ? styles.error : undefined}
          role={message.error ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      ) : null}
    </section>
  );
}

function batchLabel(b: {
  lot?: string | null | undefined;
  expiryDate?: string | null | undefined;
}) {
  const lot = b.lot ? `Lot ${b.lot}` : 'No lot number';
  return b.expiryDate ? `${lot}, expires ${b.expiryDate}` : `${lot}, no expiry date`;
}

/** Count what is there: the difference to the derived stock is booked as one movement. */
function StockTake({ item, stock }: { item: InventoryItem; stock: ItemStock }) {
  const [counted, setCounted] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = countSchema.safeParse(counted.trim() === '' ? Number.NaN : Number(counted));
    if (!parsed.success) {
      setMessage({ error: true, text: INVENTORY_MESSAGES.stockOnHand });
      return;
    }
    try {
      const difference = await recordStockTake(item.id, parsed.data, stock.movements);
      setMessage({
        error: false,
        text:
          difference === 0
            ? 'The count matches the stock on hand.'
            : `Recorded a difference of ${difference > 0 ? '+' : ''}${formatQuantity(difference)}.`,
      });
      setCounted('');
    } catch (error) {
      setMessage({ error: true, text: messageOf(error) });
    }
  };
  return (
    <section className={styles.section} aria-labelledby="take-title">
      <h2 id="take-title">Stock take</h2>
      <form className={styles.formRow} onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor="take-count">
            Counted on the shelf
          </label>
          <input
            id="take-count"
            className="input"
            inputMode="decimal"
            value={counted}
            aria-invalid={message?.error ? true : undefined}
            aria-describedby={message?.error ? 'take-error' : undefined}
            onChange={(e) => setCounted(e.target.value)}
          />
        </div>
        <button type="submit" className="button button--secondary">
          Record count
        </button>
      </form>
      {message ? (
        <p
          id={message.error ? 'take-error' : undefined}
          className={message.error ? styles.error : undefined}
          role={message.error ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      ) : null}
    </section>
  );
}

function Batches({
  item,
  stock,
  canChange,
}: {
  item: InventoryItem;
  stock: ItemStock;
  canChange: boolean;
}) {
  const [lot, setLot] = useState('');
  const [expiry, setExpiry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const perBatch = stockByBatch(stock.movements);
  const today = serviceToday();
  const windowDays = useExpiryWindowDays();
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (expiry !== '') {
      const day = checkCalendarDay(expiry);
      if (!day.ok) {
        setError(day.message);
        return;
      }
    }
    try {
      await saveBatch({
        itemId: item.id,
        lot: lot.trim() === '' ? null : lot.trim(),
        expiryDate: expiry === '' ? null : expiry,
      });
      setLot('');
      setExpiry('');
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const sorted = [...stock.batches].sort(byExpiry);
  return (
    <section className={styles.section} aria-labelledby="batches-title">
      <h2 id="batches-title">Batches</h2>
      {sorted.length === 0 ? (
        <p className="text-muted">No batches yet.</p>
      ) : (
        <ul className={styles.history}>
          {sorted.map((b) => {
            const state = expiryState(b.expiryDate, today, windowDays);
            return (
              <li key={b.id}>
                <span>{batchLabel(b)}</span>
                <span>
                  {formatQuantity(perBatch.get(b.id) ?? 0)} {item.unit ?? 'pieces'}
                  {state === 'expired'
                    ? ' · Expired'
                    : state === 'expiring'
                      ? ' · Expires soon'
                      : ''}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {canChange ? (
        <form className={styles.formRow} onSubmit={(e) => void add(e)} noValidate>
          <div className="field">
            <label className="field__label" htmlFor="batch-lot">
              Lot number
            </label>
            <input
              id="batch-lot"
              className="input"
              maxLength={500}
              value={lot}
              onChange={(e) => setLot(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="batch-expiry">
              Expiry date
            </label>
            <input
              id="batch-expiry"
              className="input"
              type="date"
              value={expiry}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'batch-error' : undefined}
              onChange={(e) => setExpiry(e.target.value)}
            />
          </div>
          <button type="submit" className="button button--secondary">
            Add batch
          </button>
        </form>
      ) : null}
      {error ? (
        <p id="batch-error" className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function History({ item, stock }: { item: InventoryItem; stock: ItemStock }) {
  const { data: user } = useUser();
  const lots = new Map(stock.batches.map((b) => [b.id, b.lot ?? null]));
  const rows = [...stock.movements].sort((a, b) => ((a.at ?? '') < (b.at ?? '') ? 1 : -1));
  return (
    <section className={styles.section} aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {rows.length === 0 ? (
        <p className="text-muted">No movements yet.</p>
      ) : (
        <ul className={styles.history}>
          {rows.map((m) => {
            const q = m.quantity ?? 0;
            const lot = m.batchId ? lots.get(m.batchId) : null;
            return (
              <li key={m.id}>
                <span>
                  <span className={q > 0 ? styles.quantityIn : styles.quantityOut}>
                    {q > 0 ? '+' : '−'}
                    {formatQuantity(Math.abs(q))} {item.unit ?? 'pieces'}
                  </span>{' '}
                  {m.reason ? MOVEMENT_REASON_LABELS[m.reason] : ''}
                  {lot ? ` · lot ${lot}` : ''}
                  {m.caseId ? ' · on a case' : ''}
                </span>
                <span className="text-muted">
                  {formatDateTime(m.at)} ·{' '}
                  {m.userId === user?.id ? 'by you' : `by member ${String(m.userId ?? '')}`}
                  {m.note ? ` · ${m.note}` : ''}
                </span>
                {m.belowZero ? (
                  <span className={styles.error}>Took the stock below zero: check the count.</span>
                ) : null}
                <RecordSyncMark recordId={m.id} />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function DeleteItem({ item }: { item: InventoryItem }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const remove = async () => {
    try {
      const session = requireSyncSession();
      await saveLocalChange({
        name: 'inventoryItem.delete',
        args: { id: item.id },
        baseVersion: item.version ?? null,
        actorUserId: session.userId,
      });
      void navigate('/medical-inventory');
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <div className={styles.formRow}>
      {confirming ? (
        <>
          <button type="button" className="button button--danger" onClick={() => void remove()}>
            Delete {item.description}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setConfirming(false)}
          >
            Keep it
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setConfirming(true)}
        >
          Delete item
        </button>
      )}
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
