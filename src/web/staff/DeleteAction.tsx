import { useState, type ReactNode } from 'react';
import { Button, IconButton } from '@mui/material';
import { DeleteOutline as DeleteIcon } from '@mui/icons-material';
import { useDeleteButton, type BaseKey } from '@refinedev/core';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';

type DeleteOptions = Parameters<typeof useDeleteButton>[0];

/**
 * A record's DELETE (a deletion, or an archive), asked first in the app's one confirmation
 * (`ConfirmDialog`). Refine's `useDeleteButton` brings the rest: hidden for whoever access control
 * refuses, the mutation, its notifications. With `icon`, a small icon button named by `label`.
 */
export function DeleteAction({
  resource,
  id,
  label,
  icon,
  title,
  text,
  successNotification,
  errorNotification,
  onSuccess,
  variant = 'text',
}: {
  resource: string;
  id: BaseKey;
  /** The button's words, and the confirmation's. */
  label: string;
  icon?: ReactNode;
  title: string;
  text?: string;
  variant?: 'text' | 'outlined';
} & Pick<DeleteOptions, 'successNotification' | 'errorNotification' | 'onSuccess'>) {
  const [asking, setAsking] = useState(false);
  const { hidden, disabled, loading, onConfirm } = useDeleteButton({ resource, id, successNotification, errorNotification, onSuccess });
  if (hidden) return null;
  const open = () => setAsking(true);
  return (
    <>
      {icon ? (
        <IconButton size="small" color="error" aria-label={label} title={label} disabled={disabled || loading} onClick={open}>
          {icon}
        </IconButton>
      ) : (
        <Button color="error" variant={variant} startIcon={<DeleteIcon />} disabled={disabled || loading} onClick={open}>
          {label}
        </Button>
      )}
      <ConfirmDialog
        open={asking}
        title={title}
        text={text}
        confirm={label}
        onConfirm={() => {
          setAsking(false);
          onConfirm();
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
