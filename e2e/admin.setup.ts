/**
 * The one admin account of the journeys (ADMIN_EMAILS), made before any spec runs: specs on the
 * two workers then only log in to it, and never race each other to sign it up.
 */
import { test as setup } from '@playwright/test';
import { signUpAdmin } from './helpers/competition';

setup('the admin account exists', async ({ request }) => {
  await signUpAdmin(request);
});
