import * as Dialog from '@radix-ui/react-dialog';
import { parseErrorBody, errorMessage } from '@/lib/api-client';
import { roleCreateSchema, type Role } from '@rescuelog/sync-protocol/accounts/roles';
import { X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/ui/field';
import { toast } from '@/lib/toast-store';
import { useSaveRole } from '../api/admin-roles';
import { fromGrid, toGrid, type PermissionGrid } from '@/components/permissions/permission-grid';
import { PermissionMatrix } from './permission-matrix';

type FieldErrors = Partial<Record<'name' | 'displayName' | 'description' | 'form', string>>;

/** Create a role (role: undefined) or edit one. A system role's name cannot change. */
export function RoleFormDialog({
  role,
  open,
  onOpenChange,
}: {
  role?: Role | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [name, setName] = useState(role?.name ?? '');
  const [displayName, setDisplayName] = useState(role?.displayName ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [grid, setGrid] = useState<PermissionGrid>(() =>
    toGrid(role?.name ?? '', role?.permissions ?? {}),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveRole();

  function submit(e: FormEvent) {
    e.preventDefault();
    const input = { name, displayName, description, permissions: fromGrid(grid) };
    // The same schema as the server: the §5 messages show before anything is sent.
    const parsed = roleCreateSchema.safeParse(input);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof FieldErrors | undefined;
        if (key && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(
      role
        ? {
            kind: 'update',
            id: role.id,
            input: {
              ...(role.isSystem ? {} : { name }),
              displayName,
              description,
              permissions: input.permissions,
            },
          }
        : { kind: 'create', input },
      {
        onSuccess: ({ role: saved }) => {
          toast({ title: role ? 'Role saved' : 'Role created', description: saved.displayName });
          onOpenChange(false);
        },
        onError: (error) => {
          const body = parseErrorBody(error);
          const field = body?.fieldErrors ? Object.keys(body.fieldErrors)[0] : undefined;
          setErrors(
            field === 'name' || field === 'displayName'
              ? { [field]: body?.error }
              : { form: errorMessage(error) },
          );
        },
      },
    );
  }

  const title = role ? `Edit ${role.displayName}` : 'New role';
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide dialog--tall">
          <div className="dialog__header">
            <Dialog.Title className="dialog__title">{title}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <X aria-hidden="true" size={22} />
            </Dialog.Close>
          </div>
          <Dialog.Description className="dialog__description">
            What members of this role may do in each module. A member&apos;s own permissions, set on
            User Management, take precedence module by module.
          </Dialog.Description>
          <form className="form" noValidate onSubmit={submit}>
            <TextField
              label="Role name"
              required
              value={name}
              disabled={role?.isSystem}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
              hint={
                role?.isSystem
                  ? 'A system role cannot be renamed or deleted.'
                  : 'Lower-case letters, digits, hyphens and underscores, e.g. shift-lead'
              }
            />
            <TextField
              label="Display name"
              required
              value={displayName}
              onChange={(e) => setDisplayName(e.currentTarget.value)}
              error={errors.displayName}
            />
            <TextField
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={errors.description}
            />
            <PermissionMatrix grid={grid} onChange={setGrid} disabled={save.isPending} />
            {errors.form ? (
              <p className="field__error" role="alert">
                {errors.form}
              </p>
            ) : null}
            <div className="dialog__actions">
              <Dialog.Close className="button button--secondary">Cancel</Dialog.Close>
              <button type="submit" className="button button--primary" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : role ? 'Save role' : 'Create role'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
