/**
 * Valid-looking request bodies generated from a route's zod schema: the sweeps of
 * bad-input.test.ts mutate one field of such a body at a time, and authorization-matrix.test.ts
 * sends one as each role.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  minLength?: number;
  minimum?: number;
  anyOf?: JsonSchema[];
};

/** A value for a field by name where its type alone does not say what is valid. */
const SAMPLE_BY_NAME: Record<string, unknown> = {
  email: 'someone@example.test',
  password: 'secret-password',
  confirmPassword: 'secret-password',
  image: 'crate',
  sound: 'retro.mp3',
  code: '1234',
  discordId: '123456789012',
  phone: '+491701234567',
  endpoint: 'https://push.example.test/sub/1',
  recipient: randomUUID(),
  id: randomUUID(),
  address: '203.0.113.7:27015',
  rconAddress: '203.0.113.7:27015',
  reportedId: randomUUID(),
  matchId: randomUUID(),
  // Admin match tools: two different players; a score whose winner is the enum's first (teamOne).
  out: randomUUID(),
  in: randomUUID(),
  score: { teamOne: 13, teamTwo: 5 },
  // Chat moderation: a Matrix room and event id, and the player it is about.
  roomId: '!room:openpug.local',
  eventId: '$event:openpug.local',
  userId: randomUUID(),
  // Season details: a window that ends after it starts.
  startsAt: '2026-09-01T00:00:00.000Z',
  endsAt: '2026-12-01T00:00:00.000Z',
  // Queue alert: an IANA zone, and quiet hours whose start and end differ.
  timeZone: 'Europe/Berlin',
  quietHours: { from: 22, to: 7 },
};

/** A valid-looking value for a JSON schema, so mutating one field tests exactly that field. */
export function sample(schema: JsonSchema, name = ''): unknown {
  if (schema.default !== undefined) return schema.default;
  if (name in SAMPLE_BY_NAME) return SAMPLE_BY_NAME[name];
  if (schema.enum?.length) return schema.enum[0];
  if (schema.anyOf?.length) return sample(schema.anyOf[0], name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 'a'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) out[key] = sample(prop, key);
      return out;
    }
    default:
      return 'a';
  }
}

export const jsonSchemaOf = (schema: z.ZodType | undefined): JsonSchema | undefined =>
  schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : undefined;
