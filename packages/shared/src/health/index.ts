import { z } from 'zod';

/** Body of GET /version.json (docs/contract.md §7): the deployed build, which open tabs compare with their own. */
export const versionFileSchema = z.object({ version: z.string() });
