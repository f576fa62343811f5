import type { AnswerSchema, RowSchema } from '@sextant/api';
import type { ReactNode } from 'react';

export type FieldSpec = {
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'number' | 'select' | 'tags' | 'switch' | 'date' | 'password';
  required?: boolean;
  maxLength?: number;
  options?: { value: string; label: string }[];
  /** Shown under the field. */
  help?: string;
  /** Only when creating (e.g. an initial password, a username that never changes). */
  createOnly?: boolean;
  /** Only when editing (e.g. an enabled switch that new items do not need). */
  editOnly?: boolean;
};

export type ColumnSpec<T> = {
  key: string;
  title: string;
  sortable?: boolean;
  render?: (row: T) => ReactNode;
  width?: number;
};

export type EntitySpec<T extends { id: string }> = {
  /** Singular noun for buttons and confirmations ("team"). */
  noun: string;
  /** What will appear in an empty list and how to get it (onboarding, issue 7). */
  emptyHint?: string;
  /** The list/create path; item paths are `${path}/${id}`. */
  path: string;
  /** The schema every row of the list, and every saved row, is checked with (packages/api). */
  schema: RowSchema<T>;
  /** The schema of a save's answer when it is more than a row (an app's one-time ingestion token). */
  savedSchema?: AnswerSchema;
  columns: ColumnSpec<T>[];
  fields: FieldSpec[];
  /** Which actions the screen offers; the server still decides. */
  can: { create: boolean; update: boolean; remove: boolean };
  toFormValues?: (row: T) => Record<string, unknown>;
  /** Shapes form values into the API's body (e.g. strings back to numbers). */
  fromFormValues?: (values: Record<string, unknown>) => Record<string, unknown>;
  rowActions?: (row: T) => ReactNode;
  /** Called with the server's answer after a save (e.g. to show a secret returned only once). */
  onSaved?: (answer: unknown, created: boolean) => void;
  filters?: ReactNode;
  /** Filters the screen sets around the table (e.g. the chosen app), sent with every list call. */
  extraQuery?: Record<string, string | boolean | undefined>;
};

export type PageQuery = { page: number; perPage: number; q?: string; sortBy?: string; sortDesc?: boolean };
export type Page<T> = { items: T[]; total: number };
