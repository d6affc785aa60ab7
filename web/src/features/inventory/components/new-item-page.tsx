// /medical-inventory/new: a new item with the §5 messages ('Description is required', 'Minimum
// quantity must be 0 or greater', 'Stock on hand must be 0 or greater'), checked by the kind's
// own fields schema (the one write path's validateRecordFields). The stock on hand given here
// is booked as the first movement (received): it is never a field of the item.
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import {
  INVENTORY_MESSAGES,
  inventoryItemRecord,
} from '@rescuelog/sync-protocol/inventory/inventory-item';
import {
  INVENTORY_CATEGORIES,
  INVENTORY_LOCATIONS,
  INVENTORY_LOCATION_LABELS,
  nonNegativeQuantity,
  type InventoryLocation,
} from '@rescuelog/sync-protocol/inventory/values';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '@/components/ui/page-header';
import { useUser } from '@/lib/auth';
import { validateRecordFields } from '@/lib/records/record-writes';
import { useSyncSession } from '@/lib/sync/use-sync';
import { createItem } from '../data/inventory-writes';
import styles from './inventory.module.css';

const stockSchema = nonNegativeQuantity(INVENTORY_MESSAGES.stockOnHand);

type Field = 'description' | 'minimumQty' | 'stockOnHand' | 'unit';

/** A number typed in a text box: NaN when it is not one (the schema says why). */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.replace(',', '.'));
}

export function NewItemPage() {
  const { data: user } = useUser();
  const session = useSyncSession();
  const navigate = useNavigate();
  const [description, setDescription] = useState('');
  const [minimumQty, setMinimumQty] = useState('1');
  const [stockOnHand, setStockOnHand] = useState('0');
  const [unit, setUnit] = useState('pieces');
  const [category, setCategory] = useState('');
  const [location, setLocation] = useState<InventoryLocation>('station');
  const [locationName, setLocationName] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const allowed = user ? hasPermission(user, 'medicalInventory', 'create') : false;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const fields = {
      description,
      minimumQty: numberOf(minimumQty),
      unit,
      category: category === '' ? null : category,
      location,
      locationName: locationName.trim() === '' ? null : locationName.trim(),
    };
    const problems: Partial<Record<Field, string>> = {
      ...validateRecordFields(inventoryItemRecord, fields),
    };
    const stock = stockSchema.safeParse(numberOf(stockOnHand));
    if (!stock.success) problems.stockOnHand = INVENTORY_MESSAGES.stockOnHand;
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      const first = (['description', 'minimumQty', 'stockOnHand', 'unit'] as const).find(
        (f) => problems[f],
      );
      if (first) document.getElementById(`new-${first}`)?.focus();
      return;
    }
    try {
      const id = await createItem(fields, stock.data ?? 0);
      void navigate(`/medical-inventory/${id}`, { replace: true });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };

  const text = (
    field: Field,
    label: string,
    value: string,
    set: (v: string) => void,
    decimal = false,
  ) => (
    <div className="field">
      <label className="field__label" htmlFor={`new-${field}`}>
        {label}
      </label>
      <input
        id={`new-${field}`}
        className="input"
        value={value}
        maxLength={500}
        {...(decimal ? { inputMode: 'decimal' as const } : {})}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `new-${field}-error` : undefined}
        onChange={(e) => set(e.target.value)}
      />
      {errors[field] ? (
        <p id={`new-${field}-error`} className="field__error" role="alert">
          {errors[field]}
        </p>
      ) : null}
    </div>
  );

  return (
    <>
      <PageHeader
        title="New inventory item"
        back={{ to: '/medical-inventory', label: 'Back to Medical Inventory' }}
      />
      <main className={`page ${styles.page}`}>
        {!allowed ? (
          <p className="empty-state">
            You may not add inventory items. Ask your administrator for Medical Inventory create.
          </p>
        ) : !session ? (
          <p className="empty-state">
            This device has no local database open: sign in again to add items.
          </p>
        ) : (
          <form className={styles.section} onSubmit={(e) => void submit(e)} noValidate>
            {text('description', 'Description', description, setDescription)}
            <div className={styles.formRow}>
              {text('minimumQty', 'Minimum quantity', minimumQty, setMinimumQty, true)}
              {text('stockOnHand', 'Stock on hand', stockOnHand, setStockOnHand, true)}
              {text('unit', 'Unit', unit, setUnit)}
            </div>
            <div className={styles.formRow}>
              <div className="field">
                <label className="field__label" htmlFor="new-category">
                  Category
                </label>
                <select
                  id="new-category"
                  className="input"
                  value={category}
                  onChange={(e) => setCategory(e.target.value)}
                >
                  <option value="">None</option>
                  {INVENTORY_CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="field__label" htmlFor="new-location">
                  Kept at
                </label>
                <select
                  id="new-location"
                  className="input"
                  value={location}
                  onChange={(e) => setLocation(e.target.value as InventoryLocation)}
                >
                  {INVENTORY_LOCATIONS.map((l) => (
                    <option key={l} value={l}>
                      {INVENTORY_LOCATION_LABELS[l]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label className="field__label" htmlFor="new-locationName">
                  Vehicle or bag (optional)
                </label>
                <input
                  id="new-locationName"
                  className="input"
                  maxLength={500}
                  value={locationName}
                  onChange={(e) => setLocationName(e.target.value)}
                />
              </div>
            </div>
            {failure ? (
              <p className={styles.error} role="alert">
                {failure}
              </p>
            ) : null}
            <button type="submit" className="button button--primary">
              Add item
            </button>
          </form>
        )}
      </main>
    </>
  );
}
