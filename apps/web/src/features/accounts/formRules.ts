/**
 * Client-side form rules of docs/contract.md §5 on top of the shared zod schemas (nothing declared twice):
 * empty required fields say `validation.required` (or `validation.password`), and the schema's
 * server keys turn into the spec's client texts (EMAIL_IS_NOT_VALID → validation.email,
 * PASSWORD_TOO_SHORT_MIN_5 → validation.min, PASSWORDS_DONT_MATCH → validation.confirmed).
 * Messages are i18n keys; the form translates them.
 */
import { MIN_PASSWORD_LENGTH } from '@openpug/shared';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

export interface FieldMessage {
  key: string;
  params?: Record<string, unknown>;
}

const KEY_TO_RULE: Record<string, FieldMessage> = {
  EMAIL_IS_NOT_VALID: { key: 'validation.email' },
  PASSWORD_TOO_SHORT_MIN_5: { key: 'validation.min', params: { length: MIN_PASSWORD_LENGTH } },
  PASSWORDS_DONT_MATCH: { key: 'validation.confirmed' },
  IS_EMPTY: { key: 'validation.required' },
};

/** The client text for a schema key; unknown keys stay as they are (they are catalogue keys). */
export function ruleMessage(key: string): FieldMessage {
  return KEY_TO_RULE[key] ?? { key };
}

/**
 * The client text for a schema issue: a too-long text says its limit ("At most 64 characters")
 * rather than the server's generic INVALID_INPUT; everything else goes through ruleMessage.
 */
export function issueMessage(issue: z.core.$ZodIssue): FieldMessage {
  if (issue.code === 'too_big' && issue.origin === 'string')
    return { key: 'accounts.fields.tooLong', params: { max: Number(issue.maximum) } };
  return ruleMessage(issue.message);
}

/**
 * The first message of each field the schema refuses (keyed by the top-level field). A field in
 * `own` gets its own text ("Enter a name") for any refusal but a too-long text, which states
 * its limit; the others go through issueMessage.
 */
export function schemaFieldMessages(
  schema: z.ZodType,
  value: unknown,
  own: Record<string, FieldMessage> = {},
): Record<string, FieldMessage> {
  const parsed = schema.safeParse(value);
  const messages: Record<string, FieldMessage> = {};
  if (parsed.success) return messages;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!field || messages[field]) continue;
    const tooLong = issue.code === 'too_big' && issue.origin === 'string';
    messages[field] = (!tooLong && own[field]) || issueMessage(issue);
  }
  return messages;
}

/** Encodes a message for react-hook-form's string `message`. */
const encode = (m: FieldMessage) => JSON.stringify(m);
export function decodeMessage(message: string | undefined): FieldMessage | null {
  if (!message) return null;
  try {
    return JSON.parse(message) as FieldMessage;
  } catch {
    return { key: message };
  }
}

export interface FormRuleOptions<T> {
  /** Fields that must not be empty, with the message to show (default validation.required). */
  required: Partial<Record<keyof T & string, 'required' | 'password'>>;
  /** Extra fields the schema does not know, e.g. confirmPassword of the change-password form. */
  confirm?: { field: keyof T & string; equals: keyof T & string };
}

/** A react-hook-form resolver: required first, then the shared schema, then confirmations. */
export function formResolver<T extends FieldValues>(
  schema: z.ZodType,
  options: FormRuleOptions<T>,
  toPayload: (values: T) => unknown = (v) => v,
): Resolver<T> {
  return async (values) => {
    const errors: Record<string, { type: string; message: string }> = {};
    for (const [field, rule] of Object.entries(options.required)) {
      const value = values[field];
      if (typeof value !== 'string' || value.trim() === '')
        errors[field] = { type: 'required', message: encode({ key: `validation.${rule}` }) };
    }
    for (const [field, message] of Object.entries(schemaFieldMessages(schema, toPayload(values))))
      if (!errors[field]) errors[field] = { type: 'schema', message: encode(message) };
    if (options.confirm) {
      const { field, equals } = options.confirm;
      if (!errors[field] && values[field] !== values[equals])
        errors[field] = { type: 'confirmed', message: encode({ key: 'validation.confirmed' }) };
    }
    if (Object.keys(errors).length > 0) return { values: {}, errors: errors as FieldErrors<T> };
    return { values, errors: {} };
  };
}

/**
 * The field a server refusal belongs to, so it shows at that field instead of in a dialog
 * (e-mail keys at the e-mail, password keys at the password, …); null for a refusal of the
 * whole form (rate limit, blocked account, no connection).
 */
export function fieldOfServerKey<F extends string>(key: string, fields: readonly F[]): F | null {
  const has = (f: string) => (fields as readonly string[]).includes(f);
  const pick = (f: string) => (has(f) ? (f as F) : null);
  if (key === 'PASSWORDS_DONT_MATCH') return pick('confirmPassword');
  if (key === 'WRONG_CREDENTIALS' || key.startsWith('PASSWORD')) return pick('password');
  if (key.startsWith('EMAIL')) return pick('email');
  return null;
}

/** The encoded message of a server key, for react-hook-form's `setError`. */
export const serverFieldMessage = (key: string) => encode(ruleMessage(key));
