import { registerBodySchema } from '@openpug/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, i18n, initI18n } from '../../i18n';
import { decodeMessage, formResolver } from './formRules';

type Signup = { name: string; email: string; password: string; confirmPassword: string };
const resolver = formResolver<Signup>(registerBodySchema, { required: { name: 'required' } });
const run = (values: Signup) => resolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('form rules', () => {
  beforeAll(() => initI18n('en'));

  it('a name over 64 characters states the limit', async () => {
    const result = await run({
      name: 'x'.repeat(65),
      email: 'a@example.test',
      password: 'secret-pass-1',
      confirmPassword: 'secret-pass-1',
    });
    const message = decodeMessage(result.errors.name?.message as string);
    expect(message).toEqual({ key: 'accounts.fields.tooLong', params: { max: 64 } });
    expect(i18n.t(message?.key ?? '', message?.params)).toBe('At most 64 characters');
    await changeLanguage('de');
    expect(i18n.t(message?.key ?? '', message?.params)).toBe('Höchstens 64 Zeichen');
    await changeLanguage('en');
  });
});
