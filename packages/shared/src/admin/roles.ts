import { z } from 'zod';

/** Admin user tools (docs/contract.md §7; server module `admin`). */

// --- Admin users --------------------------------------------------------------------------------

export const roleChangeSchema = z.object({ role: z.enum(['ADMIN', 'USER'], 'INVALID_INPUT') });
export type RoleChange = z.infer<typeof roleChangeSchema>;
