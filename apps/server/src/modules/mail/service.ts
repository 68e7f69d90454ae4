// The mail module's entry for other modules: queueing an account mail and the mail type. The
// plugin (`mailModule`: the `mail.send` job) is in routes.ts, which app.ts imports.
export type { Email, Mailer } from './mailer';
export { queueMail } from './queue';
